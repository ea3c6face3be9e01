"""Reductions and scans, with PyTorch 1.13's rules where NumPy has none: what the generated op tests
(ops/test_declared_ops.py) do not check.

sum, prod, mean, var, std, max, min, amax, amin, argmax, argmin, all, any, norm,
logsumexp, cumsum and cumprod. The generated tests compare each with NumPy in
every dtype, contiguous and transposed; here, over every kind of dim: inputs
sliced with steps (which the generated tests lay out only for a second operand)
and NaN-holding inputs (NaN propagates within its group only). Then TypeError
(not another error) for the dtypes an op refuses, 0-d and empty inputs and the
identities PyTorch gives them, infinities and ties, dtype= and integer wrapping,
the function forms, and the errors.
"""
import math
import warnings
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Tuple

import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, assert_close, make, random_values, to_numpy, wdtype

INTEGRAL = tuple(d for d in DTYPES if d not in FLOATS)  # bool included
SHAPE = (3, 4, 5)


def upcast(dtype):
    """The result dtype of sum, prod, cumsum and cumprod: int64 for integers and bool."""
    return "int64" if dtype in INTEGRAL else dtype


def wide(a, dtype):
    """The values of `a` in the type the reference computes in."""
    return a.astype(np.int64 if dtype in INTEGRAL else np.float64)


def np_norm(a, p, axis, keepdims):
    m = np.abs(a.astype(np.float64))
    if p == math.inf:
        return m.max(axis=axis, keepdims=keepdims, initial=0.0)
    if p == -math.inf:
        return m.min(axis=axis, keepdims=keepdims, initial=math.inf) if m.size else np.zeros(
            np.sum(m, axis=axis, keepdims=keepdims).shape)
    if p == 0:
        return (m != 0).sum(axis=axis, keepdims=keepdims).astype(np.float64)
    return (m ** p).sum(axis=axis, keepdims=keepdims) ** (1.0 / p)


@dataclass(frozen=True)
class Op:
    name: str
    dims: str  # "list": int[] dim (None or [] = every dim); "int": one dim or all; "argdim": int? dim; "scan"; "none"
    dtypes: Tuple[str, ...]  # the dtypes it takes; the others raise TypeError
    call: Callable  # (tensor, dim, keepdim) -> tensor; dim None = every dim
    reference: Callable  # (array, axis, keepdims, dtype) -> array; axis None = every axis
    result: Callable  # input dtype -> result dtype
    values: str = "any"  # random_values' domain, or "near_one" for products


def _list(method, **kw):
    """The call of an op with an `int[] dim` (None and keepdim: dim=[])."""
    def call(t, dim, keepdim):
        if dim is None and not keepdim:
            return getattr(t, method)(**kw)
        return getattr(t, method)([] if dim is None else dim, keepdim=keepdim, **kw)
    return call


def _int(method):
    """The call of an op with an all-elements form and an `int dim, bool keepdim` form."""
    return lambda t, dim, keepdim: getattr(t, method)() if dim is None else getattr(t, method)(dim, keepdim)


def _same(dtype):
    return dtype


def _norm(p):
    return Op(f"norm_p{p}", "list", FLOATS,
              lambda t, dim, keepdim: t.norm(p) if dim is None and not keepdim else t.norm(p, dim, keepdim),
              lambda a, axis, keepdims, dtype: np_norm(a, p, axis, keepdims), _same)


def _all_any(name):
    def reference(a, axis, keepdims, dtype):
        r = getattr(np, name)(a, axis=axis, keepdims=keepdims)
        return r.astype(np.uint8) if dtype == "uint8" else r
    return Op(name, "int", DTYPES, _int(name), reference, lambda d: "uint8" if d == "uint8" else "bool")


def _scan(name, numpy_name, values="any"):
    return Op(name, "scan", DTYPES, lambda t, dim, keepdim: getattr(t, name)(dim),
              lambda a, axis, keepdims, dtype: getattr(np, numpy_name)(wide(a, dtype), axis=axis), upcast, values)


