"""wick.index_functions: indexed writes and reductions that are compositions of declared ops, as PyTorch's functions
of the same names: index_copy, index_fill, masked_scatter, scatter_reduce and index_reduce, and their in-place forms,
and fill_diagonal_.
"""
import numbers

from wick import _C
from wick._arguments import _argument_error, _bool, _int, _scalar_type, _tensor, _wrap_dim
from wick.autograd import Function
from wick.contractions import _warn_once
from wick.functional import broadcast_shapes

__all__ = ["index_copy", "index_fill", "masked_scatter", "scatter_reduce", "index_reduce"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...). The in-place ones
# (index_copy_, ...) are methods only, as in PyTorch.
METHODS: tuple = ("index_copy", "index_copy_", "index_fill", "index_fill_", "masked_scatter", "masked_scatter_",
                  "scatter_reduce", "scatter_reduce_", "index_reduce", "index_reduce_", "fill_diagonal_")

_INDEX_DTYPES = (_C.int32, _C.int64)


# Indexed writes and reductions. Each is one index_put, index_add or masked_fill over the flattened input (or a
# segmented scan, below), so autograd sees through it; the in-place forms copy the result back into the input.

_SCATTER_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
_INDEX_REDUCTIONS = ("prod", "mean", "amax", "amin")


def _nonempty(t):
    """t, or a 0-d t as a 1-d tensor of one element (PyTorch's ensure_nonempty_dim for these kernels)."""
    return t.reshape(1) if t.dim() == 0 else t


def _in_place(function, self, *args, **kwargs):
    """self holding function(self, *args, **kwargs), a result of self's shape; returns self."""
    return self.copy_(function(self, *args, **kwargs))


def _flat_positions(shape, dim, index):
    """For each element of index (of as many dims as shape, dim 0-d ones made 1-d), the position in a contiguous
    tensor of shape that index names along dim (its own coordinates in the other dims): row-major, flattened."""
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    positions = index * strides[dim]
    for d, size in enumerate(index.shape):
        if d != dim:
            place = [1] * index.dim()
            place[d] = size
            positions = positions + _C.arange(size, device=index.device).reshape(place) * strides[d]
    return positions.reshape(-1)


def _check_bounds(index, size, error, message):
    """Raises error(message with the first bad index) where index holds one outside [0, size)."""
    bad = _C.logical_or(index < 0, index >= size).reshape(-1)
    if bool(bad.any()):
        raise error(message.format(index=int(index.reshape(-1)[bad.nonzero()[0, 0]])))


def _segmented_scan(keys, values, combine):
    """The inclusive scan of values by combine within each run of equal sorted keys: log2(n) steps, each of which
    combines every element with the one `shift` before it when both are in one run."""
    shift, n = 1, values.shape[0]
    while shift < n:
        same = keys[shift:] == keys[:-shift]
        values = _C.cat([values[:shift], _C.where(same, combine(values[:-shift], values[shift:]), values[shift:])])
        shift *= 2
    return values


def _reduce_by_sorting(flat, positions, values, combine, include_self):
    """flat with the values reduced by combine into their positions (with flat's own value first when
    include_self), by a stable sort of the positions and a segmented scan; the last of each run is its result."""
    if include_self:
        positions = _C.cat([_C.arange(flat.numel(), device=flat.device), positions])
        values = _C.cat([flat, values])
    order = _C.argsort(positions, stable=True)
    keys = positions[order]
    scanned = _segmented_scan(keys, values[order], combine)
    last = _C.cat([keys[1:] != keys[:-1], _C.ones(1, dtype=_C.bool, device=keys.device)])
    if include_self:  # every position has a run: the runs' results are in position order
        return scanned[last]
    return flat.index_put((keys[last],), scanned[last])


class _ReduceExtreme(Function):
    """scatter_reduce's amax and amin, with PyTorch's gradient: each place's gradient is shared evenly by the
    inputs equal to its result (flat's own value counted even when not included), and flat's own value gets none
    where it was not included."""

    @staticmethod
    def forward(ctx, flat, values, positions, combine, include_self):
        result = _reduce_by_sorting(flat, positions, values, combine, include_self)
        ctx.save_for_backward(flat, values, positions, result)
        ctx.include_self = include_self
        return result

    @staticmethod
    def backward(ctx, grad):
        flat, values, positions, result = ctx.saved_tensors
        self_is_result = (flat == result).to(grad.dtype)
        value_is_result = (values == result[positions]).to(grad.dtype)
        shared = grad / self_is_result.index_add(0, positions, value_is_result)
        grad_self = self_is_result * shared
        if not ctx.include_self:
            grad_self = grad_self.index_put((positions,), _C.zeros((), dtype=grad.dtype, device=grad.device))
        return grad_self, value_is_result * shared[positions], None, None, None


