"""wick.autograd.gradcheck and gradgradcheck, each check run the same way against PyTorch's: what passes, what
fails and with which error, and that the check leaves its inputs as they were."""
import warnings

import numpy as np
import pytest
import torch
from torch.autograd.gradcheck import GradcheckError as TorchGradcheckError

import wick
from functions import exp_function
from wick.autograd.gradcheck import GradcheckError


def both(program):
    """What `program(lib)` returns with wick and with torch: the two must agree."""
    return program(wick), program(torch)


def error_of(lib):
    return GradcheckError if lib is wick else TorchGradcheckError


def leaf(lib, values, dtype=None):
    return lib.tensor(values, dtype=dtype or lib.float64).requires_grad_()


def test_a_correct_function_passes():
    def program(lib):
        x = leaf(lib, [[0.1, -0.5, 2.0], [1.0, 0.0, -1.5]])
        return (lib.autograd.gradcheck(exp_function(lib).apply, (x,)),
                lib.autograd.gradcheck(exp_function(lib).apply, x, fast_mode=True))

    assert both(program) == ((True, True), (True, True))


def test_a_wrong_function_fails():
    def program(lib):
        x = leaf(lib, [0.1, -0.5])
        wrong = exp_function(lib, factor=1.5).apply
        with pytest.raises(error_of(lib), match="(?s)Jacobian mismatch for output 0 with respect to input 0,\n"
                                                "numerical:.*\nanalytical:") as caught:
            lib.autograd.gradcheck(wrong, (x,))
        with pytest.raises(error_of(lib), match="(?s)Jacobian mismatch.*computed \nin fast mode"):
            lib.autograd.gradcheck(wrong, (x,), fast_mode=True)
        return lib.autograd.gradcheck(wrong, (x,), raise_exception=False), isinstance(caught.value, RuntimeError)

    assert both(program) == ((False, True), (False, True))


def test_the_error_shows_both_jacobians():
    x = leaf(wick, [0.1, -0.5])
    with pytest.raises(GradcheckError) as caught:
        wick.autograd.gradcheck(exp_function(wick, factor=2.0).apply, (x,))
    numerical, analytical = str(caught.value).split("numerical:")[1].split("\nanalytical:")
    assert "tensor" in numerical and "dtype=wick.float64" in analytical
    # A Jacobian per (input, output): one row per input element, one column per output element.
    assert "1.1052" in numerical and "2.2103" in analytical


def test_composites_of_ops_numbers_and_several_inputs_and_outputs():
    def program(lib):
        x, y = leaf(lib, [[0.3, -1.2], [0.7, 2.0]]), leaf(lib, [0.5, -0.25])
        fixed = lib.tensor([1.0, 2.0], dtype=lib.float64)

        def f(x, k, y, fixed):
            return x * y.sin() + (x * k).exp(), (y * fixed).sum()

        return (lib.autograd.gradcheck(f, (x, 0.5, y, fixed)),
                lib.autograd.gradcheck(f, (x, 0.5, y, fixed), fast_mode=True))

    assert both(program) == ((True, True), (True, True))


def test_inputs_and_their_graphs_are_left_as_they_were():
    x = leaf(wick, [0.25, -0.75, 1.5])
    before = (x.detach().numpy().copy(), x._version)
    y = x.sin()  # saves x: a write into x would make backward refuse
    assert wick.autograd.gradcheck(lambda t: t * t.cos(), (x,))
    assert wick.autograd.gradcheck(lambda t: t * t.cos(), (x,), fast_mode=True)
    np.testing.assert_array_equal(x.detach().numpy(), before[0])
    assert x._version == before[1] and x.grad is None
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos(before[0]))


def test_warns_of_inputs_that_are_not_float64():
    def program(lib):
        x = leaf(lib, [0.5, 1.0], dtype=lib.float32)
        with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision floating "
                                             "point"):
            lib.autograd.gradcheck(lambda t: t * 2, (x,), eps=1e-3, atol=1e-2)

    both(program)


