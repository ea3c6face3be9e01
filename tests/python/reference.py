"""Helpers to compare wick tensors with NumPy arrays, dtype-aware."""
import numpy as np

import wick

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")
FLOATS = ("float16", "bfloat16", "float32", "float64")

# NumPy has no bfloat16: its values are compared through float32.
NUMPY_DTYPE = {d: np.dtype("float32" if d == "bfloat16" else d) for d in DTYPES}

# Tolerances for a result rounded once to the dtype from an exact reference.
TOLERANCE = {
    "float16": dict(rtol=1e-3, atol=1e-3),
    "bfloat16": dict(rtol=8e-3, atol=8e-3),
    "float32": dict(rtol=1e-5, atol=1e-6),
    "float64": dict(rtol=1e-12, atol=1e-12),
}


def reference_dtype(name):
    """The NumPy dtype a reference computes in for wick's `name`: float32 for the half types,
    whose results are rounded once, to the dtype's tolerance."""
    return np.dtype("float32") if name in ("float16", "bfloat16") else NUMPY_DTYPE[name]


def wdtype(name):
    return getattr(wick, name)


def to_numpy(t):
    """The values of a wick tensor as a NumPy array of the matching dtype."""
    name = repr(t.dtype).split(".")[1]
    return np.array(t.tolist(), dtype=NUMPY_DTYPE[name]).reshape(t.shape)


def assert_close(actual, expected, dtype_name):
    """`actual` (a wick tensor) equals `expected` (array-like) within the dtype's tolerance."""
    got = to_numpy(actual)
    want = np.asarray(expected)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    # np.testing explains a mismatch, but takes ten times as long to find none.
    if dtype_name in TOLERANCE:
        got, want = got.astype(np.float64), want.astype(np.float64)
        if not np.allclose(got, want, equal_nan=True, **TOLERANCE[dtype_name]):
            np.testing.assert_allclose(got, want, equal_nan=True, **TOLERANCE[dtype_name])
    elif not np.array_equal(got, want.astype(got.dtype)):
        np.testing.assert_array_equal(got, want.astype(got.dtype))


def random_values(dtype_name, shape, rng, domain="any"):
    """Values that every dtype holds, as a float64 or int64 NumPy array, in the op's domain:
    any, positive, unit (inside [-1, 1]), above_one, probability (inside [0, 1]), nonzero, or
    nonfinite (any, with NaN, inf and -inf in place of about a third of the float values), or spd (square
    matrices symmetric positive-definite and well conditioned)."""
    if dtype_name == "bool":
        values = rng.integers(0, 2, size=shape).astype(bool)
        return np.ones(shape, dtype=bool) if domain in ("positive", "nonzero") else values
    signed = dtype_name != "uint8"
    if dtype_name in FLOATS:
        lo, hi = {"positive": (0.25, 3.0), "unit": (-0.9, 0.9), "above_one": (1.25, 4.0), "probability": (0.05, 0.95),
                  "nonzero": (0.25, 3.0)}.get(domain, (-3.0, 3.0))
        values = rng.uniform(lo, hi, size=shape)
    else:
        lo, hi = {"positive": (1, 6), "unit": (-1 if signed else 0, 2), "above_one": (1, 6), "probability": (0, 2),
                  "nonzero": (1, 6)}.get(
            domain, (-5 if signed else 0, 6 if signed else 11))
        values = rng.integers(lo, hi, size=shape)
    if domain == "nonzero" and signed:
        values = values * rng.choice([-1, 1], size=shape)
    if domain == "nonfinite" and dtype_name in FLOATS:
        values = np.where(rng.random(shape) < 1 / 3, rng.choice([np.nan, np.inf, -np.inf], size=shape), values)
    if domain == "spd" and len(shape) >= 2 and shape[-1] == shape[-2]:  # diagonally dominant: cond < 3
        values = (values + np.swapaxes(values, -1, -2)) / 12 + shape[-1] * np.eye(shape[-1])
    return values


def make(values, dtype_name):
    """A wick tensor holding `values` (reshaped: tolist() drops the shape of empty arrays)."""
    values = np.asarray(values)
    return wick.tensor(values.tolist(), dtype=wdtype(dtype_name)).reshape(values.shape)


def assert_equal(result, expected, dtype_name):
    """Copies and views move values without arithmetic: the result matches exactly."""
    assert result.dtype == wdtype(dtype_name)
    expected = np.asarray(expected)
    assert tuple(result.shape) == expected.shape
    np.testing.assert_array_equal(to_numpy(result), expected.astype(NUMPY_DTYPE[dtype_name]))


def shares_storage(a, b):
    """Whether b's first element lies in the memory of `a`, a contiguous tensor."""
    assert a.is_contiguous()
    return b.numel() > 0 and a.data_ptr() <= b.data_ptr() < a.data_ptr() + a.numel() * a.itemsize


def root(t):
    """The tensor that `t` is a view of, or `t` itself."""
    return t if t._base is None else t._base


LAYOUTS = ("contiguous", "transposed", "stepped")


def small_ints(dtype, rng):
    """A draw of values whose sums stay exact in every dtype (float16 and bfloat16 included)."""
    def draw(shape):
        if dtype == "bool":
            return rng.integers(0, 2, size=shape).astype(bool)
        return rng.integers(0 if dtype == "uint8" else -3, 4, size=shape)
    return draw


def tensor_in(layout, dtype, shape, seed=0, values=None):
    """A wick tensor of `shape` laid out as `layout`, and the NumPy array of its values.

    transposed: every dim reversed (strides descending the wrong way); stepped: the
    last dim taken with step 2 out of one twice as long. `values(shape)` draws the
    values (random_values by default)."""
    rng = np.random.default_rng(seed)
    draw = values or (lambda s: random_values(dtype, s, rng))
    if layout == "contiguous":
        t = make(draw(shape), dtype)
    elif layout == "transposed":
        t = make(draw(shape[::-1]), dtype).permute(*reversed(range(len(shape))))
    else:
        t = make(draw(shape[:-1] + (2 * shape[-1],)), dtype)[..., ::2]
    assert tuple(t.shape) == tuple(shape)
    if layout != "contiguous" and t.numel() > 1 and (layout == "stepped" or len(shape) > 1):
        assert not t.is_contiguous()  # a 1-d tensor reversed is itself
    return t, to_numpy(t)
