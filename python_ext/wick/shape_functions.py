"""wick.shape_functions: shape and indexing functions that are compositions of declared ops: tiling, rotating,
splitting, stacking, diagonals, index grids and gathers, as PyTorch's functions of the same names. The indexed
writes and reductions are in wick.index_functions."""
import functools
import operator

from wick import _C
from wick._arguments import (_bool, _dtype, _int, _int_list, _is_index, _is_int, _tensor, _tensor_list,
                             _tensor_sequence, _wrap_dim)
from wick.functional import atleast_3d, broadcast_shapes, meshgrid
from wick.type_info import _stand_in

__all__ = ["tile", "rot90", "fliplr", "flipud", "dstack", "column_stack", "hsplit", "vsplit", "dsplit",
           "tensor_split", "diag_embed", "diagflat", "block_diag", "cartesian_prod", "combinations", "triu_indices",
           "tril_indices", "take_along_dim", "argwhere", "repeat_interleave"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS: tuple = ("tile", "rot90", "fliplr", "flipud", "tensor_split", "hsplit", "vsplit", "dsplit", "diag_embed",
                  "diagflat", "take_along_dim", "argwhere", "repeat_interleave")

# tensor_split makes one view per section in Python: a count beyond this is a mistake, not a request
# (PyTorch would try to allocate the vector of results and fail).
_MAX_SECTIONS = 2 ** 20
_INDEX_DTYPES = (_C.int32, _C.int64)


def _result_type(tensors):
    """The dtype that PyTorch's result_type gives a list of tensors: the dimensioned ones promote among themselves,
    and so do the 0-d ones, which then widen the result only from a higher kind. See Note [Promotion from wick.add]
    in wick/type_info.py."""
    dimensioned = [_stand_in(t) for t in tensors if t.dim() > 0]
    zero_d = [_stand_in(t) for t in tensors if t.dim() == 0]
    return functools.reduce(_C.add, [functools.reduce(_C.add, group) for group in (dimensioned, zero_d) if group]).dtype


# Tiling, rotating and flipping.

def tile(input, dims, *more_dims):
    """tile(input, dims) -> Tensor: input repeated dims[i] times along each dim; with fewer dims than input has,
    the leading ones are repeated once (with more, input gains leading dims). As PyTorch's method, x.tile(2, 3)
    is x.tile((2, 3))."""
    input = _tensor("tile", "input", 1, input)
    dims = _int_list("tile", "dims", 2, (dims, *more_dims) if more_dims or _is_index(dims) else dims)
    return input.repeat([1] * (input.dim() - len(dims)) + dims)


def rot90(input, k=1, dims=(0, 1)):
    """rot90(input, k=1, dims=[0, 1]) -> Tensor: input rotated by 90 degrees k times, from dims[0] towards dims[1]
    (a new tensor, as PyTorch's: flip and transpose, or a copy for a whole turn)."""
    input = _tensor("rot90", "input", 1, input)
    k = _int("rot90", "k", 2, k)
    dims = _int_list("rot90", "dims", 3, dims)
    ndim = input.dim()
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    first, second = dims
    if first == second or abs(first - second) == ndim:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {first} and dim1 = {second}")
    for i, d in enumerate(dims):
        if not -ndim <= d < ndim:
            raise RuntimeError(f"Rotation dim{i} out of range, dim{i} = {d}")
    turns = k % 4
    if turns == 0:
        return input.clone()
    if turns == 2:
        return input.flip(dims)
    return input.flip([second if turns == 1 else first]).transpose(first, second)


def fliplr(input):
    """fliplr(input) -> Tensor: input with its columns (dim 1) in reverse order; it needs at least 2 dims."""
    if _tensor("fliplr", "input", 1, input).dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip([1])


def flipud(input):
    """flipud(input) -> Tensor: input with its rows (dim 0) in reverse order; it needs at least 1 dim."""
    if _tensor("flipud", "input", 1, input).dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return input.flip([0])


# Stacking.

def _non_empty(function, tensors):
    tensors = _tensor_sequence(function, "tensors", 1, tensors)
    if not tensors:
        raise RuntimeError(f"{function} expects a non-empty TensorList")
    return tensors


def dstack(tensors, *, out=None):
    """dstack(tensors, *, out=None) -> Tensor: tensors joined depth-wise, along dim 2, after each is made at least
    3-d as atleast_3d makes it."""
    return _C.cat(atleast_3d(_non_empty("dstack", tensors)), 2, out=out)


def column_stack(tensors, *, out=None):
    """column_stack(tensors, *, out=None) -> Tensor: tensors joined side by side, along dim 1, after each 0-d or
    1-d one becomes a column of shape (numel, 1)."""
    columns = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in _non_empty("column_stack", tensors)]
    return _C.hstack(columns, out=out)


