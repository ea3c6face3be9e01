"""wick.autograd.functional: derivatives of whole functions, as PyTorch's torch.autograd.functional.

    >>> wick.autograd.functional.jacobian(lambda x: x ** 2, wick.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])

Each runs func on fresh copies of the inputs that require grad and differentiates with autograd.grad: vjp and vhp
by one backward pass, jvp and hvp by the double-backward trick (the vector-Jacobian product is linear in its vector,
so differentiating it with respect to that vector gives the Jacobian-vector product), jacobian by one backward pass
per output element (vectorize=True takes the same passes: there is no batched gradient) and hessian as the
jacobian of the gradient. create_graph keeps the results differentiable; strict raises where an output does not
depend on an input instead of giving zeros.
"""
from wick import _C
from wick.autograd.engine import grad as _grad
from wick.autograd.grad_mode import enable_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(value, arg_name, fn_name):
    """(whether value was a tuple, value as a tuple of tensors)."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for i, item in enumerate(values):
        if not isinstance(item, _C.TensorBase):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                                f"but the value at index {i} has type {type(item)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the given {arg_name} has type {type(item)}.")
    return is_tuple, values


def _untuple(is_tuple, values):
    """values as given: the tuple, or its one element."""
    return values if is_tuple else values[0]


def _prepare(inputs, create_graph, need_graph):
    """Copies of inputs that require grad (when need_graph), for func to run on. With create_graph they stay
    connected to the inputs' own history (a view), so the results can be differentiated further."""
    if create_graph:
        return tuple(x.view_as(x) if x.requires_grad else x.detach().requires_grad_(need_graph) for x in inputs)
    return tuple(x.detach().requires_grad_(need_graph) for x in inputs)


def _finish(values, create_graph):
    """values detached from the graph unless create_graph (None stays None)."""
    if create_graph:
        return values
    return tuple(None if v is None else (v.detach() if isinstance(v, _C.TensorBase) else _finish(v, False))
                 for v in values)


def _check_v(v, other, fn_name, what):
    """v matches other tensor for tensor in number and size."""
    if len(v) != len(other):
        raise RuntimeError(f"{fn_name}: {what} has length {len(other)} but v has length {len(v)}")
    for i, (a, b) in enumerate(zip(v, other)):
        if a.shape != b.shape:
            raise RuntimeError(f"Entry {i} in v has invalid size: should be {tuple(b.shape)} but got "
                               f"{tuple(a.shape)}.")


def _autograd_grad(outputs, inputs, grad_outputs, create_graph, retain_graph=None):
    """autograd.grad of the outputs that require grad (the others contribute nothing), None for unused inputs."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or [None] * len(outputs)) if o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=retain_graph,
                 create_graph=create_graph, allow_unused=True)


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """grads with None replaced by zeros the shape of refs; with strict, a None is an error saying why."""
    result = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                if stage == "back":
                    raise RuntimeError(f"The output of the user-provided function is independent of input {i}. "
                                       "This is not allowed in strict mode.")
                if stage == "back_trick":
                    raise RuntimeError(f"The gradient with respect to the input is independent of entry {i} in the "
                                       "grad_outputs when using the double backward trick to compute forward mode "
                                       "gradients. This is not allowed in strict mode.")
                if stage == "double_back":
                    raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                       "This is not allowed in strict mode.")
                raise RuntimeError(f"The hessian of the user-provided function is independent of entry {i} in the "
                                   "grad_jacobian. This is not allowed in strict mode as it prevents from using "
                                   "the double backward trick to replace forward mode AD.")
            g = _C.zeros_like(ref)
        result.append(g)
    return tuple(result)


def _run(func, fn_name, inputs, create_graph, need_graph=True):
    """(is_tuple of inputs, the prepared inputs, is_tuple of outputs, outputs) of func run under enable_grad."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    with enable_grad():
        inputs = _prepare(inputs, create_graph, need_graph)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", fn_name)
    return is_inputs_tuple, inputs, is_outputs_tuple, outputs