def _reduce_into(flat, positions, values, reduce, include_self, mean_kernel):
    """flat (1-d) with values (1-d) reduced into their positions by reduce, PyTorch's scatter_reduce on flattened
    tensors. The mean of integers rounds down, as there."""
    if reduce in ("sum", "mean"):
        zero = _C.zeros((), dtype=flat.dtype, device=flat.device)
        total = (flat if include_self else flat.index_put((positions,), zero)).index_add(0, positions, values)
        if reduce == "sum":
            return total
        if flat.dtype is _C.bool:
            raise RuntimeError(f"\"{mean_kernel}\" not implemented for 'Bool'")
        counts = _C.full(flat.shape, int(include_self), dtype=flat.dtype, device=flat.device)
        counts = counts.index_add(0, positions, _C.ones_like(values))  # in flat's dtype, wrapping as PyTorch's
        counts = counts.masked_fill(counts == 0, 1)
        return total.div(counts, rounding_mode=None if flat.dtype.is_floating_point else "floor")
    if reduce == "prod":
        return _reduce_by_sorting(flat, positions, values, _C.mul, include_self)
    return _ReduceExtreme.apply(flat, values, positions, _C.maximum if reduce == "amax" else _C.minimum,
                                include_self)


def _reduction(function, reduce, allowed, message):
    if not isinstance(reduce, str):
        raise _argument_error(function, "reduce", 4, "str", reduce)
    if reduce not in allowed:
        raise RuntimeError(message.format(reduce=reduce))
    return reduce


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """scatter_reduce(input, dim, index, src, reduce, *, include_self=True) -> Tensor

    A copy of input with each element of src (the part of it that index covers) reduced into the place that index
    names along dim, as scatter(): reduce is 'sum', 'prod', 'mean', 'amax' or 'amin'. With include_self=False,
    the places written take no part of input's value. The mean of integers rounds down; amax and amin propagate
    NaN and share the gradient evenly among equal extremes.
    """
    input, src = _tensor("scatter_reduce", "input", 1, input), _tensor("scatter_reduce", "src", 4, src)
    dim = _int("scatter_reduce", "dim", 2, dim)
    index = _tensor("scatter_reduce", "index", 3, index)
    reduce = _reduction("scatter_reduce", reduce, _SCATTER_REDUCTIONS,
                        "reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    include_self = _bool("scatter_reduce", "include_self", None, include_self)
    dim = _wrap_dim(dim, input.dim())
    if index.numel() and index.dtype is not _C.int64:
        raise RuntimeError("scatter(): Expected dtype int64 for index")
    if input.dtype != src.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    _warn_once("scatter_reduce() is in beta and the API may change at any time.")
    if index.numel() == 0:
        return input.clone()
    self, index, src = _nonempty(input), _nonempty(index), _nonempty(src)
    if self.dim() != index.dim():
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    wrong = any(n > self.shape[d] for d, n in enumerate(index.shape) if d != dim)
    if wrong or any(n > src.size(d) for d, n in enumerate(index.shape)):
        raise RuntimeError(f"Expected index {list(index.shape)} to be smaller than self {list(input.shape)} apart "
                           f"from dimension {dim} and to be smaller size than src {list(src.shape)}")
    _check_bounds(index, self.shape[dim], RuntimeError,
                  f"index {{index}} is out of bounds for dimension {dim} with size {self.shape[dim]}")
    values = src[tuple(slice(0, n) for n in index.shape)].reshape(-1)
    positions = _flat_positions(tuple(self.shape), dim, index)
    result = _reduce_into(self.reshape(-1), positions, values, reduce, include_self,
                          "scatter_gather_tensor_cpu_reduce_mean")
    return result.reshape(input.shape)


def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    """scatter_reduce_(dim, index, src, reduce, *, include_self=True) -> Tensor: scatter_reduce() in place."""
    return _in_place(scatter_reduce, self, dim, index, src, reduce, include_self=include_self)


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """index_reduce(input, dim, index, source, reduce, *, include_self=True) -> Tensor

    A copy of input with each slice source.select(dim, i) reduced into input's slice index[i] along dim: reduce is
    'prod', 'mean', 'amax' or 'amin'; index is 1-d, int64 or int32. With include_self=False, the slices written
    take no part of input's value. The mean of integers rounds down.
    """
    input, source = _tensor("index_reduce", "input", 1, input), _tensor("index_reduce", "source", 4, source)
    dim = _int("index_reduce", "dim", 2, dim)
    index = _tensor("index_reduce", "index", 3, index)
    reduce = _reduction("index_reduce", reduce, _INDEX_REDUCTIONS,
                        "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    include_self = _bool("index_reduce", "include_self", None, include_self)
    dim = _wrap_dim(dim, input.dim())
    _check_index_vector("index_reduce_", index)
    if index.dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{_scalar_type(index.dtype)}")
    if input.dtype != source.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_scalar_type(input.dtype)}) and source "
                           f"({_scalar_type(source.dtype)}) must have the same scalar type")
    if dim != 0 and dim >= source.dim():
        raise RuntimeError(f"index_reduce_(): Indexing dim {dim} is out of bounds of the source tensor with dim "
                           f"{source.dim()}")
    self, source = _nonempty(input), _nonempty(source)
    if index.numel() != source.shape[dim]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim): ({source.shape[dim]}), for dim: {dim}")
    _check_slices(self, source, dim)
    _warn_once("index_reduce() is in beta and the API may change at any time.")
    _check_bounds(index, self.shape[dim], IndexError, "index out of range in self")
    if input.dtype is _C.bool and not include_self:  # PyTorch's kernels' dtypes
        raise RuntimeError("\"index_reduce_func_exclude_input_init\" not implemented for 'Bool'")
    if input.dtype is _C.bool and input.dim() <= 1:
        raise RuntimeError("\"index_func_\" not implemented for 'Bool'")
    place = [1] * source.dim()
    place[dim] = -1
    index = index.to(_C.int64).reshape(place).expand(source.shape)
    positions = _flat_positions(tuple(self.shape), dim, index)
    result = _reduce_into(self.reshape(-1), positions, source.reshape(-1), reduce, include_self, "div_floor_cpu")
    return result.reshape(input.shape)


