"""wick.autograd.function: custom differentiable operations, as PyTorch's torch.autograd.Function.

A subclass gives a static forward(ctx, *args) and backward(ctx, *grad_outputs); MyFn.apply(*args) runs forward
without recording and, when grad mode is on and a tensor argument requires grad, records one node whose backward
calls MyFn.backward (wick._C._record_function, python_ext/autograd.cpp). The node holds the Python callable
that does so; when the engine goes through it without retain_graph, the node drops the callable, and with it
what forward saved.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple, Type, TypeVar, cast

from wick import _C
from wick.autograd.grad_mode import is_grad_enabled, no_grad

if TYPE_CHECKING:  # for annotations only: wick._tensor imports this package
    from wick._tensor import Tensor as _Tensor

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["Function", "FunctionCtx", "once_differentiable"]

_SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


def _is_tensor(obj: object) -> bool:
    return isinstance(obj, _C.TensorBase)


def _shape_str(shape: Tuple[int, ...]) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


class FunctionCtx:
    """The `ctx` that forward and backward of a Function get: what forward keeps for backward, and what it says
    about its outputs."""

    def __init__(self) -> None:
        self.to_save: Tuple[Optional[_C.TensorBase], ...] = ()
        self.dirty_tensors: Tuple[_C.TensorBase, ...] = ()
        self.non_differentiable: Tuple[_C.TensorBase, ...] = ()
        self.materialize_grads = True
        self.needs_input_grad: Tuple[bool, ...] = ()
        # Filled in when the node is recorded: the saved tensors, the versions they must still be at, and what
        # each one is, for the error.
        self._saved: Tuple[Optional[_C.TensorBase], ...] = ()
        self._versions: Tuple[Optional[int], ...] = ()
        self._origins: Tuple[str, ...] = ()
        self._released = False

    def save_for_backward(self, *tensors: Optional[_C.TensorBase]) -> None:
        """Keeps `tensors` (or None) for backward, which reads them from `saved_tensors`. Call it at most once,
        from forward."""
        self.to_save = tensors

    def mark_dirty(self, *tensors: _C.TensorBase) -> None:
        """Says that forward wrote into these inputs in place; each must also be returned as an output."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors: _C.TensorBase) -> None:
        """Says that these outputs have no gradient (indices, say): they do not require grad, and backward gets
        zeros for them."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether backward gets zeros (the default) or None for an output that no gradient reached."""
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self) -> Tuple[_Tensor, ...]:
        """The tensors forward saved, checked not to have been written in place since."""
        if self._released:
            raise RuntimeError(_SECOND_BACKWARD)
        for t, version, origin in zip(self._saved, self._versions, self._origins):
            if t is not None and t._version != version:
                dtype = str(t.dtype).replace("wick.", "")
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{dtype} tensor {_shape_str(t.shape)}], which is {origin}, is at version "
                    f"{t._version}; expected version {version} instead. Hint: clone() a tensor before writing into "
                    "it in place if its old values are needed for backward.")
        return cast("Tuple[_Tensor, ...]", self._saved)

    def _check_saved(self) -> None:
        """PyTorch's TypeError for a saved non-tensor, which it raises only when it records the node."""
        for i, t in enumerate(self.to_save):
            if t is not None and not _is_tensor(t):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")

    def _keep_saved(self, inputs: Sequence[_C.TensorBase], outputs: Sequence[_C.TensorBase],
                    node_name: str) -> None:
        """Takes in what forward saved, at the versions the recorded call left it at (it bumps those of the
        outputs marked dirty).

        A saved output is kept as it is, with its grad_fn, so that backward differentiates through it again
        under create_graph; but its grad_fn holds the node, which holds this: a cycle through C++ that the
        garbage collector cannot see, broken when the engine releases the node (backward without retain_graph).
        """
        self._saved = tuple(self.to_save)
        self._versions = tuple(None if t is None else t._version for t in self._saved)
        output_nr = {id(t): i for i, t in enumerate(outputs)}
        input_ids = {id(t) for t in inputs}
        self._origins = tuple(f"output {output_nr[id(t)]} of {node_name}" if id(t) in output_nr
                              else f"an input of {node_name}" if id(t) in input_ids
                              else f"saved by {node_name}" for t in self._saved)
        self.to_save = ()

    def _release(self) -> None:
        self._saved = self._versions = self._origins = ()
        self._released = True


