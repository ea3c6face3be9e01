"""wick.pointwise_functions (float_power, ldexp, frexp, isreal) and round(decimals=), against torch 1.13: values,
dtypes, errors and gradients."""
import math

import numpy as np
import pytest
import torch

import wick

FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]


def both(values, dtype):
    """The same values as a wick and a torch tensor of dtype (a name)."""
    return wick.tensor(values, dtype=getattr(wick, dtype)), torch.tensor(values, dtype=getattr(torch, dtype))


def assert_same(w, t):
    """w (wick) equals t (torch): dtype, shape and values, NaN where NaN."""
    assert str(w.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
    assert tuple(w.shape) == tuple(t.shape)
    expected = t.float().numpy() if t.dtype == torch.bfloat16 else t.numpy()
    actual = w.float().numpy() if w.dtype == wick.bfloat16 else w.numpy()
    np.testing.assert_array_equal(actual, expected)


# ---------------------------------------------------------------------------------------------
# float_power: float64 whatever the operands

@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_float_power_computes_in_float64(dtype):
    w, t = both([[0, 1, 2], [3, 4, 5]], dtype)
    assert_same(wick.float_power(w, 3), torch.float_power(t, 3))
    assert_same(wick.float_power(w, 0.5), torch.float_power(t, 0.5))
    assert_same(wick.float_power(2, w), torch.float_power(2, t))
    assert_same(w.float_power(w), t.float_power(t))


def test_float_power_out_and_in_place_need_float64():
    w, t = both([1.0, 2.0, 3.0], "float32")
    with pytest.raises(RuntimeError, match="requires dtype Double"):
        w.float_power_(2)
    with pytest.raises(RuntimeError, match="requires dtype Double"):
        wick.float_power(w, 2, out=wick.empty(3))
    out = wick.empty(0, dtype=wick.float64)
    assert wick.float_power(w, 2, out=out) is out
    assert_same(out, torch.float_power(t, 2))
    d, td = both([1.5, -2.0], "float64")
    assert d.float_power_(3) is d
    assert_same(d, td.float_power_(3))


def test_float_power_refuses_what_torch_refuses():
    with pytest.raises(TypeError):
        wick.float_power(2, 3)
    with pytest.raises(TypeError):
        wick.float_power("2", wick.ones(2))


def test_float_power_gradient_matches_torch():
    w = wick.tensor([0.5, 1.5, 2.0], requires_grad=True)
    t = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
    wick.float_power(w, 2.5).sum().backward()
    torch.float_power(t, 2.5).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), t.grad.numpy(), rtol=1e-6)
    assert w.grad.dtype == wick.float32


# ---------------------------------------------------------------------------------------------
# ldexp: input * 2 ** other

@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "float16"])
@pytest.mark.parametrize("other_dtype", ["int32", "int64", "float32"])
def test_ldexp_as_torch(dtype, other_dtype):
    w, t = both([[1, -3, 0], [7, 2, 5]], dtype)
    wo, to = both([[3, -2, 4], [0, 1, -5]], other_dtype)
    assert_same(wick.ldexp(w, wo), torch.ldexp(t, to))
    assert_same(w.ldexp(wo), t.ldexp(to))


def test_ldexp_in_place_and_out():
    w, t = both([1.0, 2.0], "float32")
    e, te = both([2, -1], "int64")
    assert w.ldexp_(e) is w
    assert_same(w, t.ldexp_(te))
    out = wick.empty(2)
    assert wick.ldexp(w, e, out=out) is out
    assert_same(out, torch.ldexp(t, te))
    with pytest.raises(TypeError):
        wick.ldexp(w, 2)


# ---------------------------------------------------------------------------------------------
# frexp: exact mantissas, from the table of powers of two

def frexp_values(dtype):
    """Values around powers of two, subnormals, extremes, zeros of both signs, infinities and NaN."""
    info = np.finfo(np.float32 if dtype == "bfloat16" else getattr(np, dtype))
    values = [0.0, -0.0, 1.0, 0.375, -8.0, 3.0, 0.1, float("inf"), -float("inf"), float("nan")]
    for e in range(-20, 21, 3):
        values += [math.ldexp(1.0, e), -math.ldexp(1.0, e) * 0.75]
    if dtype != "bfloat16":
        values += [float(info.max), float(info.tiny), float(info.tiny) / 8, float(np.nextafter(
            getattr(np, dtype)(1), getattr(np, dtype)(0)))]
    return values