OPS = [
    Op("sum", "list", DTYPES, _list("sum"), lambda a, axis, k, d: wide(a, d).sum(axis=axis, keepdims=k), upcast),
    Op("prod", "int", DTYPES, _int("prod"), lambda a, axis, k, d: wide(a, d).prod(axis=axis, keepdims=k), upcast,
       "near_one"),
    Op("mean", "list", FLOATS, _list("mean"), lambda a, axis, k, d: wide(a, d).mean(axis=axis, keepdims=k), _same),
    Op("var", "list", FLOATS, _list("var"), lambda a, axis, k, d: wide(a, d).var(axis=axis, keepdims=k, ddof=1),
       _same),
    Op("std", "list", FLOATS, _list("std"), lambda a, axis, k, d: wide(a, d).std(axis=axis, keepdims=k, ddof=1),
       _same),
    Op("max", "none", DTYPES, lambda t, dim, keepdim: t.max(), lambda a, axis, k, d: a.max(), _same),
    Op("min", "none", DTYPES, lambda t, dim, keepdim: t.min(), lambda a, axis, k, d: a.min(), _same),
    Op("amax", "list", DTYPES, _list("amax"), lambda a, axis, k, d: a.max(axis=axis, keepdims=k), _same),
    Op("amin", "list", DTYPES, _list("amin"), lambda a, axis, k, d: a.min(axis=axis, keepdims=k), _same),
    Op("argmax", "argdim", DTYPES, lambda t, dim, keepdim: t.argmax(dim, keepdim),
       lambda a, axis, k, d: np.argmax(a, axis=axis, keepdims=k), lambda d: "int64"),
    Op("argmin", "argdim", DTYPES, lambda t, dim, keepdim: t.argmin(dim, keepdim),
       lambda a, axis, k, d: np.argmin(a, axis=axis, keepdims=k), lambda d: "int64"),
    _all_any("all"),
    _all_any("any"),
    *[_norm(p) for p in (2, 1, math.inf, -math.inf, 0, 3, 0.5)],
    Op("logsumexp", "list", DTYPES, lambda t, dim, keepdim: t.logsumexp([] if dim is None else dim, keepdim),
       lambda a, axis, k, d: np.logaddexp.reduce(a.astype(np.float64), axis=axis, keepdims=k),
       lambda d: d if d in FLOATS else "float32"),
    _scan("cumsum", "cumsum"),
    _scan("cumprod", "cumprod", "near_one"),
]
OPS_BY_NAME = {op.name: op for op in OPS}

# (dim, keepdim) cases per kind of dim argument; None is the form without a dim.
DIM_CASES = {
    "list": [(None, False), (None, True), (0, False), (0, True), (-1, False), (1, True), ((0, 2), False),
             ((-1, 0), True), ([1], False), ((), False), ((), True)],
    "int": [(None, False), (0, False), (0, True), (-1, False), (-1, True), (1, False), (-2, True)],
    "argdim": [(None, False), (None, True), (0, False), (0, True), (-1, False), (1, True)],
    "scan": [(0, False), (1, False), (-1, False), (2, False)],
    "none": [(None, False)],
}


def numpy_axis(dim):
    """NumPy's axis for a wick dim: () means every dim here, nothing in NumPy."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return None
    return tuple(dim) if isinstance(dim, (tuple, list)) else dim


def values_for(op, dtype, shape, rng):
    if op.values != "near_one":
        return random_values(dtype, shape, rng)
    if dtype in FLOATS:  # products of tens of these stay well inside float16
        return rng.uniform(0.6, 1.4, size=shape) * rng.choice([-1, 1], size=shape)
    return random_values(dtype, shape, rng, "nonzero")


def input_tensor(op, dtype, layout, rng):
    """A (3, 4, 5) tensor made of values every dtype holds: sliced with steps, or with NaN in three places."""
    if layout == "sliced":
        t = make(values_for(op, dtype, (3, 8, 10), rng), dtype)[:, ::2, 1::2]
        assert not t.is_contiguous() and t.shape == SHAPE
        return t
    values = values_for(op, dtype, SHAPE, rng)
    values[0, 1, 2] = values[2, 3, 0] = values[2, 3, 4] = math.nan
    return make(values, dtype)


@contextmanager
def quiet_numpy():
    """NumPy warns where PyTorch quietly gives NaN or inf (empty means, ddof >= N)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def check(op, t, dtype, dim, keepdim):
    got = op.call(t, dim, keepdim)
    with quiet_numpy():
        want = np.asarray(op.reference(to_numpy(t), numpy_axis(dim), keepdim, dtype))
    where = f"{op.name}(dim={dim}, keepdim={keepdim}) of {dtype} {tuple(t.shape)}"
    assert got.dtype is wdtype(op.result(dtype)), where
    try:
        assert_close(got, want, op.result(dtype))
    except AssertionError as e:
        raise AssertionError(f"{where}: {e}") from None


