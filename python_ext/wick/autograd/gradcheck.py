"""wick.autograd.gradcheck: gradcheck and gradgradcheck, as PyTorch's torch.autograd.gradcheck.

gradcheck compares the Jacobians that backward gives (wick.autograd.grad of each output element in turn) with
those of central differences; gradgradcheck checks second derivatives, by gradcheck of the function that
computes the gradients with create_graph. Finite differences perturb a copy of each input, not the input itself
as PyTorch does through .data: in wick every write bumps the version of the tensor's memory, which would make
graphs that saved the input (gradcheck's own among them) refuse to run backward.
"""
from __future__ import annotations

import itertools
import random
import warnings
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple, Union

from wick import _C
from wick.autograd.engine import grad as _grad
from wick.autograd.function import Function
from wick.autograd.grad_mode import no_grad

if TYPE_CHECKING:  # for annotations only: wick._tensor imports this package
    from wick._tensor import Tensor as _Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]

_Inputs = Union["_Tensor", Sequence[Any]]
_Step = Callable[[int], None]


class GradcheckError(RuntimeError):
    """Error raised by gradcheck and gradgradcheck."""


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations, this failure might be expected: call
gradcheck/gradgradcheck with `nondet_tol=<tol>` as a keyword argument.
"""

FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode! Call gradcheck/gradgradcheck with `fast_mode=False`.
""".strip()


def _is_tensor(obj: object) -> bool:
    return isinstance(obj, _C.TensorBase)


def _as_tuple(x: Any) -> Tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _tensor_outputs(out: Any) -> Tuple[_Tensor, ...]:
    return tuple(o for o in _as_tuple(out) if _is_tensor(o))


def _differentiable_outputs(out: Any) -> Tuple[_Tensor, ...]:
    return tuple(o for o in _tensor_outputs(out) if o.requires_grad)


def _diff_input_indices(inputs: Sequence[Any]) -> List[int]:
    return [i for i, a in enumerate(inputs) if _is_tensor(a) and a.requires_grad]


def _allclose(a: _Tensor, b: _Tensor, rtol: float, atol: float) -> bool:
    # In float64, which holds every other float dtype exactly.
    return _C.allclose(a.to(_C.float64), b.to(_C.float64), rtol, atol)


def _notallclose_msg(analytical: _Tensor, numerical: _Tensor, output_idx: int, input_idx: int) -> str:
    return ("Jacobian mismatch for output %d with respect to input %d,\nnumerical:%s\nanalytical:%s\n"
            % (output_idx, input_idx, numerical, analytical))


def _check_inputs(inputs: Sequence[Any]) -> None:
    any_input_requiring_grad = False
    for idx, inp in enumerate(inputs):
        if _is_tensor(inp) and inp.requires_grad:
            if inp.dtype != _C.float64:
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ")
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                                   "inputs that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            any_input_requiring_grad = True
    if not any_input_requiring_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")


# --- numerical derivatives ---------------------------------------------------------------------------------

def _perturbable_copy(x: _Tensor) -> _Tensor:
    """A copy of input `x` to write perturbations into, requiring grad as `x` does (the function may
    differentiate through it, as gradgradcheck's does)."""
    with no_grad():
        work = x.detach().clone()
    return work.requires_grad_()


def _central_difference(func: Callable[..., Any], inputs: Sequence[Any], index: int, work: _Tensor, step: _Step,
                        eps: float, positions: Sequence[int]) -> List[_Tensor]:
    """(f(x + d) - f(x - d)) / (2 eps), flattened, for the tensor outputs of func at `positions`, where x is
    inputs[index] and step(sign) writes x + sign * d into `work` (x itself, exactly, for sign 0)."""
    args = tuple(work if i == index else a for i, a in enumerate(inputs))

    def outputs(sign: int) -> List[_Tensor]:
        with no_grad():
            step(sign)
        # Copies: an output may alias `work`, which the next step writes.
        return [o.detach().clone() for o in _tensor_outputs(func(*args))]

    before, after = outputs(-1), outputs(1)
    with no_grad():
        step(0)
    return [((after[k] - before[k]) / (2 * eps)).reshape(-1) for k in positions]