def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    """index_reduce_(dim, index, source, reduce, *, include_self=True) -> Tensor: index_reduce() in place."""
    return _in_place(index_reduce, self, dim, index, source, reduce, include_self=include_self)


def _check_index_vector(function, index):
    if index.dim() > 1:
        raise IndexError(f"{function}(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_scalar_type(index.dtype)} and size: {list(index.shape)}")


def _check_slices(self, source, dim):
    """self and source (neither 0-d) agree in every dim but dim, as PyTorch's index kernels iterate them."""
    for d in range(max(self.dim(), source.dim())):
        a = self.shape[d] if d < self.dim() else 1
        b = source.shape[d] if d < source.dim() else 1
        if d != dim and a != b:
            raise RuntimeError(f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
                               f"non-singleton dimension {d}")


def index_copy(input, dim, index, source):
    """index_copy(input, dim, index, source) -> Tensor

    A copy of input with the slices of source along dim written at the positions index (int64, 1-d or 0-d, in
    range: negative positions are refused) along dim; where a position repeats, the last write wins.
    """
    input = _tensor("index_copy", "input", 1, input)
    dim = _int("index_copy", "dim", 2, dim)
    index, source = _tensor("index_copy", "index", 3, index), _tensor("index_copy", "source", 4, source)
    dim = _wrap_dim(dim, input.dim())
    if index.dim() >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    count = index.numel()
    if source.dim() == 0 and count != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {count})")
    if source.dim() != input.dim() and source.dim() != 0 and input.dim() != 0:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their dimensionality must "
                         f"match. Source dimensionality ({source.dim()}), destination dimensionality "
                         f"({input.dim()})")
    if index.dtype is not _C.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_scalar_type(index.dtype)}")
    if input.dtype != source.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_scalar_type(input.dtype)} and (source) {_scalar_type(source.dtype)}")
    self_slice = [n for d, n in enumerate(input.shape) if d != dim]
    source_slice = [n for d, n in enumerate(source.shape) if d != dim]
    if self_slice != source_slice:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
                           f"slice shape: {_sizes(self_slice)} at dimension {dim} and source slice shape: "
                           f"{_sizes(source_slice)} at dimension 0.")
    if source.dim() and count != source.shape[dim]:
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to source.size(dim) "
                         f"({source.shape[dim]})")
    self = _nonempty(input)
    _check_bounds(index, self.shape[dim], IndexError,
                  f"index_copy_(): index {{index}} is out of bounds for dimension {dim} with size {self.shape[dim]}")
    sizes = list(self.shape)
    sizes[dim] = count
    result = self.index_put((None,) * dim + (index.reshape(-1),), source.reshape(sizes))
    return result.reshape(input.shape)