def sweep():
    """Contiguous and transposed inputs are declared op tests (test_declared_ops.py, `<op>-<dtype>-contiguous`
    and `-noncontiguous`), over the dims of each op's samples."""
    for op in OPS:
        for dtype in op.dtypes:
            for layout in ("sliced",) + (("nan",) if dtype in FLOATS else ()):
                yield pytest.param(op, dtype, layout, id=f"{op.name}-{dtype}-{layout}")


@pytest.mark.parametrize("op,dtype,layout", sweep())
def test_matches_numpy(op, dtype, layout):
    rng = np.random.default_rng(zlib.crc32(f"{op.name}{dtype}{layout}".encode()))
    t = input_tensor(op, dtype, layout, rng)
    for dim, keepdim in DIM_CASES[op.dims]:
        check(op, t, dtype, dim, keepdim)


@pytest.mark.parametrize("op,dtype", [pytest.param(op, d, id=f"{op.name}-{d}") for op in OPS
                                      for d in DTYPES if d not in op.dtypes])
def test_unsupported_dtypes_raise_type_error(op, dtype):
    t = make(random_values(dtype, (2, 3), np.random.default_rng(0)), dtype)
    for dim, keepdim in DIM_CASES[op.dims][:3]:
        with pytest.raises(TypeError, match=op.name.split("_")[0] + "|Bool"):
            op.call(t, dim, keepdim)


# --- 0-d and empty inputs -----------------------------------------------------------------------

def zero_dim_params():
    for op in OPS:
        for dtype in ("float32", "int32", "bool"):
            if dtype in op.dtypes:
                yield pytest.param(op, dtype, id=f"{op.name}-{dtype}")


@pytest.mark.parametrize("op,dtype", zero_dim_params())
def test_zero_dim_input_reduces_over_dim_0_or_minus_1(op, dtype):
    t = make(np.array(1 if dtype == "bool" else 3), dtype)
    with quiet_numpy():
        want = np.asarray(op.reference(to_numpy(t).reshape(1), 0, False, dtype)).reshape(())
    dims = {"none": [None], "scan": [0, -1]}.get(op.dims, [None, 0, -1])
    for dim in dims:
        for keepdim in (False, True) if op.dims not in ("none", "scan") else (False,):
            got = op.call(t, [dim] if op.dims == "list" and dim is not None else dim, keepdim)
            assert got.shape == () and got.dtype is wdtype(op.result(dtype)), (dim, keepdim)
            assert_close(got, want, op.result(dtype))
    if op.dims != "none":
        with pytest.raises(IndexError, match="Dimension out of range"):
            op.call(t, [1] if op.dims == "list" else 1, False)


# Ops that have an identity reduce empty groups to it; compared with NumPy on
# a (2, 0, 3) tensor, over every dim case (dim 1 is the empty one).
WITH_IDENTITY = ["sum", "prod", "mean", "var", "std", "all", "any", "norm_p2", "norm_p1", "norm_pinf", "norm_p0",
                 "norm_p3", "logsumexp", "cumsum", "cumprod"]


@pytest.mark.parametrize("op,dtype", [pytest.param(OPS_BY_NAME[name], d, id=f"{name}-{d}") for name in WITH_IDENTITY
                                      for d in ("float32", "int64", "bool") if d in OPS_BY_NAME[name].dtypes])
def test_empty_inputs_reduce_to_the_identity(op, dtype):
    t = make(np.zeros((2, 0, 3)), dtype)
    for dim, keepdim in DIM_CASES[op.dims]:
        check(op, t, dtype, dim, keepdim)


def test_empty_identities_as_pytorch_gives_them():
    e = wick.zeros(0, 3)
    assert e.sum().item() == 0 and e.prod().item() == 1 and e.prod(0).tolist() == [1.0] * 3
    assert e.sum(0).tolist() == [0.0] * 3
    assert math.isnan(e.mean().item()) and math.isnan(e.var().item()) and math.isnan(e.std(0)[0].item())
    assert e.all().item() is True and e.any().item() is False and e.all(0).tolist() == [True] * 3
    assert e.logsumexp(0).tolist() == [-math.inf] * 3 and e.logsumexp(1).shape == (0,)
    assert e.cumsum(0).shape == (0, 3) and e.cumprod(1).shape == (0, 3)
    # PyTorch gives 0 for the norm of no elements whatever p, even without an identity.
    for p in (2, 1, 0, math.inf, -math.inf, -1, 0.5):
        assert e.norm(p).item() == 0 and e.norm(p, 0).tolist() == [0.0] * 3, p