def _stack(vectors: Sequence[_Tensor], dim: int, length: int, dtype: _C.dtype, device: _C.device) -> _Tensor:
    """The 1-d `vectors` (each of `length`) stacked along `dim` of a 2-d tensor, also when there are none."""
    if vectors:
        return _C.stack(tuple(vectors), dim=dim)
    shape = (0, length) if dim == 0 else (length, 0)
    return _C.zeros(shape, dtype=dtype, device=device)


def _numerical_jacobians(func: Callable[..., Any], inputs: Sequence[Any], tensor_outputs: Sequence[_Tensor],
                         positions: Sequence[int], eps: float) -> List[List[_Tensor]]:
    """For each input that requires grad, the Jacobian of each of `tensor_outputs` (those of func(*inputs)) at
    `positions`: a (numel of the input, numel of the output) tensor whose row k is the derivative along
    element k."""
    jacobians: List[List[_Tensor]] = []
    for index in _diff_input_indices(inputs):
        work = _perturbable_copy(inputs[index])
        rows: List[List[_Tensor]] = [[] for _ in positions]
        for idx in itertools.product(*(range(n) for n in work.shape)):
            orig = work[idx].item()

            def step(sign: int, idx: Tuple[int, ...] = idx, orig: Any = orig) -> None:
                work[idx] = orig if sign == 0 else orig + sign * eps

            for row, column in zip(rows, _central_difference(func, inputs, index, work, step, eps, positions)):
                row.append(column)
        jacobians.append([_stack(r, 0, tensor_outputs[k].numel(), tensor_outputs[k].dtype, tensor_outputs[k].device)
                          for r, k in zip(rows, positions)])
    return jacobians


def _check_no_differentiable_outputs(func: Callable[..., Any], inputs: Sequence[Any],
                                     tensor_outputs: Sequence[_Tensor], eps: float) -> None:
    # With no output that requires grad, every numerical derivative must be zero.
    positions = [k for k, o in enumerate(tensor_outputs) if o.dtype.is_floating_point]
    for per_output in _numerical_jacobians(func, inputs, tensor_outputs, positions, eps):
        for jacobian in per_output:
            if bool(jacobian.ne(0).any()):
                raise GradcheckError("Numerical gradient for function expected to be zero")


# --- analytical derivatives --------------------------------------------------------------------------------

def _vjps(output: _Tensor, diff_inputs: Sequence[_Tensor], grad_output: _Tensor) -> List[Optional[_Tensor]]:
    """The gradients of the inputs for `grad_output`, copied (the next grad_output reuses its memory)."""
    grads = _grad(output, diff_inputs, grad_output, retain_graph=True, allow_unused=True)
    return [None if g is None else g.detach().clone() for g in grads]


def _check_vjps(rows_by_input: Sequence[Sequence[Optional[_Tensor]]], diff_inputs: Sequence[_Tensor],
                check_grad_dtypes: bool) -> None:
    sizes_ok = types_ok = True
    for rows, inp in zip(rows_by_input, diff_inputs):
        for g in rows:
            if g is not None and g.shape != inp.shape:
                sizes_ok = False
            elif g is not None and g.dtype != inp.dtype:
                types_ok = False
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")


def _check_reentrant(first: Sequence[_Tensor], second: Sequence[_Tensor], nondet_tol: float) -> None:
    for a, b in zip(first, second):
        if a.numel() != 0 and (a - b).abs().max().item() > nondet_tol:
            raise GradcheckError("Backward is not reentrant, i.e., running backward with same input and grad_output "
                                 "multiple times gives different values, although analytical gradient matches "
                                 f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
                                 + FAILED_NONDET_MSG)


