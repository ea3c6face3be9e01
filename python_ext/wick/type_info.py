"""wick.type_info: what PyTorch users ask of dtypes: finfo, iinfo, the promotion rules (result_type,
promote_types, can_cast) and the default float dtype."""
import math

from wick import _C

__all__ = ["finfo", "iinfo", "promote_types", "result_type", "can_cast", "get_default_dtype", "set_default_dtype"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS: tuple = ()

# The bits of each floating format's significand (less the implicit one) and of its exponent.
_FLOAT_FORMATS = {_C.float16: (10, 5), _C.bfloat16: (7, 8), _C.float32: (23, 8), _C.float64: (52, 11)}
_INTEGERS = (_C.uint8, _C.int8, _C.int16, _C.int32, _C.int64)
# PyTorch takes Python's number types where it wants a dtype (finfo(float) is finfo(float64)).
_PYTHON_TYPES = {bool: _C.bool, int: _C.int64, float: _C.float64}
# How far each kind of dtype ranks in promotion: a lower kind never widens a higher one.
_BOOL, _INTEGER, _FLOATING = range(3)


def _name(dtype):
    return str(dtype).split(".")[1]


def _kind(dtype):
    return _FLOATING if dtype.is_floating_point else _BOOL if dtype is _C.bool else _INTEGER


def _as_dtype(value, function, param, position):
    """`value` as a wick.dtype, or the TypeError that PyTorch's argument parser raises for it."""
    if isinstance(value, _C.dtype):
        return value
    if isinstance(value, type) and value in _PYTHON_TYPES:
        return _PYTHON_TYPES[value]
    raise TypeError(f"{function}(): argument '{param}' (position {position}) must be wick.dtype, "
                    f"not {type(value).__name__}")


class _TypeInfo:
    """What finfo and iinfo share: read-only fields, equality by dtype (and so no hash), PyTorch's repr."""
    _SHOWN: tuple = ()

    def _fill(self, **fields):
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'wick.{type(self).__name__}' objects is not writable")

    def __eq__(self, other):
        return type(other) is type(self) and self.dtype == other.dtype

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        shown = "".join(f"{name}={getattr(self, name):g}, " for name in self._SHOWN)
        return f"{type(self).__name__}({shown}dtype={self.dtype})"


_DEFAULT = object()  # finfo() without an argument, which PyTorch tells from finfo(None)


class finfo(_TypeInfo):
    """The numerical properties of a floating dtype (the default dtype when none is given), as torch.finfo:
    bits, eps (the step from 1.0 to the next value), max, min, tiny (= smallest_normal, the least positive
    normal value), resolution (10 ** -decimal digits of precision) and dtype (its name)."""
    _SHOWN = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    def __init__(self, type=_DEFAULT):
        dtype = get_default_dtype() if type is _DEFAULT else _as_dtype(type, "finfo", "type", 1)
        if dtype not in _FLOAT_FORMATS:
            raise TypeError(f"wick.finfo() requires a floating point input type. Use wick.iinfo to handle "
                            f"'{dtype}'")
        mantissa, exponent = _FLOAT_FORMATS[dtype]
        eps = 2.0 ** -mantissa
        max_exponent = 2 ** (exponent - 1) - 1
        tiny = 2.0 ** (1 - max_exponent)
        largest = math.ldexp(2.0 - eps, max_exponent)
        self._fill(bits=dtype.itemsize * 8, eps=eps, max=largest, min=-largest, tiny=tiny, smallest_normal=tiny,
                   resolution=10.0 ** -math.floor(mantissa * math.log10(2)), dtype=_name(dtype))


class iinfo(_TypeInfo):
    """The range of an integer dtype, as torch.iinfo: bits, max, min and dtype (its name)."""
    _SHOWN = ("min", "max")

    def __init__(self, type):
        dtype = _as_dtype(type, "iinfo", "type", 1)
        if dtype is _C.bool:
            raise TypeError("wick.bool is not supported by wick.iinfo")
        if dtype not in _INTEGERS:
            raise TypeError(f"wick.iinfo() requires an integer input type. Use wick.finfo to handle '{dtype}'")
        bits = dtype.itemsize * 8
        low = 0 if dtype is _C.uint8 else -2 ** (bits - 1)
        self._fill(bits=bits, max=low + 2 ** bits - 1, min=low, dtype=_name(dtype))


# Note [Promotion from wick.add]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The promotion rules live once, in the C++ core, which every binary op applies. promote_types and
# result_type ask wick.add for the dtype it gives on stand-ins: empty tensors of the operands' dtypes,
# 0-d where the operand is 0-d (a 0-d tensor widens a dimensioned one only from a lower kind), and
# numbers as themselves. Two numbers promote as a 0-d tensor and a number do: each gives its kind's
# dtype (bool, int64, the default float dtype), and the higher kind wins.

def promote_types(type1, type2):
    """The smallest dtype to which both dtypes convert without losing kind or range, as torch.promote_types."""
    first = _as_dtype(type1, "promote_types", "type1", 1)
    second = _as_dtype(type2, "promote_types", "type2", 2)
    return _C.add(_C.empty(0, dtype=first), _C.empty(0, dtype=second)).dtype  # See Note [Promotion from wick.add]


def _stand_in(operand):
    """A tensor that promotes as the tensor `operand` does, of no elements or a 0-d zero (zeros, not empty: wick.add
    reads a 0-d one); anything else as itself."""
    if isinstance(operand, _C.TensorBase):
        return _C.zeros(() if operand.dim() == 0 else 0, dtype=operand.dtype)
    return operand


def result_type(tensor, other):
    """The dtype of an arithmetic op on `tensor` and `other`, each a tensor or a Python number, as
    torch.result_type: 0-d tensors and numbers widen the result only where they are of a higher kind
    (bool < integer < floating) than the dimensioned tensors."""
    first, second = _stand_in(tensor), _stand_in(other)
    if not isinstance(first, _C.TensorBase):
        first, second = second, first
    try:
        if not isinstance(first, _C.TensorBase):
            first = _C.full((), first)
        return _C.add(first, second).dtype  # See Note [Promotion from wick.add]
    except TypeError:
        got = ", ".join("Tensor" if isinstance(x, _C.TensorBase) else type(x).__name__ for x in (tensor, other))
        raise TypeError(f"result_type() received an invalid combination of arguments - got ({got}), but expected "
                        "one of:\n * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n"
                        " * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)") from None


def can_cast(from_, to):
    """Whether PyTorch's casting rules let an op write a `from_` result into a `to` tensor: never to a lower
    kind (floating to integer, or anything but bool to bool)."""
    source = _as_dtype(from_, "can_cast", "from", 1)
    return _kind(source) <= _kind(_as_dtype(to, "can_cast", "to", 2))


def get_default_dtype():
    """The dtype of new floating tensors made from Python floats (float32 unless set_default_dtype changed it)."""
    return _C._get_default_dtype()


def set_default_dtype(d):
    """Makes the floating dtype `d` the default (float16, bfloat16, float32 or float64), as torch.set_default_dtype."""
    if not isinstance(d, _C.dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _C._set_default_dtype(d)
