"""wick.scan_functions: running extremes and the running log-sum-exp composed of declared ops, as PyTorch's functions
of the same names: cummax, cummin and logcumsumexp.

    >>> wick.cummax(wick.tensor([1, 3, 2]), 0)
    wick.return_types.cummax(
    values=tensor([1, 3, 3]),
    indices=tensor([0, 1, 1]))
"""
from wick import _C
from wick._arguments import _int, _not_implemented, _tensor, _wrap_dim, _written, _written_fields
from wick.autograd import no_grad
from wick.return_types import named_tuple

__all__ = ["cummax", "cummin", "logcumsumexp"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS: tuple = ("cummax", "cummin", "logcumsumexp")

_cummax = named_tuple("cummax", ("values", "indices"))
_cummin = named_tuple("cummin", ("values", "indices"))


# Scans. The running extreme and the running log-sum-exp are Hillis-Steele scans: step k combines each position
# with the one 2**k before it, so log2(n) steps of whole-tensor ops cover rows of n.
def _cumulative_extreme(fn, result, input, dim, earlier_wins):
    """The running extreme of input along dim and where it is: PyTorch's cummax/cummin kernel keeps the later of
    equal values and the later NaN once there is one, so an earlier candidate wins only when earlier_wins."""
    input = _tensor(fn, "input", 1, input)
    dim = _int(fn, "dim", 2, dim)
    if input.dim() == 0 or input.numel() == 0:  # PyTorch returns these before it looks at dim or the dtype
        return result(input.clone(), _C.zeros(input.shape, dtype=_C.int64))
    dim = _wrap_dim(dim, input.dim())
    if input.dtype is _C.float16:
        raise _not_implemented(f"{fn}_cpu", input.dtype)
    with no_grad():
        values = input.detach().movedim(dim, -1)
        n = values.shape[-1]
        indices = _C.arange(n).expand(values.shape)
        shift = 1
        while shift < n:
            earlier, later = values[..., :-shift], values[..., shift:]
            wins = _C.logical_or(earlier_wins(earlier, later),
                                 _C.logical_and(earlier.isnan(), later.isnan().logical_not()))
            values = _C.cat([values[..., :shift], _C.where(wins, earlier, later)], -1)
            indices = _C.cat([indices[..., :shift], _C.where(wins, indices[..., :-shift], indices[..., shift:])], -1)
            shift *= 2
        indices = indices.movedim(-1, dim).contiguous()
    return result(input.gather(dim, indices), indices)


def cummax(input, dim, *, out=None):
    """cummax(input, dim, *, out=None) -> (Tensor values, Tensor indices)

    The running maximum along dim and the index it was found at (the latest of equal ones), as a named tuple; NaN
    is greater than all.
    """
    return _written_fields("cummax", _cumulative_extreme("cummax", _cummax, input, dim, _C.gt), out, input)


def cummin(input, dim, *, out=None):
    """cummin(input, dim, *, out=None) -> (Tensor values, Tensor indices)

    The running minimum along dim and the index it was found at (the latest of equal ones), as a named tuple; NaN
    is smaller than all.
    """
    return _written_fields("cummin", _cumulative_extreme("cummin", _cummin, input, dim, _C.lt), out, input)


def _logaddexp(a, b):
    """log(exp(a) + exp(b)) without overflow, as PyTorch's _log_add_exp_helper: NaN propagates; equal infinities
    give themselves (their difference would be NaN)."""
    larger = b > a
    high, low = _C.where(larger, b, a), _C.where(larger, a, b)
    same_infinity = _C.logical_and(low == high, low.isinf())
    return high + (low - high).masked_fill(same_infinity, 0).exp().log1p()


def logcumsumexp(input, dim, *, out=None):
    """logcumsumexp(input, dim, *, out=None) -> Tensor

    The running log(sum(exp(x))) along dim, computed without overflow. float32 and bfloat16 run in float64, as
    PyTorch's kernel accumulates them in a wider type.
    """
    return _written("logcumsumexp", _logcumsumexp(input, dim), out, input)


def _logcumsumexp(input, dim):
    input = _tensor("logcumsumexp", "input", 1, input)
    dim = _wrap_dim(_int("logcumsumexp", "dim", 2, dim), input.dim())
    if input.dtype not in (_C.float32, _C.float64, _C.bfloat16):
        raise _not_implemented("logcumsumexp_out_cpu", input.dtype)
    if input.dim() == 0:
        return input.clone()
    x = input.to(_C.float64).movedim(dim, -1)
    shift = 1
    while shift < x.shape[-1]:
        x = _C.cat([x[..., :shift], _logaddexp(x[..., :-shift], x[..., shift:])], -1)
        shift *= 2
    return x.movedim(-1, dim).to(input.dtype)