def _analytical_jacobians(inputs: Sequence[Any], output: _Tensor, nondet_tol: float,
                          check_grad_dtypes: bool) -> List[_Tensor]:
    """For each input that requires grad, the Jacobian of `output` as backward gives it: a (numel of the input,
    numel of the output) tensor whose column j is the gradient of output element j; run twice, to see that
    backward gives the same each time."""
    diff_inputs = [inputs[i] for i in _diff_input_indices(inputs)]

    def jacobians() -> List[_Tensor]:
        seed = _C.zeros(tuple(output.shape), dtype=output.dtype, device=output.device)  # contiguous, as view needs
        flat = seed.view(-1)
        columns: List[List[Optional[_Tensor]]] = [[] for _ in diff_inputs]
        for j in range(output.numel()):
            flat.zero_()
            flat[j] = 1
            for column, g in zip(columns, _vjps(output, diff_inputs, seed)):
                column.append(g)
        _check_vjps(columns, diff_inputs, check_grad_dtypes)
        return [_stack([_C.zeros((inp.numel(),), dtype=inp.dtype, device=inp.device) if g is None
                        else g.to(inp.dtype).reshape(-1) for g in column], 1, inp.numel(), inp.dtype, inp.device)
                for column, inp in zip(columns, diff_inputs)]

    first = jacobians()
    _check_reentrant(first, jacobians(), nondet_tol)
    return first


def _slow_gradcheck(func: Callable[..., Any], inputs: Sequence[Any], tensor_outputs: Sequence[_Tensor],
                    positions: Sequence[int], eps: float, rtol: float, atol: float, check_grad_dtypes: bool,
                    nondet_tol: float) -> None:
    numerical = _numerical_jacobians(func, inputs, tensor_outputs, positions, eps)  # [input][output]
    for i, o in enumerate(tensor_outputs[k] for k in positions):
        analytical = _analytical_jacobians(inputs, o, nondet_tol, check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, (per_output[i] for per_output in numerical))):
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_notallclose_msg(a, n, i, j))


# --- fast mode: v^T J u for random u and v, as PyTorch's (https://github.com/pytorch/pytorch/issues/53876) ---

def _unit_vector(rng: random.Random, like: _Tensor) -> _Tensor:
    values = _C.tensor([rng.random() for _ in range(like.numel())], dtype=_C.float64)
    return (values / values.norm()).to(like.device, like.dtype)


def _fast_gradcheck(func: Callable[..., Any], inputs: Sequence[Any], tensor_outputs: Sequence[_Tensor],
                    positions: Sequence[int], eps: float, rtol: float, atol: float, check_grad_dtypes: bool,
                    nondet_tol: float) -> None:
    outputs = [tensor_outputs[k] for k in positions]
    rng = random.Random(0)  # its own generator: the caller's random state stays as it was
    diff_indices = _diff_input_indices(inputs)
    diff_inputs = [inputs[i] for i in diff_indices]
    all_u = [_unit_vector(rng, inp) for inp in diff_inputs]
    all_v = [_unit_vector(rng, o) for o in outputs]

    numerical: List[List[_Tensor]] = []  # [input][output]: v^T (J u), J u by central differences along u
    for index, u in zip(diff_indices, all_u):
        work = _perturbable_copy(inputs[index])
        with no_grad():
            orig = work.clone()
            delta = u.reshape(work.shape) * eps

        def step(sign: int, work: _Tensor = work, orig: _Tensor = orig, delta: _Tensor = delta) -> None:
            work.copy_(orig if sign == 0 else orig + sign * delta)

        jvps = _central_difference(func, inputs, index, work, step, eps, positions)
        numerical.append([(v * jvp).sum() for v, jvp in zip(all_v, jvps)])

    for j, (o, v) in enumerate(zip(outputs, all_v)):
        vjps = [_vjps(o, diff_inputs, v.reshape(o.shape)) for _ in range(2)]
        _check_vjps([[g] for g in vjps[0]], diff_inputs, check_grad_dtypes)
        first, second = ([_C.zeros((inp.numel(),), dtype=inp.dtype, device=inp.device) if g is None
                          else g.reshape(-1) for g, inp in zip(attempt, diff_inputs)] for attempt in vjps)
        _check_reentrant(first, second, nondet_tol)
        for i, (vJ, u) in enumerate(zip(first, all_u)):
            a, n = (vJ.to(u.dtype) * u).sum(), numerical[i][j]
            # |v^T (A - N) u| may reach atol * sum(u) * sum(v) where each element of A - N is within atol.
            adjusted_atol = atol * u.sum().item() * v.sum().item()
            if not _allclose(a, n, rtol, adjusted_atol):
                raise GradcheckError(_notallclose_msg(a, n, j, i)
                                     + _slow_mode_error(func, inputs, tensor_outputs, positions, i, j, eps, rtol,
                                                        atol))


