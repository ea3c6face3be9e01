"""out= on reductions and scans, against PyTorch: the result written into out (resized from zero
elements, or through its strides), the dtype rules of PyTorch's out= (a dtype= left None is out's
for sum, prod, mean, cumsum and cumprod; var, std, norm and logsumexp cast into a wider out; max,
amax, argmax, all... take only their own dtype), tuple outs (max(dim, out=(values, indices))), and
the Python-glue reductions that take out=.
"""
import warnings

import numpy as np
import pytest
import torch

import wick
from reference import to_numpy


def w(a):
    """A wick tensor of a torch tensor's values."""
    return wick.from_numpy(a.numpy().copy())


def same(got, expected):
    got_t = torch.from_numpy(np.array(to_numpy(got)))
    assert tuple(got_t.shape) == tuple(expected.shape)
    assert got_t.dtype == expected.dtype
    torch.testing.assert_close(got_t, expected, equal_nan=True, rtol=1e-6, atol=1e-6)


X = torch.from_numpy(np.random.default_rng(0).standard_normal((3, 4, 5)).astype(np.float32))
MASK = X > 0

# name -> (input, call(lib, x, **kw)); each takes out= in PyTorch 1.13.
SINGLE = {
    "sum": (X, lambda m, x, **kw: m.sum(x, (0, 2), True, **kw)),
    "prod": (X, lambda m, x, **kw: m.prod(x, 1, **kw)),
    "mean": (X, lambda m, x, **kw: m.mean(x, [-1], **kw)),
    "var": (X, lambda m, x, **kw: m.var(x, 1, correction=0, **kw)),
    "var_unbiased": (X, lambda m, x, **kw: m.var(x, (0, 1), False, True, **kw)),
    "std": (X, lambda m, x, **kw: m.std(x, 2, **kw)),
    "amax": (X, lambda m, x, **kw: m.amax(x, (1, 2), **kw)),
    "amin": (X, lambda m, x, **kw: m.amin(x, 0, keepdim=True, **kw)),
    "argmax": (X, lambda m, x, **kw: m.argmax(x, 1, **kw)),
    "argmin": (X, lambda m, x, **kw: m.argmin(x, **kw)),
    "all": (MASK, lambda m, x, **kw: m.all(x, 2, **kw)),
    "any": (MASK, lambda m, x, **kw: m.any(x, 0, True, **kw)),
    "norm": (X, lambda m, x, **kw: m.norm(x, 3, 1, **kw)),
    "logsumexp": (X, lambda m, x, **kw: m.logsumexp(x, (0, 1), **kw)),
    "cumsum": (X, lambda m, x, **kw: m.cumsum(x, 1, **kw)),
    "cumprod": (X, lambda m, x, **kw: m.cumprod(x, -1, **kw)),
    "max_other": (X, lambda m, x, **kw: m.max(x, x.flip(0), **kw)),
    "nansum": (X, lambda m, x, **kw: m.nansum(x, 1, **kw)),
    "nanmean": (X, lambda m, x, **kw: m.nanmean(x, 1, **kw)),
    "logcumsumexp": (X, lambda m, x, **kw: m.logcumsumexp(x, 2, **kw)),
    "quantile": (X, lambda m, x, **kw: m.quantile(x, 0.25, 1, **kw)),
}

PAIRS = {
    "max": lambda m, x, **kw: m.max(x, 1, **kw),
    "min": lambda m, x, **kw: m.min(x, 2, True, **kw),
    "median": lambda m, x, **kw: m.median(x, 0, **kw),
    "nanmedian": lambda m, x, **kw: m.nanmedian(x, 1, **kw),
    "kthvalue": lambda m, x, **kw: m.kthvalue(x, 2, 1, **kw),
    "mode": lambda m, x, **kw: m.mode(x, 1, **kw),
    "cummax": lambda m, x, **kw: m.cummax(x, 1, **kw),
    "cummin": lambda m, x, **kw: m.cummin(x, 0, **kw),
    "aminmax": lambda m, x, **kw: m.aminmax(x, dim=2, **kw),
}


def empty_like_result(expected):
    return wick.empty(0, dtype=getattr(wick, str(expected.dtype).split(".")[1]))


@pytest.mark.parametrize("name", SINGLE)
def test_out_matches_pytorch(name):
    x, call = SINGLE[name]
    expected = call(torch, x)
    out = empty_like_result(expected)
    got = call(wick, w(x), out=out)
    assert got is out
    same(out, expected)


@pytest.mark.parametrize("name", PAIRS)
def test_tuple_out_matches_pytorch(name):
    call = PAIRS[name]
    expected = call(torch, X)
    outs = tuple(empty_like_result(e) for e in expected)
    got = call(wick, w(X), out=outs)
    assert got[0] is outs[0] and got[1] is outs[1]
    for o, e in zip(outs, expected):
        same(o, e)


@pytest.mark.parametrize("name", ["sum", "mean", "argmax", "all", "cumsum", "var", "max_other"])
def test_out_through_strides(name):
    x, call = SINGLE[name]
    expected = call(torch, x)
    base = empty_like_result(expected).new_zeros(*expected.shape, 2)
    out = base[..., 0]  # every other element
    got = call(wick, w(x), out=out)
    assert got is out
    same(out, expected)
    assert not to_numpy(base[..., 1]).any()  # the elements between those written are untouched


