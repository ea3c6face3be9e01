"""The typed legacy constructors: wick.FloatTensor(10), wick.LongTensor([1, 2]), ...

Each is a subclass of wick.Tensor only for construction and isinstance checks:
the tensor it makes is a plain wick.Tensor of its dtype, as in PyTorch.
"""
from wick import _C
from wick._names import LEGACY_TENSORS
from wick._tensor import Tensor


class _LegacyMeta(type(Tensor)):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype


def _legacy(name, dtype):
    def __new__(cls, *args, **kwargs):
        return _C._legacy_new(Tensor, dtype, *args, **kwargs)

    doc = f"{name}(*size) or {name}(data): a tensor of dtype wick.{dtype!r}"
    return _LegacyMeta(name, (Tensor,), {"__new__": __new__, "dtype": dtype, "__module__": "wick", "__doc__": doc})


__all__ = [name for name, _ in LEGACY_TENSORS]
for _name, _dtype in LEGACY_TENSORS:
    globals()[_name] = _legacy(_name, getattr(_C, _dtype))
del _name, _dtype
