"""wick.search_functions: sorted searches and membership composed of declared ops, as PyTorch's functions of the
same names: searchsorted, bucketize and isin.

    >>> wick.searchsorted(wick.tensor([1, 3, 5]), wick.tensor([3, 6]))
    tensor([1, 3])
    >>> wick.isin(wick.tensor([1, 2, 3]), wick.tensor([2, 5]))
    tensor([False,  True, False])

None loops in Python over elements: the binary search loops over log2(n) steps, each one op on all values at once.
"""
import builtins
import numbers

from wick import _C
from wick._arguments import _argument_error, _bool, _not_implemented, _promoted, _scalar_type, _tensor

__all__ = ["searchsorted", "bucketize", "isin"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS: tuple = ()


# Sorted searches. Note [Binary search over all values at once]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# _bisect keeps a [low, high) range per value and halves all ranges together: one gather of the probes and one
# comparison per step, n.bit_length() steps for rows of n boundaries. It takes the probe and the step rule of
# PyTorch's kernel (a value goes right of mid while !(boundary[mid] >= value), > for right=True), so its answer is
# PyTorch's also where the boundaries are not sorted or hold NaNs.
def _bisect(boundaries, values, right, sorter):
    """For each value (the last dim of values; its other dims are those of boundaries) its index in its row of
    boundaries, the first of equal ones or the last when right, by binary search; sorter orders each row."""
    n = boundaries.shape[-1]
    low = _C.zeros(values.shape, dtype=_C.int64)
    high = _C.full(values.shape, n, dtype=_C.int64)
    for _ in range(n.bit_length()):
        mid = (low + high) >> 1
        probe = mid.clamp(max=n - 1)
        probed = boundaries.gather(-1, probe if sorter is None else sorter.gather(-1, probe))
        stays = probed > values if right else probed >= values
        active = low < high
        low = _C.where(_C.logical_and(active, stays.logical_not()), mid + 1, low)
        high = _C.where(_C.logical_and(active, stays), mid, high)
    return low


def _searchsorted_checks(boundaries, input, right, side, sorter):
    """PyTorch's searchsorted_pre_check, in its order; returns right as side says."""
    if side is not None:
        if not isinstance(side, str):
            raise _argument_error("searchsorted", "side", None, "str", side)
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    if sorter is not None:
        if tuple(sorter.shape) != tuple(boundaries.shape):
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
                               f"tensor {list(boundaries.shape)}and got sorter tensor {list(sorter.shape)}")
        if sorter.dtype is not _C.int64:
            raise RuntimeError(f"torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                               f"{_scalar_type(sorter.dtype)}")
    value_shape = list(input.shape) if isinstance(input, _C.TensorBase) else []
    if not value_shape and boundaries.dim() != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           f"is 1, but we got boundaries tensor dim({boundaries.dim()}) and input value's dim(0) "
                           "numel(1)")
    if boundaries.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if boundaries.dim() != 1 and (boundaries.dim() != len(value_shape)
                                  or list(boundaries.shape[:-1]) != value_shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           "of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"{list(boundaries.shape)} and input value tensor {value_shape}")
    return right


def _search(fn, boundaries, input, out_int32, right, side, sorter):
    if not isinstance(input, (_C.TensorBase, numbers.Number)):
        raise _argument_error(fn, "input", 2, "Tensor or Number", input)
    out_int32, right = _bool(fn, "out_int32", None, out_int32), _bool(fn, "right", None, right)
    if sorter is not None:
        sorter = _tensor(fn, "sorter", None, sorter)
    right = _searchsorted_checks(boundaries, input, right, side, sorter)
    dtype = _promoted(boundaries, input)
    if isinstance(input, _C.TensorBase) and input.numel() == 0:  # PyTorch returns before its kernel's dtype check
        return _C.zeros(input.shape, dtype=_C.int32 if out_int32 else _C.int64)
    if dtype is _C.bool:
        raise _not_implemented("searchsorted_out_cpu", dtype)
    values = input.detach().to(dtype) if isinstance(input, _C.TensorBase) else _C.tensor(input, dtype=dtype)
    boundaries = boundaries.detach().to(dtype)
    rows = values
    if boundaries.dim() == 1:  # one row of boundaries for all values
        boundaries, rows = boundaries.reshape(1, -1), values.reshape(1, -1)
        sorter = None if sorter is None else sorter.reshape(1, -1)
    found = _bisect(boundaries, rows, right, sorter)
    return found.reshape(values.shape).to(_C.int32 if out_int32 else _C.int64)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None) -> Tensor

    For each value of input (a tensor or a number), the index in sorted_sequence where it would go to keep it
    sorted: the first such index, or the last when right=True or side='right'. sorted_sequence is 1-d, or holds one
    sorted row per row of input (all dims but the last equal). sorter, when given, sorts an unsorted sequence
    (argsort's indices). int64 indices, int32 with out_int32=True.
    """
    boundaries = _tensor("searchsorted", "sorted_sequence", 1, sorted_sequence)
    return _search("searchsorted", boundaries, input, out_int32, right, side, sorter)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """bucketize(input, boundaries, *, out_int32=False, right=False) -> Tensor

    The bucket of each value of input (a tensor or a number) among the sorted 1-d boundaries: i with
    boundaries[i - 1] < x <= boundaries[i], or boundaries[i - 1] <= x < boundaries[i] when right=True.
    """
    boundaries = _tensor("bucketize", "boundaries", 2, boundaries)
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return _search("bucketize", boundaries, input, out_int32, right, None, None)


def _scalar_tensor(value):
    """A Python number as PyTorch's scalar_to_tensor makes it: bool, int64 or float64."""
    dtype = _C.bool if isinstance(value, builtins.bool) else (
        _C.int64 if isinstance(value, numbers.Integral) else _C.float64)
    return _C.tensor(value, dtype=dtype)


def _check_isin_dtype(dtype):
    if dtype in (_C.bool, _C.bfloat16):
        raise RuntimeError(f"Unsupported input type encountered for isin(): {_scalar_type(dtype)}")


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """isin(elements, test_elements, *, assume_unique=False, invert=False) -> Tensor

    For each element (a tensor, or one number), whether it is among test_elements (a tensor, or one number), as a
    bool tensor of elements' shape; the opposite with invert=True. NaN is in nothing. assume_unique=True promises
    that neither holds a value twice (PyTorch's sorting method then skips unique(), and errs when it is not so).
    """
    if not isinstance(elements, _C.TensorBase) and not isinstance(test_elements, _C.TensorBase):
        raise TypeError(f"isin(): expected elements or test_elements to be a Tensor, but got "
                        f"{type(elements).__name__} and {type(test_elements).__name__}")
    for name, value, position in (("elements", elements, 1), ("test_elements", test_elements, 2)):
        if not isinstance(value, (_C.TensorBase, numbers.Number)):
            raise _argument_error("isin", name, position, "Tensor or Number", value)
    assume_unique, invert = _bool("isin", "assume_unique", None, assume_unique), _bool("isin", "invert", None, invert)
    if not isinstance(test_elements, _C.TensorBase):  # PyTorch compares with eq (ne when inverted)
        for dtype in (elements.dtype, _scalar_tensor(test_elements).dtype):
            _check_isin_dtype(dtype)
        return (_C.ne if invert else _C.eq)(elements.detach(), test_elements)
    as_tensor = elements.detach() if isinstance(elements, _C.TensorBase) else _scalar_tensor(elements)
    for dtype in (as_tensor.dtype, test_elements.dtype):
        _check_isin_dtype(dtype)
    if as_tensor.numel() == 0:
        return _C.zeros(as_tensor.shape, dtype=_C.bool)
    # PyTorch's choice of method: compare with each test element when there are few, else sort.
    if test_elements.numel() < builtins.int(10 * as_tensor.numel() ** 0.145):
        dtype = _promoted(elements, test_elements)
        if dtype is _C.float16:
            raise _not_implemented("isin_default_cpu", dtype)
        tests = test_elements.detach().to(dtype).reshape(-1)
        return (as_tensor.to(dtype).unsqueeze(-1) == tests).any(-1).ne(invert)
    return _isin_by_sorting(as_tensor, test_elements.detach(), assume_unique, invert)


def _isin_by_sorting(elements, tests, assume_unique, invert):
    """PyTorch's isin_sorting: each element is in tests when the next value in the stable sort of both (each made
    unique first, unless assume_unique) is equal to it."""
    if assume_unique:
        elements_flat, tests_flat = elements.reshape(-1), tests.reshape(-1)
    else:
        for t in (elements, tests):
            if t.dtype is _C.float16:
                raise _not_implemented("unique", t.dtype)
        elements_flat, inverse = _C.unique(elements, sorted=False, return_inverse=True)
        tests_flat = _C.unique(tests, sorted=False)
    joined = _C.cat([elements_flat, tests_flat])
    if joined.numel() == 0:
        return _C.full(elements.shape, invert, dtype=_C.bool)
    ordered, order = joined.sort(stable=True)
    found = _C.cat([(ordered[1:] == ordered[:-1]).ne(invert), _C.full([1], invert, dtype=_C.bool)])
    found = _C.zeros(joined.shape, dtype=_C.bool).scatter(0, order, found)
    return found[:elements.numel()].reshape(elements.shape) if assume_unique else found[inverse]
