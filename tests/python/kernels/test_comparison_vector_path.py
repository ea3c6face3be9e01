"""Comparisons and logical ops through the CPU loops' vector path (Note [Integer vectors] in
wick/cpu/vec.h): every dtype, runs whose tails are shorter than a vector (up to 64 lanes of int8 on
AVX-512), NaN, infinities and signed zeros, integer extremes, strided, transposed and broadcast
operands, and Python numbers, all against NumPy."""
import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, to_numpy

COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
               "ge": np.greater_equal}
LOGICAL = {"logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor}
BINARY = {**COMPARISONS, **LOGICAL}
UNARY = {"logical_not": np.logical_not, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite}
# Around every vector width (4 to 64 lanes) and a block (256), and past the parallel grain.
LENGTHS = [1, 3, 7, 15, 17, 31, 33, 63, 64, 65, 127, 255, 257, 1000, 100_003]
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5]


def sample(dtype, n, seed):
    """Values of `dtype` (as float32 for bfloat16) that hit its edges, and a second operand that equals
    the first in about a third of the places."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        a, b = rng.integers(0, 2, n).astype(bool), rng.integers(0, 2, n).astype(bool)
    elif dtype in FLOATS:
        def one():
            x = rng.standard_normal(n) * 3
            mask = rng.random(n) < 0.3
            x[mask] = rng.choice(SPECIALS, int(mask.sum()))
            return x.astype(np.float32)
        a, b = one(), one()
    else:
        info = np.iinfo(dtype)
        edges = np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2], dtype=np.int64)
        def one():
            x = rng.integers(info.min, int(info.max) + 1, n, dtype=np.int64)
            mask = rng.random(n) < 0.3
            x[mask] = rng.choice(edges, int(mask.sum()))
            return x.astype(dtype)
        a, b = one(), one()
    b = np.where(rng.random(n) < 0.33, a, b)
    x, y = wick.from_numpy(a), wick.from_numpy(b)
    if dtype in ("float16", "bfloat16", "float64"):
        x, y = x.to(getattr(wick, dtype)), y.to(getattr(wick, dtype))
    return x, y, to_numpy(x), to_numpy(y)  # the operands' own values (bfloat16 rounds)


def check(result, expected):
    assert result.dtype is wick.bool
    np.testing.assert_array_equal(to_numpy(result), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
def test_binary_ops_on_contiguous_runs(dtype, n):
    x, y, a, b = sample(dtype, n, n)
    for op, ref in BINARY.items():
        check(getattr(wick, op)(x, y), ref(a, b))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
def test_unary_ops_on_contiguous_runs(dtype, n):
    x, _, a, _ = sample(dtype, n, n + 1)
    for op, ref in UNARY.items():
        check(getattr(wick, op)(x), ref(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_out_and_unaligned_views(dtype):
    x, y, a, b = sample(dtype, 300, 2)
    out = wick.empty(297, dtype=wick.bool)
    for op, ref in BINARY.items():
        assert getattr(wick, op)(x[3:], y[:-3], out=out) is out
        check(out, ref(a[3:], b[:-3]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_transposed_and_broadcast_operands(dtype):
    x, y, a, b = sample(dtype, 2 * 37 * 70, 3)
    x2, y2, a2, b2 = x.view(74, 70), y.view(74, 70), a.reshape(74, 70), b.reshape(74, 70)
    for op, ref in BINARY.items():
        f = getattr(wick, op)
        check(f(x[::3], y[1::3]), ref(a[::3], b[1::3]))              # strided, both
        check(f(x2.t(), y2.t()), ref(a2.T, b2.T))                     # transposed
        check(f(x2[:, :1], y2[:1, :]), ref(a2[:, :1], b2[:1, :]))     # a column against a row
        check(f(x2[::2, 5:], y2[1::2, :65]), ref(a2[::2, 5:], b2[1::2, :65]))
    out = wick.empty(70, 74, dtype=wick.bool).t()                    # a strided result
    for op, ref in COMPARISONS.items():
        getattr(wick, op)(x2, y2, out=out)
        check(out, ref(a2, b2))
    for op, ref in UNARY.items():
        check(getattr(wick, op)(x2.t()[::2]), ref(a2.T[::2]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [5, 64, 1000])
def test_python_numbers_as_operands(dtype, n):
    x, _, a, _ = sample(dtype, n, 4)
    numbers = [True, False] if dtype == "bool" else [0, 1, 2.5, float("nan")] if dtype in FLOATS else [0, 1]
    for number in numbers:
        for op, ref in COMPARISONS.items():
            check(getattr(wick, op)(x, number), ref(a, np.asarray(number, dtype=a.dtype)))


def test_unsigned_and_signed_order_at_the_extremes():
    # uint8 lanes compare unsigned, int8 lanes signed, across a whole AVX-512 vector and a tail.
    u = np.array([0, 255, 128, 127, 1] * 30, dtype=np.uint8)
    s = u.view(np.int8)
    for arr in (u, s):
        x, y = wick.from_numpy(arr), wick.from_numpy(np.roll(arr, 1))
        for op, ref in COMPARISONS.items():
            check(getattr(wick, op)(x, y), ref(arr, np.roll(arr, 1)))
