"""wick.type_info as type checkers see it (wick/type_info.py)."""
from typing import Tuple, Type, Union

from wick._C import TensorBase, _Number, dtype as _dtype

__all__ = ["finfo", "iinfo", "promote_types", "result_type", "can_cast", "get_default_dtype", "set_default_dtype"]
METHODS: Tuple[str, ...]

_DtypeLike = Union[_dtype, Type[bool], Type[int], Type[float]]

class finfo:
    bits: int
    eps: float
    max: float
    min: float
    tiny: float
    smallest_normal: float
    resolution: float
    dtype: str
    def __init__(self, type: _DtypeLike = ...) -> None: ...
    def __eq__(self, other: object) -> bool: ...

class iinfo:
    bits: int
    max: int
    min: int
    dtype: str
    def __init__(self, type: _DtypeLike) -> None: ...
    def __eq__(self, other: object) -> bool: ...

def promote_types(type1: _DtypeLike, type2: _DtypeLike) -> _dtype: ...
def result_type(tensor: Union[TensorBase, _Number], other: Union[TensorBase, _Number]) -> _dtype: ...
def can_cast(from_: _DtypeLike, to: _DtypeLike) -> bool: ...
def get_default_dtype() -> _dtype: ...
def set_default_dtype(d: _dtype) -> None: ...
