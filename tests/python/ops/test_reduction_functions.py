"""wick.reduction_functions (var_mean, std_mean, nansum, nanmean, count_nonzero, aminmax, diff, quantile,
nanquantile, bincount, histc, searchsorted, bucketize, isin, isclose, cummax, cummin, logcumsumexp) against
PyTorch 1.13's functions of the same names, on the same inputs: values, dtypes, shapes, errors and gradients.
"""
import pickle
import warnings

import numpy as np
import pytest
import torch

import wick
from wick import reduction_functions

NAN, INF = float("nan"), float("inf")


def both(data, dtype="float32", requires_grad=False):
    """The same data as a wick and a torch tensor (bfloat16 goes through float32, which NumPy lacks)."""
    array = np.asarray(data, dtype="float32" if dtype == "bfloat16" else dtype)
    ours, theirs = wick.tensor(array), torch.tensor(array)
    if dtype == "bfloat16":
        ours, theirs = ours.to(wick.bfloat16), theirs.to(torch.bfloat16)
    return ours.requires_grad_(requires_grad), theirs.requires_grad_(requires_grad)


def as_torch(ours):
    ours = ours.detach()
    if ours.dtype is wick.bfloat16:
        return torch.from_numpy(ours.to(wick.float32).numpy().copy()).to(torch.bfloat16)
    return torch.from_numpy(ours.numpy().copy())


def equal(ours, theirs):
    """Same shape, dtype and values (NaN where theirs has NaN)."""
    torch.testing.assert_close(as_torch(ours), theirs.detach(), rtol=0, atol=0, equal_nan=True)


def close(ours, theirs, **tolerance):
    """Same shape and dtype; values within torch.testing's default tolerance of the dtype unless told."""
    torch.testing.assert_close(as_torch(ours), theirs.detach(), equal_nan=True, **tolerance)


def random(shape, seed=0, low=-5, high=5, dtype="float32"):
    rng = np.random.default_rng(seed)
    if dtype in ("float32", "float64", "float16", "bfloat16"):
        return rng.uniform(low, high, shape).astype("float64")
    return rng.integers(low, high, shape)