def test_needs_an_input_that_requires_grad():
    def program(lib):
        with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient"):
            lib.autograd.gradcheck(lambda t: t * 2, (lib.tensor([1.0], dtype=lib.float64),))

    both(program)


def test_no_differentiable_outputs():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        with pytest.raises(error_of(lib), match="Numerical gradient for function expected to be zero"):
            lib.autograd.gradcheck(lambda t: t.detach() * 2, (x,))
        return lib.autograd.gradcheck(lambda t: lib.zeros(2, dtype=lib.float64), (x,))

    assert both(program) == (True, True)


def test_backward_must_give_the_same_each_time():
    def program(lib):
        calls = []

        class Drifting(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad_output):
                calls.append(None)
                return grad_output * (2 + 1e-3 * (len(calls) % 2))

        x = leaf(lib, [1.0])
        with pytest.raises(error_of(lib), match="Backward is not reentrant"):
            lib.autograd.gradcheck(Drifting.apply, (x,))
        return lib.autograd.gradcheck(Drifting.apply, (x,), nondet_tol=1e-2)

    assert both(program) == (True, True)


def test_backward_must_scale_with_the_output_gradient():
    def program(lib):
        class SumOfOnes(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.sum()

            @staticmethod
            def backward(ctx, grad_output):
                return lib.ones((3,), dtype=lib.float64)

        with pytest.raises(error_of(lib), match="backward not multiplied by grad_output"):
            lib.autograd.gradcheck(SumOfOnes.apply, (leaf(lib, [1.0, 2.0, 3.0]),))

    both(program)


def test_backward_must_take_outputs_no_gradient_reached():
    def program(lib):
        class Pair(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                grads = [g * k for g, k in ((g1, 2), (g2, 3)) if g is not None]
                if not grads:
                    raise RuntimeError("no gradient reached either output")
                return grads[0] if len(grads) == 1 else grads[0] + grads[1]

        x = leaf(lib, [1.0, 2.0])
        with pytest.raises(error_of(lib), match="Expected backward function to handle undefined output grads"):
            lib.autograd.gradcheck(Pair.apply, (x,))
        return lib.autograd.gradcheck(Pair.apply, (x,), check_undefined_grad=False)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "Backwards compatibility" warning of the check
        assert both(program) == (True, True)


def test_gradgradcheck_of_ops():
    def program(lib):
        x = leaf(lib, [[0.3, -1.2, 2.0], [0.7, 2.0, -0.4]])
        return (lib.autograd.gradgradcheck(lambda t: t * t.sin(), (x,)),
                lib.autograd.gradgradcheck(lambda t: t * t.sin(), (x,), gen_non_contig_grad_outputs=True),
                lib.autograd.gradgradcheck(lambda t: (t * t).sum(), (x,), lib.tensor(2.0, dtype=lib.float64)))

    assert both(program) == ((True, True, True), (True, True, True))


def test_gradgradcheck_of_functions():
    def program(lib):
        DetachedExp = exp_function(lib, detached=True)  # right first derivative, wrong second
        x = leaf(lib, [0.5, -1.0])
        first = lib.autograd.gradcheck(DetachedExp.apply, (x,))
        with pytest.raises(error_of(lib), match="Jacobian mismatch for output 0 with respect to input 0"):
            lib.autograd.gradgradcheck(DetachedExp.apply, (x,))
        return first, lib.autograd.gradgradcheck(exp_function(lib).apply, (x,))

    assert both(program) == ((True, True), (True, True))


def test_gradgradcheck_leaves_the_random_state_alone():
    wick.manual_seed(5)
    expected = wick.rand(3)
    wick.manual_seed(5)
    assert wick.autograd.gradgradcheck(lambda t: t * t.sin(), (leaf(wick, [0.3, 0.6]),))
    np.testing.assert_array_equal(wick.rand(3).numpy(), expected.numpy())


def test_batched_grad_needs_vmap():
    with pytest.raises(NotImplementedError, match="vmap"):
        wick.autograd.gradcheck(lambda t: t * 2, (leaf(wick, [1.0]),), check_batched_grad=True)
