"""wick.scan_functions as type checkers see it (wick/scan_functions.py)."""
from typing import NamedTuple, Optional, Sequence, Tuple, Union

from wick._C import TensorBase
from wick._tensor import Tensor

__all__ = ["cummax", "cummin", "logcumsumexp"]
METHODS: Tuple[str, ...]

_Outs = Union[Tuple[TensorBase, TensorBase], Sequence[TensorBase]]

class _cummax(NamedTuple):
    values: Tensor
    indices: Tensor

class _cummin(NamedTuple):
    values: Tensor
    indices: Tensor

def cummax(input: TensorBase, dim: int, *, out: Optional[_Outs] = ...) -> _cummax: ...
def cummin(input: TensorBase, dim: int, *, out: Optional[_Outs] = ...) -> _cummin: ...
def logcumsumexp(input: TensorBase, dim: int, *, out: Optional[TensorBase] = ...) -> Tensor: ...