def raises_like(exception, call_torch, call_wick, match=None):
    """Both calls raise exception (wick's message matching match, when given)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exception):
            call_torch()
    with pytest.raises(exception, match=match):
        call_wick()


def grads(ours, theirs, function):
    """The gradients of sum(function(x) * weights) for wick and torch, for random fixed weights."""
    out_w, out_t = function(wick, ours), function(torch, theirs)
    weights = random(tuple(out_t.shape), seed=7)
    (out_w * wick.tensor(weights, dtype=out_w.dtype)).sum().backward()
    (out_t * torch.tensor(weights, dtype=out_t.dtype)).sum().backward()
    return ours.grad, theirs.grad


# var_mean and std_mean
MOMENT_CASES = [((5, 7), {}), ((5, 7), {"dim": 1}), ((3, 4, 5), {"dim": (0, 2), "keepdim": True}),
                ((3, 4, 5), {"dim": -1, "unbiased": False}), ((3, 4, 5), {"dim": 1, "correction": 0}),
                ((3, 4, 5), {"dim": None, "correction": 2, "keepdim": True}), ((), {}), ((6,), {"dim": 0})]


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,kwargs", MOMENT_CASES, ids=str)
def test_moments_with_mean(name, dtype, shape, kwargs):
    w, t = both(random(shape), dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a 0-d input's unbiased variance divides by 0
        ours, theirs = getattr(wick, name)(w, **kwargs), getattr(torch, name)(t, **kwargs)
    assert type(ours) is tuple and len(ours) == 2
    for o, t_ in zip(ours, theirs):
        close(o, t_)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_moments_with_mean_overloads_and_gradient(name):
    w, t = both(random((4, 6)), "float64", requires_grad=True)
    for args in [(False,), (True,), (1, False, True), (0, True)]:
        for o, t_ in zip(getattr(wick, name)(w, *args), getattr(torch, name)(t, *args)):
            close(o, t_)
    g_w, g_t = grads(w, t, lambda lib, x: sum(getattr(lib, name)(x, 1)))
    close(g_w, g_t)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_moments_with_mean_errors(name):
    for dtype in ["int64", "bool"]:
        w, t = both([1, 0, 1], dtype)
        raises_like(RuntimeError, lambda: getattr(torch, name)(t), lambda: getattr(wick, name)(w),
                    f"{name} only support floating point")
    w, t = both(random((2, 3)))
    raises_like(IndexError, lambda: getattr(torch, name)(t, 2), lambda: getattr(wick, name)(w, 2))
    raises_like(TypeError, lambda: getattr(torch, name)(t, 1, unbiased=True, correction=1),
                lambda: getattr(wick, name)(w, 1, unbiased=True, correction=1))
    raises_like(TypeError, lambda: getattr(torch, name)(t.numpy(), 1), lambda: getattr(wick, name)(w.numpy(), 1),
                "must be Tensor")


# nansum, nanmean and count_nonzero
def with_nans(shape, seed=0):
    data = random(shape, seed)
    data[np.random.default_rng(seed + 1).random(shape) < 0.3] = NAN
    return data


SUM_DIMS = [{}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": (0, 2)}, {"dim": None, "keepdim": True}]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64", "uint8", "bool"])
@pytest.mark.parametrize("kwargs", SUM_DIMS, ids=str)
def test_nansum(dtype, kwargs):
    data = with_nans((3, 4, 5)) if dtype in ("float32", "float64", "float16", "bfloat16") else random(
        (3, 4, 5), low=0, high=3)
    w, t = both(data, dtype)
    close(wick.nansum(w, **kwargs), torch.nansum(t, **kwargs))
    close(w.nansum(**kwargs), t.nansum(**kwargs))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("kwargs", SUM_DIMS, ids=str)
def test_nanmean(dtype, kwargs):
    data = with_nans((3, 4, 5))
    data[0, 0, :] = NAN  # a row of NaNs only: NaN
    w, t = both(data, dtype)
    close(wick.nanmean(w, **kwargs), torch.nanmean(t, **kwargs))
    close(w.nanmean(**kwargs), t.nanmean(**kwargs))


def test_nansum_nanmean_dtypes_empty_and_gradients():
    w, t = both(with_nans((4, 5)))
    close(wick.nansum(w, 1, dtype=wick.float64), torch.nansum(t, 1, dtype=torch.float64))
    close(wick.nanmean(w, dtype=wick.float64), torch.nanmean(t, dtype=torch.float64))
    wi, ti = both([[1, 2], [3, 4]], "int32")
    equal(wick.nansum(wi, dtype=wick.float32), torch.nansum(ti, dtype=torch.float32))
    we, te = both(np.zeros((0, 3)))
    equal(wick.nansum(we), torch.nansum(te))
    equal(wick.nansum(we, 0), torch.nansum(te, 0))
    equal(wick.nanmean(we, 0), torch.nanmean(te, 0))
    for name in ["nansum", "nanmean"]:
        w, t = both(with_nans((4, 5)), "float64", requires_grad=True)
        g_w, g_t = grads(w, t, lambda lib, x: getattr(lib, name)(x, 1))
        close(g_w, g_t)


def test_nansum_nanmean_errors():
    w, t = both(with_nans((3,)))
    raises_like(RuntimeError, lambda: torch.nansum(t, dtype=torch.int64), lambda: wick.nansum(w, dtype=wick.int64),
                "not implemented for 'Long'")
    wi, ti = both([1, 2], "int64")
    raises_like(RuntimeError, lambda: torch.nanmean(ti), lambda: wick.nanmean(wi),
                "expected input to have floating point dtype but got Long")
    raises_like(IndexError, lambda: torch.nansum(t, 1), lambda: wick.nansum(w, 1))
    raises_like(TypeError, lambda: torch.nansum([1.0]), lambda: wick.nansum([1.0]))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "uint8"])
@pytest.mark.parametrize("dim", [None, 0, -1, (0, 2), [1], ()], ids=str)
def test_count_nonzero(dtype, dim):
    data = random((3, 4, 5), low=-1, high=2)
    if dtype == "float32":
        data = data.astype("float64")
        data[0, 0, :2] = [NAN, -0.0]
    w, t = both(data, dtype)
    equal(wick.count_nonzero(w, dim), torch.count_nonzero(t, dim))
    equal(w.count_nonzero(dim), t.count_nonzero(dim))


def test_count_nonzero_edges_and_errors():
    for data in [np.zeros((0, 3)), np.array(3.0), np.array(0.0)]:
        w, t = both(data)
        equal(wick.count_nonzero(w), torch.count_nonzero(t))
        equal(wick.count_nonzero(w, 0), torch.count_nonzero(t, 0))
    w, t = both(random((2, 3)))
    raises_like(IndexError, lambda: torch.count_nonzero(t, 2), lambda: wick.count_nonzero(w, 2))
    raises_like(RuntimeError, lambda: torch.count_nonzero(t, (0, 0)), lambda: wick.count_nonzero(w, (0, 0)))
    raises_like(TypeError, lambda: torch.count_nonzero(t, keepdim=True), lambda: wick.count_nonzero(w, keepdim=True))


# aminmax
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool", "bfloat16"])
@pytest.mark.parametrize("kwargs", [{}, {"keepdim": True}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": 1}],
                         ids=str)
def test_aminmax(dtype, kwargs):
    data = random((3, 4, 5), low=0, high=4)
    if dtype.startswith("float"):
        data = data.astype("float64")
        data[1, 2, 3] = NAN
    w, t = both(data, dtype)
    if dtype == "bfloat16" and "dim" in kwargs:  # PyTorch's kernel over a dim takes no bfloat16
        raises_like(RuntimeError, lambda: torch.aminmax(t, **kwargs), lambda: wick.aminmax(w, **kwargs),
                    "not implemented for 'BFloat16'")
        return
    ours, theirs = wick.aminmax(w, **kwargs), torch.aminmax(t, **kwargs)
    mn, mx = ours
    equal(mn, theirs.min)
    equal(ours.max, theirs.max)
    equal(w.aminmax(**kwargs).min, t.aminmax(**kwargs).min)
    assert type(ours).__name__ == "aminmax" and ours._fields == ("min", "max")


def test_aminmax_edges_repr_pickle_and_errors():
    w, t = both(np.zeros((0, 3)))
    for o, t_ in zip(wick.aminmax(w, dim=1), torch.aminmax(t, dim=1)):
        equal(o, t_)
    w0, t0 = both(np.array(2.5))
    for kwargs in [{}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"keepdim": True}]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch warns as it resizes a 0-d output to (1,) with keepdim
            theirs = torch.aminmax(t0, **kwargs)
        for o, t_ in zip(wick.aminmax(w0, **kwargs), theirs):
            equal(o, t_)
    result = wick.aminmax(wick.tensor([3, 1, 2]))
    assert repr(result) == "wick.return_types.aminmax(\nmin=tensor(1),\nmax=tensor(3))"
    restored = pickle.loads(pickle.dumps(result))
    assert type(restored) is type(result) and restored.max.item() == 3
    raises_like(RuntimeError, lambda: torch.aminmax(t), lambda: wick.aminmax(w), "cannot compute aminmax over an "
                "empty dimension")
    raises_like(IndexError, lambda: torch.aminmax(t, dim=0), lambda: wick.aminmax(w, dim=0),
                "Expected reduction dim 0 to have non-zero size")
    raises_like(IndexError, lambda: torch.aminmax(t, dim=2), lambda: wick.aminmax(w, dim=2))
    raises_like(TypeError, lambda: torch.aminmax(t, 1), lambda: wick.aminmax(w, 1))
    raises_like(TypeError, lambda: torch.aminmax(t, dim=True), lambda: wick.aminmax(w, dim=True))
    w, t = both([1.0, 2.0], "float16")
    raises_like(RuntimeError, lambda: torch.aminmax(t), lambda: wick.aminmax(w), "not implemented for 'Half'")


def test_aminmax_gradient_flows_to_the_extremes():
    w = wick.tensor([[1.0, 4.0, 2.0], [5.0, 0.0, 3.0]], requires_grad=True)
    mn, mx = wick.aminmax(w, dim=1)
    (mn.sum() + 2 * mx.sum()).backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[1, 2, 0], [2, 1, 0]])


# diff
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7])
@pytest.mark.parametrize("dim", [0, -1, 1])
def test_diff(dtype, n, dim):
    w, t = both(random((4, 5, 3), low=0, high=9, dtype=dtype), dtype)
    equal(wick.diff(w, n, dim), torch.diff(t, n, dim))
    equal(w.diff(n=n, dim=dim), t.diff(n=n, dim=dim))


@pytest.mark.parametrize("prepend_dtype,append_dtype", [("float32", "float32"), ("int64", None), (None, "bool"),
                                                        ("bool", "int64")])
def test_diff_with_prepend_and_append(prepend_dtype, append_dtype):
    w, t = both(random((3, 4), dtype="int64"), "bool" if prepend_dtype == "bool" else "float32")
    pre = both(random((3, 2), seed=1, dtype="int64"), prepend_dtype) if prepend_dtype else (None, None)
    post = both(random((3, 1), seed=2, dtype="int64"), append_dtype) if append_dtype else (None, None)
    for n in [1, 2]:
        equal(wick.diff(w, n, 1, prepend=pre[0], append=post[0]), torch.diff(t, n, 1, prepend=pre[1], append=post[1]))


def test_diff_gradient_and_copy():
    w, t = both(random((3, 6)), "float64", requires_grad=True)
    g_w, g_t = grads(w, t, lambda lib, x: lib.diff(x, 2, prepend=x[:, :1] * 2))
    close(g_w, g_t)
    x = wick.ones(3)
    copy = wick.diff(x, 0)
    assert copy is not x and copy.data_ptr() != x.data_ptr()
    equal(wick.diff(wick.ones(3), 0, dim=5), torch.diff(torch.ones(3), 0, dim=5))  # dim unused, as PyTorch
    assert wick.diff(x, -1) is x  # PyTorch 1.13 takes a negative n for no difference at all
    w, t = both(random((2, 3)))
    equal(wick.diff(w, -2, prepend=wick.zeros(2, 1)), torch.diff(t, -2, prepend=torch.zeros(2, 1)))


def test_diff_errors():
    w, t = both(random((2, 3)))
    raises_like(RuntimeError, lambda: torch.diff(t[0, 0]), lambda: wick.diff(w[0, 0]), "at least one-dimensional")
    raises_like(IndexError, lambda: torch.diff(t, -1, dim=2), lambda: wick.diff(w, -1, dim=2))
    raises_like(IndexError, lambda: torch.diff(t, dim=2), lambda: wick.diff(w, dim=2))
    raises_like(RuntimeError, lambda: torch.diff(t, prepend=t[0]), lambda: wick.diff(w, prepend=w[0]),
                "same dimension as input")
    raises_like(RuntimeError, lambda: torch.diff(t, prepend=torch.ones(3, 1)), lambda: wick.diff(
        w, prepend=wick.ones(3, 1)), r"input.size\(0\) = 2, but got tensor.size\(0\) = 3")
    raises_like(TypeError, lambda: torch.diff(t, prepend=1.0), lambda: wick.diff(w, prepend=1.0))
    raises_like(TypeError, lambda: torch.diff(t, 1.5), lambda: wick.diff(w, 1.5))
    raises_like(TypeError, lambda: torch.diff(t, True), lambda: wick.diff(w, True))


# quantile and nanquantile
INTERPOLATIONS = ["linear", "lower", "higher", "midpoint", "nearest"]
Q_VALUES = [0.0, 0.3, 0.5, 1.0, [0.1, 0.25, 0.5, 0.9, 1.0], [], 0.75]


def quantile_data(shape, nan_rows):
    data = np.round(random(shape), 1)  # rounded: ties
    if nan_rows:
        data.reshape(-1, shape[-1])[::2, 1] = NAN
        data.reshape(-1, shape[-1])[1, :] = NAN
    return data


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
@pytest.mark.parametrize("dim,keepdim", [(None, False), (None, True), (0, False), (-1, True), (1, False)])
@pytest.mark.parametrize("q", Q_VALUES, ids=str)
def test_quantile(name, interpolation, dim, keepdim, q):
    for dtype, nan_rows in [("float32", False), ("float64", True)]:
        w, t = both(quantile_data((4, 6, 5), nan_rows), dtype)
        q_w, q_t = both(q, dtype) if isinstance(q, list) else (q, q)
        ours = getattr(wick, name)(w, q_w, dim, keepdim, interpolation=interpolation)
        theirs = getattr(torch, name)(t, q_t, dim, keepdim, interpolation=interpolation)
        close(ours, theirs)
        close(getattr(w, name)(q_w, dim=dim, keepdim=keepdim, interpolation=interpolation), theirs)


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_quantile_scalars_0d_and_gradient(name):
    for data, q, kwargs in [(3.0, 0.5, {}), (3.0, [0.5, 0.2], {"dim": 0, "keepdim": True}), ([1.0, 5.0], 0.3, {}),
                            ([[1.0, NAN, 3.0], [1.0, 2.0, 3.0]], 0.5, {"dim": 1})]:
        w, t = both(data)
        q_w, q_t = both(q) if isinstance(q, list) else (wick.tensor(q), torch.tensor(q))
        close(getattr(wick, name)(w, q_w, **kwargs), getattr(torch, name)(t, q_t, **kwargs))
    w, t = both(random((4, 7)), "float64", requires_grad=True)
    g_w, g_t = grads(w, t, lambda lib, x: getattr(lib, name)(x, lib.tensor([0.2, 0.7], dtype=x.dtype), 1))
    close(g_w, g_t)


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_quantile_errors(name):
    w, t = both(random((2, 3)))
    cases = [(RuntimeError, (1.5,), {}, "q must be in the range \\[0, 1\\] but got 1.5"),
             (RuntimeError, (NAN,), {}, "q must be in the range"),
             (RuntimeError, ([1.5],), {}, "q values must be in the range \\[0, 1\\]"),
             (RuntimeError, ([[0.5]],), {}, "q must be a scalar or 1D tensor"),
             (RuntimeError, (0.5,), {"interpolation": "foo"}, "interpolation must be one of linear"),
             (IndexError, (0.5, 2), {}, None), (TypeError, ("a",), {}, None),
             (TypeError, (0.5, 0, 1), {}, None), (TypeError, (0.5,), {"interpolation": None}, None)]
    for exception, args, kwargs, match in cases:
        args_w = (wick.tensor(args[0]),) + args[1:] if isinstance(args[0], list) else args
        args_t = (torch.tensor(args[0]),) + args[1:] if isinstance(args[0], list) else args
        raises_like(exception, lambda: getattr(torch, name)(t, *args_t, **kwargs),
                    lambda: getattr(wick, name)(w, *args_w, **kwargs), match)
    raises_like(RuntimeError, lambda: getattr(torch, name)(t, torch.tensor([0.5], dtype=torch.float64)),
                lambda: getattr(wick, name)(w, wick.tensor([0.5], dtype=wick.float64)), "q tensor must be same dtype")
    for dtype in ["int64", "float16"]:
        w_, t_ = both([1, 2], dtype)
        raises_like(RuntimeError, lambda: getattr(torch, name)(t_, 0.5), lambda: getattr(wick, name)(w_, 0.5),
                    "input tensor must be either float or double dtype")
    w_, t_ = both(np.zeros((0, 3)))
    raises_like(RuntimeError, lambda: getattr(torch, name)(t_, 0.5, 1), lambda: getattr(wick, name)(w_, 0.5, 1),
                "input tensor must be non-empty")


# bincount and histc
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "int8"])
@pytest.mark.parametrize("weights", [None, "float32", "float64", "int64", "bool", "float16"])
@pytest.mark.parametrize("minlength", [0, 3, 20])
def test_bincount(dtype, weights, minlength):
    w, t = both(random((30,), low=0, high=9, dtype="int64"), dtype)
    ww, tw = both(random((30,), seed=3, dtype=weights or "int64", low=0, high=2), weights) if weights else (None, None)
    equal(wick.bincount(w, ww, minlength), torch.bincount(t, tw, minlength))
    equal(w.bincount(weights=ww, minlength=minlength), t.bincount(weights=tw, minlength=minlength))


def test_bincount_empty_gradient_and_errors():
    we, te = both(np.zeros(0, dtype="int64"), "int64")
    equal(wick.bincount(we), torch.bincount(te))
    equal(wick.bincount(we, minlength=4), torch.bincount(te, minlength=4))
    equal(wick.bincount(we, wick.ones(0)), torch.bincount(te, torch.ones(0)))
    weights = wick.tensor([0.5, 1.0, 2.0], requires_grad=True)
    wick.bincount(wick.tensor([1, 3, 1]), weights).dot(wick.tensor([1.0, 2.0, 3.0, 4.0])).backward()
    np.testing.assert_array_equal(weights.grad.numpy(), [2.0, 4.0, 2.0])
    w, t = both([1, 3, 1], "int64")
    for exception, args, kwargs, match in [
            (RuntimeError, ([1, -3],), {}, "1-d non-negative integral inputs"),
            (RuntimeError, ([[1, 3]],), {}, "1-d non-negative integral inputs"),
            (RuntimeError, (3,), {}, "1-d non-negative integral inputs"),
            (RuntimeError, ([1.0],), {}, "not implemented for 'Float'"),
            (RuntimeError, ([True],), {}, "not implemented for 'Bool'"),
            (RuntimeError, ([1, 3],), {"minlength": -1}, "minlength should be >= 0")]:
        raises_like(exception, lambda: torch.bincount(torch.tensor(*args), **kwargs),
                    lambda: wick.bincount(wick.tensor(*args), **kwargs), match)
    raises_like(RuntimeError, lambda: torch.bincount(t, torch.ones(2)), lambda: wick.bincount(w, wick.ones(2)),
                "weights should be 1-d and have the same length as input")
    raises_like(TypeError, lambda: torch.bincount(t, minlength=True), lambda: wick.bincount(w, minlength=True))
    raises_like(TypeError, lambda: torch.bincount(t, [1.0]), lambda: wick.bincount(w, [1.0]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("bins,low,high", [(100, 0, 0), (7, -2, 3), (4, 0, 3), (13, -1.3, 2.2), (1, 0, 1),
                                           (5, 2, 2), (9, True, 4)])
def test_histc(dtype, bins, low, high):
    data = random((200,), low=-4, high=4)
    data[:6] = [low, high, NAN, INF, -INF, 2.0]
    w, t = both(data[5:] if low == high else data, dtype)  # the own range of the data must be finite
    equal(wick.histc(w, bins, low, high), torch.histc(t, bins, low, high))
    equal(w.histc(bins=bins, min=low, max=high), t.histc(bins=bins, min=low, max=high))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("bins,low,high", [(7, -2, 3), (13, -1.3, 2.2), (1000, -1, 1), (3, 0.1, 0.7)])
def test_histc_bin_edges_of_a_dense_scan(dtype, bins, low, high):
    # Every value of a fine sorted grid: equal counts in each bin mean the same edges, to the last bit of the dtype.
    w, t = both(np.arange(low - 0.1, high + 0.1, 1 / 2048), dtype)
    equal(wick.histc(w, bins, low, high), torch.histc(t, bins, low, high))


def test_histc_edges_and_errors():
    for data in [[1.0, 1.0, 1.0], [], [2.0], 2.0]:
        w, t = both(data)
        equal(wick.histc(w, 4), torch.histc(t, 4))
    w, t = both(np.full(300, 2.0), "bfloat16")  # a bfloat16 count stops at 256, as PyTorch's
    equal(wick.histc(w, 3, 0, 3), torch.histc(t, 3, 0, 3))
    w = wick.tensor([1.0, 2.0], requires_grad=True)
    assert not wick.histc(w, 3).requires_grad
    w, t = both([1.0, 2.0, 1.0])
    for exception, args, match in [(RuntimeError, (0,), "bins must be > 0, but got 0"),
                                   (RuntimeError, (3, 3, 1), "max must be larger than min"),
                                   (RuntimeError, (3, 0, INF), "range of \\[0, inf\\] is not finite"),
                                   (RuntimeError, (3, NAN, 1), "is not finite"),
                                   (TypeError, (4.5,), None), (TypeError, (True,), None), (TypeError, (3, "a"), None)]:
        raises_like(exception, lambda: torch.histc(t, *args), lambda: wick.histc(w, *args), match)
    raises_like(RuntimeError, lambda: torch.histc(torch.tensor([1.0, NAN])), lambda: wick.histc(
        wick.tensor([1.0, NAN])), "is not finite")
    for dtype, name in [("int64", "Long"), ("float16", "Half")]:
        w_, t_ = both([1, 2], dtype)
        raises_like(RuntimeError, lambda: torch.histc(t_, 4), lambda: wick.histc(w_, 4),
                    f"not implemented for '{name}'")


# searchsorted and bucketize
SEQUENCES = [[1, 3, 5, 7, 9], [1, 1, 2, 2, 2, 5], [0], [], [4, 2, 9, 1, 1, 7, 3]]  # the last one unsorted


@pytest.mark.parametrize("sequence", SEQUENCES, ids=str)
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "int16", "uint8"])
@pytest.mark.parametrize("kwargs", [{}, {"right": True}, {"side": "right"}, {"side": "left"},
                                    {"out_int32": True, "right": True}], ids=str)
def test_searchsorted(sequence, dtype, kwargs):
    s_w, s_t = both(sequence, dtype)
    v_w, v_t = both(random((3, 8), low=0, high=11, dtype="int64"), dtype)
    equal(wick.searchsorted(s_w, v_w, **kwargs), torch.searchsorted(s_t, v_t, **kwargs))
    equal(wick.searchsorted(s_w, v_w[0, 0], **kwargs), torch.searchsorted(s_t, v_t[0, 0], **kwargs))
    equal(wick.searchsorted(s_w, 5, **kwargs), torch.searchsorted(s_t, 5, **kwargs))
    equal(wick.searchsorted(s_w, v_w[:0], **kwargs), torch.searchsorted(s_t, v_t[:0], **kwargs))


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_batched_sorter_nan_and_promotion(right):
    rows = np.sort(random((2, 3, 6), low=0, high=8, dtype="int64"), axis=-1)
    s_w, s_t = both(rows, "float32")
    v_w, v_t = both(random((2, 3, 4), seed=1, low=-1, high=10, dtype="int64"), "float32")
    equal(wick.searchsorted(s_w, v_w, right=right), torch.searchsorted(s_t, v_t, right=right))
    unsorted = random((2, 3, 6), seed=2, low=0, high=8, dtype="int64")
    order = np.argsort(unsorted, axis=-1, kind="stable")
    u_w, u_t = both(unsorted, "float32")
    o_w, o_t = both(order, "int64")
    equal(wick.searchsorted(u_w, v_w, right=right, sorter=o_w), torch.searchsorted(u_t, v_t, right=right, sorter=o_t))
    n_w, n_t = both([1.0, 2.0, NAN, NAN, NAN])  # NaNs: PyTorch's probes give its answer
    q_w, q_t = both([1.5, NAN, 3.0, -INF, INF, 1.0])
    equal(wick.searchsorted(n_w, q_w, right=right), torch.searchsorted(n_t, q_t, right=right))
    for seq, values in [("int64", "float32"), ("float64", "float32"), ("uint8", "int8"), ("float32", "float64")]:
        (a_w, a_t), (b_w, b_t) = both([1, 3, 5], seq), both([[2, 4], [3, 6]], values)
        equal(wick.searchsorted(a_w, b_w, right=right), torch.searchsorted(a_t, b_t, right=right))
        equal(wick.searchsorted(a_w, b_w[0, 0], right=right), torch.searchsorted(a_t, b_t[0, 0], right=right))
    s_w, s_t = both([1, 3, 5, 7, 9], "int64")
    for scalar in [2.5, True, -1, 6]:
        equal(wick.searchsorted(s_w, scalar, right=right), torch.searchsorted(s_t, scalar, right=right))
    s8_w, s8_t = both([1, 3, 5, 7, 9], "uint8")
    equal(wick.searchsorted(s8_w, -1), torch.searchsorted(s8_t, -1))  # -1 wraps to 255 in uint8, as PyTorch


def test_searchsorted_errors():
    s_w, s_t = both([1, 3, 5])
    v_w, v_t = both([[2.0, 4.0]])
    b_w, b_t = both([[1, 3, 5], [2, 4, 6]])
    cases = [(RuntimeError, (s_t, v_t), (s_w, v_w), {"side": "foo"}, "side can only be 'left' or 'right'"),
             (RuntimeError, (s_t, v_t), (s_w, v_w), {"side": "left", "right": True}, "can't be set to opposites"),
             (RuntimeError, (b_t, v_t), (b_w, v_w), {}, "first N-1 dimensions of boundaries tensor"),
             (RuntimeError, (b_t, 3), (b_w, 3), {}, "can be a scalar only when boundaries tensor dimension is 1"),
             (RuntimeError, (s_t[0], v_t), (s_w[0], v_w), {}, "should have positive dimension"),
             (RuntimeError, (s_t, v_t), (s_w, v_w), {"sorter": torch.tensor([0, 1])},
              "boundary and sorter must have the same size"),
             (RuntimeError, (s_t, v_t), (s_w, v_w), {"sorter": torch.tensor([0, 1, 2], dtype=torch.int32)},
              "sorter must be a tensor of long dtype but got dtype Int"),
             (RuntimeError, (s_t.bool(), v_t.bool()), (s_w.bool(), v_w.bool()), {}, "not implemented for 'Bool'"),
             (TypeError, (s_t, [1, 2]), (s_w, [1, 2]), {}, None), (TypeError, ([1, 2], v_t), ([1, 2], v_w), {}, None),
             (TypeError, (s_t, v_t), (s_w, v_w), {"right": 1}, None)]
    for exception, args_t, args_w, kwargs, match in cases:
        kwargs_w = {k: wick.tensor(v.numpy()) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
        raises_like(exception, lambda: torch.searchsorted(*args_t, **kwargs),
                    lambda: wick.searchsorted(*args_w, **kwargs_w), match)


def test_bucketize():
    b_w, b_t = both([1, 3, 5, 7, 9], "int64")
    v_w, v_t = both(random((2, 3, 4), low=0, high=11, dtype="int64"), "float32")
    for kwargs in [{}, {"right": True}, {"out_int32": True}]:
        equal(wick.bucketize(v_w, b_w, **kwargs), torch.bucketize(v_t, b_t, **kwargs))
        equal(wick.bucketize(3.5, b_w, **kwargs), torch.bucketize(3.5, b_t, **kwargs))
        equal(wick.bucketize(3, b_w, **kwargs), torch.bucketize(3, b_t, **kwargs))
    for bad_t in [torch.tensor([[1, 2]]), torch.tensor(1)]:
        raises_like(RuntimeError, lambda: torch.bucketize(v_t, bad_t), lambda: wick.bucketize(
            v_w, wick.tensor(bad_t.numpy())), "boundaries tensor must be 1 dimension")
    raises_like(TypeError, lambda: torch.bucketize(v_t, b_t, side="right"), lambda: wick.bucketize(
        v_w, b_w, side="right"))
    raises_like(TypeError, lambda: torch.bucketize(v_t, [1, 2]), lambda: wick.bucketize(v_w, [1, 2]))


# isin
@pytest.mark.parametrize("dtypes", [("int64", "int64"), ("int64", "float32"), ("uint8", "int8"), ("float64", "float64"),
                                    ("int32", "int16")], ids=str)
@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("size", [0, 1, 5, 40])
def test_isin(dtypes, invert, size):
    e_w, e_t = both(random((3, 7), low=-3, high=9, dtype="int64"), dtypes[0])
    t_w, t_t = both(random((size,), seed=4, low=-3, high=9, dtype="int64"), dtypes[1])
    for kwargs in [{"invert": invert}, {"invert": invert, "assume_unique": True}]:
        equal(wick.isin(e_w, t_w, **kwargs), torch.isin(e_t, t_t, **kwargs))
    equal(wick.isin(e_w[0, 0], t_w, invert=invert), torch.isin(e_t[0, 0], t_t, invert=invert))
    equal(wick.isin(e_w, 3, invert=invert), torch.isin(e_t, 3, invert=invert))
    equal(wick.isin(4, t_w, invert=invert), torch.isin(4, t_t, invert=invert))


def test_isin_nan_zeros_scalars_and_errors():
    e_w, e_t = both([1.0, NAN, 0.0, -0.0, 2.5, INF])
    t_w, t_t = both([NAN, 0.0, 1.0, INF, 7.0])
    equal(wick.isin(e_w, t_w), torch.isin(e_t, t_t))
    equal(wick.isin(t_w, e_w), torch.isin(t_t, e_t))
    i_w, i_t = both([1, 2, 3], "int64")
    u_w, u_t = both([1, 2, 3], "uint8")
    h_w, h_t = both([1, 2, 1.5], "float16")
    for (ew, et), (tw, tt) in [((i_w, i_t), (2.5, 2.5)), ((2.5, 2.5), (i_w, i_t)), ((u_w, u_t), (-255, -255)),
                               ((i_w, i_t), (2.0, 2.0)), ((u_w, u_t), (t_w, t_t)), ((h_w, h_t), (1.5, 1.5)),
                               ((u_w[0], u_t[0]), both(np.arange(-20, 20), "int8"))]:
        equal(wick.isin(ew, tw), torch.isin(et, tt))
    # Many test elements: PyTorch sorts, and with assume_unique=True it trusts that nothing repeats.
    d_w, d_t = both([20, 20, 3], "int64")
    for kwargs in [{}, {"assume_unique": True}, {"assume_unique": True, "invert": True}]:
        equal(wick.isin(d_w, wick.arange(12), **kwargs), torch.isin(d_t, torch.arange(12), **kwargs))
        equal(wick.isin(h_w, h_w.repeat(5), assume_unique=True), torch.isin(h_t, h_t.repeat(5), assume_unique=True))
    raises_like(RuntimeError, lambda: torch.isin(i_t, True), lambda: wick.isin(i_w, True), "Unsupported input type")
    for dtype, name in [("bool", "Bool"), ("bfloat16", "BFloat16")]:
        b_w, b_t = both([1, 0], dtype)
        raises_like(RuntimeError, lambda: torch.isin(b_t, i_t.to(b_t.dtype)), lambda: wick.isin(
            b_w, i_w.to(b_w.dtype)), f"Unsupported input type encountered for isin\\(\\): {name}")
    raises_like(RuntimeError, lambda: torch.isin(True, i_t), lambda: wick.isin(True, i_w), "Unsupported input type")
    raises_like(RuntimeError, lambda: torch.isin(h_t, h_t), lambda: wick.isin(h_w, h_w), "not implemented for 'Half'")
    raises_like(RuntimeError, lambda: torch.isin(h_t, h_t.repeat(5)), lambda: wick.isin(h_w, h_w.repeat(5)),
                "not implemented for 'Half'")
    raises_like(TypeError, lambda: torch.isin(2, 3), lambda: wick.isin(2, 3))
    raises_like(TypeError, lambda: torch.isin(i_t, i_t, invert=1), lambda: wick.isin(i_w, i_w, invert=1))
    raises_like(TypeError, lambda: torch.isin(i_t, [1]), lambda: wick.isin(i_w, [1]))


# isclose
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("rtol,atol", [(1e-05, 1e-08), (0, 0), (0.1, 0), (0, 1.5), (1e-3, 1e-3), (True, 1)], ids=str)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose(dtype, rtol, atol, equal_nan):
    floating = dtype in ("float32", "float64", "float16", "bfloat16")
    a = random((50,), low=-3, high=4, dtype=dtype) if dtype != "bool" else random((50,), low=0, high=2, dtype=dtype)
    b = a + random((50,), seed=1, dtype="float64") * np.geomspace(1e-9, 10, 50) if floating else (
        random((50,), seed=1, low=0, high=2 if dtype == "bool" else 6, dtype="int64"))
    if floating:
        a[:6], b[:6] = [NAN, NAN, INF, INF, -INF, 1.0], [NAN, 1.0, INF, -INF, -INF, NAN]
    (a_w, a_t), (b_w, b_t) = both(a, dtype), both(b, dtype)
    equal(wick.isclose(a_w, b_w, rtol, atol, equal_nan), torch.isclose(a_t, b_t, rtol, atol, equal_nan))
    equal(a_w.isclose(b_w, rtol=rtol, atol=atol, equal_nan=equal_nan),
          a_t.isclose(b_t, rtol=rtol, atol=atol, equal_nan=equal_nan))


def test_isclose_broadcasts_and_errors():
    a_w, a_t = both([1.0, 2.0])
    b_w, b_t = both([[1.0], [2.0 + 1e-6]])
    equal(wick.isclose(a_w, b_w), torch.isclose(a_t, b_t))
    i_w, i_t = both([1, 2], "int64")
    raises_like(RuntimeError, lambda: torch.isclose(i_t, a_t), lambda: wick.isclose(i_w, a_w),
                "Long did not match Float")
    raises_like(RuntimeError, lambda: torch.isclose(a_t, a_t, rtol=-1), lambda: wick.isclose(a_w, a_w, rtol=-1),
                "rtol must be greater than or equal to zero, but got -1")
    raises_like(RuntimeError, lambda: torch.isclose(a_t, a_t, atol=-1e-5), lambda: wick.isclose(a_w, a_w, atol=-1e-5),
                "atol must be greater than or equal to zero, but got -1e-05")
    raises_like(RuntimeError, lambda: torch.isclose(a_t, torch.ones(3)), lambda: wick.isclose(a_w, wick.ones(3)))
    raises_like(TypeError, lambda: torch.isclose(a_t, 1.0), lambda: wick.isclose(a_w, 1.0), "must be Tensor")
    raises_like(TypeError, lambda: torch.isclose(a_t, a_t, None), lambda: wick.isclose(a_w, a_w, None))
    raises_like(TypeError, lambda: torch.isclose(a_t, a_t, equal_nan=1), lambda: wick.isclose(a_w, a_w, equal_nan=1))


# cummax, cummin and logcumsumexp
@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool", "bfloat16"])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("length", [1, 2, 5, 17])
def test_cummax_cummin(name, dtype, dim, length):
    data = random((3, length, length), low=0, high=2 if dtype == "bool" else 4, dtype="int64").astype("float64")
    if dtype.startswith("float"):
        data[np.random.default_rng(5).random(data.shape) < 0.15] = NAN
    w, t = both(data, dtype)
    ours, theirs = getattr(wick, name)(w, dim), getattr(torch, name)(t, dim)
    equal(ours.values, theirs.values)
    equal(ours.indices, theirs.indices)
    values, indices = getattr(w, name)(dim=dim)
    equal(values, theirs.values)
    equal(indices, theirs.indices)
    assert type(ours).__name__ == name and ours._fields == ("values", "indices")


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_edges_gradient_and_errors(name):
    for data, dim in [(3.0, 0), (3.0, 5), (np.zeros((0, 2)), 0), (np.zeros((0, 2)), 1)]:  # a 0-d one takes any dim
        w, t = both(data)
        for o, t_ in zip(getattr(wick, name)(w, dim), getattr(torch, name)(t, dim)):
            equal(o, t_)
    w, t = both(np.round(random((4, 9)), 0), "float64", requires_grad=True)  # rounded: ties
    g_w, g_t = grads(w, t, lambda lib, x: getattr(lib, name)(x, 1).values)
    equal(g_w, g_t)
    w, t = both(random((2, 2)))
    raises_like(IndexError, lambda: getattr(torch, name)(t, 2), lambda: getattr(wick, name)(w, 2))
    raises_like(TypeError, lambda: getattr(torch, name)(t, True), lambda: getattr(wick, name)(w, True))
    w, t = both(random((2, 2)), "float16")
    raises_like(RuntimeError, lambda: getattr(torch, name)(t, 0), lambda: getattr(wick, name)(w, 0),
                "not implemented for 'Half'")


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("length", [1, 2, 7, 33])
def test_logcumsumexp(dtype, dim, length):
    data = random((3, length, 4), low=-30, high=30)
    flat = data.reshape(-1)
    flat[3::11] = np.resize([-INF, -1000.0, 80.0, INF, NAN], flat[3::11].shape)
    w, t = both(data, dtype)
    close(wick.logcumsumexp(w, dim), torch.logcumsumexp(t, dim))
    close(w.logcumsumexp(dim), t.logcumsumexp(dim))


def test_logcumsumexp_infinities_gradient_and_errors():
    for data in [[-INF, -INF, INF, INF, 1.0], [1.0, NAN, 3.0], [-INF, 2.0, -INF], [-1000.0, 0.0, 1000.0, -INF],
                 [INF, -INF, 5.0], 3.0, []]:
        w, t = both(data)
        equal(wick.logcumsumexp(w, 0), torch.logcumsumexp(t, 0))
    w, t = both(random((3, 8)), "float64", requires_grad=True)
    g_w, g_t = grads(w, t, lambda lib, x: lib.logcumsumexp(x, 1))
    close(g_w, g_t)
    w, t = both(random((2, 2)))
    raises_like(IndexError, lambda: torch.logcumsumexp(t, 2), lambda: wick.logcumsumexp(w, 2))
    raises_like(IndexError, lambda: torch.logcumsumexp(t[0, 0], 1), lambda: wick.logcumsumexp(w[0, 0], 1))
    for dtype, name in [("int64", "Long"), ("float16", "Half"), ("bool", "Bool")]:
        w_, t_ = both([1, 0], dtype)
        raises_like(RuntimeError, lambda: torch.logcumsumexp(t_, 0), lambda: wick.logcumsumexp(w_, 0),
                    f"not implemented for '{name}'")


def test_methods_are_the_functions_with_the_tensor_first():
    assert set(reduction_functions.METHODS) == {n for n in reduction_functions.__all__ if hasattr(torch.Tensor, n)}
    for name in reduction_functions.METHODS:
        assert getattr(wick.Tensor, name) is getattr(wick, name)


# histogram
def linspace_reference(start, end, steps, dtype):
    """PyTorch's linspace as its scalar loop computes it: from start in the first half, from end in the second."""
    start, end = np.asarray(start, dtype), np.asarray(end, dtype)
    step = (end - start) / np.asarray(steps - 1, dtype)
    return np.array([start + step * np.asarray(i, dtype) if i < steps // 2 else
                     end - step * np.asarray(steps - i - 1, dtype) for i in range(steps)], dtype=dtype)