def _vector(v, fn_name, refs, what, scalar_outputs=False):
    """v as a tuple matching refs; v may be None only when refs is a single one-element tensor."""
    if v is None:
        if len(refs) != 1 or refs[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if the {what} is a single Tensor with a single "
                               "element.")
        return (_C.ones_like(refs[0]),)
    _, v = _as_tuple(v, "v", fn_name)
    _check_v(v, refs, fn_name, what)
    return v


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """vjp(func, inputs, v=None, create_graph=False, strict=False) -> (func_output, vjp)

    The dot product of v with the Jacobian of func at inputs: v^T J, shaped as inputs."""
    is_inputs_tuple, inputs, is_outputs_tuple, outputs = _run(func, "vjp", inputs, create_graph)
    with enable_grad():
        v = _vector(v, "vjp", outputs, "user-provided function output")
        grads = _autograd_grad(outputs, inputs, v, create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "back")
    return (_untuple(is_outputs_tuple, _finish(outputs, create_graph)),
            _untuple(is_inputs_tuple, _finish(result, create_graph)))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """jvp(func, inputs, v=None, create_graph=False, strict=False) -> (func_output, jvp)

    The product of the Jacobian of func at inputs with v (shaped as inputs): J v, shaped as func's outputs."""
    is_inputs_tuple, inputs, is_outputs_tuple, outputs = _run(func, "jvp", inputs, create_graph)
    with enable_grad():
        v = _vector(v, "jvp", inputs, "input to the user-provided function")
        grad_outputs = tuple(_C.zeros_like(out).requires_grad_(True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _fill_in_zeros(grad_inputs, inputs, strict, create_graph, "back")
        used = [(g, u) for g, u in zip(grad_inputs, v) if g is not None and g.requires_grad]
        if used:
            grads = _grad([g for g, _ in used], grad_outputs, [u for _, u in used], create_graph=create_graph,
                          allow_unused=True)
        else:
            grads = (None,) * len(grad_outputs)
        result = _fill_in_zeros(grads, outputs, strict, create_graph, "back_trick")
    return (_untuple(is_outputs_tuple, _finish(outputs, create_graph)),
            _untuple(is_outputs_tuple, _finish(result, create_graph)))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode")

    The Jacobian of func at inputs: for an output of shape O and an input of shape I, a tensor of shape O + I; a
    tuple over inputs and/or outputs where those are tuples. vectorize=True gives the same values, computed the same
    way (one backward pass per output element); only reverse mode is available."""
    if strategy not in ("forward-mode", "reverse-mode"):
        # AssertionError, as PyTorch (whose check is an assert statement).
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
                         'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer '
                         'to use "reverse-mode".')
    if strategy == "forward-mode":
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                      "only implemented for `vectorize=True`.")
        raise NotImplementedError("jacobian: forward-mode AD is not supported; use strategy=\"reverse-mode\"")
    is_inputs_tuple, inputs, is_outputs_tuple, outputs = _run(func, "jacobian", inputs, create_graph)
    with enable_grad():
        jacobians = []  # per output, a tuple over inputs
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]  # per input, the gradient of each element of out
            flat = out.reshape(-1)
            for j in range(flat.numel()):
                grads = _autograd_grad((flat[j],), inputs, None, create_graph, retain_graph=True)
                for k, (g, x) in enumerate(zip(grads, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{k}. This is not allowed in strict mode.")
                        g = _C.zeros_like(x)
                    rows[k].append(g)
            jacobians.append(tuple(
                (_C.stack(r) if r else _C.zeros([0, *x.shape], dtype=x.dtype, device=x.device))
                .view(*out.shape, *x.shape) for r, x in zip(rows, inputs)))
    jacobians = tuple(_finish(j, create_graph) for j in jacobians)
    if is_outputs_tuple:
        return tuple(_untuple(is_inputs_tuple, j) for j in jacobians)
    return _untuple(is_inputs_tuple, jacobians[0])


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
    outer_jacobian_strategy="reverse-mode")

    The Hessian of the scalar function func at inputs: for inputs of shapes I and J, a tensor of shape I + J (a
    tuple of tuples where inputs is a tuple)."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def gradient(*values):
        is_out_tuple, out = _as_tuple(func(*values), "outputs of the user-provided function", "hessian")
        if is_out_tuple:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out[0].numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single "
                               "element")
        grads = _autograd_grad((out[0].reshape(()),), values, None, create_graph=True)
        return _fill_in_zeros(grads, values, strict, create_graph, "double_back")

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return _untuple(is_inputs_tuple, tuple(_untuple(is_inputs_tuple, row) for row in result))


def _scalar_output(func, fn_name, inputs, create_graph):
    """_run for vhp and hvp: func must return one single-element tensor."""
    is_inputs_tuple, inputs, is_outputs_tuple, outputs = _run(func, fn_name, inputs, create_graph)
    if is_outputs_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return is_inputs_tuple, inputs, outputs[0]


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """vhp(func, inputs, v=None, create_graph=False, strict=False) -> (func_output, vhp)

    The dot product of v with the Hessian of the scalar function func at inputs: v^T H, shaped as inputs."""
    is_inputs_tuple, inputs, output = _scalar_output(func, "vhp", inputs, create_graph)
    with enable_grad():
        v = _vector(v, "vhp", inputs, "input to the user-provided function")
        jac = _autograd_grad((output,), inputs, None, create_graph=True)
        jac = _fill_in_zeros(jac, inputs, strict, create_graph, "double_back")
        grads = _autograd_grad(jac, inputs, v, create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back")
    return _finish((output,), create_graph)[0], _untuple(is_inputs_tuple, _finish(result, create_graph))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """hvp(func, inputs, v=None, create_graph=False, strict=False) -> (func_output, hvp)

    The product of the Hessian of the scalar function func at inputs with v: H v, shaped as inputs (H is
    symmetric, so equal to vhp; computed by the double-backward trick, as PyTorch)."""
    is_inputs_tuple, inputs, output = _scalar_output(func, "hvp", inputs, create_graph)
    with enable_grad():
        v = _vector(v, "hvp", inputs, "input to the user-provided function")
        jac = _autograd_grad((output,), inputs, None, create_graph=True)
        jac = _fill_in_zeros(jac, inputs, strict, create_graph, "double_back")
        grad_jac = tuple(_C.zeros_like(x).requires_grad_(True) for x in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        double_back = _fill_in_zeros(double_back, inputs, strict, create_graph, "double_back")
        grads = _autograd_grad(double_back, grad_jac, v, create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back_trick")
    return _finish((output,), create_graph)[0], _untuple(is_inputs_tuple, _finish(result, create_graph))
