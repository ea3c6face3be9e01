"""repr() of tensors, laid out as PyTorch prints them."""
import math

from wick import _C

_DEFAULT_DTYPES = (_C.float32, _C.int64, _C.bool)
_THRESHOLD = 1000  # more elements than this are summarised with "..."
_EDGE_ITEMS = 3
_LINE_WIDTH = 80


class _Formatter:
    """Chooses one format for every element, so columns line up."""

    def __init__(self, values, floating):
        self.floating = floating
        self.sci = False
        self.int_mode = True
        finite = [v for v in values if isinstance(v, float) and math.isfinite(v)]
        if floating and finite:
            self.int_mode = all(v == math.floor(v) for v in finite)
            nonzero = [abs(v) for v in finite if v != 0]
            if nonzero:
                lo, hi = min(nonzero), max(nonzero)
                if self.int_mode:
                    self.sci = hi > 1e8
                else:
                    self.sci = hi / lo > 1000.0 or hi > 1e8 or lo < 1e-4
        # As in PyTorch, nan and inf do not widen the columns of a float tensor.
        counted = [v for v in values if not floating or math.isfinite(v)]
        self.width = max((len(self._plain(v)) for v in counted), default=1)

    def _plain(self, v):
        if isinstance(v, bool) or not self.floating:
            return str(v)
        if math.isnan(v) or math.isinf(v):
            return str(v)
        if self.sci:
            return f"{v:.4e}"
        if self.int_mode:
            return f"{v:.0f}."
        return f"{v:.4f}"

    def format(self, v):
        return self._plain(v).rjust(self.width)


def _summarised_values(t):
    """The elements that will be printed (all, or the edges of each dim)."""
    if t.dim() == 0:
        return [t.item()]
    if t.numel() > _THRESHOLD and t.shape[0] > 2 * _EDGE_ITEMS:
        rows = [t[i] for i in range(_EDGE_ITEMS)] + [t[i] for i in range(t.shape[0] - _EDGE_ITEMS, t.shape[0])]
    else:
        rows = [t[i] for i in range(t.shape[0])]
    if t.dim() == 1:
        return [r.item() for r in rows]
    return [v for r in rows for v in _summarised_values(r)]


def _format(t, fmt, indent, summarise):
    if t.dim() == 0:
        return fmt.format(t.item())
    n = t.shape[0]
    skip = summarise and n > 2 * _EDGE_ITEMS
    indices = list(range(_EDGE_ITEMS)) + [None] + list(range(n - _EDGE_ITEMS, n)) if skip else list(range(n))
    if t.dim() == 1:
        items = [" ..." if i is None else fmt.format(t[i].item()) for i in indices]
        per_line = max(1, (_LINE_WIDTH - indent) // (fmt.width + 2))
        lines = [", ".join(items[k:k + per_line]) for k in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if i is None else _format(t[i], fmt, indent + 1, summarise) for i in indices]
    separator = "," + "\n" * (t.dim() - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def tensor_repr(t):
    # Formatting runs Python code, during which another thread may resize t: read one
    # tensor of fixed geometry over its memory.
    t = t.detach()
    prefix = "tensor("
    suffixes = []
    if t.numel() == 0 and t.dim() != 1:
        suffixes.append(f"size={tuple(t.shape)}")
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    if t.dtype not in _DEFAULT_DTYPES or (t.numel() == 0 and t.dtype is not _C.float32):
        suffixes.append(f"dtype={t.dtype!r}")
    host = t.cpu()
    if t.numel() == 0:
        body = "[]"
    else:
        summarise = t.numel() > _THRESHOLD
        fmt = _Formatter(_summarised_values(host), t.dtype.is_floating_point)
        body = _format(host, fmt, len(prefix), summarise)
    return prefix + ", ".join([body] + suffixes) + ")"
