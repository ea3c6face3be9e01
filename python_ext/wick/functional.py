"""wick.functional: functions over tensors that are easiest said in Python, as PyTorch's torch.functional and
its neighbours: type queries, broadcasting, atleast_*d and meshgrid. Each is made of views (expand, reshape,
unsqueeze), so results share their inputs' memory and autograd sees through them.
"""
import builtins
import operator
import warnings

from wick import _C
from wick._C import Size
from wick._arguments import _tensor, _tensor_list

__all__ = ["is_tensor", "is_floating_point", "is_complex", "broadcast_shapes", "broadcast_tensors", "broadcast_to",
           "atleast_1d", "atleast_2d", "atleast_3d", "meshgrid"]


def is_tensor(obj):
    """is_tensor(obj) -> bool: whether obj is a wick tensor."""
    return isinstance(obj, _C.TensorBase)


def is_floating_point(input):
    """is_floating_point(input) -> bool: whether input's dtype is a floating-point one."""
    return _tensor("is_floating_point", "input", 1, input).dtype.is_floating_point


def is_complex(input):
    """is_complex(input) -> bool: whether input's dtype is a complex one; wick has none yet."""
    _tensor("is_complex", "input", 1, input)
    return False


def broadcast_shapes(*shapes):
    """broadcast_shapes(*shapes) -> Size: the shape that tensors of these shapes broadcast to (each an int or a
    sequence of ints), by PyTorch's rule: aligned at the last dim, a size of 1 stretches to the other."""
    result = []
    for shape in shapes:
        sizes = tuple(operator.index(s) for s in ((shape,) if isinstance(shape, builtins.int) else shape))
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}")
        result = [1] * (len(sizes) - len(result)) + result
        for i, s in enumerate(sizes, len(result) - len(sizes)):
            if s != result[i] and s != 1 and result[i] != 1:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape")
            result[i] = s if result[i] == 1 else result[i]
    return Size(result)


def broadcast_tensors(*tensors):
    """broadcast_tensors(*tensors) -> tuple of Tensors: views of the tensors, all expanded to their broadcast
    shape."""
    tensors = _tensor_list(0, tensors)
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def broadcast_to(input, size):
    """broadcast_to(input, size) -> Tensor: a view of input expanded to size, as input.expand(size)."""
    return _tensor("broadcast_to", "input", 1, input).expand(size)


def _each(tensors, at_least):
    """at_least applied to one tensor, or to each of several (given apart or as one sequence): a tuple then."""
    if len(tensors) == 1 and is_tensor(tensors[0]):
        return at_least(tensors[0])
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return tuple(at_least(t) for t in _tensor_list(0, tensors))


def atleast_1d(*tensors):
    """atleast_1d(*tensors): each tensor as a view of at least 1 dim (a 0-d one becomes of size 1)."""
    return _each(tensors, lambda t: t.reshape([1]) if t.dim() == 0 else t)


def atleast_2d(*tensors):
    """atleast_2d(*tensors): each tensor as a view of at least 2 dims; new dims go first."""
    return _each(tensors, lambda t: t.reshape([1] * (2 - t.dim()) + list(t.shape)) if t.dim() < 2 else t)


def atleast_3d(*tensors):
    """atleast_3d(*tensors): each tensor as a view of at least 3 dims, as PyTorch's: a 0-d one is (1, 1, 1), a 1-d
    one (n) is (1, n, 1), a 2-d one (m, n) is (m, n, 1)."""
    shapes = {0: lambda s: [1, 1, 1], 1: lambda s: [1, s[0], 1], 2: lambda s: [s[0], s[1], 1]}
    return _each(tensors, lambda t: t.reshape(shapes[t.dim()](t.shape)) if t.dim() < 3 else t)


def meshgrid(*tensors, indexing=None):
    """meshgrid(*tensors, indexing=None) -> tuple of Tensors

    Coordinate grids of 0-d or 1-d tensors: the i-th result holds tensors[i] along dim i, expanded over the others.
    indexing='ij' orders the dims as the inputs; 'xy' swaps the first two, as NumPy's default (PyTorch 1.13 warns
    when indexing is left out, and takes 'ij').
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    tensors = _tensor_list(0, tensors)
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not tensors:
        raise RuntimeError("torch.meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("torch.meshgrid: Expected all tensors in the tensor list to have the same dtype.")
        if t.device != tensors[0].device:
            raise RuntimeError("torch.meshgrid: Expected all tensors in the tensor list to have the same device.")
    swap = indexing == "xy" and len(tensors) >= 2
    ordered = (tensors[1], tensors[0], *tensors[2:]) if swap else tensors
    shape = [t.numel() for t in ordered]
    grids = [t.reshape([-1 if d == i else 1 for d in range(len(ordered))]).expand(shape)
             for i, t in enumerate(ordered)]
    return (grids[1], grids[0], *grids[2:]) if swap else tuple(grids)