# Splitting: views of the input along one dim.

def _split_argument(function, given, keywords):
    """The split argument given positionally or under one of PyTorch's keywords for it (sections=, indices=, ...)."""
    chosen = [value for value in (given, *keywords.values()) if value is not None]
    if len(chosen) != 1:
        raise TypeError(f"{function}() takes exactly one of indices_or_sections, {', '.join(keywords)}")
    return chosen[0]


def _sections_to_indices(sections, size):
    """Where tensor_split cuts a dim of `size` into `sections`: the first size % sections pieces get one more."""
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    if sections > _MAX_SECTIONS:
        raise RuntimeError(f"tensor_split(): {sections} sections are more than wick makes (at most {_MAX_SECTIONS})")
    least, extra = divmod(size, sections)
    return [i * least + min(i, extra) for i in range(1, sections)]


def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    """tensor_split(input, indices_or_sections, dim=0) -> tuple of Tensors

    Views of input along dim: an int cuts it into that many pieces of near-equal size (the first ones one longer);
    a list of indices cuts it before each index, as input[:i0], input[i0:i1], ..., input[ik:] would (negative
    indices count from the end); a tensor is read as an int (0-d) or as a list (1-d), and must be int64. As in
    PyTorch, the argument may also be named sections=, indices= or tensor_indices_or_sections=.
    """
    input = _tensor("tensor_split", "input", 1, input)
    split = _split_argument("tensor_split", indices_or_sections, {
        "sections": sections, "indices": indices, "tensor_indices_or_sections": tensor_indices_or_sections})
    if not isinstance(split, (_C.TensorBase, list, tuple)) and not _is_int(split):
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got (Tensor, "
                        f"{type(split).__name__}), but expected one of:\n"
                        " * (Tensor input, tuple of ints indices, int dim)\n"
                        " * (Tensor input, Tensor tensor_indices_or_sections, int dim)\n"
                        " * (Tensor input, int sections, int dim)")
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    if isinstance(split, _C.TensorBase):
        split = _read_split_tensor(split)
    dim = _wrap_dim(_int("tensor_split", "dim", 3, dim), input.dim())
    size = input.shape[dim]
    if isinstance(split, (list, tuple)):
        cuts = _int_list("tensor_split", "indices", 2, split)
    else:
        cuts = _sections_to_indices(_int("tensor_split", "sections", 2, split), size)
    pieces = []
    for start, stop in zip([0, *cuts], [*cuts, size]):
        start, stop, _ = slice(start, stop).indices(size)  # as PyTorch's slice(): negatives wrap, then clamped
        pieces.append(input.narrow(dim, start, max(stop - start, 0)))
    return tuple(pieces)


def _read_split_tensor(split):
    """tensor_split's tensor argument as the int (0-d) or the list of ints (1-d) it holds."""
    if split.device.type != "cpu":
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be on cpu, but it's on {split.device}")
    if split.dtype != _C.int64:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                           f"{split.dtype}")
    if split.dim() > 1:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                           f"one-dimensional tensor, but got a tensor with {split.dim()} dims")
    return split.tolist()


def _split_along(function, input, least_dims, dim, indices_or_sections, keywords):
    """hsplit, vsplit and dsplit: tensor_split along dim, where an int must divide the dim's size."""
    split = _split_argument(function, indices_or_sections, keywords)
    if input.dim() < least_dims:
        raise RuntimeError(f"torch.{function} requires a tensor with at least {least_dims} dimension, but got a "
                           f"tensor with {input.dim()} dimensions!")
    if _is_int(split):
        sections, size = operator.index(split), input.shape[dim]
        if sections == 0 or size % abs(sections) != 0:
            raise RuntimeError(f"torch.{function} attempted to split along dimension {dim}, but the size of the "
                               f"dimension {size} is not divisible by the split_size {sections}!")
        return tensor_split(input, sections, dim)
    return tensor_split(input, _int_list(function, "indices", 2, split), dim)


def hsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """hsplit(input, indices_or_sections) -> tuple of Tensors: tensor_split along dim 1 (dim 0 of a 1-d input);
    an int number of sections must divide that dim's size."""
    input = _tensor("hsplit", "input", 1, input)
    return _split_along("hsplit", input, 1, 0 if input.dim() == 1 else 1, indices_or_sections,
                        {"sections": sections, "indices": indices})


def vsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """vsplit(input, indices_or_sections) -> tuple of Tensors: tensor_split along dim 0 of an input of at least
    2 dims; an int number of sections must divide that dim's size."""
    input = _tensor("vsplit", "input", 1, input)
    return _split_along("vsplit", input, 2, 0, indices_or_sections, {"sections": sections, "indices": indices})


def dsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """dsplit(input, indices_or_sections) -> tuple of Tensors: tensor_split along dim 2 of an input of at least
    3 dims; an int number of sections must divide that dim's size."""
    input = _tensor("dsplit", "input", 1, input)
    return _split_along("dsplit", input, 3, 2, indices_or_sections, {"sections": sections, "indices": indices})


# Diagonals and blocks.

def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """diag_embed(input, offset=0, dim1=-2, dim2=-1) -> Tensor

    A tensor of zeros with the last dim of input on its diagonal offset (above the main one when positive) of the
    matrices spanned by its dims dim1 and dim2: the inverse of diagonal(offset, dim1, dim2).
    """
    input = _tensor("diag_embed", "input", 1, input)
    offset = _int("diag_embed", "offset", 2, offset)
    dim1, dim2 = _int("diag_embed", "dim1", 3, dim1), _int("diag_embed", "dim2", 4, dim2)
    first, second = _wrap_dim(dim1, input.dim() + 1), _wrap_dim(dim2, input.dim() + 1)
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    side = abs(offset) + input.size(-1)
    sizes = list(input.shape[:-1])
    sizes.insert(min(first, second), side)
    sizes.insert(max(first, second), side)
    result = _C.zeros(sizes, dtype=input.dtype, device=input.device)
    result.diagonal(offset, first, second).copy_(input)
    return result


def diagflat(input, offset=0):
    """diagflat(input, offset=0) -> Tensor: a square matrix with the elements of input (flattened) on its diagonal
    offset and zeros elsewhere."""
    return _C.diag(_tensor("diagflat", "input", 1, input).reshape(-1), _int("diagflat", "offset", 2, offset))


def block_diag(*tensors):
    """block_diag(*tensors) -> Tensor: the tensors (each at most 2-d; a 0-d one is 1 x 1 and a 1-d one a row) as
    the blocks of a block-diagonal matrix, in their promoted dtype; (1, 0) zeros when there are none."""
    tensors = _tensor_list(0, tensors)
    if not tensors:
        return _C.empty(1, 0)
    for i, t in enumerate(tensors):
        if t.device != tensors[0].device:
            raise RuntimeError(f"torch.block_diag: input tensors must all be on the same device. Input 0 is on "
                               f"device {tensors[0].device} and input {i} is on device {t.device}")
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    blocks = [t.reshape([1] * (2 - t.dim()) + list(t.shape)) for t in tensors]
    result = _C.zeros(sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks),
                      dtype=_result_type(tensors), device=tensors[0].device)
    row = column = 0
    for block in blocks:
        rows, columns = block.shape
        result[row:row + rows, column:column + columns].copy_(block)
        row, column = row + rows, column + columns
    return result


# Index grids and combinations.

def _vectors(tensors):
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    return tensors


def cartesian_prod(*tensors):
    """cartesian_prod(*tensors) -> Tensor: every tuple that takes one element from each 1-d tensor, in row-major
    order, as the rows of a matrix (a single tensor comes back as itself)."""
    tensors = _vectors(_tensor_list(0, tensors))
    if len(tensors) == 1:
        return tensors[0]
    return _C.stack([grid.flatten() for grid in meshgrid(*tensors, indexing="ij")], 1)