# No element is within an ulp of an inner edge: there, PyTorch's vectorised linspace (below) may bin it otherwise.
HISTOGRAM_DATA = [[1.0, 2.0, 1.0, 4.0, 2.5], [[0.0, 0.1, 0.2], [0.3, 0.65, 1.0]], [3.0], 2.0, [],
                  [-3.5, 8.25, 0.0, 1e-3, 7.0, -2.0, 3.0, 3.0, 5.5], [NAN, 0.5, 2.0, NAN]]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("data", HISTOGRAM_DATA, ids=str)
@pytest.mark.parametrize("kwargs", [{"bins": 3}, {"bins": 10}, {"bins": 1}, {"bins": 4, "range": (0.0, 5.0)},
                                    {"bins": 4, "range": [1, 1]}, {"bins": 7, "range": (-2.0, 3.0), "density": True},
                                    {"bins": 5, "density": True}], ids=str)
def test_histogram(dtype, data, kwargs):
    w, t = both(data, dtype)
    if kwargs.get("density") and len(np.ravel(data)) == 0:
        kwargs = {**kwargs, "density": False}  # 0 / 0: NaN on both sides, compared below
    if np.isnan(np.asarray(data, dtype=float)).any() and "range" not in kwargs:
        raises_like(RuntimeError, lambda: torch.histogram(t, **kwargs), lambda: wick.histogram(w, **kwargs),
                    "is not finite")
        return
    ours, theirs = wick.histogram(w, **kwargs), torch.histogram(t, **kwargs)
    assert type(ours).__name__ == "histogram" and ours._fields == ("hist", "bin_edges")
    # The edges are linspace's, as PyTorch's scalar loop computes them; its vectorised loop (base + k * step
    # within a SIMD vector) may round an edge one ulp (of the range's ends) off that.
    low, high = float(theirs.bin_edges[0]), float(theirs.bin_edges[-1])
    np.testing.assert_array_equal(ours.bin_edges.numpy(), linspace_reference(low, high, kwargs["bins"] + 1, dtype))
    close(ours.bin_edges, theirs.bin_edges, rtol=0, atol=np.finfo(dtype).eps * max(abs(low), abs(high)))
    if kwargs.get("density"):
        close(ours.hist, theirs.hist, rtol=1e-6, atol=0)
    else:
        equal(ours.hist, theirs.hist)
    method = w.histogram(**kwargs)
    assert method.hist.to(wick.float64).nan_to_num(-1).tolist() == ours.hist.to(wick.float64).nan_to_num(-1).tolist()