def _slow_mode_error(func: Callable[..., Any], inputs: Sequence[Any], tensor_outputs: Sequence[_Tensor],
                     positions: Sequence[int], input_idx: int, output_idx: int, eps: float, rtol: float,
                     atol: float) -> str:
    """What fast mode adds to its error: the two Jacobians of the failing pair, computed in full."""
    numerical = _numerical_jacobians(func, inputs, tensor_outputs, positions, eps)[input_idx][output_idx]
    analytical = _analytical_jacobians(inputs, tensor_outputs[positions[output_idx]], float("inf"), False)[input_idx]
    max_diff = (numerical - analytical.to(numerical.dtype)).abs().max().item() if numerical.numel() else 0.0
    msg = ("\nThe above quantities relating the numerical and analytical jacobians are computed \n"
           "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
           "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
           f"Numerical:\n {numerical}\n"
           f"Analytical:\n{analytical}\n\n"
           f"The max per-element difference (slow mode) is: {max_diff}.\n")
    if _allclose(analytical, numerical, rtol, atol):
        msg += FAST_FAIL_SLOW_OK_MSG
    return msg


# --- what backward must also get right ---------------------------------------------------------------------

def _test_backward_mul_by_grad_output(outputs: Sequence[_Tensor], inputs: Sequence[Any]) -> None:
    diff_inputs = [inputs[i] for i in _diff_input_indices(inputs)]
    grads = _grad(outputs, diff_inputs, [_C.zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff_inputs):
        if gi is None:
            continue
        if not bool(gi.eq(0).all()):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype or gi.device != di.device:
            raise GradcheckError("grad is incorrect type")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(Function):
    """The identity, whose backward gives no gradient (None) on: what PyTorch's UndefinedGrad is."""

    @staticmethod
    def forward(ctx: Any, x: _Tensor) -> _Tensor:
        return x.clone()

    @staticmethod
    def backward(ctx: Any, grad_output: _Tensor) -> None:
        return None


def _test_undefined_backward_mode(func: Callable[..., Any], outputs: Sequence[_Tensor], inputs: Sequence[Any]) -> None:
    diff_inputs = [inputs[i] for i in _diff_input_indices(inputs)]

    def warn_bc_breaking() -> None:
        warnings.warn("Backwards compatibility: New undefined gradient support checking feature is enabled by "
                      "default, but it may break existing callers of this function. If this is true for you, you "
                      'can call this function with "check_undefined_grad=False" to disable the feature')

    def check_undefined_grad_support(output_to_check: Sequence[_Tensor]) -> None:
        grads_output = [_C.zeros_like(o) for o in output_to_check]
        try:
            grads_input = _grad(output_to_check, diff_inputs, grads_output, allow_unused=True)
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError("Expected backward function to handle undefined output grads.") from e
        for gi in grads_input:
            if gi is not None and not bool(gi.eq(0).all()):
                warn_bc_breaking()
                raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are "
                                     "undefined or zero.")

    # Every output's gradient undefined at once; then, with several outputs, one at a time.
    outputs_to_check = [[_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs))]]
    if len(outputs_to_check[0]) > 1:
        for undef_grad_idx in range(len(outputs)):
            fresh = _differentiable_outputs(func(*inputs))
            outputs_to_check.append([_UndefinedGrad.apply(o) if idx == undef_grad_idx else o
                                     for idx, o in enumerate(fresh)])
    for output_to_check in outputs_to_check:
        check_undefined_grad_support(output_to_check)


# --- the checks ----------------------------------------------------------------------------------------------

