"""wick.reduction_functions: reductions composed of declared ops, as PyTorch's functions of the same names: moments
with means, NaN-ignoring sums, counts, differences, quantiles, histograms, modes, runs and closeness. The scans are in
wick.scan_functions and the sorted searches in wick.search_functions.

    >>> wick.aminmax(wick.tensor([3, 1, 2]))
    wick.return_types.aminmax(
    min=tensor(1),
    max=tensor(3))

Each is made of declared ops, so autograd sees through the differentiable ones; none loops in Python over elements.
"""
import builtins
import math
import numbers
import operator

from wick import _C
from wick._arguments import (_argument_error, _bool, _float, _int, _is_int, _not_implemented, _number, _scalar_type,
                             _tensor, _wrap_dim, _written, _written_fields)
from wick.autograd import no_grad
from wick.return_types import named_tuple
from wick.functional import broadcast_tensors
from wick.scan_functions import cummax
from wick.search_functions import _bisect

__all__ = ["std_mean", "var_mean", "nansum", "nanmean", "count_nonzero", "aminmax", "diff", "quantile",
           "nanquantile", "bincount", "histc", "isclose", "histogram", "mode", "unique_consecutive"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS = ("nansum", "nanmean", "count_nonzero", "aminmax", "diff", "quantile", "nanquantile", "bincount", "histc",
           "isclose", "histogram", "mode", "unique_consecutive")


_aminmax = named_tuple("aminmax", ("min", "max"))
_histogram = named_tuple("histogram", ("hist", "bin_edges"))
_mode = named_tuple("mode", ("values", "indices"))


# Moments with the mean.
def _with_mean(fn, moment, input, dim, unbiased, keepdim, correction):
    input = _tensor(fn, "input", 1, input)
    if isinstance(dim, builtins.bool) and unbiased is None and correction is None:
        dim, unbiased = None, dim  # the overload fn(input, unbiased)
    if unbiased is not None:
        if correction is not None:
            raise TypeError(f"{fn}() received an invalid combination of arguments: 'unbiased' and 'correction' "
                            "cannot both be given")
        correction = builtins.int(_bool(fn, "unbiased", 3, unbiased))
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{fn} only support floating point and complex dtypes")
    return moment(input, dim, correction=correction, keepdim=keepdim), _C.mean(input, dim, keepdim)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> (Tensor, Tensor)

    The variance of input over dim (all dims when None) and its mean, as a plain tuple. unbiased=False divides by n,
    correction=c by n - c (the default is 1); var_mean(input, unbiased) is the whole-tensor form.
    """
    return _with_mean("var_mean", _C.var, input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> (Tensor, Tensor)

    The standard deviation of input over dim (all dims when None) and its mean, as a plain tuple; the arguments are
    those of var_mean.
    """
    return _with_mean("std_mean", _C.std, input, dim, unbiased, keepdim, correction)


# Sums and counts.
def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """nansum(input, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor

    The sum over dim (all dims when None) with NaNs counted as zero; the dtype rules are sum's (integers sum to
    int64). A floating input summed in an integer dtype is an error, as in PyTorch.
    """
    input = _tensor("nansum", "input", 1, input)
    if input.dtype.is_floating_point:
        if dtype is not None and isinstance(dtype, _C.dtype) and not dtype.is_floating_point:
            raise _not_implemented("nansum_cpu", dtype)
        input = input.masked_fill(input.isnan(), 0)
    return _C.sum(input, dim, keepdim, dtype=dtype, out=out)


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor

    The mean over dim (all dims when None) of the elements that are not NaN; NaN where all are. Floating inputs
    only.
    """
    input = _tensor("nanmean", "input", 1, input)
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"nanmean(): expected input to have floating point dtype but got "
                           f"{_scalar_type(input.dtype)}")
    counted = _C.sum(input.isnan().logical_not(), dim, keepdim)
    return _C.div(nansum(input, dim, keepdim, dtype=dtype), counted, out=out)


def count_nonzero(input, dim=None):
    """count_nonzero(input, dim=None) -> Tensor

    How many elements are not zero (NaN counts), over dim: an int, a tuple of ints or None for all; int64.
    """
    nonzero = _C.ne(_tensor("count_nonzero", "input", 1, input), 0)
    return nonzero.sum() if dim is None else nonzero.sum(dim)


def aminmax(input, *, dim=None, keepdim=False, out=None):
    """aminmax(input, *, dim=None, keepdim=False, out=None) -> (Tensor min, Tensor max)

    The smallest and the largest element over dim (all elements when None), as a named tuple with the fields min
    and max; NaN wins both.
    """
    input = _tensor("aminmax", "input", 1, input)
    keepdim = _bool("aminmax", "keepdim", None, keepdim)
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        dims = tuple(range(input.dim()))
    else:
        wrapped = _wrap_dim(_int("aminmax", "dim", None, dim), input.dim())
        if input.dim() and input.shape[wrapped] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {wrapped} to have non-zero size.")
        dims = (dim,)
    if input.dtype is _C.float16 or (dim is not None and input.dtype is _C.bfloat16):
        raise _not_implemented("aminmax_cpu", input.dtype)
    low, high = _C.amin(input, dims, keepdim), _C.amax(input, dims, keepdim)
    if dim is not None and keepdim and input.dim() == 0:  # PyTorch 1.13 resizes its 0-d outputs to (1,) here
        low, high = low.reshape(1), high.reshape(1)
    return _written_fields("aminmax", _aminmax(low, high), out, input)


# Differences.
def diff(input, n=1, dim=-1, prepend=None, append=None):
    """diff(input, n=1, dim=-1, prepend=None, append=None) -> Tensor

    The n-th forward difference along dim (of prepend, input and append joined there): out[i] = x[i + 1] - x[i],
    applied n times; bool tensors take logical_xor for the difference. n=0 gives a copy of input; a negative n, as
    in PyTorch 1.13, input itself (or its join with prepend and append).
    """
    input = _tensor("diff", "input", 1, input)
    n, dim = _int("diff", "n", 2, n), _int("diff", "dim", 3, dim)
    ends = [(name, _tensor("diff", name, position, t)) for name, t, position in
            (("prepend", prepend, 4), ("append", append, 5)) if t is not None]
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if ends:  # PyTorch looks at dim only where it needs it: for prepend or append, or for n > 0
        dim = _wrap_dim(dim, input.dim())
    for _, t in ends:
        if t.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for i, (ours, theirs) in enumerate(zip(input.shape, t.shape)):
            if ours != theirs and i != dim:
                raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of input "
                                   f"except along the differencing dimension; input.size({i}) = {ours}, but got "
                                   f"tensor.size({i}) = {theirs}")
    if n == 0:
        return input.clone()
    dim = _wrap_dim(dim, input.dim())
    if ends:
        parts = [t for name, t in ends if name == "prepend"] + [input] + [t for name, t in ends if name == "append"]
        input = _C.cat(parts, dim)
    difference = _C.logical_xor if input.dtype is _C.bool else _C.sub
    for _ in range(builtins.min(n, input.shape[dim])):
        length = input.shape[dim] - 1
        input = difference(input.narrow(dim, 1, length), input.narrow(dim, 0, length))
    return input


# Quantiles, after PyTorch's quantile_impl (aten/src/ATen/native/Sorting.cpp): sort, turn q into a fractional rank,
# gather the values on either side and interpolate.
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(fn, input, q, dim, keepdim, interpolation, ignore_nan):
    input, q, dim, keepdim = _quantile_checks(fn, input, q, dim, keepdim, interpolation)
    wrapped = _wrap_dim(0 if dim is None else dim, input.dim())
    if not _C.logical_and(q >= 0, q <= 1).all().item():
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if dim is not None and input.dim():
        out_shape = list(input.shape)
        out_shape[wrapped:wrapped + 1] = [1] if keepdim else []
        rows = input.movedim(wrapped, -1)
    else:
        out_shape = [1] * input.dim() if keepdim else []
        rows = input.reshape(-1)
    if rows.shape[-1] > 2 ** 24:
        raise RuntimeError("quantile() input tensor is too large")
    # Sorted rows, with the reduced dim kept as 1 where keepdim says so.
    ordered = rows.sort().values.reshape(out_shape + [rows.shape[-1]])
    ranks = _quantile_ranks(ordered, q.reshape(-1), ignore_nan)
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": ranks.floor, "higher": ranks.ceil, "nearest": ranks.round}[interpolation]()
    below = ranks.to(_C.int64)
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = _C.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        values = values.lerp(ordered.gather(-1, ranks.ceil().to(_C.int64)), weights)
    return values.movedim(-1, 0).reshape(([q.numel()] if q.dim() else []) + out_shape)


def _quantile_checks(fn, input, q, dim, keepdim, interpolation):
    """The arguments checked in PyTorch's order; q as a tensor of input's dtype."""
    input = _tensor(fn, "input", 1, input)
    if not isinstance(q, _C.TensorBase):
        q = _float(fn, "q", 2, q)
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
    if dim is not None:
        dim = _int(fn, "dim", 3, dim)
    keepdim = _bool(fn, "keepdim", 4, keepdim)
    if not isinstance(interpolation, str):
        raise _argument_error(fn, "interpolation", None, "str", interpolation)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
                           f"got {interpolation}")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, _C.TensorBase) and q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (_C.float32, _C.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    q = q if isinstance(q, _C.TensorBase) else _C.tensor(q, dtype=input.dtype)
    if q.dtype != input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    return input, q, dim, keepdim


def _quantile_ranks(ordered, q, ignore_nan):
    """The fractional rank of each q in each sorted row (the last dim of ordered): over the values that are not NaN
    when ignore_nan (0 when all are), else over all of them, the last when a row holds a NaN."""
    if ignore_nan:
        ranks = q * (ordered.isnan().logical_not().sum(-1, True) - 1)
        return ranks.masked_fill(ranks < 0, 0)
    last = ordered.shape[-1] - 1
    has_nan = ordered.isnan().any(-1, True)
    ranks, has_nan = broadcast_tensors(q * last, has_nan)
    return ranks.masked_fill(has_nan, last)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """quantile(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None) -> Tensor

    The q-th quantiles of input over dim (of all elements flattened when None): q a float or a 0-d or 1-d tensor of
    input's dtype, in [0, 1]; a 1-d q puts its quantiles along a new first dim. Between two data points the result
    is interpolated as interpolation says: 'linear', 'lower', 'higher', 'midpoint' or 'nearest'. A NaN in a row makes
    that row's quantiles NaN. Float and double inputs only.
    """
    return _written("quantile", _quantile("quantile", input, q, dim, keepdim, interpolation, ignore_nan=False), out,
                    input)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None) -> Tensor

    quantile() of the elements that are not NaN; NaN for a row of NaNs only.
    """
    return _written("nanquantile", _quantile("nanquantile", input, q, dim, keepdim, interpolation, ignore_nan=True),
                    out, input)


# Histograms.
def bincount(input, weights=None, minlength=0):
    """bincount(input, weights=None, minlength=0) -> Tensor

    How often each value occurs in input, a 1-d tensor of non-negative integers: out[v] counts the elements equal
    to v, or sums their weights. The length is max(input) + 1, at least minlength. int64 counts; float32 weights
    sum in float32, all others in float64.
    """
    input = _tensor("bincount", "input", 1, input)
    if weights is not None:
        weights = _tensor("bincount", "weights", 2, weights)
    minlength = _int("bincount", "minlength", 3, minlength)
    if input.dtype is _C.bool or input.dtype.is_floating_point:
        raise _not_implemented("bincount_cpu", input.dtype)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if input.dim() == 1 and input.numel() == 0:
        return _C.zeros(minlength, dtype=_C.int64)
    if input.dim() != 1 or input.min().item() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != input.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    length = builtins.max(input.max().item() + 1, minlength)
    if weights is None:
        return _C.zeros(length, dtype=_C.int64).index_add(0, input.to(_C.int64), _C.ones(input.shape, dtype=_C.int64))
    dtype = _C.float32 if weights.dtype is _C.float32 else _C.float64
    return _C.zeros(length, dtype=dtype).index_add(0, input.to(_C.int64), weights.to(dtype))


def histc(input, bins=100, min=0, max=0):
    """histc(input, bins=100, min=0, max=0) -> Tensor

    A histogram of input's elements in bins equal bins between min and max (the data's own smallest and largest
    element when min == max); elements outside are left out, the last bin holds max too. In input's dtype (float,
    double or bfloat16); not differentiable.
    """
    input = _tensor("histc", "input", 1, input)
    bins = _int("histc", "bins", 2, bins)
    low = builtins.float(_number("histc", "min", 3, min))
    high = builtins.float(_number("histc", "max", 4, max))
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if low == high and input.numel():
        low, high = builtins.float(input.min().item()), builtins.float(input.max().item())
    if low == high:
        low, high = low - 1, high + 1
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{low:g}, {high:g}] is not finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")
    if input.dtype not in (_C.float32, _C.float64, _C.bfloat16):
        raise _not_implemented("histogram_cpu", input.dtype)
    with no_grad():
        x = input.detach().reshape(-1)
        left, right, count = (_C.tensor(v, dtype=x.dtype) for v in (low, high, bins))
        # PyTorch's kernel keeps a NaN (comparisons with it are false) and counts it in the first bin.
        kept = _C.logical_or(x < left, x > right).logical_not()
        x = x.masked_fill(_C.logical_or(kept.logical_not(), x.isnan()), low)
        # The bin as the kernel computes it, in x's dtype: (x - left) / (right - left) * bins, truncated.
        position = ((x - left) / (right - left) * count).to(_C.int64).clamp(max=bins - 1)
        return _C.zeros(bins, dtype=x.dtype).index_add(0, position, kept.to(x.dtype))