@pytest.mark.parametrize("edges", [[0.0, 1.5, 2.0, 10.0], [3.0, 1.5, 2.0, 10.0], [0.0, 1.0, 1.0, 10.0],
                                   [0.0, NAN, 10.0], [2.5, 2.5], [-INF, 0.0, INF]], ids=str)
def test_histogram_with_edges(edges):
    data = [1.0, 2.0, 1.0, 4.0, 2.5, 10.0, 0.0, NAN, -INF, INF, 1.5, 12.0]
    w, t = both(data, "float64")
    we, te = both(edges, "float64")
    weights = np.arange(1.0, len(data) + 1)
    ww, tw = both(weights, "float64")
    for kwargs in [{}, {"weight": (ww, tw)}, {"density": True}]:
        wk = {k: v[0] if isinstance(v, tuple) else v for k, v in kwargs.items()}
        tk = {k: v[1] if isinstance(v, tuple) else v for k, v in kwargs.items()}
        ours, theirs = wick.histogram(w, we, **wk), torch.histogram(t, te, **tk)
        close(ours.hist, theirs.hist, rtol=1e-12, atol=0)
        equal(ours.bin_edges, theirs.bin_edges)


def test_histogram_weights_nans_and_no_gradient():
    w, t = both([3.0, 4.0, NAN, 1.0, 4.0])
    equal(wick.histogram(w, 4, range=(0.0, 5.0)).hist, torch.histogram(t, 4, range=(0.0, 5.0)).hist)
    ww, tw = both([[1.0, 2.0, 3.0, 4.0, 5.0]])  # only the count of the weights must agree
    equal(wick.histogram(w, 4, range=(0.0, 5.0), weight=ww).hist,
          torch.histogram(t, 4, range=(0.0, 5.0), weight=tw).hist)
    w, t = both([1.0, 2.0], requires_grad=True)
    assert not wick.histogram(w, 2).hist.requires_grad


