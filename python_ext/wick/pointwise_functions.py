"""wick.pointwise_functions: elementwise functions that are compositions of declared ops, as PyTorch's functions of the
same names: powers in float64, multiplying by and splitting off powers of two, the realness test, positive, and
the in-place comparisons and logical ops (x.lt_(y) writes x < y into x, in x's dtype), and apply_.

    >>> wick.float_power(wick.tensor([2, 3]), 2)
    tensor([4., 9.], dtype=wick.float64)
    >>> wick.frexp(wick.tensor([8.0, 0.375]))
    wick.return_types.frexp(
    mantissa=tensor([0.5000, 0.7500]),
    exponent=tensor([ 4, -1], dtype=wick.int32))
"""
import builtins
import math

from wick import _C
from wick._arguments import _scalar_type, _tensor
from wick.autograd import no_grad
from wick.return_types import named_tuple

__all__ = ["float_power", "ldexp", "frexp", "isreal", "positive"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...). The build reads
# this tuple as a literal; the in-place comparisons and logical ops (eq_ ... logical_not_) are made below.
METHODS: tuple = ("float_power", "float_power_", "ldexp", "ldexp_", "frexp", "isreal", "positive", "apply_", "eq_",
                  "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_", "less_equal_",
                  "not_equal_", "logical_and_", "logical_or_", "logical_xor_", "logical_not_")
# The declared ops with a bool result whose in-place forms are among these methods.
_PREDICATES = tuple(name[:-1] for name in METHODS[METHODS.index("eq_"):])

_frexp = named_tuple("frexp", ("mantissa", "exponent"))


def _number_or_tensor(function, name, position, value):
    """A Tensor or a Python number (not a bool's kin alone: True is a number to PyTorch here too)."""
    if isinstance(value, (_C.TensorBase, builtins.int, builtins.float)):
        return value
    raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor or Number, "
                    f"not {type(value).__name__}")


def _as_double(value):
    """value (a tensor or a number) as a float64 tensor; a tensor keeps its autograd history."""
    if isinstance(value, _C.TensorBase):
        return value.to(_C.float64)
    return _C.tensor(value, dtype=_C.float64)


def float_power(input, exponent, *, out=None):
    """float_power(input, exponent, *, out=None) -> Tensor

    input raised to exponent, both taken as float64 (either may be a number, not both), so the result is float64
    whatever their dtypes; out must then be float64 too."""
    input = _number_or_tensor("float_power", "input", 1, input)
    exponent = _number_or_tensor("float_power", "exponent", 2, exponent)
    if not isinstance(input, _C.TensorBase) and not isinstance(exponent, _C.TensorBase):
        raise TypeError("float_power(): at least one of input and exponent must be a Tensor")
    if out is not None:
        out = _tensor("float_power", "out", None, out)
        if out.dtype != _C.float64:
            raise RuntimeError(f"the output given to float_power has dtype {_scalar_type(out.dtype)} but the "
                               "operation's result requires dtype Double")
        return _C.pow(_as_double(input), _as_double(exponent), out=out)
    return _C.pow(_as_double(input), _as_double(exponent))


def float_power_(input, exponent):
    """float_power_(exponent) -> Tensor: float_power in place, which input must be float64 to hold."""
    input = _tensor("float_power_", "input", 1, input)
    exponent = _number_or_tensor("float_power_", "exponent", 2, exponent)
    if input.dtype != _C.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_scalar_type(input.dtype)} but the "
                           "operation's result requires dtype Double")
    return input.pow_(_as_double(exponent))


def ldexp(input, other, *, out=None):
    """ldexp(input, other, *, out=None) -> Tensor

    input * 2 ** other, as PyTorch computes it: an integer other gives a floating-point power of two (in the default
    dtype), which the product then promotes with input."""
    input = _tensor("ldexp", "input", 1, input)
    other = _tensor("ldexp", "other", 2, other)
    if out is not None:
        return _C.mul(input, 2.0 ** other, out=_tensor("ldexp", "out", None, out))
    return _C.mul(input, 2.0 ** other)


def ldexp_(input, other):
    """ldexp_(other) -> Tensor: ldexp in place."""
    input = _tensor("ldexp_", "input", 1, input)
    return input.mul_(2.0 ** _tensor("ldexp_", "other", 2, other))