def combinations(input, r=2, with_replacement=False):
    """combinations(input, r=2, with_replacement=False) -> Tensor

    The length-r combinations of the elements of the 1-d input, in lexicographic order of their positions, as the
    rows of a matrix: as itertools.combinations (or combinations_with_replacement). r=0 gives an empty 1-d tensor.
    """
    input = _tensor("combinations", "input", 1, input)
    r = _int("combinations", "r", 2, r)
    with_replacement = _bool("combinations", "with_replacement", 3, with_replacement)
    _vectors([input])
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _C.empty(0, dtype=input.dtype, device=input.device)
    n = input.numel()
    if n <= 1:  # at most one row, without a grid of r dims
        rows = 1 if n == 1 and (with_replacement or r == 1) else 0
        return input.reshape(n, 1).expand(n, r)[:rows].clone()
    if r >= 64 or n ** r >= 2 ** 63:
        raise MemoryError(f"combinations(): the {n}**{r} grid of candidates has more elements than memory can hold")
    # As PyTorch: the r-d grid of position tuples, masked to the increasing (or non-decreasing) ones.
    positions = [_along(_C.arange(n, device=input.device), i, r) for i in range(r)]
    in_order = _C.le if with_replacement else _C.lt
    mask = _C.ones([n] * r, dtype=_C.bool, device=input.device)
    for before, after in zip(positions, positions[1:]):
        mask = mask & in_order(before, after)
    return _C.stack([_C.masked_select(_along(input, i, r), mask) for i in range(r)], 1)


def _along(vector, dim, ndim):
    """A view of the 1-d vector that runs along dim of ndim dims (the others of size 1)."""
    return vector.reshape([-1 if d == dim else 1 for d in range(ndim)])


def _row_intervals(rows, starts, stops, dtype, device, requires_grad):
    """The (row, column) pairs of the matrix cells rows[i], starts[i] <= column < stops[i], in row-major order, as
    the 2 x N tensor triu_indices and tril_indices give."""
    counts = stops - starts
    row_of = _repeat_indices(counts, None)
    first_of_row = (_C.cumsum(counts, 0) - counts)[row_of]
    columns = starts[row_of] + _C.arange(row_of.numel(), device=device) - first_of_row
    return _C.stack([rows[row_of], columns]).to(dtype).requires_grad_(requires_grad)


def _indices_arguments(function, row, col, offset, dtype):
    row, col = _int(function, "row", 1, row), _int(function, "col", 2, col)
    offset = _int(function, "offset", 3, offset)
    for name, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{name} must be non-negative, got{value}")
    dtype = _C.int64 if dtype is None else _dtype(function, dtype)
    if dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"\"{function}\" not implemented for '{dtype}'")
    # Diagonals beyond the matrix select all of it or none: clamped, the arithmetic on them stays in int64.
    return row, col, min(max(offset, -row), col), dtype


def triu_indices(row, col, offset=0, *, dtype=_C.int64, device=None, requires_grad=False):
    """triu_indices(row, col, offset=0, *, dtype=wick.int64, device=None, requires_grad=False) -> Tensor

    The coordinates of the upper triangle of a row x col matrix (the cells on and above diagonal offset), in
    row-major order, as a 2 x N tensor: row indices, then column indices. dtype is int64 or int32.
    """
    row, col, offset, dtype = _indices_arguments("triu_indices", row, col, offset, dtype)
    rows = _C.arange(min(max(col - offset, 0), row) if col else 0, device=device)  # those with cells
    return _row_intervals(rows, _C.clamp_min(rows + offset, 0), _C.full_like(rows, col), dtype, device, requires_grad)


def tril_indices(row, col, offset=0, *, dtype=_C.int64, device=None, requires_grad=False):
    """tril_indices(row, col, offset=0, *, dtype=wick.int64, device=None, requires_grad=False) -> Tensor

    The coordinates of the lower triangle of a row x col matrix (the cells on and below diagonal offset), in
    row-major order, as a 2 x N tensor: row indices, then column indices. dtype is int64 or int32.
    """
    row, col, offset, dtype = _indices_arguments("tril_indices", row, col, offset, dtype)
    first = max(-offset, 0)
    rows = _C.arange(first, max(first, row if col else 0), device=device)  # those with cells
    return _row_intervals(rows, _C.zeros_like(rows), _C.clamp_max(rows + offset + 1, col), dtype, device,
                          requires_grad)


# Gathering.

