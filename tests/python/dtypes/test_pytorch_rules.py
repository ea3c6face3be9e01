"""Calls that promotion alone would take but PyTorch refuses, or answers otherwise, answered as
PyTorch 1.13 does (Note [Pointwise checks]): bool subtraction and negation, integers to negative
powers, where's condition, alpha, addcdiv of integers, lerp's dtypes and formula, the multiply-adds
that PyTorch rounds once; and argmax of bools, which wick now takes."""
import math
import warnings

import numpy as np
import pytest

import torch_ref
import wick
from reference import DTYPES, FLOATS, TOLERANCE

torch = pytest.importorskip("torch")


def tensor(L, dtype, values=None):
    if values is None:
        values = [True, False, True] if dtype == "bool" else [2.5, -1.0, 0.0] if dtype in FLOATS else [2, 1, 0]
    return L.tensor(values, dtype=getattr(L, dtype))


def assert_as_torch(call):
    return torch_ref.assert_as_torch(torch, call)


# --- subtraction and negation of bools ----------------------------------------------------------

SUBTRACTIONS = {
    "operator": lambda L, a, b: a - b,
    "function": lambda L, a, b: L.sub(a, b),
    "alpha": lambda L, a, b: L.sub(a, b, alpha=2),
    "in_place": lambda L, a, b: a.clone().sub_(b),
    "out": lambda L, a, b: L.sub(a, b, out=L.empty(0, dtype=a.dtype)),
}


@pytest.mark.parametrize("form", sorted(SUBTRACTIONS))
@pytest.mark.parametrize("other", DTYPES)
def test_subtraction_with_a_bool_operand_is_refused(form, other):
    sub = SUBTRACTIONS[form]
    assert_as_torch(lambda L: sub(L, tensor(L, "bool"), tensor(L, other)))
    assert_as_torch(lambda L: sub(L, tensor(L, other), tensor(L, "bool")))
    for number in (True, False, 1, 1.5):  # a wrapped bool is a bool operand too
        assert_as_torch(lambda L: sub(L, tensor(L, other), number))


@pytest.mark.parametrize("number", [1, True, 2.5])
def test_reflected_subtraction_from_a_number(number):
    for dtype in DTYPES:
        assert_as_torch(lambda L: number - tensor(L, dtype))


def test_negation_of_bool_is_refused_in_every_form():
    for call in (lambda L: -tensor(L, "bool"), lambda L: L.neg(tensor(L, "bool")), lambda L: tensor(L, "bool").neg_(),
                 lambda L: L.neg(tensor(L, "bool"), out=L.empty(3))):
        assert_as_torch(call)


# --- integers to negative integer powers --------------------------------------------------------

POWERS = {
    "operator": lambda L, x, e: x ** e,
    "method": lambda L, x, e: x.pow(e),
    "function": lambda L, x, e: L.pow(x, e),
    "in_place": lambda L, x, e: x.clone().pow_(e),
    "in_place_operator": lambda L, x, e: _ipow(x.clone(), e),
    "out": lambda L, x, e: L.pow(x, e, out=L.empty(0, dtype=x.dtype)),
}


def _ipow(x, e):
    x **= e
    return x


def assert_power_as_torch(call):
    got, want = torch_ref.outcome(wick, call), torch_ref.outcome(torch, call)
    if want[0] == "raises" and want[2].startswith("Found dtype"):
        # PyTorch's pow words the refusal of a result dtype its own way; wick as every other op does.
        assert got[:2] == want[:2] and "can't be cast to the desired output type" in got[2], got
        return
    assert_as_torch(call)


