"""wick.special against torch.special (PyTorch 1.13), and the top-level lgamma, digamma, polygamma, mvlgamma, i0.

The composed functions (gammaln, digamma, polygamma, i0/i0e/i1/i1e, ndtr, log_ndtr, ndtri, entr, xlog1py,
multigammaln) are evaluated in float64 over wide ranges and at their edges (0, the poles, +-inf, NaN, tiny and huge
arguments) and must match to about 1e-12 relatively; in float32 to the float32 rounding of the same values. Where
PyTorch's own kernel is less accurate than that (trigamma), SciPy is the reference.
"""
import math

import mpmath
import numpy as np
import pytest
import scipy.special
import torch

import wick

EDGES = [0.0, -0.0, 1.0, 2.0, -1.0, -2.0, -0.5, 0.5, 1e-300, 1e-10, -1e-10, 1e-5, 1e5, 1e10, 171.5, 200.0, -100.5,
         29.999, 30.0, 30.001, -30.001, math.inf, -math.inf, math.nan]
WIDE = np.concatenate([np.linspace(-30, 30, 1201), EDGES])
PROBABILITIES = np.concatenate([np.linspace(0, 1, 1001), [1e-300, 1e-100, 1e-20, 1e-10, 1e-7, 1 - 1e-16, 1 - 1e-10,
                                                          -0.1, 1.1, math.nan, math.inf]])


def check(wick_value, expected, rtol=1e-12, atol=1e-300):
    np.testing.assert_allclose(wick_value.numpy(), np.asarray(expected), rtol=rtol, atol=atol, equal_nan=True)


def both(values, dtype="float64"):
    return wick.tensor(values, dtype=getattr(wick, dtype)), torch.tensor(values, dtype=getattr(torch, dtype))


COMPOSED = ["gammaln", "digamma", "psi", "i0", "i0e", "i1", "i1e", "ndtr", "log_ndtr", "entr"]


def reference(name, values):
    """torch.special's name in float64 - but SciPy's ndtr: PyTorch 1.13 computes ndtr as (1 + erf(x / sqrt 2)) / 2,
    which loses all relative accuracy below about -5 (wick's erfc form does not)."""
    if name == "ndtr":
        return scipy.special.ndtr(values)
    return getattr(torch.special, name)(torch.tensor(values, dtype=torch.float64)).numpy()


@pytest.mark.parametrize("name", COMPOSED)
def test_composed_float64(name):
    result = getattr(wick.special, name)(wick.tensor(WIDE, dtype=wick.float64))
    assert result.dtype == wick.float64
    check(result, reference(name, WIDE))


def test_gammaln_relative_accuracy_near_roots():
    # mpmath is the reference: PyTorch's and SciPy's lgamma are accurate only absolutely (~1e-16) near 1 and 2.
    x = [1 - 1e-3, 1 - 1e-8, 1 + 1e-12, 1 + 1e-5, 2 - 1e-9, 2 + 1e-6, 0.5, 1.5, 2.5]
    expected = [float(mpmath.loggamma(mpmath.mpf(v))) for v in x]
    check(wick.special.gammaln(wick.tensor(x, dtype=wick.float64)), expected, rtol=1e-15)


@pytest.mark.parametrize("name", COMPOSED + ["ndtri"])
def test_composed_float32_and_integral(name):
    # float32 in, float32 out: the float64 result rounded (PyTorch's own float32 kernels are less accurate).
    values = (PROBABILITIES if name == "ndtri" else WIDE).astype(np.float32)
    result = getattr(wick.special, name)(wick.tensor(values, dtype=wick.float32))
    assert result.dtype == wick.float32
    check(result, reference(name, values.astype(np.float64)).astype(np.float32), rtol=2e-7, atol=1e-45)
    result = getattr(wick.special, name)(wick.tensor([0, 1, 2, 5]))
    assert result.dtype == wick.float32
    assert getattr(torch.special, name)(torch.tensor([0, 1, 2, 5])).dtype == torch.float32
    check(result, reference(name, np.array([0.0, 1, 2, 5])).astype(np.float32), rtol=2e-7)


def test_ndtri():
    w, t = both(PROBABILITIES)
    check(wick.special.ndtri(w), torch.special.ndtri(t).numpy(), rtol=1e-12, atol=1e-14)
    # The far tail keeps its relative accuracy (SciPy agrees with PyTorch there).
    check(wick.special.ndtri(wick.tensor([1e-300], dtype=wick.float64)), scipy.special.ndtri([1e-300]))