def _outer_edges(x, range):
    """histogram's first and last bin edge: range, or else the least and the greatest element ((0, 1) when there
    are none), widened by 0.5 each way when they are equal; PyTorch's select_outer_bin_edges."""
    if range is None:
        low, high = (builtins.float(x.min().item()), builtins.float(x.max().item())) if x.numel() else (0.0, 1.0)
    else:
        if not isinstance(range, (list, tuple)) or not all(isinstance(v, numbers.Real) for v in range):
            raise _argument_error("histogram", "range", None, "tuple of floats", range)
        if len(range) != 2:
            raise RuntimeError(f"torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, but "
                               f"got {len(range)}")
        low, high = (builtins.float(v) for v in range)
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension 0's range [{low:g}, {high:g}] is not finite")
    if not low <= high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                           "dimension 0")
    return (low - 0.5, high + 0.5) if low == high else (low, high)


def histogram(input, bins, *, range=None, weight=None, density=False):
    """histogram(input, bins, *, range=None, weight=None, density=False) -> (Tensor hist, Tensor bin_edges)

    The histogram of the elements of input (float32 or float64), as a named tuple: bins is the number of equal
    bins between range's two ends (by default the least and the greatest element), or a 1-d tensor of the bins'
    edges. Each bin holds its left edge, the last also its right one; values outside are not counted (NaN is, as
    by PyTorch 1.13: see _histogram_counts). weight (as many elements as input) counts each element by its
    weight; density=True divides each count by the total and by its bin's width. Not differentiable.
    """
    input = _tensor("histogram", "input", 1, input)
    if isinstance(bins, _C.TensorBase):
        if range is not None:
            raise TypeError("histogram() received an invalid combination of arguments: range= goes with an int "
                            "number of bins, not a tensor of edges")
    elif _is_int(bins):
        bins = operator.index(bins)
    else:
        raise _argument_error("histogram", "bins", 2, "Tensor or int", bins)
    if weight is not None:
        weight = _tensor("histogram", "weight", None, weight)
    density = _bool("histogram", "density", None, density)
    x = input.detach().reshape(-1)
    if isinstance(bins, _C.TensorBase):
        if bins.numel() - 1 <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins.numel() - 1} for dimension 0")
        if bins.dtype != x.dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {_scalar_type(x.dtype).lower()} and bins for dimension 0 with dtype "
                               f"{_scalar_type(bins.dtype).lower()}")
        if bins.dim() != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got {bins.dim()} "
                               "dimensions in the bins tensor for dimension 0")
        edges = bins.detach().clone()
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        edges = _outer_edges(x, range)
    if weight is not None:
        if weight.dtype != x.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                               f"should have the same dtype, but got input({_scalar_type(x.dtype).lower()}), and "
                               f"weight({_scalar_type(weight.dtype).lower()})")
        if weight.numel() != x.numel():
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               f"input tensor excluding its innermost dimension, but got input with shape "
                               f"[{x.numel()}, 1] and weight with shape [{weight.numel()}]")
    if x.dtype not in (_C.float32, _C.float64):
        raise _not_implemented("histogramdd", x.dtype)
    if not isinstance(edges, _C.TensorBase):  # equal bins between the outer edges
        edges = _C.linspace(*edges, bins + 1, dtype=x.dtype, device=x.device)
    with no_grad():
        counts = _histogram_counts(x, edges, weight, nan_bin=None if isinstance(bins, _C.TensorBase) else 1)
        return _histogram_of(counts, edges, density)