# Note [frexp by a table of powers of two]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# frexp splits x into mantissa * 2**exponent with |mantissa| in [0.5, 1). The exponent is
# floor(log2|x|) + 1, which a rounded log2 may get wrong by one near a power of two, so one
# step up or down mends it once the mantissa is known. The mantissa is x times 2**-exponent,
# exact only if the power is: so the powers come from a float64 table made with math.ldexp,
# never from exp2 or pow, and the product is taken in float64 (x's significand fits, whatever
# its dtype), as two factors, since 2**1074 (for the smallest subnormal double) overflows.
_MIN_EXPONENT, _MAX_EXPONENT = -600, 600  # beyond half of every float64 exponent, subnormals' included
_powers_of_two = None


def _power_of_two(k):
    """2.0 ** k for an int64 tensor k of exponents in [_MIN_EXPONENT, _MAX_EXPONENT], as float64, exactly."""
    global _powers_of_two
    if _powers_of_two is None:
        _powers_of_two = _C.tensor([math.ldexp(1.0, e) for e in range(_MIN_EXPONENT, _MAX_EXPONENT + 1)],
                                   dtype=_C.float64)
    return _powers_of_two[k - _MIN_EXPONENT]


def _scaled(x, k):
    """x * 2**-k in float64, exact: by two powers, each within the table (Note [frexp by a table of powers of two])."""
    half = k // 2
    return x * _power_of_two(-half) * _power_of_two(half - k)


def frexp(input, *, out=None):
    """frexp(input, *, out=None) -> (Tensor mantissa, Tensor exponent)

    input split into mantissa * 2 ** exponent, with |mantissa| in [0.5, 1) and an int32 exponent; zero, infinity and
    NaN keep their value as mantissa, with exponent 0. Floating-point dtypes only, as PyTorch's."""
    input = _tensor("frexp", "input", 1, input)
    if not input.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("frexp(): argument 'out' must be tuple of Tensors of length 2")
        m_out, e_out = (_tensor("frexp", "out", None, t) for t in out)
        if m_out.dtype != input.dtype:
            raise RuntimeError("torch.frexp() expects mantissa to have dtype " + _scalar_type(input.dtype)
                               + " but got " + _scalar_type(m_out.dtype))
        if e_out.dtype != _C.int32:
            raise RuntimeError("torch.frexp() expects exponent to have int dtype but got "
                               + _scalar_type(e_out.dtype))
    x = input.to(_C.float64)
    regular = x.isfinite() & (x != 0)
    with no_grad():
        guess = _C.where(regular, x.abs().log2().floor() + 1, 0.0).to(_C.int64)
        size = _scaled(x, guess).abs()
        exponent = _C.where(regular, guess + (size >= 1).to(_C.int64) - (size < 0.5).to(_C.int64), 0)
    if out is None:
        return _frexp(_C.where(regular, _scaled(x, exponent), x).to(input.dtype), exponent.to(_C.int32))
    _C.where(regular, _scaled(x, exponent), x, out=m_out)
    _C.where(regular, exponent, 0, out=e_out)
    return _frexp(m_out, e_out)


def isreal(input):
    """isreal(input) -> Tensor: whether each element is real, a bool tensor of input's shape: all true, as wick's
    dtypes are all real."""
    return _C.ones_like(_tensor("isreal", "input", 1, input), dtype=_C.bool)


def positive(input):
    """positive(input) -> Tensor: input itself; a bool tensor is refused, as in PyTorch."""
    input = _tensor("positive", "input", 1, input)
    if input.dtype is _C.bool:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return input


def _predicate_in_place(name):
    """x.<name>_(*args): x holding <name>(x, *args), true as 1 and false as 0 in x's dtype, as PyTorch's in-place
    comparisons; the result must have x's shape."""
    op = getattr(_C, name)

    def method(self, *args, **kwargs):
        result = op(self, *args, **kwargs)
        if result.shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}")
        return self.copy_(result)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"{name}_(*args) -> Tensor: {name}(self, *args) in place, in self's dtype."
    return method


globals().update({name + "_": _predicate_in_place(name) for name in _PREDICATES})


def apply_(input, callable):
    """apply_(callable) -> Tensor: each element of input replaced by callable(element), a Python number, in place;
    CPU tensors only, and slow, as in PyTorch."""
    input = _tensor("apply_", "input", 1, input)
    if not builtins.callable(callable):
        raise TypeError(f"apply_(): argument 'callable' must be callable, not {type(callable).__name__}")
    if input.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    values = [callable(v) for v in input.reshape(-1).tolist()]
    with no_grad():
        input.copy_(_C.tensor(values, dtype=input.dtype).reshape(input.shape))
    return input
