"""div with rounding_mode None, 'trunc' and 'floor' (method, function, in place, out=) and true_divide,
against NumPy, where the declared op tests (ops/test_declared_ops.py) do not reach; div(rounding_mode='floor')
is floor_divide.

The generated tests check div and div_ in every dtype and mode, self contiguous or transposed,
an operand of stride 0, a Python number, in place and into out=. Here: self sliced with a step and
a divisor broadcast against it, float divisors of integers in every mode, special values and signed
zeros, integer edge cases, the errors.
"""
import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, NUMPY_DTYPE, assert_close, make, random_values, tensor_in, to_numpy

MODES = (None, "trunc", "floor")


def reference(a, b, mode, dtype):
    """NumPy's quotient of the values a and b (arrays) for a rounding mode, in the result's dtype.

    Floats divide in the kernels' compute type, float32 for the 16-bit ones: rounding the
    quotient first can carry it across an integer, which trunc and floor then keep."""
    if mode is None:
        return a.astype(np.float64) / b.astype(np.float64)
    if dtype in FLOATS:
        compute = np.float64 if dtype == "float64" else np.float32
        x, y = a.astype(compute), b.astype(compute)
        return np.trunc(x / y) if mode == "trunc" else np.floor_divide(x, y)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    q = np.abs(a64) // np.abs(b64) * np.sign(a64) * np.sign(b64) if mode == "trunc" else a64 // b64
    return q.astype(NUMPY_DTYPE[dtype])  # wraps as the kernels do (int8: -128 // -1)


def result_dtype(dtype, mode):
    return dtype if mode else (dtype if dtype in FLOATS else "float32")


def operands(dtype, layout, seed):
    x, a = tensor_in(layout, dtype, (3, 4, 5), seed=seed)
    rng = np.random.default_rng(seed + 100)
    y = make(random_values(dtype, (4, 5), rng, domain="nonzero"), dtype)  # broadcasts against x
    return x, a, y, to_numpy(y)


