"""The forms the generator writes for structured hand-written ops (Note [Structured ops] in
wick/structured.h) against PyTorch: out= that is not contiguous or overlaps an input, the
in-place form on a non-contiguous self or with another argument overlapping self, and the
in-place form on a contiguous self, which writes self itself.

sort, topk, kthvalue (tuple returns: values and indices); tril, triu, diag; clamp; where;
nan_to_num; div with rounding_mode.
"""
import numpy as np
import pytest
import torch

import wick
from reference import to_numpy


def w(a):
    """A wick tensor of a NumPy array's or torch tensor's values."""
    a = a.numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    return wick.from_numpy(np.array(a))  # a copy: writing it leaves the original alone


def t(x):
    """The torch tensor of a wick tensor's values."""
    return torch.from_numpy(np.ascontiguousarray(to_numpy(x)))


def same(x, expected):
    got = t(x)
    assert tuple(got.shape) == tuple(expected.shape)
    assert got.dtype == expected.dtype
    torch.testing.assert_close(got, expected, equal_nan=True, rtol=0, atol=0)


def floats(*shape, seed=0):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape))


# ---------------------------------------------------------------------------------------------
# sort, topk, kthvalue: two results, values and indices

def call_selection(name, x, **kw):
    if name == "sort":
        return (wick if not isinstance(x, torch.Tensor) else torch).sort(x, dim=1, descending=True, stable=True, **kw)
    if name == "topk":
        return (wick if not isinstance(x, torch.Tensor) else torch).topk(x, 2, 1, **kw)
    return (wick if not isinstance(x, torch.Tensor) else torch).kthvalue(x, 2, 1, keepdim=True, **kw)


@pytest.mark.parametrize("name", ["sort", "topk", "kthvalue"])
def test_selection_out_not_contiguous(name):
    x = floats(4, 5)
    ev, ei = call_selection(name, x)
    vbase = wick.zeros(ev.shape[1], ev.shape[0], dtype=wick.float64)
    ibase = wick.zeros(ei.shape[1], ei.shape[0], dtype=wick.int64)
    values, indices = vbase.t(), ibase.t()  # the right shape, column-major
    rv, ri = call_selection(name, w(x), out=(values, indices))
    assert rv is values and ri is indices
    same(values, ev)
    same(indices, ei)
    same(vbase, ev.t())


@pytest.mark.parametrize("name", ["sort", "topk", "kthvalue"])
def test_selection_out_overlaps_self(name):
    x = floats(4, 5, seed=1)
    ev, ei = call_selection(name, x)
    if name == "sort":  # values= is self itself
        s = w(x)
        indices = wick.empty(0, dtype=wick.int64)
        rv, ri = call_selection(name, s, out=(s, indices))
        assert rv is s and ri is indices
        same(s, ev)
        same(indices, ei)
    # values= a view of self's memory: self is read whole before it is written
    storage = wick.zeros(4 * 5 + 8, dtype=wick.float64)
    s = storage[:20].view(4, 5)
    s.copy_(w(x))
    values = storage[8:8 + ev.numel()].view(*ev.shape)
    indices = wick.empty(*ei.shape, dtype=wick.int64)
    call_selection(name, s, out=(values, indices))
    same(values, ev)
    same(indices, ei)


@pytest.mark.parametrize("name", ["sort", "topk", "kthvalue"])
def test_selection_out_resized_and_checked(name):
    x = floats(3, 6, seed=2)
    ev, ei = call_selection(name, x)
    values, indices = wick.empty(0, dtype=wick.float64), wick.empty(0, dtype=wick.int64)
    call_selection(name, w(x).t().contiguous().t(), out=(values, indices))
    same(values, ev)
    same(indices, ei)
    with pytest.raises(TypeError, match="expected out= to have dtype int64"):
        call_selection(name, w(x), out=(values, wick.empty(0, dtype=wick.int32)))
