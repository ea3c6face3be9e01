"""wick.integration_functions as type checkers see it (wick/integration_functions.py)."""
from typing import Optional

from wick._C import TensorBase
from wick._tensor import Tensor

__all__ = ["trapezoid", "trapz", "cumulative_trapezoid"]

def trapezoid(y: TensorBase, x: Optional[TensorBase] = ..., *, dx: Optional[float] = ..., dim: int = ...) -> Tensor: ...
def trapz(y: TensorBase, x: Optional[TensorBase] = ..., *, dx: Optional[float] = ..., dim: int = ...) -> Tensor: ...
def cumulative_trapezoid(y: TensorBase, x: Optional[TensorBase] = ..., *, dx: Optional[float] = ...,
                         dim: int = ...) -> Tensor: ...
