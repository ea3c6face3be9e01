"""wick.autograd.functional against torch.autograd.functional (PyTorch 1.13): jacobian, hessian, vjp, jvp, hvp
and vhp of single and tuple inputs and outputs, exactly equal to PyTorch's results in float64; create_graph (the
results differentiate further), strict (independence is an error), vectorize, and the argument errors."""
import numpy as np
import pytest
import torch

import wick

F = wick.autograd.functional
TF = torch.autograd.functional
rng = np.random.default_rng(0)
A, B, V = rng.standard_normal(3), rng.standard_normal((2, 3)), rng.standard_normal(3)


def pair(*arrays):
    return tuple(wick.tensor(a) for a in arrays), tuple(torch.tensor(a) for a in arrays)


def same(ours, theirs):
    """ours and theirs agree as nested tuples of tensors."""
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            same(o, t)
    else:
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=1e-13, atol=1e-15)


def vector_fn(m):
    return lambda x: (x ** 3).exp() * x.sum()


def two_in_two_out(m):
    return lambda x, y: (x * y.sum(0), (x.sin() * y).sum(1).prod().reshape(1))


def scalar_fn(m):
    return lambda x, y: (x.exp() * (y ** 2).sum(0)).sum() + (x ** 3).prod()


@pytest.mark.parametrize("vectorize", [False, True])
def test_jacobian(vectorize):
    (w,), (t,) = pair(A)
    same(F.jacobian(vector_fn(wick), w, vectorize=vectorize), TF.jacobian(vector_fn(torch), t, vectorize=vectorize))
    w, t = pair(A, B)
    same(F.jacobian(two_in_two_out(wick), w, vectorize=vectorize),
         TF.jacobian(two_in_two_out(torch), t, vectorize=vectorize))
    same(F.jacobian(lambda x: x.sum(), wick.tensor(B)), TF.jacobian(lambda x: x.sum(), torch.tensor(B)))


@pytest.mark.parametrize("vectorize", [False, True])
def test_hessian(vectorize):
    w, t = pair(A, B)
    same(F.hessian(scalar_fn(wick), w, vectorize=vectorize), TF.hessian(scalar_fn(torch), t, vectorize=vectorize))
    (w,), (t,) = pair(A)
    same(F.hessian(lambda x: (x ** 4).sum(), w), TF.hessian(lambda x: (x ** 4).sum(), t))


def test_vjp_jvp_hvp_vhp():
    (w,), (t,) = pair(A)
    (wv,), (tv,) = pair(V)
    same(F.vjp(vector_fn(wick), w, wv), TF.vjp(vector_fn(torch), t, tv))
    same(F.jvp(vector_fn(wick), w, wv), TF.jvp(vector_fn(torch), t, tv))
    w, t = pair(A, B)
    wv, tv = pair(V, rng.standard_normal((2, 3)))
    same(F.vhp(scalar_fn(wick), w, wv), TF.vhp(scalar_fn(torch), t, tv))
    same(F.hvp(scalar_fn(wick), w, wv), TF.hvp(scalar_fn(torch), t, tv))
    same(F.vjp(two_in_two_out(wick), w, (wick.tensor(V), wick.ones(1, dtype=wick.float64))),
         TF.vjp(two_in_two_out(torch), t, (torch.tensor(V), torch.ones(1, dtype=torch.float64))))
    same(F.jvp(two_in_two_out(wick), w, wv), TF.jvp(two_in_two_out(torch), t, tv))
    # v may be left out for a single-element output (vjp) or input (jvp).
    same(F.vjp(lambda x: x.sum(), w[0]), TF.vjp(lambda x: x.sum(), t[0]))
    same(F.jvp(lambda x: x * 2, wick.tensor([1.5])), TF.jvp(lambda x: x * 2, torch.tensor([1.5])))


def test_create_graph():
    x = wick.tensor(A, requires_grad=True)
    t = torch.tensor(A, requires_grad=True)
    jw = F.jacobian(lambda v: v ** 3, x, create_graph=True)
    jt = TF.jacobian(lambda v: v ** 3, t, create_graph=True)
    assert jw.requires_grad and jt.requires_grad
    (gw,) = wick.autograd.grad(jw.sum(), x)
    (gt,) = torch.autograd.grad(jt.sum(), t)
    same(gw, gt)
    _, hw = F.hvp(lambda v: (v ** 4).sum(), x, wick.tensor(V), create_graph=True)
    _, ht = TF.hvp(lambda v: (v ** 4).sum(), t, torch.tensor(V), create_graph=True)
    same(wick.autograd.grad(hw.sum(), x)[0], torch.autograd.grad(ht.sum(), t)[0])
    # Without create_graph, nothing requires grad.
    assert not F.jacobian(lambda v: v ** 3, x).requires_grad


def test_strict():
    w, t = pair(A, B)

    def ignores_y(m):
        return lambda x, y: x * 2

    same(F.jacobian(ignores_y(wick), w), TF.jacobian(ignores_y(torch), t))
    for ours, theirs in [(lambda: F.jacobian(ignores_y(wick), w, strict=True),
                          lambda: TF.jacobian(ignores_y(torch), t, strict=True)),
                         (lambda: F.vjp(ignores_y(wick), w, wick.tensor(V), strict=True),
                          lambda: TF.vjp(ignores_y(torch), t, torch.tensor(V), strict=True)),
                         (lambda: F.hessian(lambda x: x.sum(), w[0], strict=True),
                          lambda: TF.hessian(lambda x: x.sum(), t[0], strict=True))]:
        with pytest.raises(RuntimeError):
            theirs()
        with pytest.raises(RuntimeError):
            ours()


def test_errors():
    (w,), (t,) = pair(A)
    cases = [lambda f, m, x: f.jacobian(lambda v: v, [x]),
             lambda f, m, x: f.jacobian(lambda v: 3, x),
             lambda f, m, x: f.vjp(lambda v: v, x),
             lambda f, m, x: f.vjp(lambda v: v, x, m.ones(2, dtype=m.float64)),
             lambda f, m, x: f.hessian(lambda v: v, x),
             lambda f, m, x: f.hvp(lambda v: v.sum(), x, m.ones(2, dtype=m.float64)),
             lambda f, m, x: f.jacobian(lambda v: v, x, strategy="sideways")]
    for case in cases:
        with pytest.raises(Exception) as expected:
            case(TF, torch, t)
        with pytest.raises(expected.type):
            case(F, wick, w)