def test_empty_inputs_without_identity_raise():
    e = wick.zeros(2, 0, 3)
    for fn in (e.max, e.min, e.amax, e.amin, lambda: e.amax(keepdim=True), lambda: e.amin([])):
        with pytest.raises(RuntimeError, match="Expected reduction dim to be specified for input.numel\\(\\) == 0"):
            fn()
    for fn in (lambda: e.amax(1), lambda: e.amin((0, -2))):
        with pytest.raises(IndexError, match="Expected reduction dim 1 to have non-zero size"):
            fn()
    for fn in (e.argmax, e.argmin, lambda: e.argmax(keepdim=True)):
        with pytest.raises(IndexError, match="Expected reduction dim to be specified"):
            fn()
    with pytest.raises(IndexError, match="Expected reduction dim 1 to have non-zero size"):
        e.argmin(-2)
    # Over dims that are not empty, the result is simply empty.
    assert e.amax(0).shape == (0, 3) and e.amin((0, 2), keepdim=True).shape == (1, 0, 1)
    assert e.argmax(2).shape == (2, 0) and e.argmin(0, keepdim=True).shape == (1, 0, 3)


# --- NaN and infinities ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_propagates(dtype):
    t = make(np.array([1.0, math.nan, 0.0, math.nan, -2.0]), dtype)
    for fn in (t.max, t.min, t.amax, t.amin, t.sum, t.prod, t.mean, t.var, t.std, t.norm,
               lambda: t.norm(math.inf), lambda: t.norm(-math.inf), lambda: t.logsumexp(0)):
        assert math.isnan(fn().item())
    assert t.argmax().item() == 1 and t.argmin().item() == 1  # the first NaN is both the max and the min
    assert t.norm(0).item() == 4  # NaN is nonzero
    assert make(np.array([math.nan, 1.0]), dtype).all().item() is True
    assert make(np.array([math.nan, 0.0]), dtype).any().item() is True
    assert [math.isnan(v) for v in t.cumsum(0).tolist()] == [False, True, True, True, True]
    assert [math.isnan(v) for v in t.cumprod(0).tolist()] == [False, True, True, True, True]


def test_nan_only_reaches_its_own_group():
    t = wick.tensor([[1.0, math.nan], [4.0, 3.0]])
    assert t.amax(1).tolist()[1] == 4.0 and math.isnan(t.amax(1).tolist()[0])
    assert t.argmax(0).tolist() == [1, 0] and t.argmin(1).tolist() == [1, 1]


def test_max_propagates_nan():
    assert math.isnan(wick.tensor([1.0, math.nan, 3.0]).max().item())
    assert math.isnan(wick.tensor([math.nan, 1.0]).max().item())
    assert wick.tensor([-math.inf, -1.0]).max().item() == -1.0


def test_logsumexp_is_stable_and_handles_infinities():
    log2 = math.log(2)
    assert wick.tensor([1000.0, 1000.0]).logsumexp(0).item() == pytest.approx(1000 + log2)
    assert wick.tensor([-1000.0, -1000.0]).logsumexp(0).item() == pytest.approx(-1000 + log2)
    assert wick.tensor([3e38, 3e38]).logsumexp(0).item() == pytest.approx(3e38)
    cases = {(math.inf, math.inf): math.inf, (math.inf, -math.inf): math.inf, (-math.inf, -math.inf): -math.inf,
             (-math.inf, 2.0): 2.0, (2.0, -math.inf): 2.0}
    for values, want in cases.items():
        assert wick.tensor(list(values), dtype=wick.float64).logsumexp(0).item() == want, values
    assert math.isnan(wick.tensor([math.inf, math.nan]).logsumexp(0).item())


def test_min_max_of_infinities_and_extreme_integers():
    assert wick.tensor([-math.inf, -math.inf]).max().item() == -math.inf
    assert wick.tensor([math.inf]).amin().item() == math.inf
    big = wick.tensor([-2 ** 63, 2 ** 63 - 1], dtype=wick.int64)
    assert big.amin().item() == -2 ** 63 and big.amax().item() == 2 ** 63 - 1
    assert big.argmin().item() == 0 and big.argmax().item() == 1
    assert wick.tensor([0, 255], dtype=wick.uint8).min().item() == 0