def test_histogram_errors():
    w, t = both([1.0, 2.0, 1.0, 4.0, 2.5])
    cases = [
        (RuntimeError, lambda lib, x: lib.histogram(x, 0), "bins must be > 0"),
        (RuntimeError, lambda lib, x: lib.histogram(x, -1), "bins must be > 0"),
        (RuntimeError, lambda lib, x: lib.histogram(x, 3, range=(5.0, 0.0)), "min should not exceed max"),
        (RuntimeError, lambda lib, x: lib.histogram(x, 3, range=(0.0, INF)), "is not finite"),
        (RuntimeError, lambda lib, x: lib.histogram(x, 3, range=(0.0, 1.0, 2.0)), "should have 2 elements"),
        (RuntimeError, lambda lib, x: lib.histogram(x.new_tensor([3.0, NAN]), 3), "is not finite"),
        (RuntimeError, lambda lib, x: lib.histogram(x, x.new_tensor([0.0])), "bins must be > 0"),
        (RuntimeError, lambda lib, x: lib.histogram(x, x.new_tensor([[0.0, 1.0]])), "one dimension"),
        (RuntimeError, lambda lib, x: lib.histogram(x, x.new_tensor([0.0, 1.0]).double()), "same dtype"),
        (RuntimeError, lambda lib, x: lib.histogram(x, 3, weight=x[:4]), "same shape"),
        (RuntimeError, lambda lib, x: lib.histogram(x, 3, weight=x.double()), "same dtype"),
        (RuntimeError, lambda lib, x: lib.histogram(x.long(), 3), "not implemented for 'Long'"),
        (RuntimeError, lambda lib, x: lib.histogram(x.half(), 3), "not implemented for 'Half'"),
        (RuntimeError, lambda lib, x: lib.histogram(x.bfloat16(), 3), "not implemented for 'BFloat16'"),
        (TypeError, lambda lib, x: lib.histogram(x, 3.0), None),
        (TypeError, lambda lib, x: lib.histogram(x, x.new_tensor([0.0, 1.0]), range=(0.0, 1.0)), None),
        (TypeError, lambda lib, x: lib.histogram(x, 3, density=1), None),
    ]
    for exception, call, match in cases:
        raises_like(exception, lambda: call(torch, t), lambda: call(wick, w), match)


