"""wick.reduction_functions as type checkers see it (wick/reduction_functions.py)."""
from typing import Literal, NamedTuple, Optional, Sequence, Tuple, Union, overload

from wick._C import TensorBase, _Number, dtype as _dtype
from wick._tensor import Tensor

__all__ = ["std_mean", "var_mean", "nansum", "nanmean", "count_nonzero", "aminmax", "diff", "quantile",
           "nanquantile", "bincount", "histc", "isclose", "histogram", "mode", "unique_consecutive"]
METHODS: Tuple[str, ...]

_Dims = Union[int, Sequence[int], None]
_Interpolation = Literal["linear", "lower", "higher", "midpoint", "nearest"]
_Outs = Union[Tuple[TensorBase, TensorBase], Sequence[TensorBase]]

class _aminmax(NamedTuple):
    min: Tensor
    max: Tensor

class _histogram(NamedTuple):
    hist: Tensor
    bin_edges: Tensor

class _mode(NamedTuple):
    values: Tensor
    indices: Tensor

def var_mean(input: TensorBase, dim: _Dims = ..., unbiased: Optional[bool] = ..., keepdim: bool = ..., *,
             correction: Optional[int] = ...) -> Tuple[Tensor, Tensor]: ...
def std_mean(input: TensorBase, dim: _Dims = ..., unbiased: Optional[bool] = ..., keepdim: bool = ..., *,
             correction: Optional[int] = ...) -> Tuple[Tensor, Tensor]: ...
def nansum(input: TensorBase, dim: _Dims = ..., keepdim: bool = ..., *, dtype: Optional[_dtype] = ...,
           out: Optional[TensorBase] = ...) -> Tensor: ...
def nanmean(input: TensorBase, dim: _Dims = ..., keepdim: bool = ..., *, dtype: Optional[_dtype] = ...,
            out: Optional[TensorBase] = ...) -> Tensor: ...
def count_nonzero(input: TensorBase, dim: _Dims = ...) -> Tensor: ...
def aminmax(input: TensorBase, *, dim: Optional[int] = ..., keepdim: bool = ...,
            out: Optional[_Outs] = ...) -> _aminmax: ...
def diff(input: TensorBase, n: int = ..., dim: int = ..., prepend: Optional[TensorBase] = ...,
         append: Optional[TensorBase] = ...) -> Tensor: ...
def quantile(input: TensorBase, q: Union[float, TensorBase], dim: Optional[int] = ..., keepdim: bool = ..., *,
             interpolation: _Interpolation = ..., out: Optional[TensorBase] = ...) -> Tensor: ...
def nanquantile(input: TensorBase, q: Union[float, TensorBase], dim: Optional[int] = ..., keepdim: bool = ..., *,
                interpolation: _Interpolation = ..., out: Optional[TensorBase] = ...) -> Tensor: ...
def bincount(input: TensorBase, weights: Optional[TensorBase] = ..., minlength: int = ...) -> Tensor: ...
def histc(input: TensorBase, bins: int = ..., min: _Number = ..., max: _Number = ...) -> Tensor: ...
def isclose(input: TensorBase, other: TensorBase, rtol: float = ..., atol: float = ...,
            equal_nan: bool = ...) -> Tensor: ...
def histogram(input: TensorBase, bins: Union[int, TensorBase], *, range: Optional[Sequence[float]] = ...,
              weight: Optional[TensorBase] = ..., density: bool = ...) -> _histogram: ...
def mode(input: TensorBase, dim: int = ..., keepdim: bool = ..., *, out: Optional[_Outs] = ...) -> _mode: ...
@overload
def unique_consecutive(input: TensorBase, return_inverse: Literal[False] = ..., return_counts: Literal[False] = ...,
                       dim: Optional[int] = ...) -> Tensor: ...
@overload
def unique_consecutive(input: TensorBase, return_inverse: Literal[True], return_counts: Literal[False] = ...,
                       dim: Optional[int] = ...) -> Tuple[Tensor, Tensor]: ...
@overload
def unique_consecutive(input: TensorBase, return_inverse: Literal[False] = ..., *, return_counts: Literal[True],
                       dim: Optional[int] = ...) -> Tuple[Tensor, Tensor]: ...
@overload
def unique_consecutive(input: TensorBase, return_inverse: Literal[True], return_counts: Literal[True],
                       dim: Optional[int] = ...) -> Tuple[Tensor, Tensor, Tensor]: ...
@overload
def unique_consecutive(input: TensorBase, return_inverse: bool = ..., return_counts: bool = ...,
                       dim: Optional[int] = ...) -> Union[Tensor, Tuple[Tensor, ...]]: ...
