"""allclose against np.allclose and equal against np.array_equal: every dtype and layout,
broadcasting, NaN and infinities, empty tensors, and the errors PyTorch raises."""
import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, LAYOUTS, make, tensor_in, to_numpy

TOLERANCES = [{}, {"rtol": 0.0, "atol": 0.0}, {"rtol": 0.1}, {"atol": 1.0}, {"rtol": 0.0, "atol": 0.5}]


def nudged(a, dtype, rng):
    """`a` with some elements moved a little and some a lot, in a form the dtype holds."""
    b = a.astype(np.float64).copy()
    if dtype == "bool":
        return np.logical_xor(a, rng.random(a.shape) < 0.05)
    steps = rng.choice([0, 0, 0, 1, -1, 3], size=a.shape) * (0.25 if dtype in FLOATS else 1)
    b += steps
    return np.clip(b, 0, None) if dtype == "uint8" else b


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_allclose_matches_numpy(dtype, layout):
    rng = np.random.default_rng(len(dtype))
    x, a = tensor_in(layout, dtype, (3, 4, 5), seed=1)
    for trial in range(4):
        y = make(nudged(a, dtype, rng) if trial else a, dtype)
        b = to_numpy(y)
        for tol in TOLERANCES:
            want = np.allclose(a.astype(np.float64), b.astype(np.float64), **tol)
            assert x.allclose(y, **tol) is want and wick.allclose(x, y, **tol) is want, (trial, tol)


@pytest.mark.parametrize("dtype", FLOATS)
def test_allclose_special_values(dtype):
    a = np.array([np.inf, -np.inf, np.nan, 1.0, 0.0])
    x = make(a, dtype)
    for b, close, close_nan in (
            ([np.inf, -np.inf, np.nan, 1.0, 0.0], False, True),
            ([np.inf, -np.inf, 1.0, 1.0, 0.0], False, False),
            ([-np.inf, -np.inf, np.nan, 1.0, 0.0], False, False),
            ([np.inf, -np.inf, np.nan, np.inf, 0.0], False, False)):
        y = make(np.array(b), dtype)
        assert x.allclose(y) is close is np.allclose(a, b)
        assert x.allclose(y, equal_nan=True) is close_nan is np.allclose(a, b, equal_nan=True)
    assert make(np.array([np.inf]), dtype).allclose(make(np.array([np.inf]), dtype), atol=np.inf)


def test_allclose_broadcasts():
    x = wick.ones(3, 4)
    assert x.allclose(wick.ones(4)) and wick.allclose(wick.ones(1), x)
    assert not x.allclose(wick.tensor([1.0, 1.0, 1.0, 1.1]))
    assert wick.allclose(wick.empty(0), wick.empty(0)) and wick.allclose(wick.empty(2, 0), wick.empty(0))
    assert wick.allclose(wick.tensor(2.0), wick.tensor(2.0 + 1e-6))


def test_allclose_of_large_integers_uses_their_exact_difference():
    """As PyTorch, which subtracts in int64 (a float64 difference would be 0 here)."""
    big = 1 << 60
    x = wick.tensor([big, -big])
    assert x.allclose(wick.tensor([big, -big]), rtol=0.0, atol=0.0)
    assert not x.allclose(wick.tensor([big + 1, -big]), rtol=0.0, atol=0.5)
    assert x.allclose(wick.tensor([big + 1, -big - 2]), rtol=0.0, atol=2.0)
    extremes = wick.tensor([(1 << 63) - 1, -(1 << 63)])
    assert not extremes.allclose(wick.tensor([-(1 << 63), (1 << 63) - 1]), atol=1e18)


@pytest.mark.parametrize("call,error,message", [
    (lambda: wick.ones(2).allclose(wick.ones(2, dtype=wick.float64)), TypeError, "Float did not match Double"),
    (lambda: wick.ones(2).allclose(wick.ones(3)), RuntimeError, "must match the size of tensor b"),
    (lambda: wick.ones(2).allclose(wick.ones(2), rtol=-1), ValueError,
     "rtol must be greater than or equal to zero, but got -1"),
    (lambda: wick.ones(2).allclose(wick.ones(2), atol=-0.5), ValueError, "atol must be greater than or equal"),
    (lambda: wick.ones(2).allclose([1.0, 1.0]), TypeError, "must be Tensor, not list"),
    (lambda: wick.ones(2).allclose(wick.ones(2), "1"), TypeError, "must be float, not str"),
])
def test_allclose_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_equal_matches_numpy(dtype, layout):
    rng = np.random.default_rng(3)
    x, a = tensor_in(layout, dtype, (3, 4, 5), seed=2)
    same = make(a, dtype)
    assert x.equal(same) is True and wick.equal(same, x) is True
    for _ in range(3):
        b = nudged(a, dtype, rng)
        y = make(b, dtype)
        assert x.equal(y) is np.array_equal(a, to_numpy(y))
    assert x.equal(same.reshape(3, 20)) is False  # same values, another shape
    assert x.equal(same[:, :, :4]) is False


def test_equal_across_dtypes_and_special_values():
    assert wick.equal(wick.tensor([1, 2]), wick.tensor([1.0, 2.0]))  # as PyTorch 1.13: values, not dtypes
    assert not wick.equal(wick.tensor([1, 2]), wick.tensor([1.0, 2.5]))
    assert wick.equal(wick.tensor([True, False]), wick.tensor([1, 0], dtype=wick.uint8))
    nan = wick.tensor([float("nan")])
    assert not nan.equal(nan) and not np.array_equal([np.nan], [np.nan])
    assert wick.equal(wick.tensor([float("inf"), -0.0]), wick.tensor([float("inf"), 0.0]))
    assert wick.equal(wick.empty(0, 2), wick.empty(0, 2)) and not wick.equal(wick.empty(0, 2), wick.empty(2, 0))
    assert wick.equal(wick.tensor(3), wick.tensor(3)) and not wick.equal(wick.tensor(3), wick.tensor([3]))
    big = 1 << 60
    assert not wick.equal(wick.tensor([big]), wick.tensor([big + 1]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "float16", "bool"])
def test_equal_finds_one_difference_anywhere(dtype):
    # Contiguous operands of one dtype are compared in blocks of 512 elements:
    # a single difference on either side of each block edge, and at both ends.
    n = 3 * 512 + 7
    a = (np.arange(n) % 2).astype(dtype)
    x = wick.from_numpy(a.copy())
    assert x.equal(wick.from_numpy(a.copy()))
    for at in (0, 511, 512, 1023, 1024, n - 1):
        b = a.copy()
        b[at] = not b[at] if dtype == "bool" else b[at] + 1
        assert x.equal(wick.from_numpy(b)) is False
    nan = np.zeros(n, dtype="float32")
    nan[700] = np.nan
    assert wick.from_numpy(nan).equal(wick.from_numpy(nan.copy())) is False