def test_histogram_pickles_and_prints_as_torch():
    result = wick.histogram(wick.tensor([1.0, 2.0]), 2)
    again = pickle.loads(pickle.dumps(result))
    assert again._fields == ("hist", "bin_edges") and again.hist.tolist() == [1.0, 1.0]
    assert repr(result).startswith("wick.return_types.histogram(\nhist=")


# mode
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                                   "float32", "float64"])
def test_mode_matches_torch_on_random_small_integers(dtype):
    """Rows of up to 16 (where PyTorch's CPU sort is an insertion sort, hence stable): the same value (the
    smallest of the most frequent) and the same index (the last of its occurrences)."""
    rng = np.random.default_rng(5)
    for trial in range(60):
        n = int(rng.integers(1, 17))
        data = rng.integers(0, 2 if dtype == "bool" else 5, (3, n)) - (0 if dtype in ("bool", "uint8") else 2)
        w, t = both(data, dtype)
        for dim, keepdim in [(-1, False), (1, True), (0, False)]:
            ours, theirs = wick.mode(w, dim, keepdim), torch.mode(t, dim, keepdim)
            equal(ours.values, theirs.values)
            equal(ours.indices, theirs.indices)


def test_mode_long_rows_give_the_value_and_one_of_its_positions():
    rng = np.random.default_rng(6)
    data = rng.integers(0, 4, (20, 50))
    w, t = both(data, "int64")
    ours, theirs = wick.mode(w), torch.mode(t)
    equal(ours.values, theirs.values)
    assert (w.gather(1, ours.indices.unsqueeze(1)).squeeze(1) == ours.values).all()


