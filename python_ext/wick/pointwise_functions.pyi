"""wick.pointwise_functions as type checkers see it (wick/pointwise_functions.py)."""
from typing import NamedTuple, Optional, Tuple, Union

from wick._C import TensorBase
from wick._tensor import Tensor

__all__ = ["float_power", "ldexp", "frexp", "isreal"]
METHODS: Tuple[str, ...]

_TensorOrNumber = Union[TensorBase, int, float]

class _frexp(NamedTuple):
    mantissa: Tensor
    exponent: Tensor

def float_power(input: _TensorOrNumber, exponent: _TensorOrNumber, *, out: Optional[TensorBase] = ...) -> Tensor: ...
def float_power_(input: TensorBase, exponent: _TensorOrNumber) -> Tensor: ...
def ldexp(input: TensorBase, other: TensorBase, *, out: Optional[TensorBase] = ...) -> Tensor: ...
def ldexp_(input: TensorBase, other: TensorBase) -> Tensor: ...
def frexp(input: TensorBase, *, out: Optional[Tuple[TensorBase, TensorBase]] = ...) -> _frexp: ...
def isreal(input: TensorBase) -> Tensor: ...