@pytest.mark.parametrize("dtype", FLOATS)
def test_frexp_matches_torch_bit_for_bit(dtype):
    w, t = both(frexp_values(dtype), dtype)
    wm, we = wick.frexp(w)
    tm, te = torch.frexp(t)
    assert_same(wm, tm)
    assert_same(we, te)
    assert np.array_equal(np.signbit(wm.float().numpy()), np.signbit(tm.float().numpy()))
    assert type(w.frexp()).__name__ == "frexp" and w.frexp().exponent.dtype == wick.int32


def test_frexp_of_the_smallest_doubles():
    values = [5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1 - 2 ** -53]
    w, t = both(values, "float64")
    wm, we = wick.frexp(w)
    tm, te = torch.frexp(t)
    assert_same(wm, tm)
    assert_same(we, te)


def test_frexp_refuses_integers_and_takes_out():
    with pytest.raises(RuntimeError, match="floating-point"):
        wick.frexp(wick.tensor([1, 2]))
    w, t = both([[6.0, 0.5], [-3.0, 1e-3]], "float32")
    m, e = wick.empty(0), wick.empty(0, dtype=wick.int32)
    result = wick.frexp(w, out=(m, e))
    assert result.mantissa is m and result.exponent is e
    tm, te = torch.frexp(t)
    assert_same(m, tm)
    assert_same(e, te)
    with pytest.raises(RuntimeError):
        wick.frexp(w, out=(wick.empty(0, dtype=wick.float64), e))


def test_frexp_gradient_matches_torch():
    w = wick.tensor([3.0, -0.7, 12.0], requires_grad=True)
    t = torch.tensor([3.0, -0.7, 12.0], requires_grad=True)
    wick.frexp(w).mantissa.sum().backward()
    torch.frexp(t).mantissa.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), t.grad.numpy())


# ---------------------------------------------------------------------------------------------
# isreal and round(decimals=)

@pytest.mark.parametrize("dtype", ["bool"] + INTS + FLOATS)
def test_isreal(dtype):
    w, t = both([[1, 0], [0, 1]], dtype)
    assert_same(wick.isreal(w), torch.isreal(t))
    assert_same(w.isreal(), t.isreal())


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2, 5])
def test_round_decimals_as_torch(dtype, decimals):
    values = np.random.default_rng(decimals + 10).normal(0, 300, size=(40,)).tolist() + [0.125, 2.5, -2.5, 15.0,
                                                                                        25.0, float("nan")]
    w, t = both(values, dtype)

    def expected(t):
        """torch's result; the 16-bit dtypes compute in float32, as torch's other ops on them do (torch 1.13 rounds
        no float16 and rounds bfloat16's scaled products to bfloat16)."""
        return torch.round(t.float(), decimals=decimals).to(t.dtype) if t.dtype in (torch.float16, torch.bfloat16) \
            else torch.round(t, decimals=decimals)

    assert_same(wick.round(w, decimals=decimals), expected(t))
    assert_same(w.round(decimals=decimals), expected(t))
    # A transposed, strided operand and the in-place form take the same path.
    w2, t2 = both(np.array(values[:40]).reshape(8, 5).tolist(), dtype)
    assert_same(w2.t().round(decimals=decimals), expected(t2.t()))
    assert_same(w2.clone().round_(decimals=decimals), expected(t2))


def test_round_decimals_of_integers():
    w = wick.tensor([15, 25, 2 ** 62 + 1])
    assert w.round(decimals=0).tolist() == w.round(decimals=3).tolist() == [15, 25, 2 ** 62 + 1]
    with pytest.raises(RuntimeError, match="decimals must not be negative"):
        w.round(decimals=-1)
    with pytest.raises(TypeError):
        wick.round(wick.ones(2), decimals=1.5)


@pytest.mark.parametrize("dtype", INTS + FLOATS)
@pytest.mark.parametrize("base", [2, 2.5, -3])
def test_pow_of_a_number_as_torch(dtype, base):
    """pow(Scalar self, Tensor exponent), a function overload alone: the number promotes as a wrapped one."""
    w, t = both([[0, 1, 2], [3, 4, 5]], dtype)
    assert_same(wick.pow(base, w), torch.pow(base, t))
    expected = torch.pow(base, t)
    out = wick.empty(0, dtype=getattr(wick, str(expected.dtype).split(".")[1]))
    assert wick.pow(base, w, out=out) is out
    assert_same(out, expected)


def test_pow_of_a_number_has_gradients_as_torch():
    w = wick.tensor([0.5, 1.0, 2.0], requires_grad=True)
    t = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    wick.pow(3.0, w).sum().backward()
    torch.pow(3.0, t).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), t.grad.numpy(), rtol=1e-6)