def test_mode_edges_gradient_and_errors():
    for data, dim in [(5.0, 0), (5.0, -1), ([[1.0, 2.0], [2.0, 2.0]], 0), ([-0.0, 0.0, 1.0, 1.0], 0),
                      ([0.0, -0.0, 1.0, 1.0], 0), (np.zeros((2, 0)), 0), (np.zeros((0, 3)), 1), ([INF, -INF, INF], 0)]:
        w, t = both(data)
        ours, theirs = wick.mode(w, dim), torch.mode(t, dim)
        equal(ours.values, theirs.values)
        assert np.signbit(ours.values.numpy()).tolist() == np.signbit(theirs.values.numpy()).tolist()
        equal(ours.indices, theirs.indices)
    assert w.mode(0, keepdim=True).values.shape == (1,)
    w, t = both([[1.0, 2.0, 2.0, 3.0], [4.0, 4.0, 0.0, 1.0]], "float64", requires_grad=True)
    g_w, g_t = grads(w, t, lambda lib, x: lib.mode(x, 1).values)
    equal(g_w, g_t)
    w, t = both(np.zeros((2, 0)))
    raises_like(IndexError, lambda: torch.mode(t, 1), lambda: wick.mode(w, 1), "non-zero size")
    raises_like(IndexError, lambda: torch.mode(t, 2), lambda: wick.mode(w, 2))
    raises_like(TypeError, lambda: torch.mode(t, 1.0), lambda: wick.mode(w, 1.0))
    assert pickle.loads(pickle.dumps(wick.mode(wick.tensor([1, 1])))).values.item() == 1
    assert repr(wick.mode(wick.tensor([1]))).startswith("wick.return_types.mode(\nvalues=")


