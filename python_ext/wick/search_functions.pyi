"""wick.search_functions as type checkers see it (wick/search_functions.py)."""
from typing import Literal, Optional, Tuple, Union, overload

from wick._C import TensorBase, _Number
from wick._tensor import Tensor

__all__ = ["searchsorted", "bucketize", "isin"]
METHODS: Tuple[str, ...]

def searchsorted(sorted_sequence: TensorBase, input: Union[TensorBase, _Number], *, out_int32: bool = ...,
                 right: bool = ..., side: Optional[Literal["left", "right"]] = ...,
                 sorter: Optional[TensorBase] = ...) -> Tensor: ...
def bucketize(input: Union[TensorBase, _Number], boundaries: TensorBase, *, out_int32: bool = ...,
              right: bool = ...) -> Tensor: ...
@overload
def isin(elements: TensorBase, test_elements: Union[TensorBase, _Number], *, assume_unique: bool = ...,
         invert: bool = ...) -> Tensor: ...
@overload
def isin(elements: _Number, test_elements: TensorBase, *, assume_unique: bool = ..., invert: bool = ...) -> Tensor: ...