# Self contiguous or transposed: div-<dtype>-contiguous and -noncontiguous, div_-<dtype>-inplace_view.
@pytest.mark.parametrize("layout", ["stepped"])
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
@pytest.mark.parametrize("mode", MODES)
def test_div_matches_numpy(mode, dtype, layout):
    x, a, y, b = operands(dtype, layout, seed=len(layout))
    want = reference(a, b, mode, dtype)
    out_dtype = result_dtype(dtype, mode)
    for result in (x.div(y, rounding_mode=mode), wick.div(x, y, rounding_mode=mode)):
        assert result.dtype == getattr(wick, out_dtype)
        assert_close(result, want, out_dtype)
    out = wick.empty(0, dtype=getattr(wick, out_dtype))
    assert wick.div(x, y, rounding_mode=mode, out=out) is out
    assert_close(out, want, out_dtype)
    if mode is not None or dtype in FLOATS:  # true division of integers cannot be written back
        before = x
        assert x.div_(y, rounding_mode=mode) is before
        assert_close(x, want, dtype)


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
@pytest.mark.parametrize("mode", MODES)
def test_div_by_a_number(mode, dtype):
    x, a = tensor_in("contiguous", dtype, (2, 6), seed=3)
    for divisor in (3, -2):
        if dtype == "uint8" and divisor < 0:
            continue
        want = reference(a, np.array(divisor).astype(NUMPY_DTYPE[dtype]), mode, dtype)
        assert_close(x.div(divisor, rounding_mode=mode), want, result_dtype(dtype, mode))
    # A float divisor promotes integers to the default float dtype, in every mode.
    got = wick.div(x, 2.5, rounding_mode=mode)
    want_dtype = dtype if dtype in FLOATS else "float32"
    q = a.astype(np.float64) / 2.5
    assert got.dtype == getattr(wick, want_dtype)
    assert_close(got, {None: q, "trunc": np.trunc(q), "floor": np.floor(q)}[mode], want_dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_floor_mode_is_floor_divide(dtype):
    """Special values included: both run the one floor_divide kernel."""
    a = np.array([7.5, -7.5, 0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5.0])
    b = np.array([2.0, 2.0, -3.0, 3.0, 2.0, -2.0, 1.0, 0.0, 0.0, -np.inf])
    x, y = make(a, dtype), make(b, dtype)
    via_div = to_numpy(wick.div(x, y, rounding_mode="floor"))
    np.testing.assert_array_equal(via_div, to_numpy(wick.floor_divide(x, y)))
    np.testing.assert_array_equal(np.signbit(via_div), np.signbit(to_numpy(wick.floor_divide(x, y))))


def test_trunc_mode_special_values():
    a = np.array([7.0, -7.0, 0.0, 1.0, -1.0, 0.0, np.inf, np.nan])
    b = np.array([2.0, 2.0, -3.0, 0.0, 0.0, 0.0, 2.0, 1.0])
    got = to_numpy(wick.div(make(a, "float64"), make(b, "float64"), rounding_mode="trunc"))
    with np.errstate(all="ignore"):
        want = np.trunc(a / b)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # -0.0 for 0 / -3


def test_integer_edge_cases():
    int8_min = wick.tensor([-128], dtype=wick.int8)
    assert int8_min.div(-1, rounding_mode="trunc").tolist() == [-128]  # wraps, as PyTorch
    assert int8_min.div(wick.tensor([-1], dtype=wick.int8), rounding_mode="floor").tolist() == [-128]
    mixed = wick.tensor([-7, 7], dtype=wick.int8).div(wick.tensor([2], dtype=wick.uint8), rounding_mode="trunc")
    assert mixed.dtype == wick.int16 and mixed.tolist() == [-3, 3]
    for mode in ("trunc", "floor"):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            wick.tensor([1, 2]).div(0, rounding_mode=mode)


def test_true_divide_is_div_without_a_mode():
    x, y = wick.tensor([-7, 7, 3]), wick.tensor([2, -4, 3])
    want = [-3.5, -1.75, 1.0]
    assert wick.true_divide(x, y).tolist() == x.true_divide(y).tolist() == x.div(y).tolist() == want
    assert (x / y).tolist() == want
    f = wick.tensor([1.0, 3.0])
    assert f.true_divide_(2) is f and f.tolist() == [0.5, 1.5]
    out = wick.empty(3)
    assert wick.true_divide(x, y, out=out) is out and out.tolist() == want
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        wick.tensor([1, 2]).true_divide_(2)


@pytest.mark.parametrize("call,error,message", [
    (lambda: wick.ones(2).div(2, rounding_mode="round"), ValueError,
     r"div\(\): expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'"),
    (lambda: wick.ones(2).div_(wick.ones(2), rounding_mode=""), ValueError, "but found ''"),
    (lambda: wick.div(wick.ones(2), 2, rounding_mode="x", out=wick.empty(2)), ValueError, "but found 'x'"),
    (lambda: wick.ones(2).div(2, rounding_mode=1), TypeError, "invalid combination of arguments"),
    (lambda: wick.ones(2).div(2, "trunc"), TypeError, r"div\(\) takes at most 1 positional argument \(2 given\)"),
    (lambda: wick.tensor([True]).div(wick.tensor([True]), rounding_mode="trunc"), TypeError,
     "not supported for dtype bool"),
    (lambda: wick.tensor([True]).div(wick.tensor([True]), rounding_mode="floor"), TypeError,
     "not supported for dtype bool"),
    (lambda: wick.tensor([1, 2]).div_(2), RuntimeError, "result type Float can't be cast to the desired output type"),
    (lambda: wick.tensor([1, 2]).div_(2.0, rounding_mode="floor"), RuntimeError, "can't be cast"),
    (lambda: wick.div(wick.ones(2), 2, rounding_mode="trunc", out=wick.empty(2, dtype=wick.int64)), RuntimeError,
     "can't be cast"),
])
def test_div_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