class _Backward:
    """The callable a Function's node holds: from the gradients of the tensor outputs, Function.backward's per
    argument, and from those, one per tensor input (None where none)."""

    def __init__(self, cls: Type[Function], ctx: FunctionCtx, arg_is_tensor: Tuple[bool, ...],
                 output_slots: Tuple[bool, ...], output_metas: Tuple[Tuple[Tuple[int, ...], _C.dtype, _C.device], ...],
                 name: str) -> None:
        self.cls = cls
        self.ctx = ctx
        self.arg_is_tensor = arg_is_tensor  # per forward argument
        self.output_slots = output_slots  # per forward result: whether it is a tensor (and so has a gradient)
        # (shape, dtype, device) of each tensor output, for zeros where no gradient reached it; not the outputs
        # themselves, which hold the node that holds this.
        self.output_metas = output_metas
        self.name = name

    def __call__(self, *grads: Optional[_C.TensorBase]) -> Tuple[Optional[_C.TensorBase], ...]:
        if self.ctx.materialize_grads:
            grads = tuple(_C.zeros(shape, dtype=dtype, device=device) if g is None else g
                          for g, (shape, dtype, device) in zip(grads, self.output_metas))
        # backward takes one gradient per result of forward: None for a result that is no tensor.
        given = iter(grads)
        per_result = tuple(next(given) if is_tensor else None for is_tensor in self.output_slots)
        result = self.cls.backward(self.ctx, *per_result)
        if not isinstance(result, tuple):
            result = (result,)
        expected = len(self.arg_is_tensor)
        # As PyTorch, gradients past the last argument are allowed when they are all None.
        if len(result) > expected and all(g is None for g in result[expected:]):
            result = result[:expected]
        if len(result) != expected:
            raise RuntimeError(f"function {self.name} returned an incorrect number of gradients (expected "
                               f"{expected}, got {len(result)})")
        per_input = []
        for position, (g, is_tensor) in enumerate(zip(result, self.arg_is_tensor), 1):
            if is_tensor:
                per_input.append(g)
            elif g is not None:
                raise RuntimeError(f"function {self.name} returned a gradient different than None at position "
                                   f"{position}, but the corresponding forward input was not a Variable")
        return tuple(per_input)

    def _release(self) -> None:
        """The engine went through the node without retain_graph: what ctx saved is freed."""
        self.ctx._release()

    def __del__(self) -> None:
        # The node dropped this, with the graph.
        self.ctx._release()


class Function:
    """Base class of custom differentiable operations, as torch.autograd.Function.

        >>> class Exp(wick.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         result = x.exp()
        ...         ctx.save_for_backward(result)
        ...         return result
        ...
        ...     @staticmethod
        ...     def backward(ctx, grad_output):
        ...         result, = ctx.saved_tensors
        ...         return grad_output * result
        >>> y = Exp.apply(x)

    Check a backward against finite differences with wick.autograd.gradcheck.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: Function.apply(*args), with @staticmethod forward "
            "and backward)")

    # forward and backward take (*args, **kwargs) for type checkers, which then accept any signature a subclass
    # gives them.
    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        """forward(ctx, *args): computes the outputs from the arguments (tensors or anything else), without
        recording; keeps what backward needs on `ctx`. Overridden by every subclass."""
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(*args: Any, **kwargs: Any) -> Any:
        """backward(ctx, *grad_outputs): the gradients of the arguments of forward (None for one that needs
        none, or is no tensor) from those of its outputs (one per result of forward; None for a result that is
        no tensor). Overridden by every subclass."""
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Runs forward on `args`; when grad mode is on and a tensor argument requires grad, the tensor outputs
        get a grad_fn that runs backward."""
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(_is_tensor(a) and a.requires_grad for a in args)
        record = is_grad_enabled() and any(ctx.needs_input_grad)
        with no_grad():
            raw = cls.forward(ctx, *args)
        is_tuple = isinstance(raw, tuple)
        results = list(raw) if is_tuple else [raw]

        dirty = ctx.dirty_tensors
        if any(not any(d is r for r in results) for d in dirty):
            raise RuntimeError("Some elements marked as dirty during the forward method were not returned as "
                               "output. The inputs that are modified inplace must all be outputs of the Function.")
        non_differentiable: List[_C.TensorBase] = []
        for i, r in enumerate(results):
            if not _is_tensor(r):
                continue
            fixed = any(r is n for n in ctx.non_differentiable)
            if any(r is a for a in args) and not any(r is d for d in dirty):
                # An input given back unchanged must not get this node as its grad_fn (a leaf would stop being
                # one): as in PyTorch, a view of it is the output, or a detached alias where it has no gradient.
                with no_grad():
                    results[i] = r.detach() if fixed else r.view(r.shape)
            if fixed:
                non_differentiable.append(results[i])
        outputs = tuple(r for r in results if _is_tensor(r))

        if record:
            ctx._check_saved()
            name = cls.__name__ + "Backward"
            backward = _Backward(cls, ctx, tuple(_is_tensor(a) for a in args), tuple(_is_tensor(r) for r in results),
                                 tuple((t.shape, t.dtype, t.device) for t in outputs), name)
            inputs = tuple(a for a in args if _is_tensor(a))
            _C._record_function(backward, inputs, outputs, tuple(dirty), tuple(non_differentiable), name)
            ctx._keep_saved(inputs, outputs, name)
        return tuple(results) if is_tuple else results[0]


def once_differentiable(fn: F) -> F:
    """Decorates a Function's backward that is not differentiable itself: it runs without recording, and
    differentiating its results (create_graph) raises."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with no_grad():
            outputs = fn(ctx, *args)
        if not is_grad_enabled() or not any(_is_tensor(a) and a.requires_grad for a in args):
            return outputs
        if not isinstance(outputs, tuple):
            outputs = (outputs,)

        # The results come back through a node that raises when the engine reaches it. Its inputs are leaves
        # of their own (aliases of the results) only so that it has edges to go along, as PyTorch's
        # DelayedError does.
        def fail(*grads: Any) -> Any:
            raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")

        differentiable = [_is_tensor(o) and o.dtype.is_floating_point for o in outputs]
        leaves = tuple(o.detach().requires_grad_() for o, d in zip(outputs, differentiable) if d)
        aliases = [o.detach() if d else o for o, d in zip(outputs, differentiable)]
        _C._record_function(fail, leaves, tuple(a for a, d in zip(aliases, differentiable) if d), (), (), "Error")
        return tuple(aliases)
    return cast(F, wrapper)
