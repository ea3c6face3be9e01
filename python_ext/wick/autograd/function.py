"""wick.autograd.function: custom differentiable operations, as PyTorch's torch.autograd.Function.

A subclass gives a static forward(ctx, *args) and backward(ctx, *grad_outputs); MyFn.apply(*args) runs forward
without recording and, when grad mode is on and a tensor argument requires grad, records one node whose backward
calls MyFn.backward (wick._C._record_function, python_ext/autograd.cpp). The node holds the Python callable
that does so; when the engine goes through it without retain_graph, the node drops the callable, and with it
what forward saved.
"""
import functools

from wick import _C
from wick.autograd.grad_mode import is_grad_enabled, no_grad

__all__ = ["Function", "FunctionCtx", "once_differentiable"]

_SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


def _is_tensor(obj):
    return isinstance(obj, _C.TensorBase)


def _shape_str(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


class FunctionCtx:
    """The `ctx` that forward and backward of a Function get: what forward keeps for backward, and what it says
    about its outputs."""

    def __init__(self):
        self.to_save = ()
        self.dirty_tensors = ()
        self.non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad = ()
        # Filled in when the node is recorded: the saved tensors, the versions they must still be at, and what
        # each one is, for the error.
        self._saved = ()
        self._versions = ()
        self._origins = ()
        self._node_name = ""
        self._released = False

    def save_for_backward(self, *tensors):
        """Keeps `tensors` (or None) for backward, which reads them from `saved_tensors`. Call it at most once,
        from forward."""
        self.to_save = tensors

    def mark_dirty(self, *tensors):
        """Says that forward wrote into these inputs in place; each must also be returned as an output."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        """Says that these outputs have no gradient (indices, say): they do not require grad, and backward gets
        zeros for them."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Whether backward gets zeros (the default) or None for an output that no gradient reached."""
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self):
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
        return self._saved

    def _check_saved(self):
        for i, t in enumerate(self.to_save):
            if t is not None and not _is_tensor(t):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")

    def _keep_saved(self, outputs, node_name):
        """Takes in what forward saved, at the versions the recorded call left it at (it bumps those of the
        outputs marked dirty)."""
        self._saved = tuple(self.to_save)
        self._versions = tuple(None if t is None else t._version for t in self._saved)
        output_nr = {id(t): i for i, t in enumerate(outputs)}
        self._origins = tuple(f"output {output_nr[id(t)]} of {node_name}" if id(t) in output_nr
                              else f"an input of {node_name}" for t in self._saved)
        self.to_save = ()

    def _release(self):
        self._saved = self._versions = self._origins = ()
        self._released = True


class _Backward:
    """The callable a Function's node holds: from the gradients of the tensor outputs, Function.backward's per
    argument, and from those, one per tensor input (None where none)."""

    def __init__(self, cls, ctx, arg_is_tensor, output_slots, output_metas, name):
        self.cls = cls
        self.ctx = ctx
        self.arg_is_tensor = arg_is_tensor  # per forward argument
        self.output_slots = output_slots  # per forward result: whether it is a tensor (and so has a gradient)
        # (shape, dtype, device) of each tensor output, for zeros where no gradient reached it; not the outputs
        # themselves, which hold the node that holds this.
        self.output_metas = output_metas
        self.name = name

    def __call__(self, *grads):
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

    def __del__(self):
        # The node dropped this: after a backward without retain_graph, or with the graph.
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

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: Function.apply(*args), with @staticmethod forward "
            "and backward)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Computes the outputs from the arguments (tensors or anything else), without recording; keeps what
        backward needs on `ctx`. Overridden by every subclass."""
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """The gradients of the arguments of forward (None for one that needs none, or is no tensor) from those
        of its outputs (one per result of forward; None for a result that is no tensor). Overridden by every
        subclass."""
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args):
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
        for i, r in enumerate(results):
            # An input given back unchanged becomes a view of it, as in PyTorch: the output gets this node as
            # its grad_fn, which the input itself must not (a leaf would stop being one).
            if _is_tensor(r) and any(r is a for a in args) and not any(r is d for d in dirty):
                with no_grad():
                    results[i] = r.view(r.shape)
        outputs = tuple(r for r in results if _is_tensor(r))

        if record:
            ctx._check_saved()
            name = cls.__name__ + "Backward"
            backward = _Backward(cls, ctx, tuple(_is_tensor(a) for a in args), tuple(_is_tensor(r) for r in results),
                                 tuple((t.shape, t.dtype, t.device) for t in outputs), name)
            _C._record_function(backward, tuple(a for a in args if _is_tensor(a)), outputs, tuple(dirty),
                                tuple(ctx.non_differentiable), name)
            ctx._keep_saved(outputs, name)
        return tuple(results) if is_tuple else results[0]


def once_differentiable(fn):
    """Decorates a Function's backward that is not differentiable itself: it runs without recording, and
    differentiating its results (create_graph) raises."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not is_grad_enabled() or not any(_is_tensor(a) and a.requires_grad for a in args):
            return outputs
        if not isinstance(outputs, tuple):
            outputs = (outputs,)

        # The results come back through a node that raises when the engine reaches it. Its inputs are leaves
        # of their own (aliases of the results) only so that it has edges to go along, as PyTorch's
        # DelayedError does.
        def fail(*grads):
            raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")

        differentiable = [_is_tensor(o) and o.dtype.is_floating_point for o in outputs]
        leaves = tuple(o.detach().requires_grad_() for o, d in zip(outputs, differentiable) if d)
        aliases = [o.detach() if d else o for o, d in zip(outputs, differentiable)]
        _C._record_function(fail, leaves, tuple(a for a, d in zip(aliases, differentiable) if d), (), (), "Error")
        return tuple(aliases)
    return wrapper
