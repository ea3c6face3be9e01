"""wick.Tensor: the C type wick._C.TensorBase, plus what is easiest said in Python."""
from wick import _C, _tensor_str


class Tensor(_C.TensorBase):
    """A multi-dimensional array of one dtype on one device.

    wick.Tensor(2, 3) is uninitialised float32 of shape (2, 3); wick.Tensor([1, 2])
    copies data into float32. Prefer wick.tensor(data), wick.zeros(...) and friends.
    """

    __module__ = "wick"
    __hash__ = object.__hash__  # identity, although == is elementwise

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _C._init_subclass(cls)

    def __repr__(self):
        return _tensor_str.tensor_repr(self)

    # Arithmetic operators map onto the declared ops; a reflected operand that is
    # a Python number becomes a 0-d tensor so that promotion treats it as PyTorch does.
    def __add__(self, other):
        return _C.add(self, other)

    __radd__ = __add__

    def __iadd__(self, other):
        return self.add_(other)

    def __sub__(self, other):
        return _C.sub(self, other)

    def __rsub__(self, other):
        return _C.sub(_C.tensor(other), self)

    def __isub__(self, other):
        return self.sub_(other)

    def __mul__(self, other):
        return _C.mul(self, other)

    __rmul__ = __mul__

    def __imul__(self, other):
        return self.mul_(other)

    def __truediv__(self, other):
        return _C.div(self, other)

    def __rtruediv__(self, other):
        return _C.div(_C.tensor(other), self)

    def __itruediv__(self, other):
        return self.div_(other)

    def __neg__(self):
        return _C.neg(self)

    def __abs__(self):
        return _C.abs(self)

    def __eq__(self, other):
        return _C.eq(self, other)

    def __ne__(self, other):
        return _C.eq(_C.eq(self, other), False)

    def __lt__(self, other):
        return _C.lt(self, other)

    def __gt__(self, other):
        return _C.gt(self, other)

    def __matmul__(self, other):
        if self.dim() == 2 and isinstance(other, Tensor) and other.dim() == 1:
            return _C.mv(self, other)
        return _C.mm(self, other)

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError(f"Boolean value of Tensor with {self.numel()} values is ambiguous")
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def __contains__(self, element):
        return _C.sum(_C.eq(self, element)).item() > 0

    @property
    def T(self):
        return self.permute(tuple(range(self.dim() - 1, -1, -1)))

    # Conversions that go through Python lists: correct, though not zero-copy.
    def __array__(self, dtype=None):
        import numpy

        name = "float32" if self.dtype is _C.bfloat16 else repr(self.dtype).split(".")[1]
        array = numpy.array(self.tolist(), dtype=name).reshape(self.shape)
        return array if dtype is None else array.astype(dtype)

    def __reduce_ex__(self, protocol):
        return _rebuild, (self.tolist(), self.dtype, tuple(self.shape), self.__dict__)


def _rebuild(data, dtype, shape, state):
    """Unpickles a tensor: its values, dtype, shape and attributes."""
    t = _C.tensor(data, dtype=dtype).reshape(shape)
    t.__dict__.update(state)
    return t


_C._set_tensor_class(Tensor)
