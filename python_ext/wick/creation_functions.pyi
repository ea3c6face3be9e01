"""wick.creation_functions as type checkers see it (wick/creation_functions.py)."""
from typing import Any, Optional, Tuple

from wick._C import _DeviceLike, dtype as _dtype
from wick._tensor import Tensor

__all__ = ["asarray", "frombuffer"]
METHODS: Tuple[str, ...]

# obj: a tensor, a NumPy array, an object with the buffer protocol or __dlpack__, a number or a nested sequence.
def asarray(obj: Any, *, dtype: Optional[_dtype] = ..., device: Optional[_DeviceLike] = ...,
            copy: Optional[bool] = ..., requires_grad: bool = ...) -> Tensor: ...
# buffer: any object with the buffer protocol.
def frombuffer(buffer: Any, *, dtype: _dtype, count: int = ..., offset: int = ...,
               requires_grad: bool = ...) -> Tensor: ...
