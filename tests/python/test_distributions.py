"""wick.distributions against torch.distributions (PyTorch 1.13): log_prob, entropy, cdf/icdf, mean, variance and
stddev in float64 to 1e-12; batch and event shapes; samples whose shape is right and whose moments lie within a
few standard errors of the distribution's (fixed seeds, so the bounds are checked deterministically), reproducible
under wick.manual_seed; rsample differentiable; the argument validation (ValueError) and kl_divergence."""
import math

import numpy as np
import pytest
import torch

import wick

W, T = wick.distributions, torch.distributions
rng = np.random.default_rng(0)


def both(*arrays):
    """Each array as a float64 tensor of wick and of torch: (wick tensors, torch tensors)."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    return [wick.tensor(a) for a in arrays], [torch.tensor(a) for a in arrays]


def close(ours, theirs, rtol=1e-12, atol=1e-14):
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol)


# name, parameters (broadcasting to batch (2, 3)), values in the support
CONTINUOUS = [
    ("Normal", ([[0.0, 1.0, -2.0]], [[1.0], [0.5]]), [[-1.0, 0.3, 2.0], [5.0, -3.0, 0.0]]),
    ("Uniform", ([[-2.0, 0.0, 1.0]], [[1.5], [3.0]]), [[-1.0, 0.3, 1.2], [2.9, 0.0, 1.0]]),
    ("Exponential", ([[0.5, 1.0, 2.0], [3.0, 0.1, 1.0]],), [[0.0, 0.3, 2.0], [5.0, 0.1, 10.0]]),
    ("Laplace", ([[0.0, 1.0, -2.0]], [[1.0], [0.5]]), [[-1.0, 0.3, 2.0], [5.0, -3.0, 0.0]]),
]


@pytest.mark.parametrize("name,params,values", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_values(name, params, values):
    (ws, ts) = both(*params)
    ours, theirs = getattr(W, name)(*ws), getattr(T, name)(*ts)
    assert ours.batch_shape == tuple(theirs.batch_shape) == (2, 3) and ours.event_shape == ()
    for attribute in ["mean", "variance", "stddev"]:
        close(getattr(ours, attribute), getattr(theirs, attribute))
    close(ours.entropy(), theirs.entropy())
    (wv,), (tv,) = both(values)
    close(ours.log_prob(wv), theirs.log_prob(tv))
    close(ours.cdf(wv), theirs.cdf(tv))
    (wp,), (tp,) = both([[0.1, 0.5, 0.9], [0.01, 0.3, 0.99]])
    close(ours.icdf(wp), theirs.icdf(tp), rtol=1e-10)
    # log_prob broadcasts a value against the batch.
    close(ours.log_prob(wv[0]), theirs.log_prob(tv[0]))


@pytest.mark.parametrize("name,params,values", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_samples(name, params, values):
    (ws, _) = both(*params)
    d = getattr(W, name)(*ws)
    wick.manual_seed(1)
    s = d.sample((40000,))
    assert s.shape == (40000, 2, 3) and s.dtype == wick.float64 and not s.requires_grad
    mean, var = d.mean.numpy(), d.variance.numpy()
    # The sample mean is within 5 standard errors; the sample variance within 10% (all these have finite kurtosis).
    assert np.all(np.abs(s.mean(0).numpy() - mean) < 5 * np.sqrt(var / 40000))
    np.testing.assert_allclose(s.var(0).numpy(), var, rtol=0.1)
    assert bool(d.support.check(s).all())
    wick.manual_seed(1)
    assert bool((d.sample((40000,)) == s).all())  # reproducible
    assert d.sample().shape == (2, 3)


@pytest.mark.parametrize("name,params,values", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_rsample_is_differentiable(name, params, values):
    ws = [wick.tensor(np.asarray(p, dtype=np.float64), requires_grad=True) for p in params]
    d = getattr(W, name)(*ws)
    assert d.has_rsample
    wick.manual_seed(0)
    s = d.rsample((5,))
    grads = wick.autograd.grad(s.sum(), ws)
    # d(sample)/d(parameter) is nonzero (and finite) for every parameter.
    for g in grads:
        assert bool(wick.isfinite(g).all()) and bool((g != 0).any())
    if name == "Normal":  # loc + eps * scale: the gradient for loc counts the draws
        np.testing.assert_allclose(grads[0].numpy(), np.full((1, 3), 10.0))


def test_validation():
    cases = [lambda m: m.distributions.Normal(m.tensor([0.0]), m.tensor([-1.0])),
             lambda m: m.distributions.Normal(m.tensor([0.0]), m.tensor([1.0])).log_prob(m.tensor([math.nan])),
             lambda m: m.distributions.Uniform(m.tensor([1.0]), m.tensor([0.0])),
             lambda m: m.distributions.Exponential(m.tensor([0.0])),
             lambda m: m.distributions.Exponential(m.tensor([1.0])).log_prob(m.tensor([-1.0])),
             lambda m: m.distributions.Bernoulli(m.tensor([1.5])),
             lambda m: m.distributions.Bernoulli(),
             lambda m: m.distributions.Bernoulli(m.tensor([0.5]), m.tensor([0.0])),
             lambda m: m.distributions.Bernoulli(m.tensor([0.5])).log_prob(m.tensor([0.5])),
             lambda m: m.distributions.Categorical(m.tensor(0.5)),
             lambda m: m.distributions.Categorical(m.tensor([0.5, -0.5])),
             lambda m: m.distributions.Categorical(m.tensor([0.5, 0.5])).log_prob(m.tensor(2)),
             lambda m: m.distributions.MultivariateNormal(m.zeros(2), m.eye(2), scale_tril=m.eye(2)),
             lambda m: m.distributions.MultivariateNormal(m.zeros(2), -m.eye(2)),
             lambda m: m.distributions.MultivariateNormal(m.zeros(2), scale_tril=m.ones(2, 2)),
             lambda m: m.distributions.MultivariateNormal(m.tensor(0.0), m.eye(2)),
             lambda m: m.distributions.Independent(m.distributions.Normal(m.zeros(2), m.ones(2)), 2),
             lambda m: m.distributions.Normal(m.zeros(2), m.ones(2)).log_prob(m.zeros(3))]
    for case in cases:
        with pytest.raises(ValueError):
            case(torch)
        with pytest.raises(ValueError):
            case(wick)
    # validate_args=False skips the checks.
    W.Normal(wick.tensor([0.0]), wick.tensor([-1.0]), validate_args=False)


@pytest.mark.parametrize("given", ["probs", "logits"])
def test_bernoulli(given):
    p = np.array([[0.1, 0.5, 0.999], [0.0, 1.0, 0.3]]) if given == "probs" else np.array([[-3.0, 0.0, 8.0]])
    (wp,), (tp,) = both(p)
    ours, theirs = W.Bernoulli(**{given: wp}), T.Bernoulli(**{given: tp})
    for attribute in ["probs", "logits", "mean", "variance"]:
        close(getattr(ours, attribute), getattr(theirs, attribute))
    close(ours.entropy(), theirs.entropy())
    (wv,), (tv,) = both(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]))
    close(ours.log_prob(wv), theirs.log_prob(tv))
    wick.manual_seed(0)
    s = ours.sample((20000,))
    assert s.shape == (20000,) + tuple(theirs.batch_shape)
    probs = theirs.probs.numpy()
    assert np.all(np.abs(s.mean(0).numpy() - probs) <= 5 * np.sqrt(probs * (1 - probs) / 20000) + 1e-12)


@pytest.mark.parametrize("given", ["probs", "logits"])
def test_categorical(given):
    p = np.array([[0.1, 0.2, 0.7, 0.0], [1.0, 2.0, 3.0, 4.0]]) if given == "probs" else rng.standard_normal((2, 4))
    (wp,), (tp,) = both(p)
    ours, theirs = W.Categorical(**{given: wp}), T.Categorical(**{given: tp})
    assert ours.batch_shape == (2,) and ours.event_shape == ()
    close(ours.probs, theirs.probs)
    close(ours.logits, theirs.logits)
    close(ours.entropy(), theirs.entropy())
    values = wick.tensor([[2, 3], [0, 1], [3, 3]])
    close(ours.log_prob(values), theirs.log_prob(torch.tensor(values.numpy())))
    assert np.isnan(ours.mean.numpy()).all() and ours.mean.shape == (2,)
    wick.manual_seed(0)
    s = ours.sample((30000,))
    assert s.shape == (30000, 2) and s.dtype == wick.int64
    probs = theirs.probs.numpy()
    for b in range(2):
        frequencies = np.bincount(s[:, b].numpy(), minlength=4) / 30000
        assert np.all(np.abs(frequencies - probs[b]) <= 5 * np.sqrt(probs[b] * (1 - probs[b]) / 30000) + 1e-12)
    close(ours.enumerate_support(), theirs.enumerate_support())


@pytest.mark.parametrize("form", ["covariance_matrix", "scale_tril", "precision_matrix"])
def test_multivariate_normal(form):
    a = rng.standard_normal((2, 3, 3))
    cov = a @ a.transpose(0, 2, 1) + np.eye(3)
    matrix = {"covariance_matrix": cov, "scale_tril": np.linalg.cholesky(cov),
              "precision_matrix": np.linalg.inv(cov)}[form]
    (wl, wm), (tl, tm) = both(rng.standard_normal(3), matrix)
    ours, theirs = W.MultivariateNormal(wl, **{form: wm}), T.MultivariateNormal(tl, **{form: tm})
    assert ours.batch_shape == (2,) and ours.event_shape == (3,)
    for attribute in ["mean", "variance", "covariance_matrix", "scale_tril", "precision_matrix"]:
        close(getattr(ours, attribute), getattr(theirs, attribute), rtol=1e-10)
    close(ours.entropy(), theirs.entropy())
    (wv,), (tv,) = both(rng.standard_normal((4, 2, 3)))
    close(ours.log_prob(wv), theirs.log_prob(tv), rtol=1e-10)
    wick.manual_seed(2)
    s = ours.rsample((50000,))
    assert s.shape == (50000, 2, 3)
    for b in range(2):
        np.testing.assert_allclose(np.cov(s[:, b].numpy().T), cov[b], atol=0.05 * np.abs(cov[b]).max())


def test_multivariate_normal_rsample_gradient():
    loc = wick.zeros(2, dtype=wick.float64, requires_grad=True)
    tril = wick.tensor([[2.0, 0.0], [1.0, 1.0]], dtype=wick.float64, requires_grad=True)
    wick.manual_seed(0)
    s = W.MultivariateNormal(loc, scale_tril=tril).rsample((7,))
    g_loc, g_tril = wick.autograd.grad(s.sum(), [loc, tril])
    np.testing.assert_allclose(g_loc.numpy(), [7.0, 7.0])
    assert bool((g_tril != 0).any())


def test_independent():
    (wl, ws), (tl, ts) = both(rng.standard_normal((2, 3)), rng.random((2, 3)) + 0.5)
    ours = W.Independent(W.Normal(wl, ws), 1)
    theirs = T.Independent(T.Normal(tl, ts), 1)
    assert ours.batch_shape == (2,) and ours.event_shape == (3,)
    (wv,), (tv,) = both(rng.standard_normal((5, 2, 3)))
    close(ours.log_prob(wv), theirs.log_prob(tv))
    close(ours.entropy(), theirs.entropy())
    close(ours.mean, theirs.mean)
    assert ours.sample((4,)).shape == (4, 2, 3) and ours.has_rsample


def test_kl_divergence():
    (a, b, c, d), (ta, tb, tc, td) = both(rng.standard_normal(4), rng.random(4) + 0.1, rng.standard_normal(4),
                                          rng.random(4) + 0.1)
    close(W.kl_divergence(W.Normal(a, b), W.Normal(c, d)), T.kl_divergence(T.Normal(ta, tb), T.Normal(tc, td)))
    p = [[0.2, 0.3, 0.5], [0.0, 0.5, 0.5], [0.5, 0.5, 0.0]]
    q = [[0.1, 0.1, 0.8], [0.3, 0.3, 0.4], [0.0, 0.5, 0.5]]
    (wp, wq), (tp, tq) = both(p, q)
    close(W.kl_divergence(W.Categorical(wp), W.Categorical(wq)),
          T.kl_divergence(T.Categorical(tp), T.Categorical(tq)))
    with pytest.raises(NotImplementedError):
        W.kl_divergence(W.Normal(a, b), W.Laplace(c, d))
