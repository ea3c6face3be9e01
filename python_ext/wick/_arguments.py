"""wick._arguments: the argument checks that the package's Python functions share, made as PyTorch's argument parser
makes them. Each returns the value in the form its caller computes with, or raises the parser's TypeError, which
names the function and the argument: "tile(): argument 'dims' (position 2) must be tuple of ints, not str" (no
position for a keyword-only argument). As there, a bool is not an int, and a 0-d tensor may stand for a number
(for an int, a 0-d integer tensor). Also here: dims wrapped as PyTorch wraps them and its names of the dtypes.
"""
import numbers
import operator

from wick import _C

# PyTorch's names of the dtypes (c10::ScalarType), which its error messages use.
_SCALAR_TYPES = {_C.bool: "Bool", _C.uint8: "Byte", _C.int8: "Char", _C.int16: "Short", _C.int32: "Int",
                 _C.int64: "Long", _C.float16: "Half", _C.bfloat16: "BFloat16", _C.float32: "Float",
                 _C.float64: "Double"}
_INTEGER_DTYPES = (_C.uint8, _C.int8, _C.int16, _C.int32, _C.int64)


def _scalar_type(dtype):
    """dtype as PyTorch's messages name it: 'Float' for float32, 'Long' for int64."""
    return _SCALAR_TYPES[dtype]


def _argument_error(function, name, position, expected, value):
    """The TypeError for value given as argument name of function (at position, or None when keyword-only), which
    must be expected."""
    where = f" (position {position})" if position else ""
    return TypeError(f"{function}(): argument '{name}'{where} must be {expected}, not {type(value).__name__}")


def _tensor(function, name, position, value):
    """A Tensor argument."""
    if not isinstance(value, _C.TensorBase):
        raise _argument_error(function, name, position, "Tensor", value)
    return value


def _tensor_list(argument, values):
    """values (an iterable) as a tuple of tensors, with the parser's message for an element that is not one;
    argument is the list's index among the parameters, from 0."""
    values = tuple(values)
    for i, value in enumerate(values):
        if not isinstance(value, _C.TensorBase):
            raise TypeError(f"expected Tensor as element {i} in argument {argument}, but got {type(value).__name__}")
    return values


def _tensor_sequence(function, name, position, value):
    """A Tensor[] argument: a list or tuple of tensors, as a tuple."""
    if not isinstance(value, (list, tuple)):
        raise _argument_error(function, name, position, "tuple of Tensors", value)
    return _tensor_list(position - 1, value)


def _is_int(value):
    """Whether the parser reads value as an int by its type alone: a Python or NumPy integer, but not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_int_tensor(value):
    return isinstance(value, _C.TensorBase) and value.dim() == 0 and value.dtype in _INTEGER_DTYPES


def _is_index(value):
    """Whether the parser takes value as an element of an int list: anything with __index__ but a bool, or a 0-d
    integer tensor."""
    if isinstance(value, _C.TensorBase):  # every tensor has __index__, which only some take
        return _is_int_tensor(value)
    return not isinstance(value, bool) and hasattr(type(value), "__index__")


def _int(function, name, position, value):
    """An int argument: a Python or NumPy integer, or a 0-d integer tensor, as a Python int."""
    if _is_int_tensor(value):
        return value.item()
    if not _is_int(value):
        raise _argument_error(function, name, position, "int", value)
    return operator.index(value)


def _int_list(function, name, position, value):
    """An int[] argument: a list or tuple of ints (see _is_index), as a list of Python ints."""
    items = tuple(value) if isinstance(value, (list, tuple)) else None
    if items is None or not all(_is_index(v) for v in items):
        raise _argument_error(function, name, position, "tuple of ints", value)
    return [v.item() if isinstance(v, _C.TensorBase) else operator.index(v) for v in items]


def _scalar(function, name, position, expected, value):
    """A real number, or the one that a 0-d tensor needing no gradient holds, as the parser takes a Scalar or a
    float; else the TypeError that says value must be expected."""
    if isinstance(value, _C.TensorBase) and value.dim() == 0 and not value.requires_grad:
        return value.item()
    if not isinstance(value, numbers.Real):
        raise _argument_error(function, name, position, expected, value)
    return value


def _number(function, name, position, value):
    """A Number argument (PyTorch's Scalar), as the Python number given or held."""
    return _scalar(function, name, position, "Number", value)


def _float(function, name, position, value):
    """A float argument, as a Python float."""
    return float(_scalar(function, name, position, "float", value))


def _bool(function, name, position, value):
    """A bool argument: True or False only."""
    if not isinstance(value, bool):
        raise _argument_error(function, name, position, "bool", value)
    return value


def _dtype(function, value):
    """The keyword-only dtype argument: a wick.dtype or None."""
    if value is not None and not isinstance(value, _C.dtype):
        raise _argument_error(function, "dtype", None, "wick.dtype", value)
    return value


def _wrap_dim(dim, ndim):
    """dim counted from 0, as PyTorch's maybe_wrap_dim: a negative dim counts from the end, and a 0-d tensor takes
    dims -1 and 0."""
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-bound}, {bound - 1}], but got {dim})")
    return dim % bound


def _written(function, result, out, *parameters):
    """What function returns: result, or out holding it. out is resized as PyTorch resizes an out= tensor (with
    its warning when out had elements) and must take result's dtype by PyTorch's casting rule; as there, out= is
    refused where a parameter requires grad."""
    if out is None:
        return result
    if _C.is_grad_enabled() and any(p.requires_grad for p in parameters):
        raise RuntimeError(f"{function}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    return _C.mul(result, True, out=out)  # times True: result's values and dtype, resized and cast into out


def _written_fields(function, results, out, *parameters):
    """What a function returning the named tuple results returns: results, or out, a tuple of as many tensors, each
    holding its field as _written writes it."""
    if out is None:
        return results
    if (not isinstance(out, (tuple, list)) or len(out) != len(results)
            or not all(isinstance(t, _C.TensorBase) for t in out)):
        raise TypeError(f"{function}(): argument 'out' must be a tuple of {len(results)} Tensors, "
                        f"not {type(out).__name__}")
    return type(results)(*(_written(function, r, o, *parameters) for r, o in zip(results, out)))


def _not_implemented(kernel, dtype):
    return RuntimeError(f'"{kernel}" not implemented for \'{_scalar_type(dtype)}\'')


def _promoted(a, b):
    """The dtype PyTorch computes an op of a and b in (tensors, or one of them a Python number): that of where()
    over empty views, which keep each tensor's rank so that a 0-d tensor or a number weighs as little as there."""
    if not isinstance(a, _C.TensorBase):
        a, b = b, a
    empty = [v.reshape(-1)[:0] if isinstance(v, _C.TensorBase) and v.dim() else v for v in (a, b)]
    return _C.where(_C.zeros(0, dtype=_C.bool), *empty).dtype
