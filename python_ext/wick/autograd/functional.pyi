"""wick.autograd.functional as type checkers see it (wick/autograd/functional.py)."""
from typing import Any, Callable, Optional, Tuple, Union

from wick._C import TensorBase
from wick._tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_Tensors = Union[TensorBase, Tuple[TensorBase, ...]]
_Function = Callable[..., Any]

def vjp(func: _Function, inputs: _Tensors, v: Optional[_Tensors] = ..., create_graph: bool = ...,
        strict: bool = ...) -> Tuple[Any, Any]: ...
def jvp(func: _Function, inputs: _Tensors, v: Optional[_Tensors] = ..., create_graph: bool = ...,
        strict: bool = ...) -> Tuple[Any, Any]: ...
def jacobian(func: _Function, inputs: _Tensors, create_graph: bool = ..., strict: bool = ..., vectorize: bool = ...,
             strategy: str = ...) -> Any: ...
def hessian(func: _Function, inputs: _Tensors, create_graph: bool = ..., strict: bool = ..., vectorize: bool = ...,
            outer_jacobian_strategy: str = ...) -> Any: ...
def vhp(func: _Function, inputs: _Tensors, v: Optional[_Tensors] = ..., create_graph: bool = ...,
        strict: bool = ...) -> Tuple[Tensor, Any]: ...
def hvp(func: _Function, inputs: _Tensors, v: Optional[_Tensors] = ..., create_graph: bool = ...,
        strict: bool = ...) -> Tuple[Tensor, Any]: ...