def test_argmax_returns_the_first_of_equal_extremes():
    t = wick.tensor([[1, 3, 3, 2], [0, 0, -1, -1]])
    assert t.argmax().item() == 1 and t.argmin().item() == 6
    assert t.argmax(1).tolist() == [1, 0] and t.argmin(1, keepdim=True).tolist() == [[0], [2]]
    assert t.argmax(keepdim=True).shape == (1, 1)


# --- arguments: correction, p, dtype=, the function forms -------------------------------------------

@pytest.mark.parametrize("correction", [None, 0, 1, 2, 4, 5, 9, -1])
@pytest.mark.parametrize("dtype", FLOATS)
def test_var_and_std_correction(correction, dtype):
    """N - correction <= 0 divides by 0, as both PyTorch and NumPy do: inf, or NaN for 0/0."""
    t = make(random_values(dtype, (4, 5), np.random.default_rng(5)), dtype)
    a = to_numpy(t).astype(np.float64)
    ddof = 1 if correction is None else correction
    with quiet_numpy():
        for dim in (None, 0, (0, 1)):
            want_var = a.var(axis=numpy_axis(dim), ddof=ddof)
            assert_close(t.var(dim, correction=correction), want_var, dtype)
            assert_close(wick.std(t, dim, correction=correction), np.sqrt(want_var), dtype)
    same = make(np.ones((4,)), dtype)
    assert math.isnan(same.var(correction=4).item()) and math.isnan(same[:1].std().item())


def test_norm_p_values():
    t = wick.tensor([3.0, 0.0, -4.0])
    assert t.norm().item() == 5 and t.norm(1).item() == 7 and t.norm(0).item() == 2
    assert t.norm(math.inf).item() == 4 and t.norm(-math.inf).item() == 0 and t.norm(p=2.0).item() == 5
    assert t.norm(-1).item() == 0  # 1/|0| is inf, and inf**-1 is 0
    assert wick.tensor([3.0, -4.0]).norm(-math.inf).item() == 3
    assert t.norm(3).item() == pytest.approx((27 + 64) ** (1 / 3))
    with pytest.raises(TypeError, match="bool"):
        t.norm(True)
    with pytest.raises(TypeError, match="norm\\(\\): input dtype should be either floating point"):
        wick.tensor([1, 2]).norm()


def test_sum_dtype_argument_and_integer_promotion():
    t = wick.tensor([200, 100], dtype=wick.uint8)
    assert t.sum().item() == 300 and t.sum().dtype is wick.int64
    assert t.sum(dtype=wick.uint8).item() == 44
    assert wick.tensor([True, True]).sum().item() == 2
    assert wick.tensor([0.1] * 10, dtype=wick.float16).sum(dtype=wick.float64).dtype is wick.float64


def test_mean_requires_floats():
    assert wick.tensor([1.0, 2.0, 4.0]).mean().item() == pytest.approx(7 / 3)
    with pytest.raises(TypeError, match="floating point"):
        wick.tensor([1, 2]).mean()
    assert wick.tensor([1, 2]).mean(dtype=wick.float64).item() == 1.5


def test_dtype_argument_casts_the_input_first():
    assert wick.tensor([1.5, 2.5]).prod(0, dtype=wick.int64).item() == 2  # 1 * 2, as in PyTorch
    assert wick.tensor([16, 16], dtype=wick.uint8).prod(dtype=wick.uint8).item() == 0  # wraps around
    assert wick.tensor([16, 16], dtype=wick.uint8).prod().item() == 256
    assert wick.tensor([1, 2, 3], dtype=wick.int32).prod(dtype=wick.float64).dtype is wick.float64
    assert wick.tensor([True, True]).prod().dtype is wick.int64
    assert wick.tensor([100, 100], dtype=wick.int8).cumsum(0).tolist() == [100, 200]
    c = wick.tensor([100, 100], dtype=wick.int8).cumsum(0, dtype=wick.float16)
    assert c.dtype is wick.float16 and c.tolist() == [100.0, 200.0]
    assert wick.tensor([2.0, 3.0]).cumprod(0, dtype=wick.int16).tolist() == [2, 6]
    assert wick.tensor([True, True, False]).cumsum(0).tolist() == [1, 2, 2]
    for fn in (wick.cumsum, wick.cumprod):
        with pytest.raises(TypeError, match="Bool"):
            fn(wick.tensor([1, 2]), 0, dtype=wick.bool)


def test_integer_products_wrap_around_like_numpy():
    a = np.full(40, 7, dtype=np.int64)
    assert wick.tensor(a.tolist()).prod().item() == int(a.prod())
    assert wick.tensor(a.tolist()).cumprod(0).tolist() == np.cumprod(a).tolist()


