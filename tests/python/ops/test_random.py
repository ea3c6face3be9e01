"""rand and randn (core/src/factory.cpp, Note [Random draws]): the same values for the same seed,
*_like forms that match the factories, and distributions checked by bounds that a wrong transform
or a biased draw would cross (each at about five standard errors, on fixed seeds)."""
import math

import numpy as np
import pytest
import torch

import wick

FLOATS = ["float16", "bfloat16", "float32", "float64"]
SIGNIFICAND_BITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
N = 2**18
Z = 5.0  # standard errors allowed by every statistical bound below


def values(t):
    """A tensor's values as float64 NumPy, through float64 so the 16-bit dtypes read exactly."""
    return np.asarray(t.double()).copy()


def draw(op, n, dtype, seed):
    wick.manual_seed(seed)
    return getattr(wick, op)(n, dtype=getattr(wick, dtype))


def ks_statistic(sample, cdf):
    """Kolmogorov-Smirnov distance between a sample and a continuous cdf."""
    x = np.sort(sample)
    f = cdf(x)
    n = len(x)
    return max((np.arange(1, n + 1) / n - f).max(), (f - np.arange(n) / n).max())


def ks_bound(n, alpha=1e-6):
    return math.sqrt(-0.5 * math.log(alpha / 2) / n)


def normal_cdf(x):
    return 0.5 * (1 + torch.erf(torch.from_numpy(x) / math.sqrt(2)).numpy())


# --- reproducibility -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", ["rand", "randn"])
@pytest.mark.parametrize("n", [0, 1, 5, 31, 32, 33, 100, 70_001])
def test_the_same_seed_gives_the_same_values(op, dtype, n):
    a = values(draw(op, n, dtype, 11))
    b = values(draw(op, n, dtype, 11))
    np.testing.assert_array_equal(a, b)
    assert a.shape == (n,) and np.isfinite(a).all()
    if n >= 5:
        assert not np.array_equal(a, values(draw(op, n, dtype, 12)))


@pytest.mark.parametrize("op", ["rand", "randn"])
def test_successive_draws_differ_and_repeat_after_reseeding(op):
    f = getattr(wick, op)
    wick.manual_seed(3)
    first = [values(f(n)) for n in (7, 40, 1000)]
    wick.manual_seed(3)
    again = [values(f(n)) for n in (7, 40, 1000)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], first[1][:7])


@pytest.mark.parametrize("like", [
    lambda: wick.ones(300, 7),                          # contiguous: filled in place
    lambda: wick.ones(7, 300).t(),                      # a transpose: same strides, values in logical order
    lambda: wick.ones(40, 50, dtype=wick.float64)[::2],  # not dense: a dense result
    lambda: wick.ones(33, dtype=wick.bfloat16),
])
@pytest.mark.parametrize("op", ["rand", "randn"])
def test_like_forms_give_the_factorys_values(op, like):
    x = like()
    wick.manual_seed(5)
    r = getattr(wick, op + "_like")(x)
    wick.manual_seed(5)
    expected = getattr(wick, op)(tuple(x.shape), dtype=x.dtype)
    assert r.dtype is x.dtype and tuple(r.shape) == tuple(x.shape)
    np.testing.assert_array_equal(values(r), values(expected))
    wick.manual_seed(5)
    as_double = getattr(wick, op + "_like")(x, dtype=wick.float64)
    wick.manual_seed(5)
    np.testing.assert_array_equal(values(as_double), values(getattr(wick, op)(tuple(x.shape), dtype=wick.float64)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [20, 32, 1000, 70_001])
def test_16bit_randn_is_float32_randn_rounded(dtype, n):
    # Both draw float uniforms and transform in float; the 16-bit result rounds it once.
    narrow = draw("randn", n, dtype, 9)
    wide = draw("randn", n, "float32", 9)
    np.testing.assert_array_equal(values(narrow), values(wide.to(getattr(wick, dtype))))


# --- randn's distribution --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_randn_moments_and_tails(dtype):
    x = values(draw("randn", N, dtype, 21))
    assert np.isfinite(x).all()
    # Moments of N(0, 1) against their standard errors: sqrt(k / n) with k = Var(x^j).
    assert abs(x.mean()) < Z * math.sqrt(1 / N)
    assert abs((x**2).mean() - 1) < Z * math.sqrt(2 / N)
    assert abs((x**3).mean()) < Z * math.sqrt(15 / N)
    assert abs((x**4).mean() - 3) < Z * math.sqrt(96 / N)
    for t, p in [(1.0, 0.31731050786291415), (2.0, 0.04550026389635842), (3.0, 0.0026997960632601866)]:
        beyond = (np.abs(x) > t).mean()
        assert abs(beyond - p) < Z * math.sqrt(p * (1 - p) / N), (t, beyond)
    # Box-Muller's tails end where 1 - u1 is smallest: 2^-24 for float, 2^-53 for double.
    bits = 53 if dtype == "float64" else 24
    assert np.abs(x).max() <= math.sqrt(2 * bits * math.log(2)) * (1 + 2**-7)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_randn_matches_the_normal_cdf(dtype):
    x = values(draw("randn", N, dtype, 22))
    assert ks_statistic(x, normal_cdf) < ks_bound(N)
    # The two halves of each pair (cosine and sine of one angle) and neighbours are uncorrelated.
    for lag in (1, 2, 15, 16, 17, 32):
        r = np.corrcoef(x[:-lag], x[lag:])[0, 1]
        assert abs(r) < Z / math.sqrt(N), (lag, r)


def test_randn_sign_and_magnitude_are_independent():
    # A transform that tied the sign to the radius would skew |x| among the positives.
    x = values(draw("randn", N, "float32", 23))
    pos, neg = np.abs(x[x > 0]), np.abs(x[x < 0])
    se = math.sqrt((1 - 2 / math.pi) * (1 / len(pos) + 1 / len(neg)))
    assert abs(pos.mean() - neg.mean()) < Z * se
    assert abs(len(pos) / N - 0.5) < Z * math.sqrt(0.25 / N)


# --- rand's distribution ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_rand_values_are_multiples_of_the_significands_step_below_one(dtype):
    x = values(draw("rand", N, dtype, 31))
    scaled = x * 2.0 ** SIGNIFICAND_BITS[dtype]
    assert (x >= 0).all() and (x < 1).all()  # never rounded up to 1
    np.testing.assert_array_equal(scaled, np.floor(scaled))
    assert abs(x.mean() - 0.5) < Z * math.sqrt(1 / 12 / N)
    assert abs(x.var() - 1 / 12) < Z * math.sqrt(1 / 180 / N)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rand_matches_the_uniform_cdf(dtype):
    x = values(draw("rand", N, dtype, 32))
    assert ks_statistic(x, lambda v: v) < ks_bound(N)
    for lag in (1, 2, 31, 32):
        assert abs(np.corrcoef(x[:-lag], x[lag:])[0, 1]) < Z / math.sqrt(N)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_rand_covers_every_16bit_step_evenly(dtype):
    # Chi-square over the 2^bits values the dtype's draws can take: df = 2^bits - 1.
    bins = 2 ** SIGNIFICAND_BITS[dtype]
    counts = np.bincount((values(draw("rand", N, dtype, 33)) * bins).astype(np.int64), minlength=bins)
    assert len(counts) == bins
    expected = N / bins
    chi2 = ((counts - expected) ** 2 / expected).sum()
    df = bins - 1
    assert chi2 < df + Z * math.sqrt(2 * df)