def take_along_dim(input, indices, dim=None, *, out=None):
    """take_along_dim(input, indices, dim=None, *, out=None) -> Tensor

    The values of input at the int64 indices along dim, where indices and input broadcast against each other in
    every other dim (as NumPy's take_along_axis); without dim, at the indices of the flattened input.
    """
    input = _tensor("take_along_dim", "input", 1, input)
    indices = _tensor("take_along_dim", "indices", 2, indices)
    if indices.device != input.device:
        raise RuntimeError(f"torch.take_along_dim(): Expected all tensors to be on the same device, but found at "
                           f"least two devices, {input.device} and {indices.device}!")
    if dim is None:
        return _C.gather(input.view(-1), 0, indices.view(-1), out=out)
    dim = _int("take_along_dim", "dim", 3, dim)
    if input.dim() != indices.dim():
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    if indices.dtype != _C.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {indices.dtype}")
    dim = _wrap_dim(dim, input.dim())
    input_sizes, indices_sizes = list(input.shape), list(indices.shape)
    input_sizes[dim], indices_sizes[dim] = indices.size(dim), input.size(dim)
    indices = indices.expand(broadcast_shapes(input_sizes, indices.shape))
    return _C.gather(input.expand(broadcast_shapes(indices_sizes, input.shape)), dim, indices, out=out)


def argwhere(input):
    """argwhere(input) -> Tensor: the coordinates of the nonzero elements of input, one row each, as nonzero."""
    return _C.nonzero(_tensor("argwhere", "input", 1, input))


def _repeat_indices(repeats, output_size):
    """repeat_interleave(repeats): i repeated repeats[i] times, for each i in order, in repeats' dtype."""
    if repeats.dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"\"repeat_interleave_cpu\" not implemented for '{repeats.dtype}'")
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if bool(_C.any(repeats < 0)):
        raise RuntimeError("repeats can not be negative")
    total = int(_C.sum(repeats))
    if output_size is not None and output_size != total:
        raise RuntimeError(f"allocated size does not match required size: output_size={output_size}, but the "
                           f"repeats add up to {total}")
    # A 1 where each repeated run starts: their running count, less one, numbers the runs; `repeated` maps
    # that number back to the position i of its run, skipping those repeated 0 times.
    repeated = _C.nonzero(repeats).flatten()
    starts = _C.zeros(total, dtype=_C.int64, device=repeats.device)
    starts[(_C.cumsum(repeats, 0) - repeats)[repeated]] = 1
    return repeated[_C.cumsum(starts, 0) - 1].to(repeats.dtype)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """repeat_interleave(input, repeats, dim=None, *, output_size=None) -> Tensor
    repeat_interleave(repeats, *, output_size=None) -> Tensor

    Each slice of input along dim repeated, in place, repeats times (an int, or a tensor of one count per slice
    or of one count for all); without dim, the elements of the flattened input. Alone, an int64 or int32 1-d
    repeats gives each position i repeated repeats[i] times. output_size, when given, must be the result's length
    along dim.
    """
    input = _tensor("repeat_interleave", "input", 1, input)
    if output_size is not None:
        output_size = _int("repeat_interleave", "output_size", None, output_size)
    if repeats is None and dim is None:
        return _repeat_indices(input, output_size)
    if _is_int(repeats):
        repeats = _C.full((1,), operator.index(repeats), dtype=_C.int64, device=input.device)
    elif not isinstance(repeats, _C.TensorBase):
        raise TypeError(f"repeat_interleave() received an invalid combination of arguments - got (Tensor, "
                        f"{type(repeats).__name__}), but expected one of:\n"
                        " * (Tensor input, Tensor repeats, int dim, *, int output_size)\n"
                        " * (Tensor repeats, *, int output_size)\n"
                        " * (Tensor input, int repeats, int dim, *, int output_size)")
    if dim is None:
        input, dim = input.flatten(), 0
    dim = _int("repeat_interleave", "dim", 3, dim)
    size = input.size(_wrap_dim(dim, input.dim()))
    if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.numel() == 1):
        repeats = repeats.reshape(1).expand(size)
    elif repeats.dim() == 1 and repeats.numel() != size:
        raise RuntimeError("repeats must have the same size as input along dim")
    elif repeats.dim() > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return input.index_select(dim, _repeat_indices(repeats, output_size))