def test_function_forms_match_the_methods():
    t = wick.tensor(np.random.default_rng(6).uniform(-2, 2, size=(3, 4)).tolist())
    pairs = [
        (wick.prod(t, 1, True), t.prod(1, keepdim=True)), (wick.min(t), t.min()),
        (wick.amax(t, (0, 1)), t.amax(dim=[0, 1])), (wick.amin(t, dim=1, keepdim=True), t.amin(1, True)),
        (wick.argmax(t, dim=1), t.argmax(1)), (wick.argmin(t), t.argmin(None)),
        (wick.var(t, [0], correction=0), t.var(0, correction=0)), (wick.std(t, keepdim=True), t.std(None, keepdim=True)),
        (wick.all(t, 0), t.all(dim=0)), (wick.any(t), t.any()), (wick.norm(t, 1, [1], True), t.norm(p=1, dim=1, keepdim=True)),
        (wick.logsumexp(t, 1), t.logsumexp(dim=1)), (wick.cumsum(t, dim=0), t.cumsum(0)),
        (wick.cumprod(t, -1), t.cumprod(dim=1)),
    ]
    for function_form, method_form in pairs:
        assert function_form.tolist() == method_form.tolist()


def test_dim_none_reduces_everything_as_the_signature_says():
    import inspect

    x = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
    for op in (wick.Tensor.sum, wick.Tensor.mean):
        assert str(inspect.signature(getattr(x, op.__name__))) == "(dim=None, keepdim=False, *, dtype=None)"
        assert op(x, dim=None).item() == op(x).item() and op(x, None, True).shape == (1, 1)
    assert x.sum(dim=None, dtype=wick.float64).dtype is wick.float64


def test_results_are_new_tensors_and_inputs_are_untouched():
    t = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
    before = t.tolist()
    for r in (t.amax(), t.prod(), t.cumsum(0), t.logsumexp([]), t.norm(), t.all()):
        assert r.storage_offset() == 0 and r.is_contiguous()
    assert t.tolist() == before


# --- errors ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [op.name for op in OPS if op.dims != "none"])
def test_dim_out_of_range_raises_index_error(name):
    op = OPS_BY_NAME[name]
    t = wick.zeros(2, 3, dtype=wick.float32)
    bad = [2, -3] + ([[0, 2], (5,)] if op.dims == "list" else [])
    for dim in bad:
        with pytest.raises(IndexError, match="Dimension out of range"):
            op.call(t, dim, False)


@pytest.mark.parametrize("name", [op.name for op in OPS if op.dims == "list"])
def test_repeated_dim_raises(name):
    for dims in ([1, -1], [0, 0]):
        with pytest.raises(RuntimeError, match="appears multiple times"):
            OPS_BY_NAME[name].call(wick.zeros(2, 3), dims, False)


def test_bad_arguments_raise_type_error():
    t = wick.zeros(2, 3)
    calls = [
        lambda: t.amax("0"), lambda: t.argmax([0, 1]), lambda: t.all(0.5), lambda: t.prod((0, 1)),
        lambda: t.var(0, "a"),  # unbiased is a bool
        lambda: t.var(unbiased=True, correction=1),  # one spelling or the other
        lambda: t.std(correction=0.5), lambda: t.norm("fro"), lambda: t.logsumexp(),
        lambda: t.cumsum(), lambda: t.cumsum(0, wick.float64),  # dtype is keyword-only
        lambda: wick.min(t, 0.5),  # neither a dim nor a tensor
    ]
    for call in calls:
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize("call", ["x.var()", "x.var(False)", "x.var(unbiased=False)", "x.var(0, False)",
                                  "x.var(1, True, True)", "x.var(dim=0, unbiased=False, keepdim=True)",
                                  "x.std(0, False)", "x.std(unbiased=False)", "x.std(dim=(0, 1), keepdim=True)",
                                  "L.var(x, 1, unbiased=False)", "L.std(x, False)", "L.var(x, 0, correction=0)"])
def test_unbiased_is_pytorchs_older_spelling_of_correction(call):
    """var and std take unbiased=True/False (correction 1/0) by position and keyword, as PyTorch 1.13."""
    import torch
    data = [[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]]
    mine = eval(call, {"x": wick.tensor(data), "L": wick})
    theirs = eval(call, {"x": torch.tensor(data), "L": torch})
    assert mine.shape == tuple(theirs.shape)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)
