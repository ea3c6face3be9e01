"""The engine and the state autograd keeps on tensors, against PyTorch: leaves and .grad, views written in
place, version counters, hooks, retain_graph and create_graph, autograd.grad, and the errors of each."""
import gc
import re

import numpy as np
import pytest
import torch

import wick


def both(program):
    """program(lib) run with wick and with torch: their results (as NumPy, recursively) or their errors."""
    out = []
    for lib in (wick, torch):
        try:
            out.append(("ok", _numpy(program(lib))))
        except Exception as e:  # the two must fail alike
            out.append((type(e).__name__, str(e)))
    return out


def _numpy(value):
    if isinstance(value, (wick.Tensor, torch.Tensor)):
        return value.detach().numpy()
    if isinstance(value, (tuple, list)):
        return [_numpy(v) for v in value]
    return value


def same(program):
    (kind, got), (want_kind, want) = both(program)
    assert kind == want_kind, (got, want)
    if kind != "ok":
        return
    _assert_equal(got, want)


def _assert_equal(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _assert_equal(g, w)
    elif isinstance(want, np.ndarray):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    else:
        assert got == want


def fails_alike(program, match):
    (kind, got), (want_kind, _) = both(program)
    assert kind == "RuntimeError" == want_kind, got
    assert re.search(match, got), got


def leaf(lib, values, dtype="float64"):
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)


# --- leaves, .grad and accumulation -----------------------------------------------------------------

def test_gradients_accumulate_into_leaves_across_calls():
    def program(lib):
        x = leaf(lib, [1.0, 2.0, 3.0])
        (x * x).sum().backward()
        (x * 3).sum().backward()
        return x.grad, x.is_leaf, x.requires_grad
    same(program)


def test_a_broadcast_input_gets_its_gradient_summed_back():
    def program(lib):
        x, b = leaf(lib, [[1.0, 2.0], [3.0, 4.0]]), leaf(lib, [10.0])
        c = lib.tensor([[5.0], [6.0]], dtype=lib.float64, requires_grad=True)
        ((x + b) * c).sum().backward()
        return x.grad, b.grad, c.grad
    same(program)


def test_gradients_are_cast_to_the_input_dtype():
    def program(lib):
        x = leaf(lib, [1.0, 2.0], "float32")
        y = x.to(lib.float64) * 2
        y.sum().backward()
        return x.grad, str(x.grad.dtype).split(".")[-1]
    same(program)


def test_non_leaves_have_no_grad_unless_retained():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        z = x * 3
        z.retain_grad()
        (y * z).sum().backward()
        return y.grad is None, z.grad, z.retains_grad, y.retains_grad
    same(program)


def test_grad_fn_names_and_next_functions():
    x = wick.ones(2, requires_grad=True)
    y = (x * 2).sum()
    assert y.grad_fn.name() == "SumBackward0"
    (mul, nr), = y.grad_fn.next_functions
    assert mul.name() == "MulBackward1" and nr == 0
    (acc, nr), = mul.next_functions
    assert acc.name() == "AccumulateGrad"
    assert repr(y) == "tensor(4., grad_fn=<SumBackward0>)"
    assert repr(x) == "tensor([1., 1.], requires_grad=True)"
    assert x.grad_fn is None and y.grad_fn == y.grad_fn


def test_setting_requires_grad():
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        wick.ones(2, dtype=wick.int64).requires_grad_()
    y = wick.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad = False
    with pytest.raises(TypeError):
        wick.ones(2).requires_grad = 1
    x = wick.ones(2, requires_grad=True)
    x.requires_grad_(False)
    assert not x.requires_grad and not (x * 2).requires_grad


def test_grad_assignment_is_checked():
    x = wick.ones(2, requires_grad=True)
    x.grad = wick.full((2,), 5.0)
    (x * 1).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    x.grad = None
    assert x.grad is None
    with pytest.raises(RuntimeError, match="different size"):
        x.grad = wick.ones(3)
    with pytest.raises(TypeError):
        x.grad = [1.0, 2.0]


def test_numpy_of_a_tensor_that_requires_grad_is_refused():
    x = wick.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape("Use tensor.detach().numpy() instead")):
        x.numpy()
    assert x.detach().numpy().tolist() == [1.0, 1.0]


# --- retain_graph, create_graph, autograd.grad -------------------------------------------------------

def test_a_second_backward_needs_retain_graph():
    fails_alike(lambda lib: [y.backward() for y in [(leaf(lib, [1.0]).exp()).sum()] * 2],
                "Trying to backward through the graph a second time")

    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x.exp().sum()
        y.backward(retain_graph=True)
        y.backward()
        return x.grad
    same(program)


def test_second_derivatives_with_create_graph():
    def program(lib):
        x = leaf(lib, [0.5, 1.5])
        y = (x.sin() * x * x).sum()
        g, = lib.autograd.grad(y, x, create_graph=True)
        h, = lib.autograd.grad(g.sum(), x, create_graph=True)
        t, = lib.autograd.grad(h.sum(), x)
        return g, h, t
    same(program)


def test_backward_with_create_graph_leaves_a_differentiable_grad():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        x.grad = None
        g.sum().backward()
        return g.requires_grad, x.grad
    same(program)


def test_autograd_grad_does_not_touch_grad_and_knows_unused_inputs():
    def program(lib):
        x, y = leaf(lib, [1.0, 2.0]), leaf(lib, [3.0])
        gx, gy = lib.autograd.grad((x * 2).sum(), [x, y], allow_unused=True)
        return gx, gy is None, x.grad is None
    same(program)
    fails_alike(lambda lib: lib.autograd.grad((leaf(lib, [1.0]) * 2).sum(), [leaf(lib, [2.0])]),
                "appears to not have been used in the graph")