def _histogram_counts(x, edges, weight, nan_bin):
    """Each element's bin is where an upper-bound binary search puts it among the edges (PyTorch's kernel
    searches so too, so unsorted edges bin as there), the last edge's own value in the last bin. As in PyTorch
    1.13's CPU kernel, whose range test (x < first or x > last) keeps NaN, a NaN is counted: where the search
    puts it (the last bin) among given edges, or in bin nan_bin (the last, if fewer) among equal bins, where the
    kernel's guess at its bin goes through an undefined float-to-int cast."""
    n = edges.numel()
    kept = _C.logical_or(x < edges[0], x > edges[-1]).logical_not()
    found = _bisect(edges.reshape(1, -1), x.reshape(1, -1), True, None).reshape(-1) - 1
    if nan_bin is not None:
        found = found.masked_fill(x.isnan(), nan_bin)
    found = found.clamp(0, n - 2)
    counted = _C.ones_like(x) if weight is None else weight.detach().reshape(-1)
    return _C.zeros(n - 1, dtype=x.dtype, device=x.device).index_add(0, found[kept], counted[kept])


def _histogram_of(counts, edges, density):
    if density:  # as PyTorch: by the total, then by each bin's width
        counts = counts / counts.sum() / (edges[1:] - edges[:-1])
    return _histogram(counts, edges)