def _sizes(sizes):
    """A list of sizes as c10 prints a std::vector: the numbers, space-separated."""
    return " ".join(str(n) for n in sizes)


def index_copy_(self, dim, index, source):
    """index_copy_(dim, index, source) -> Tensor: index_copy() in place."""
    return _in_place(index_copy, self, dim, index, source)


def index_fill(input, dim, index, value):
    """index_fill(input, dim, index, value) -> Tensor

    A copy of input holding value (a number or a 0-d tensor) at the positions index (int64, 1-d or 0-d; negative
    ones count from the end) along dim.
    """
    input = _tensor("index_fill", "input", 1, input)
    dim = _int("index_fill", "dim", 2, dim)
    index = _tensor("index_fill", "index", 3, index)
    if not isinstance(value, (_C.TensorBase, numbers.Number)):
        raise _argument_error("index_fill", "value", 4, "Number", value)
    if index.dtype is not _C.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    dim = _wrap_dim(dim, input.dim())
    if isinstance(value, _C.TensorBase) and value.dim() != 0:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.dim()} dimension(s).")
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size = input.shape[dim] if input.dim() else 1
    index = index.reshape(-1)
    bad = _C.logical_or(index < -size, index >= size)
    if bool(bad.any()):
        raise IndexError(f"index {int(index[bad.nonzero()[0, 0]])} is out of bounds for dimension {dim} with size "
                         f"{size}")
    marked = _C.zeros(size, dtype=_C.bool, device=input.device)
    marked = marked.index_put((_C.where(index < 0, index + size, index),),
                              _C.ones((), dtype=_C.bool, device=input.device))
    return input.masked_fill(marked.reshape([size] + [1] * (input.dim() - dim - 1) if input.dim() else []), value)


def index_fill_(self, dim, index, value):
    """index_fill_(dim, index, value) -> Tensor: index_fill() in place."""
    return _in_place(index_fill, self, dim, index, value)


def _masked_scatter(input, mask, source):
    """input (of mask's shape) with the elements of source, in order, where mask is true."""
    if input.dtype != source.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_scalar_type(input.dtype)} and {_scalar_type(source.dtype)}")
    if mask.dtype is _C.uint8:
        _warn_once("masked_scatter_ received a mask with dtype torch.uint8, this behavior is now deprecated,"
                   "please use a mask with dtype torch.bool instead.")
    positions = mask.reshape(-1).ne(0).nonzero().reshape(-1)
    count = positions.numel()
    if source.numel() < count:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return input.reshape(-1).index_put((positions,), source.reshape(-1)[:count]).reshape(input.shape)


def masked_scatter(input, mask, source):
    """masked_scatter(input, mask, source) -> Tensor

    A copy of input (broadcast with mask) holding, where mask is true, the elements of source in row-major order;
    source needs at least as many elements as mask has true ones, and input's dtype.
    """
    input = _tensor("masked_scatter", "input", 1, input)
    mask, source = _tensor("masked_scatter", "mask", 2, mask), _tensor("masked_scatter", "source", 3, source)
    shape = broadcast_shapes(input.shape, mask.shape)
    return _masked_scatter(input.expand(shape), mask.expand(shape), source)


def masked_scatter_(self, mask, source):
    """masked_scatter_(mask, source) -> Tensor: masked_scatter() in place; mask broadcasts to self's shape."""
    mask, source = _tensor("masked_scatter_", "mask", 1, mask), _tensor("masked_scatter_", "source", 2, source)
    return self.copy_(_masked_scatter(self, mask.expand(self.shape), source))


def fill_diagonal_(self, fill_value, wrap=False):
    """fill_diagonal_(fill_value, wrap=False) -> Tensor

    self with fill_value written on its main diagonal, the elements whose indices are all equal: a matrix, or a
    tensor whose dims all have one size. With wrap, a matrix more than one row taller than wide starts the diagonal
    again one row below each square block ends, as NumPy's fill_diagonal (and PyTorch's) do."""
    self = _tensor("fill_diagonal_", "self", None, self)
    wrap = _bool("fill_diagonal_", "wrap", 2, wrap)
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and any(size != self.shape[0] for size in self.shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    diagonal = self
    while diagonal.dim() > 1:  # the diagonal of the first and last dims, until one dim is left: x[i, i, ..., i]
        diagonal = diagonal.diagonal(0, 0, -1)
    diagonal.fill_(fill_value)
    height, width = self.shape[0], self.shape[1]
    if wrap and self.dim() == 2 and height > width + 1:
        fill_diagonal_(self[width + 1:], fill_value, wrap=True)
    return self