def test_log_ndtr_far_tails():
    x = np.array([-1e3, -200.0, -40.0, -38.0, -30.0, -29.9, -10.0, 5.0, 10.0, 40.0])
    check(wick.special.log_ndtr(wick.tensor(x)), scipy.special.log_ndtr(x))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_polygamma(n):
    w, t = both(WIDE)
    result = wick.special.polygamma(n, w)
    if n == 1:  # PyTorch's trigamma is good to about 1e-8 only, and is finite at its poles
        check(result, torch.special.polygamma(n, t).numpy(), rtol=1e-7)
        finite = np.isfinite(scipy.special.polygamma(n, WIDE)) & (np.abs(WIDE) < 1e300)
        check(result[wick.tensor(finite)], scipy.special.polygamma(n, WIDE[finite]), rtol=1e-11)
    else:
        check(result, torch.special.polygamma(n, t).numpy(), rtol=1e-10)
    assert wick.polygamma(n, wick.tensor([1.5])).dtype == wick.float32
    with pytest.raises(RuntimeError):
        wick.special.polygamma(-1, w)


def test_gradients_through_composition():
    x = wick.tensor([0.3, 1.0, 2.5, 7.0, 40.0], dtype=wick.float64, requires_grad=True)
    (g,) = wick.autograd.grad(wick.special.gammaln(x).sum(), x)
    check(g, scipy.special.digamma([0.3, 1.0, 2.5, 7.0, 40.0]), rtol=1e-9)
    (g,) = wick.autograd.grad(wick.special.i0(x).sum(), x)
    check(g, scipy.special.i1([0.3, 1.0, 2.5, 7.0, 40.0]), rtol=1e-9)


@pytest.mark.parametrize("p", [1, 2, 5])
def test_multigammaln(p):
    x = np.linspace((p - 1) / 2 + 0.01, 50, 200)
    w, t = both(x)
    check(wick.special.multigammaln(w, p), torch.special.multigammaln(t, p).numpy(), rtol=1e-12)
    check(wick.mvlgamma(w, p), torch.mvlgamma(t, p).numpy(), rtol=1e-12)
    with pytest.raises(RuntimeError):
        wick.special.multigammaln(wick.tensor([(p - 1) / 2]), p)
    with pytest.raises(RuntimeError):
        wick.special.multigammaln(wick.tensor([1.0]), 0)


def test_xlog1py():
    x = np.array([0.0, 0.0, 1.0, -2.0, 3.0, 0.0, 2.0])
    y = np.array([-1.0, math.nan, 0.5, 3.0, -1.0, 4.0, -2.0])
    check(wick.special.xlog1py(wick.tensor(x), wick.tensor(y)),
          torch.special.xlog1py(torch.tensor(x), torch.tensor(y)).numpy())
    check(wick.special.xlog1py(2.0, wick.tensor(y)), torch.special.xlog1py(2.0, torch.tensor(y)).numpy())
    check(wick.special.xlog1py(wick.tensor(x), 0.5), torch.special.xlog1py(torch.tensor(x), 0.5).numpy())


@pytest.mark.parametrize("name", ["expit", "erf", "erfc", "erfinv", "exp2", "expm1", "log1p", "sinc", "round"])
def test_declared_aliases(name):
    values = np.linspace(-0.99, 0.99, 51)
    w, t = both(values)
    check(getattr(wick.special, name)(w), getattr(torch.special, name)(t).numpy())


def test_aliases_with_arguments():
    w, t = both(np.linspace(-3, 3, 12).reshape(3, 4))
    check(wick.special.softmax(w, 1), torch.special.softmax(t, 1).numpy())
    check(wick.special.log_softmax(w, 0), torch.special.log_softmax(t, 0).numpy())
    check(wick.special.logsumexp(w, 1), torch.special.logsumexp(t, 1).numpy())
    check(wick.special.xlogy(w, w.abs()), torch.special.xlogy(t, t.abs()).numpy())
    w, t = both(np.linspace(0, 1, 11))
    check(wick.special.logit(w), torch.special.logit(t).numpy())
    check(wick.special.logit(w, eps=0.1), torch.special.logit(t, eps=0.1).numpy())


def test_top_level_names():
    w, t = both(WIDE)
    check(wick.lgamma(w), torch.lgamma(t).numpy())
    check(wick.digamma(w), torch.digamma(t).numpy())
    check(wick.i0(w), torch.i0(t).numpy())
    assert wick.special.psi is wick.special.digamma
    for name in ["lgamma", "digamma", "polygamma", "mvlgamma", "i0"]:
        assert name in wick.__all__


def test_bad_arguments():
    with pytest.raises(TypeError):
        wick.special.gammaln([1.0])
    with pytest.raises(TypeError):
        wick.special.polygamma(1.5, wick.tensor([1.0]))