def mode(input, dim=-1, keepdim=False, *, out=None):
    """mode(input, dim=-1, keepdim=False, *, out=None) -> (Tensor values, Tensor indices)

    The value that occurs most often in each line along dim, and where it occurs, as a named tuple: of values
    equally frequent, the smallest, and of its positions, the last (PyTorch's CPU kernel sorts each line and takes
    the end of the first longest run; for lines longer than 16 its unstable sort may name another position of the
    same value). Each NaN is a value of its own, greater than all others.
    """
    return _written_fields("mode", _mode_of(input, dim, keepdim), out, input)


def _mode_of(input, dim, keepdim):
    input = _tensor("mode", "input", 1, input)
    dim = _int("mode", "dim", 2, dim)
    keepdim = _bool("mode", "keepdim", 3, keepdim)
    dim = _wrap_dim(dim, input.dim())
    if input.dim() == 0:
        return _mode(input.clone(), _C.zeros((), dtype=_C.int64, device=input.device))
    if input.shape[dim] == 0:
        raise IndexError(f"mode(): Expected reduction dim {dim} to have non-zero size.")
    with no_grad():
        rows = input.detach().movedim(dim, -1)
        ordered, order = rows.sort(-1, stable=True)
        n = ordered.shape[-1]
        new_run = _C.cat([_C.ones(ordered.shape[:-1] + (1,), dtype=_C.bool, device=input.device),
                          ordered[..., 1:] != ordered[..., :-1]], -1)
        positions = _C.arange(n, device=input.device).expand(ordered.shape)
        starts = cummax(_C.where(new_run, positions, 0), -1).values
        ends = _C.cat([new_run[..., 1:], _C.ones(ordered.shape[:-1] + (1,), dtype=_C.bool, device=input.device)], -1)
        lengths = _C.where(ends, positions - starts + 1, 0)
        best = lengths.argmax(-1, keepdim=True)  # the first longest run: the smallest of the most frequent values
        indices = order.gather(-1, best).movedim(-1, dim)
    values = input.gather(dim, indices)
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return _mode(values, indices)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """unique_consecutive(input, return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple

    input with each run of equal consecutive elements (of the flattened input; with dim, of equal slices along
    dim) kept once. With return_inverse, also the int64 position in the output of each element (in input's
    shape) or slice; with return_counts, also each run's length: (output, inverse, counts) for those asked for,
    as PyTorch returns them. Each NaN is its own run, as NaN != NaN. Not differentiable.
    """
    input = _tensor("unique_consecutive", "input", 1, input)
    return_inverse = _bool("unique_consecutive", "return_inverse", 2, return_inverse)
    return_counts = _bool("unique_consecutive", "return_counts", 3, return_counts)
    if dim is not None:
        dim = _int("unique_consecutive", "dim", 4, dim)
        if input.dim() == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        dim = _wrap_dim(dim, input.dim())
        if any(n == 0 for d, n in enumerate(input.shape) if d != dim):
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    if input.dtype is _C.float16:
        raise _not_implemented("unique", input.dtype)
    x = input.detach()
    rows = x.reshape(-1, 1) if dim is None else x.movedim(dim, 0)
    n = rows.shape[0]
    rows = rows.reshape(n, -1 if rows.numel() else 0)  # one row per element or slice
    new_run = _C.cat([_C.ones(min(n, 1), dtype=_C.bool, device=x.device), (rows[1:] != rows[:-1]).any(1)])
    starts = new_run.nonzero().reshape(-1)
    output = x.reshape(-1)[starts] if dim is None else x.index_select(dim, starts)
    results = [output]
    if return_inverse:
        inverse = new_run.cumsum(0) - 1
        results.append(inverse.reshape(x.shape) if dim is None else inverse)
    if return_counts:
        results.append(_C.cat([starts[1:], _C.full((min(n, 1),), n, device=x.device)]) - starts)
    return results[0] if len(results) == 1 else tuple(results)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor

    Elementwise, whether |input - other| <= atol + rtol * |other| (or input == other, NaNs equal too when
    equal_nan), broadcast, as a bool tensor. Both tensors of one dtype; integers and bools are compared in float32.
    """
    input, other = _tensor("isclose", "input", 1, input), _tensor("isclose", "other", 2, other)
    rtol, atol = _float("isclose", "rtol", 3, rtol), _float("isclose", "atol", 4, atol)
    equal_nan = _bool("isclose", "equal_nan", None, equal_nan)
    if input.dtype != other.dtype:
        raise RuntimeError(f"{_scalar_type(input.dtype)} did not match {_scalar_type(other.dtype)}")
    if not rtol >= 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if not atol >= 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    input, other = input.detach(), other.detach()
    close = input == other
    if equal_nan and input.dtype.is_floating_point:
        close = _C.logical_or(close, _C.logical_and(input.isnan(), other.isnan()))
    if rtol == 0 and atol == 0:
        return close
    # As PyTorch: a bool input and an integer or bool other in float32, so that the difference cannot wrap.
    if input.dtype is _C.bool:
        input = input.to(_C.float32)
    if not other.dtype.is_floating_point:
        other = other.to(_C.float32)
    allowed = atol + (rtol * other).abs()
    actual = (input - other).abs()
    return _C.logical_or(close, _C.logical_and(actual.isfinite(), actual <= allowed))
