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


# ---------------------------------------------------------------------------------------------
# tril, triu (with in-place forms), diag


@pytest.mark.parametrize("name,diagonal", [("tril", 0), ("tril", -1), ("triu", 1), ("triu", -2)])
def test_triangle_forms(name, diagonal):
    x = floats(2, 4, 5, seed=3)
    expected = getattr(torch, name)(x, diagonal)
    op = getattr(wick, name)
    # out= not contiguous: written through
    base = wick.zeros(5, 4, 2, dtype=wick.float64)
    out = base.permute(2, 1, 0)
    assert op(w(x), diagonal, out=out) is out
    same(out, expected)
    # out= is self
    s = w(x)
    assert op(s, diagonal, out=s) is s
    same(s, expected)
    # out= overlaps self partly
    storage = wick.zeros(40 + 5, dtype=wick.float64)
    s = storage[:40].view(2, 4, 5)
    s.copy_(w(x))
    out = storage[5:].view(2, 4, 5)
    op(s, diagonal, out=out)
    same(out, expected)
    # in place on a contiguous self: self itself, written directly
    s = w(x)
    data = s.data_ptr()
    assert getattr(s, name + "_")(diagonal) is s
    assert s.data_ptr() == data
    same(s, expected)
    # in place on a transposed view: written through to its base
    base = w(x.transpose(1, 2).contiguous())
    view = base.transpose(1, 2)
    assert getattr(view, name + "_")(diagonal) is view
    same(view, expected)
    same(base, expected.transpose(1, 2))


@pytest.mark.parametrize("shape,diagonal", [((4,), 0), ((4,), -2), ((4, 5), 1), ((4, 5), -1)])
def test_diag_out(shape, diagonal):
    x = floats(*shape, seed=4)
    expected = torch.diag(x, diagonal)
    if expected.dim() == 2:
        base = wick.full((expected.shape[1], expected.shape[0]), 7.0, dtype=wick.float64)
        out = base.t()  # not contiguous
    else:
        base = wick.full((2 * expected.shape[0],), 7.0, dtype=wick.float64)
        out = base[::2]
    assert wick.diag(w(x), diagonal, out=out) is out
    same(out, expected)
    # out= overlapping self: self is read before out= is written
    s = w(x)
    if s.dim() == 2:
        out = s.view(-1)[:expected.numel()]
        wick.diag(s, diagonal, out=out)
        same(out, expected)
    else:
        storage = wick.zeros(expected.numel() + 4, dtype=wick.float64)
        storage[:4].copy_(s)
        out = storage.view(-1)[: expected.numel()].view(*expected.shape)
        wick.diag(storage[:4], diagonal, out=out)
        same(out, expected)


# ---------------------------------------------------------------------------------------------
# clamp (with an in-place form), with numbers and with tensors as bounds

CLAMPS = [
    ("numbers", lambda lib, x: (-0.5, 0.7)),
    ("min only", lambda lib, x: (0.1, None)),
    ("max only", lambda lib, x: (None, -0.2)),
    ("tensors", lambda lib, x: (lib.full((5,), -0.3, dtype=x.dtype), lib.full((4, 1), 0.4, dtype=x.dtype))),
]


def _as(lib, x):
    return x if lib is torch else w(x)


@pytest.mark.parametrize("bounds", [b for _, b in CLAMPS], ids=[n for n, _ in CLAMPS])
def test_clamp_forms(bounds):
    x = floats(4, 5, seed=5)
    expected = torch.clamp(x, *bounds(torch, x))
    b = bounds(wick, w(x))
    # out= not contiguous
    base = wick.zeros(5, 4, dtype=wick.float64)
    out = base.t()
    assert wick.clamp(w(x), *b, out=out) is out
    same(out, expected)
    # out= is self
    s = w(x)
    assert wick.clamp(s, *b, out=s) is s
    same(s, expected)
    # in place on a contiguous self: written directly
    s = w(x)
    data = s.data_ptr()
    assert s.clamp_(*b) is s and s.data_ptr() == data
    same(s, expected)
    # in place on a transposed view
    base = w(x.t())
    view = base.t()
    assert view.clamp_(*b) is view
    same(view, expected)
    same(base, expected.t())


def test_clamp_in_place_bound_overlaps_self():
    x = floats(4, 5, seed=6)
    expected = torch.clamp(x, x[1], x[2])  # the bounds are rows of self: read before self is written
    s = w(x)
    assert s.clamp_(s[1], s[2]) is s
    same(s, expected)
    s = w(x)
    out = wick.clamp(s, s[1], s[2], out=s[0:4])
    same(out, expected)


def test_clamp_promotes_and_refuses_in_place_without_writing():
    x = torch.arange(-3, 5, dtype=torch.int32).reshape(2, 4)
    expected = torch.clamp(x, wick_min := 0.5, 2)
    got = wick.clamp(w(x), wick_min, 2)
    same(got, expected)  # int32 with a float bound: float32
    out = wick.empty(0, dtype=wick.float32)
    assert wick.clamp(w(x), 0.5, 2, out=out) is out
    same(out, expected)
    s = w(x)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Int"):
        s.clamp_(0.5, 2)
    same(s, x)
    u = wick.arange(8, dtype=wick.uint8)
    with pytest.raises(RuntimeError, match="cannot be converted to type uint8_t"):  # refused before min is applied
        u.clamp_(2, 300)
    assert u.tolist() == list(range(8))