def test_grad_of_a_non_leaf_input():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x * 3
        z = (y * y).sum()
        return lib.autograd.grad(z, [y, x])
    same(program)


def test_backward_with_inputs_accumulates_only_there():
    def program(lib):
        x, y = leaf(lib, [1.0, 2.0]), leaf(lib, [3.0, 4.0])
        (x * y).sum().backward(inputs=[x])
        return x.grad, y.grad is None
    same(program)


def test_gradient_argument_and_its_errors():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        (x * 2).backward(lib.tensor([1.0, -1.0], dtype=lib.float64))
        return x.grad
    same(program)
    fails_alike(lambda lib: (leaf(lib, [1.0, 2.0]) * 2).backward(), "grad can be implicitly created only for scalar")
    fails_alike(lambda lib: (leaf(lib, [1.0, 2.0]) * 2).backward(lib.ones(3, dtype=lib.float64)), "Mismatch in shape")
    fails_alike(lambda lib: lib.ones(2).sum().backward(), "does not require grad and does not have a grad_fn")


# --- in-place writes: versions, leaves, views ---------------------------------------------------------

def test_writing_a_saved_tensor_in_place_is_refused_at_backward():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        z = y * y
        y.add_(1)
        z.sum().backward()
    fails_alike(program, "modified by an inplace operation")


def test_versions_count_writes():
    def program(lib):
        x = lib.ones(3)
        v = x[1:]
        before = x._version
        x.add_(1)
        v.mul_(2)
        x[0] = 5
        return x._version - before, v._version - before
    same(program)


def test_a_leaf_that_requires_grad_is_not_written_in_place():
    fails_alike(lambda lib: leaf(lib, [1.0]).add_(1), "a leaf Variable that requires grad is being used in an in-place")
    fails_alike(lambda lib: leaf(lib, [1.0, 2.0])[0].mul_(2), "a view of a leaf Variable that requires grad")

    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        with lib.no_grad():
            x.mul_(2)
        return x
    same(program)


def test_an_in_place_write_through_a_view_reaches_the_base():
    def program(lib):
        x = leaf(lib, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        y = x * 1
        y[0].mul_(3)
        y[:, 1:].exp_()
        (y * y).sum().backward()
        return x.grad, type(y.grad_fn).__name__ if lib is torch else y.grad_fn.name()
    same(program)


def test_assigning_into_a_plain_tensor_makes_it_require_grad():
    def program(lib):
        buf = lib.zeros(3, 2, dtype=lib.float64)
        w = leaf(lib, [1.0, 2.0])
        buf[1] = w * 5
        buf[2, 0] = w[1]
        (buf * buf).sum().backward()
        return w.grad, buf.requires_grad
    same(program)


def test_views_made_before_a_write_see_it():
    def program(lib):
        x = leaf(lib, [1.0, 2.0, 3.0])
        y = x * 2
        first, rest = y[:1], y[1:]
        rest.mul_(x[1:])
        (first.sum() + (y * y).sum()).backward()
        return x.grad
    same(program)


def test_out_arguments_refuse_gradients():
    fails_alike(lambda lib: lib.add(leaf(lib, [1.0]), 1, out=lib.empty(1, dtype=lib.float64)),
                "out=... arguments don't support automatic differentiation")


def test_detach():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        d = y.detach()
        d2 = (x * 3)
        d2.detach_()
        return d.requires_grad, d.is_leaf, d._base is None, d2.requires_grad, d2.grad_fn is None
    same(program)

    def shares_version(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x.exp()
        y.detach().zero_()
        y.sum().backward()
    fails_alike(shares_version, "modified by an inplace operation")


# --- hooks ---------------------------------------------------------------------------------------------

def test_hooks_see_and_replace_gradients():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        seen = []
        x.register_hook(lambda g: seen.append(g.detach().clone()))
        y = x * x
        handle = y.register_hook(lambda g: g * 10)
        y.sum().backward()
        handle.remove()
        y2 = x * x
        y2.sum().backward()
        return x.grad, seen
    same(program)


def test_a_hook_may_not_change_the_shape():
    def program(lib):
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        y.register_hook(lambda g: g.sum())
        y.sum().backward()
    fails_alike(program, "hook .*changed the size of value")


def test_a_hook_exception_propagates():
    def bad(g):
        raise KeyError("from the hook")

    x = wick.ones(2, requires_grad=True)
    (x * 2).register_hook(bad)
    y = x * 2
    y.register_hook(bad)
    with pytest.raises(KeyError, match="from the hook"):
        y.sum().backward()
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        wick.ones(2).register_hook(lambda g: g)


# --- graphs that are long or dropped -------------------------------------------------------------------

def test_a_long_chain_goes_back_and_is_released_without_recursion():
    x = wick.ones(2, requires_grad=True)
    y = x
    for _ in range(200_000):
        y = y + 1
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    del y
    gc.collect()


def test_graphs_do_not_keep_tensors_alive():
    import weakref

    x = wick.ones(2, requires_grad=True)
    y = (x * 2).exp()
    ref = weakref.ref(y)
    del y
    gc.collect()
    assert ref() is None


def test_data_is_the_tensor_without_history():
    def program(lib):
        w = leaf(lib, [1.0, 2.0])
        d = w.data
        d.mul_(3)  # a write autograd does not see, as an optimizer's
        w.data = lib.tensor([5.0, 6.0], dtype=lib.float64)
        (w * w).sum().backward()
        return d.requires_grad, w.requires_grad, w.grad, w.is_floating_point(), lib.ones(1).long().is_floating_point()
    same(program)
    with pytest.raises(TypeError):
        wick.ones(2).data = wick.ones(2, dtype=wick.int64)