def test_tuple_out_through_strides():
    x = X[:, 0, :]
    ev, ei = torch.max(x, 1)
    values, indices = wick.zeros(3, 2)[:, 0], wick.zeros(3, 2, dtype=wick.int64)[:, 1]
    got_v, got_i = wick.max(w(x), 1, out=(values, indices))
    assert got_v is values and got_i is indices
    same(values, ev)
    same(indices, ei)


@pytest.mark.parametrize("out_dtype", ["int32", "float64", "int16"])
@pytest.mark.parametrize("name", ["sum", "prod", "cumsum", "cumprod"])
def test_none_dtype_is_outs(name, out_dtype):
    """PyTorch sums in out's dtype when dtype= is None: the input is cast first."""
    x = torch.tensor([[0.6, 0.7, 1.9], [2.5, -1.5, 3.2]])
    call = {"sum": lambda m, a, **kw: m.sum(a, 1, **kw), "prod": lambda m, a, **kw: m.prod(a, 1, **kw),
            "cumsum": lambda m, a, **kw: m.cumsum(a, 1, **kw), "cumprod": lambda m, a, **kw: m.cumprod(a, 1, **kw)}[name]
    expected = call(torch, x, out=torch.empty(0, dtype=getattr(torch, out_dtype)))
    out = wick.empty(0, dtype=getattr(wick, out_dtype))
    call(wick, w(x), out=out)
    same(out, expected)


def test_mean_into_wider_out():
    expected = torch.mean(X, 1, out=torch.empty(0, dtype=torch.float64))
    out = wick.empty(0, dtype=wick.float64)
    wick.mean(w(X), 1, out=out)
    same(out, expected)


@pytest.mark.parametrize("name", ["var", "std", "norm", "logsumexp"])
def test_cast_into_wider_out(name):
    x, call = SINGLE[name]
    expected = call(torch, x, out=torch.empty(0, dtype=torch.float64))
    out = wick.empty(0, dtype=wick.float64)
    call(wick, w(x), out=out)
    same(out, expected.to(torch.float64))


def test_integer_logsumexp_into_float_out():
    x = torch.arange(12).reshape(3, 4)
    expected = torch.logsumexp(x, 1, out=torch.empty(0))
    out = wick.empty(0)
    wick.logsumexp(w(x), 1, out=out)
    same(out, expected)


@pytest.mark.parametrize("call", [
    lambda m, x, o: m.var(x, 1, out=o),  # float32 does not hold a float64 result
    lambda m, x, o: m.logsumexp(x, 1, out=o),
])
def test_cast_refused_into_narrower_out(call):
    x = X.double()
    with pytest.raises(RuntimeError):
        call(torch, x, torch.empty(0, dtype=torch.int64))
    with pytest.raises(RuntimeError):
        call(wick, w(x), wick.empty(0, dtype=wick.int64))


@pytest.mark.parametrize("call", [
    lambda m, x, o: m.amax(x, 1, out=o),
    lambda m, x, o: m.argmax(x, 1, out=o),
    lambda m, x, o: m.max(x, 1, out=(o, m.empty(0, dtype=m.int64))),
    lambda m, x, o: m.mean(x, 1, out=o),
    lambda m, x, o: m.sum(x, 1, dtype=m.float64, out=o),
])
def test_other_dtypes_refused(call):
    with pytest.raises(RuntimeError):
        call(torch, X, torch.empty(0, dtype=torch.int32))
    with pytest.raises((TypeError, RuntimeError)):
        call(wick, w(X), wick.empty(0, dtype=wick.int32))


def test_out_with_elements_resized_with_warning():
    out = wick.zeros(7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wick.sum(w(X), (0, 1), out=out)
    assert any("resized" in str(c.message) for c in caught)
    same(out, X.sum((0, 1)))


def test_out_overlapping_the_input():
    """The result lands in out whole, as if the input had been read first."""
    x = w(X[0])
    expected = X[0].sum(0)
    got = wick.sum(x, 0, out=x[0])
    same(got, expected)
    same(x[1:], X[0][1:])


def test_values_and_indices_the_same_tensor():
    x = wick.tensor([[3, 1, 2], [0, 5, 4]])
    both = wick.empty(0, dtype=wick.int64)
    values, indices = wick.max(x, 1, out=(both, both))
    assert values is both and indices is both


def test_out_refused_where_autograd_records():
    x = w(X).requires_grad_()
    with pytest.raises(RuntimeError, match="automatic differentiation"):
        wick.sum(x, 1, out=wick.empty(0))
    with pytest.raises(RuntimeError, match="automatic differentiation"):
        wick.max(x, 1, out=(wick.empty(0), wick.empty(0, dtype=wick.int64)))
    with wick.no_grad():
        out = wick.empty(0)
        wick.sum(x, 1, out=out)
    same(out, X.sum(1))


def test_glue_tuple_out_must_be_a_pair():
    with pytest.raises(TypeError, match="tuple of 2 Tensors"):
        wick.cummax(w(X), 1, out=wick.empty(0))