def test_mode_nan_is_a_value_of_its_own():
    """A documented difference: PyTorch's CPU kernel sorts with a comparison that NaN breaks, so its answer for
    rows with NaNs depends on where they stand; wick counts each NaN as a distinct value above all others."""
    result = wick.mode(wick.tensor([NAN, 1.0, NAN, 1.0]))
    assert result.values.item() == 1.0 and result.indices.item() == 3
    result = wick.mode(wick.tensor([NAN, 2.0, 1.0]))
    assert result.values.item() == 1.0 and result.indices.item() == 2


# unique_consecutive
UNIQUE_DATA = [[1, 1, 2, 2, 3, 1, 1, 2], [[1, 1, 2], [2, 3, 3]], [[1, 1], [1, 1], [2, 3], [2, 3]], 5, [],
               [[0, 0, 0], [0, 0, 0]], [NAN, NAN, 1.0, 1.0], [-0.0, 0.0, 1.0]]


@pytest.mark.parametrize("data", UNIQUE_DATA, ids=str)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int16", "int64", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("dim", [None, 0, 1, -1])
def test_unique_consecutive(data, dtype, dim):
    if dtype not in ("float32", "float64", "bfloat16") and np.isnan(np.asarray(data, dtype=float)).any():
        return
    w, t = both(data, dtype)
    for inverse, counts in [(False, False), (True, False), (False, True), (True, True)]:
        flags = {"return_inverse": inverse, "return_counts": counts}
        try:
            theirs = torch.unique_consecutive(t, **flags, dim=dim)
        except (IndexError, RuntimeError) as e:
            raises_like(type(e), lambda: torch.unique_consecutive(t, **flags, dim=dim),
                        lambda: wick.unique_consecutive(w, **flags, dim=dim))
            continue
        ours = wick.unique_consecutive(w, **flags, dim=dim)
        assert isinstance(ours, tuple) == isinstance(theirs, tuple)
        for o, t_ in zip(ours if isinstance(ours, tuple) else (ours,), theirs if isinstance(theirs, tuple) else
                         (theirs,)):
            equal(o, t_)
        method = w.unique_consecutive(**flags, dim=dim)
        assert type(method) is type(ours) and len(method) == len(ours)


def test_unique_consecutive_positional_flags():
    """A documented difference: PyTorch 1.13's Python wrapper dispatches on the wrong positional argument, so
    unique_consecutive(x, True) gives (output, empty); wick reads positional flags as their keywords."""
    ours = wick.unique_consecutive(wick.tensor([1, 1, 2]), True)
    theirs = torch.unique_consecutive(torch.tensor([1, 1, 2]), return_inverse=True)
    for o, t in zip(ours, theirs):
        equal(o, t)
    ours = wick.unique_consecutive(wick.tensor([1, 1, 2]), False, True)
    theirs = torch.unique_consecutive(torch.tensor([1, 1, 2]), return_counts=True)
    for o, t in zip(ours, theirs):
        equal(o, t)


def test_unique_consecutive_errors():
    w, t = both([[1.0, 1.0], [2.0, 2.0]])
    raises_like(RuntimeError, lambda: torch.unique_consecutive(t.half()), lambda: wick.unique_consecutive(w.half()),
                "not implemented for 'Half'")
    raises_like(IndexError, lambda: torch.unique_consecutive(t[0, 0], dim=0),
                lambda: wick.unique_consecutive(w[0, 0], dim=0), "no dimensions")
    raises_like(RuntimeError, lambda: torch.unique_consecutive(torch.empty(3, 0), dim=0),
                lambda: wick.unique_consecutive(wick.empty(3, 0), dim=0), "0 sized dimensions")
    raises_like(TypeError, lambda: torch.unique_consecutive(t, return_inverse=1),
                lambda: wick.unique_consecutive(w, return_inverse=1))
    raises_like(TypeError, lambda: torch.unique_consecutive(t, dim=1.0), lambda: wick.unique_consecutive(w, dim=1.0))