def gradcheck(func: Callable[..., Any], inputs: _Inputs, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              fast_mode: bool = False) -> bool:
    """Checks the gradients of `func` at `inputs` (a tensor or a tuple of arguments) with respect to the
    inputs that require grad against small finite differences, as torch.autograd.gradcheck.

    Each Jacobian entry must satisfy ``|analytical - numerical| <= atol + rtol * |numerical|``. The defaults
    suit float64 inputs; others warn. Also checks that backward gives the same twice (within `nondet_tol`),
    scales with the output gradient, and (check_undefined_grad) takes outputs that no gradient reaches.
    fast_mode compares v^T J u for random unit vectors u and v instead of the whole Jacobians.

    Returns True; on a mismatch raises GradcheckError, or returns False when raise_exception is False.
    """
    if check_batched_grad:
        raise NotImplementedError("check_batched_grad=True checks gradients under vmap, which wick does not have")
    try:
        return _gradcheck(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol, check_undefined_grad,
                          check_grad_dtypes, fast_mode)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func: Callable[..., Any], inputs: Tuple[Any, ...], eps: float, atol: float, rtol: float,
               nondet_tol: float, check_undefined_grad: bool, check_grad_dtypes: bool, fast_mode: bool) -> bool:
    _check_inputs(inputs)
    tensor_outputs = _tensor_outputs(func(*inputs))
    positions = [k for k, o in enumerate(tensor_outputs) if o.requires_grad]
    outputs = tuple(tensor_outputs[k] for k in positions)
    if not outputs:
        _check_no_differentiable_outputs(func, inputs, tensor_outputs, eps)
        return True
    check = _fast_gradcheck if fast_mode else _slow_gradcheck
    check(func, inputs, tensor_outputs, positions, eps, rtol, atol, check_grad_dtypes, nondet_tol)
    _test_backward_mul_by_grad_output(outputs, inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, inputs)
    return True


def _random_grad_output(rng: random.Random, like: _Tensor, noncontiguous: bool) -> _Tensor:
    """Uniform in [-1, 1), of the shape, dtype and device of output `like`, requiring grad."""
    values = _C.tensor([rng.uniform(-1, 1) for _ in range(like.numel())], dtype=like.dtype, device=like.device)
    values = values.view(like.shape)
    if noncontiguous and like.numel() > 1:
        # Every other element of a tensor twice as long in its last dim, as PyTorch's make_tensor does.
        shape = tuple(like.shape)
        with no_grad():
            wide = _C.zeros(shape[:-1] + (2 * shape[-1],), dtype=like.dtype, device=like.device)
            strided = wide[..., ::2]
            strided.copy_(values)
        values = strided
    return values.requires_grad_()


def gradgradcheck(func: Callable[..., Any], inputs: _Inputs, grad_outputs: Optional[_Inputs] = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False, fast_mode: bool = False) -> bool:
    """Checks the second derivatives of `func` at `inputs`, as torch.autograd.gradcheck.gradgradcheck: gradcheck
    of the function from (inputs, grad_outputs) to the gradients of the inputs, computed with create_graph.

    grad_outputs defaults to random values in [-1, 1) like the outputs that require grad, drawn the same way
    on every call (noncontiguous with gen_non_contig_grad_outputs).
    """
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = random.Random(0)  # its own generator: the caller's random state stays as it was
        grad_outputs = tuple(_random_grad_output(rng, o, gen_non_contig_grad_outputs)
                             for o in _differentiable_outputs(func(*inputs)))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    num_inputs = len(inputs)
    diff_indices = _diff_input_indices(inputs)

    def new_func(*args: Any) -> Tuple[_Tensor, ...]:
        # gradcheck hands in copies of what it perturbs, which require grad as the originals do.
        input_args, grad_outs = args[:num_inputs], args[num_inputs:]
        outputs = _differentiable_outputs(func(*input_args))
        grad_inputs = _grad(outputs, tuple(input_args[i] for i in diff_indices), grad_outs, create_graph=True,
                            allow_unused=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception,
                     nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad, fast_mode=fast_mode)
