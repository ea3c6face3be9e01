"""The typed legacy constructors: wick.FloatTensor(10), wick.LongTensor([1, 2]), ...

Each is a subclass of wick.Tensor only for construction and isinstance checks:
the tensor it makes is a plain wick.Tensor of its dtype, as in PyTorch.
"""
from wick import _C
from wick._tensor import Tensor


class _LegacyMeta(type(Tensor)):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype


def _legacy(name, dtype):
    def __new__(cls, *args, **kwargs):
        return _C._legacy_new(Tensor, dtype, *args, **kwargs)

    doc = f"{name}(*size) or {name}(data): a tensor of dtype wick.{dtype!r}"
    return _LegacyMeta(name, (Tensor,), {"__new__": __new__, "dtype": dtype, "__module__": "wick", "__doc__": doc})


FloatTensor = _legacy("FloatTensor", _C.float32)
DoubleTensor = _legacy("DoubleTensor", _C.float64)
HalfTensor = _legacy("HalfTensor", _C.float16)
BFloat16Tensor = _legacy("BFloat16Tensor", _C.bfloat16)
ByteTensor = _legacy("ByteTensor", _C.uint8)
CharTensor = _legacy("CharTensor", _C.int8)
ShortTensor = _legacy("ShortTensor", _C.int16)
IntTensor = _legacy("IntTensor", _C.int32)
LongTensor = _legacy("LongTensor", _C.int64)
BoolTensor = _legacy("BoolTensor", _C.bool)