@pytest.mark.parametrize("form", sorted(POWERS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_negative_integer_exponents(form, dtype):
    # A number exponent below 0 is refused for integer (and bool) bases; as a tensor it gives
    # C's truncated 1/x (0 but for 1 and -1), as PyTorch's does.
    power = POWERS[form]
    assert_as_torch = assert_power_as_torch  # noqa: N806
    base = [2, 1, -1, 0, -3] if dtype not in ("bool", "uint8") else [2, 1, 0, 3, 1]
    for exponent in (-1, -2, 0, 3, -1.0, -0.5):
        assert_as_torch(lambda L: power(L, tensor(L, dtype, base), exponent))
    for exponent in ([-1] * 5, [-2, -1, -3, -1, -2]):
        for exponent_dtype in ("int64", "int8", dtype):
            if exponent_dtype in ("bool", "uint8"):
                continue
            assert_as_torch(lambda L: power(L, tensor(L, dtype, base), tensor(L, exponent_dtype, exponent)))
    assert_as_torch(lambda L: power(L, tensor(L, dtype, base), L.tensor(-1)))  # a 0-d tensor is a tensor


@pytest.mark.parametrize("number", [2, -1, 1, 0, -2, 2.5, True])
def test_a_number_raised_to_integer_tensors(number):
    for dtype in ("int8", "int32", "int64", "uint8"):
        values = [-1, 0, 2, -3] if dtype != "uint8" else [0, 1, 2, 3]
        assert_as_torch(lambda L: number ** tensor(L, dtype, values))


# --- alpha -------------------------------------------------------------------------------------

@pytest.mark.parametrize("alpha", [True, False, 2, 1.0, 0.5, -1])
@pytest.mark.parametrize("dtype", DTYPES)
def test_alpha_of_add_and_sub(alpha, dtype):
    # A bool alpha only for bool results; a float alpha only for floating-point results.
    other = "bool" if dtype == "bool" else dtype
    for op in ("add", "sub"):
        assert_as_torch(lambda L: getattr(L, op)(tensor(L, dtype), tensor(L, other), alpha=alpha))
        assert_as_torch(lambda L: getattr(L, op)(tensor(L, dtype), 1, alpha=alpha))
        assert_as_torch(lambda L: getattr(tensor(L, dtype), op + "_")(tensor(L, other), alpha=alpha))
    assert_as_torch(lambda L: L.add(tensor(L, dtype), 2.5, alpha=alpha))  # a float other promotes first


@pytest.mark.parametrize("value", [True, 2, 1.5, -0.5])
def test_value_of_addcmul_is_truncated_for_integers_as_in_pytorch(value):
    for dtype in ("uint8", "int8", "int32", "int64", "float32", "float64"):
        assert_as_torch(lambda L: L.addcmul(tensor(L, dtype), tensor(L, dtype), tensor(L, dtype), value=value))


def test_alpha_and_beta_of_matrix_products_are_truncated_for_integers_as_in_pytorch():
    for dtype in ("int64", "int32", "uint8", "float32", "float64"):
        m = lambda L: L.tensor([[1, 2], [3, 4]], dtype=getattr(L, dtype))  # noqa: E731
        v = lambda L: L.tensor([1, 2], dtype=getattr(L, dtype))  # noqa: E731
        b = lambda L: m(L).reshape(1, 2, 2)  # noqa: E731
        for alpha, beta in ((1.5, 1), (1, 1.5), (0.5, 0.5), (True, 2)):
            assert_as_torch(lambda L: L.addmm(m(L), m(L), m(L), alpha=alpha, beta=beta))
            assert_as_torch(lambda L: L.addmv(v(L), m(L), v(L), alpha=alpha, beta=beta))
            assert_as_torch(lambda L: L.baddbmm(b(L), b(L), b(L), alpha=alpha, beta=beta))
            assert_as_torch(lambda L: L.addbmm(m(L), b(L), b(L), alpha=alpha, beta=beta))


# --- where, addcdiv, lerp ----------------------------------------------------------------------

@pytest.mark.parametrize("condition", DTYPES)
def test_where_takes_a_bool_condition(condition):
    # A (deprecated) uint8 one is read as bool: it takes no part in the result's dtype.
    for dtype in ("float32", "int64", "int8", "bool"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # uint8 conditions are deprecated, in PyTorch as here
            assert_as_torch(lambda L: L.where(tensor(L, condition), tensor(L, dtype), tensor(L, dtype)))
            assert_as_torch(lambda L: L.where(tensor(L, condition), tensor(L, dtype), 0))
            assert_as_torch(lambda L: L.where(tensor(L, condition), tensor(L, dtype), tensor(L, dtype),
                                              out=L.empty(3, dtype=getattr(L, dtype))))


def test_where_warns_of_a_uint8_condition():
    with pytest.warns(UserWarning, match="where received a uint8 condition tensor"):
        wick.where(wick.tensor([1, 0], dtype=wick.uint8), wick.ones(2), wick.zeros(2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_addcdiv_of_integer_tensors_is_refused(dtype):
    for tensors in (dtype, "float32"):
        assert_as_torch(lambda L: L.addcdiv(tensor(L, "float32"), tensor(L, tensors, [1, 2, 3]),
                                            tensor(L, dtype, [1, 2, 3])))


@pytest.mark.parametrize("end", DTYPES)
def test_lerp_takes_one_floating_dtype(end):
    for dtype in ("float32", "float64"):
        assert_as_torch(lambda L: L.lerp(tensor(L, dtype), tensor(L, end), 0.5))
        assert_as_torch(lambda L: L.lerp(tensor(L, dtype), tensor(L, dtype), tensor(L, end)))
        assert_as_torch(lambda L: L.lerp(tensor(L, dtype), tensor(L, dtype), L.tensor(0.5, dtype=getattr(L, end))))
    with pytest.raises(TypeError, match="lerp"):
        wick.lerp(wick.tensor([1, 2]), wick.tensor([3, 4]), 0.5)  # PyTorch: not implemented for 'Long'


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lerp_is_exact_at_the_ends_and_keeps_infinities(dtype):
    # PyTorch's formula: from self below a weight of 0.5, from end at and above it.
    start = [math.inf, -math.inf, 1.0, 1.0, 0.0, 1e30, 3.0, 2.0]
    end = [1.0, 1.0, math.inf, -math.inf, math.nan, -1e30, 3.0, 7.0]
    for weight in (0.5, 0.0, 1.0, 0.25, 0.75, -0.75, 2.0, math.nan):
        assert_as_torch(lambda L: L.lerp(tensor(L, dtype, start), tensor(L, dtype, end), weight))
        assert_as_torch(lambda L: L.lerp(tensor(L, dtype, start), tensor(L, dtype, end),
                                         L.full((8,), weight, dtype=getattr(L, dtype))))
        assert_as_torch(lambda L: tensor(L, dtype, start).lerp_(tensor(L, dtype, end), weight))


# --- division by zero, in-place casts, bitwise ops on floats -------------------------------------

@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32", "int64"])
def test_integer_division_by_zero_says_what_pytorch_says(dtype):
    for call in (lambda L: tensor(L, dtype) // 0, lambda L: tensor(L, dtype) % 0, lambda L: L.fmod(tensor(L, dtype), 0),
                 lambda L: L.div(tensor(L, dtype), 0, rounding_mode="trunc"),
                 lambda L: tensor(L, dtype) // tensor(L, dtype, [1, 0, 2])):
        assert_as_torch(call)


@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_results_that_cannot_be_cast_back_are_refused(dtype):
    for other in (2.5, 1, True):
        for op in ("add_", "mul_", "div_", "floor_divide_"):
            assert_as_torch(lambda L: getattr(tensor(L, dtype, [1, 2, 3]), op)(other))
    assert_as_torch(lambda L: tensor(L, dtype, [1, 4, 9]).sqrt_())


def test_bitwise_ops_refuse_floating_point():
    for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
        with pytest.raises(TypeError, match=op):
            getattr(wick, op)(wick.ones(2), wick.ones(2))
        with pytest.raises(TypeError, match=op):
            getattr(wick, op)(wick.tensor([1, 2]), 1.5)
    with pytest.raises(TypeError, match="bitwise_not"):
        ~wick.ones(2)


# --- reductions of bools ----------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)])
def test_argmax_and_argmin_of_bools_are_the_first_extreme(shape):
    a = np.random.default_rng(sum(shape)).random(shape) < 0.5
    x = wick.tensor(a.tolist())
    assert x.argmax().item() == np.argmax(a) and x.argmin().item() == np.argmin(a)
    for dim in range(len(shape)):
        assert x.argmax(dim).tolist() == np.argmax(a, axis=dim).tolist()
        assert x.argmin(dim, keepdim=True).tolist() == np.argmin(a, axis=dim, keepdims=True).tolist()
    # PyTorch 1.13 has no argmax kernel for bool, but its max(dim) gives the same positions.
    values, indices = torch.tensor(a).max(-1)
    assert x.argmax(-1).tolist() == indices.tolist() and x.max(-1)[1].tolist() == indices.tolist()


@pytest.mark.parametrize("reduce", [
    lambda x: x.max(), lambda x: x.min(), lambda x: x.amax(), lambda x: x.max(0), lambda x: x.min(0),
    lambda x: x.sort(), lambda x: x.sort(descending=True), lambda x: x.argsort(), lambda x: x.cumsum(0),
    lambda x: x.sum(), lambda x: x.all(),
])
def test_other_reductions_of_bools_as_pytorch(reduce):
    assert_as_torch(lambda L: reduce(L.tensor([False, True, True, False, True])))


@pytest.mark.parametrize("name", ["topk", "kthvalue", "median"])
def test_reductions_pytorch_has_no_bool_kernel_for_are_refused(name):
    args = (2,) if name in ("topk", "kthvalue") else ()
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        getattr(torch.tensor([False, True, True]), name)(*args)
    with pytest.raises(TypeError, match=rf"{name}\(\): not implemented for 'Bool'"):
        getattr(wick.tensor([False, True, True]), name)(*args)


# --- out= of ops of one operand -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["neg", "abs", "ceil", "floor", "sign", "sin", "exp", "logical_not"])
@pytest.mark.parametrize("dtype, out_dtype", [("int64", "float64"), ("float32", "float64"), ("int32", "int64"),
                                              ("float64", "float64")])
def test_out_of_another_dtype_for_ops_of_one_operand(name, dtype, out_dtype):
    # Those that keep their dtype refuse another out= dtype; float ops and predicates cast into it.
    assert_as_torch(lambda L: getattr(L, name)(tensor(L, dtype), out=L.zeros(3, dtype=getattr(L, out_dtype))))


# --- multiply-adds rounded once -----------------------------------------------------------------

MULTIPLY_ADDS = {
    "add": lambda L, a, b, c, w: L.add(a, b, alpha=0.1),
    "sub": lambda L, a, b, c, w: L.sub(a, b, alpha=0.1),
    "addcmul": lambda L, a, b, c, w: L.addcmul(a, b, c, value=0.1),
    "lerp": lambda L, a, b, c, w: L.lerp(a, b, w),
    "lerp_scalar": lambda L, a, b, c, w: L.lerp(a, b, 0.3),
}


@pytest.mark.parametrize("op", sorted(MULTIPLY_ADDS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_multiply_adds_round_once_as_pytorch(op, dtype, layout):
    # Note [Fused multiply-add]: the last bits are PyTorch's, whatever CPU level wick was built for.
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(2000).astype(dtype) for _ in range(3)] + [rng.uniform(-1, 2, 2000).astype(dtype)]
    step = 2 if layout == "strided" else 1
    got = MULTIPLY_ADDS[op](wick, *(wick.from_numpy(x)[::step] for x in arrays)).numpy()
    want = MULTIPLY_ADDS[op](torch, *(torch.from_numpy(x)[::step] for x in arrays)).numpy()
    np.testing.assert_array_equal(got, want)


def test_add_with_alpha_differs_from_two_roundings():
    # What makes the test above able to fail: a * 0.1 + b rounded twice differs somewhere.
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(2000), rng.standard_normal(2000)
    fused = wick.add(wick.from_numpy(a), wick.from_numpy(b), alpha=0.1).numpy()
    assert (fused != a + 0.1 * b).any()
    np.testing.assert_allclose(fused, a + 0.1 * b, rtol=0, atol=1e-15)  # in the last bits only


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int32", "uint8"])
@pytest.mark.parametrize("number", [0.1, 2.5, 3, -7])
def test_a_number_left_of_an_op_that_does_not_commute_keeps_its_digits(dtype, number):
    """0.1 - x for a float64 x computes with the float64 0.1, not float32's: as PyTorch's reflected ops."""
    values = [11.0, -3.0, 0.7] if dtype.startswith(("float", "bfloat")) else [11, 3, 7]
    x, t = wick.tensor(values, dtype=getattr(wick, dtype)), torch.tensor(values, dtype=getattr(torch, dtype))
    for op in (lambda a, b: a - b, lambda a, b: a / b, lambda a, b: a // b, lambda a, b: a % b):
        got, want = op(number, x), op(number, t)
        result = str(got.dtype).split(".")[1]
        assert result == str(want.dtype).split(".")[1]
        # float64 to the last bit or so (0.1 rounded to float32 is 1.5e-9 off); other floats within an ulp or
        # two, as PyTorch's 0.1 / x is reciprocal(x) * 0.1, rounded twice; integers exactly.
        tolerance = {"float64": dict(rtol=1e-15, atol=0)}.get(result, TOLERANCE.get(result, dict(rtol=0, atol=0)))
        np.testing.assert_allclose(got.double().numpy(), want.double().numpy(), **tolerance)
