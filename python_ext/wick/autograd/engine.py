"""wick.autograd.backward and wick.autograd.grad, as PyTorch's: the engine is core's (Note [Engine])."""
from typing import TYPE_CHECKING, Optional, Sequence, Tuple, Union

from wick import _C

if TYPE_CHECKING:
    from wick._tensor import Tensor as _Tensor

_Tensors = Union[_C.TensorBase, Sequence[_C.TensorBase]]
_Grads = Union[_C.TensorBase, Sequence[Optional[_C.TensorBase]], None]


def _tensors(value: Optional[_Tensors], what: str) -> Tuple[_C.TensorBase, ...]:
    if isinstance(value, _C.TensorBase):
        return (value,)
    if value is None:
        return ()
    out = tuple(value)
    for t in out:
        if not isinstance(t, _C.TensorBase):
            raise TypeError(f"{what} must be tensors, not {type(t).__name__}")
    return out


def _grads(grads: _Grads, outputs: Tuple[_C.TensorBase, ...], what: str) -> Tuple[Optional[_C.TensorBase], ...]:
    """One gradient (a tensor, or None for a gradient of 1) per output."""
    if grads is None:
        return (None,) * len(outputs)
    found = (grads,) if isinstance(grads, _C.TensorBase) else tuple(grads)
    if len(found) != len(outputs):
        raise RuntimeError(f"{what} should be a sequence of length {len(outputs)}, got {len(found)}")
    for g in found:
        if g is not None and not isinstance(g, _C.TensorBase):
            raise TypeError(f"{what} must be tensors or None, not {type(g).__name__}")
    return found


def backward(tensors: _Tensors, grad_tensors: _Grads = None, retain_graph: Optional[bool] = None,
             create_graph: bool = False, inputs: Optional[_Tensors] = None) -> None:
    """Accumulates the gradients of `tensors` into the .grad of the leaves of their graph (or of `inputs`)."""
    outputs = _tensors(tensors, "tensors")
    grads = _grads(grad_tensors, outputs, "grad_tensors")
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None and not isinstance(inputs, _C.TensorBase) and len(inputs) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    _C._backward(outputs, grads, bool(retain_graph), bool(create_graph), _tensors(inputs, "inputs"))


def grad(outputs: _Tensors, inputs: _Tensors, grad_outputs: _Grads = None, retain_graph: Optional[bool] = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool = False,
         is_grads_batched: bool = False) -> Tuple[Optional["_Tensor"], ...]:
    """The gradients of `outputs` with respect to each of `inputs`, as a tuple (None for an unused input
    with allow_unused=True)."""
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched=True is not supported")
    outs = _tensors(outputs, "outputs")
    ins = _tensors(inputs, "inputs")
    if not ins:
        raise RuntimeError("grad requires at least one input")
    grads = _grads(grad_outputs, outs, "grad_outputs")
    if retain_graph is None:
        retain_graph = create_graph
    return _C._grad(outs, ins, grads, bool(retain_graph), bool(create_graph), bool(allow_unused))
