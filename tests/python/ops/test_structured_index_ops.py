"""The forms the generator writes for the structured index ops (gather, scatter, scatter_add, take,
put; Note [Structured ops] in wick/structured.h) against PyTorch: out= that is not contiguous or
overlaps an input, in-place calls on a view that is not contiguous or with an argument that
overlaps self, and in-place calls on a contiguous self, which write it directly."""
import numpy as np
import pytest
import torch
import warnings

import wick


def W(a):
    return wick.tensor(np.asarray(a).tolist(), dtype=wick.int64 if np.asarray(a).dtype.kind == "i" else wick.float64)


def T(a):
    return torch.tensor(np.asarray(a))


def same(w, t):
    assert list(w.shape) == list(t.shape)
    np.testing.assert_array_equal(np.array(w.tolist()), t.numpy())


BASE = np.arange(12.0).reshape(3, 4) * 1.5 - 4
SRC = np.arange(12.0).reshape(3, 4) + 100
IDX = np.array([[2, 0, 1, 2], [0, 0, 2, 1]])  # along dim 0: index[i][j] in [0, 3)
FLAT = np.array([[11, 0], [-1, 5], [3, 3]])


# Each op: (its wick call, its torch call, the in-place method's name or None).
OPS = {
    "gather": (lambda s, **kw: wick.gather(s, 0, W(IDX), **kw),
               lambda s, **kw: torch.gather(s, 0, T(IDX), **kw), None),
    "scatter_src": (lambda s, **kw: wick.scatter(s, 0, W(IDX), W(SRC[:2]), **kw),
                    lambda s, **kw: torch.scatter(s, 0, T(IDX), T(SRC[:2]), **kw), "scatter_"),
    "scatter_value": (lambda s, **kw: wick.scatter(s, 0, W(IDX), 7.5, **kw),
                      lambda s, **kw: torch.scatter(s, 0, T(IDX), 7.5, **kw), "scatter_"),
    "scatter_add": (lambda s, **kw: wick.scatter_add(s, 0, W(IDX), W(SRC[:2]), **kw),
                    lambda s, **kw: torch.scatter_add(s, 0, T(IDX), T(SRC[:2]), **kw), "scatter_add_"),
    "take": (lambda s, **kw: wick.take(s, W(FLAT), **kw),
             lambda s, **kw: torch.take(s, T(FLAT), **kw), None),
}

INPLACE_ARGS = {
    "scatter_src": lambda w: ((0, W(IDX), W(SRC[:2])), (0, T(IDX), T(SRC[:2]))),
    "scatter_value": lambda w: ((0, W(IDX), 7.5), (0, T(IDX), 7.5)),
    "scatter_add": lambda w: ((0, W(IDX), W(SRC[:2])), (0, T(IDX), T(SRC[:2]))),
    "put": lambda w: ((W(FLAT), W(SRC[:3, :2]), False), (T(FLAT), T(SRC[:3, :2]), False)),
    "put_acc": lambda w: ((W(FLAT), W(SRC[:3, :2]), True), (T(FLAT), T(SRC[:3, :2]), True)),
}
INPLACE_NAME = {"scatter_src": "scatter_", "scatter_value": "scatter_", "scatter_add": "scatter_add_",
                "put": "put_", "put_acc": "put_"}


@pytest.mark.parametrize("op", OPS)
def test_out_not_contiguous(op):
    call, ref, _ = OPS[op]
    want = ref(T(BASE))
    out = wick.zeros(*reversed(want.shape), dtype=wick.float64).t()  # right shape, transposed
    assert not out.is_contiguous()
    assert call(W(BASE), out=out) is out
    same(out, want)
    assert not out.is_contiguous()  # written through, not replaced


@pytest.mark.parametrize("op", ["scatter_src", "scatter_value", "scatter_add"])
def test_out_is_self(op):
    call, ref, _ = OPS[op]
    x = W(BASE)
    assert call(x, out=x) is x
    same(x, ref(T(BASE)))


def test_out_overlaps_an_input():
    x = W(BASE)
    out = x[:2]  # shares memory with self, which gather reads
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no resize happens here: the shapes agree
        assert wick.gather(x, 0, W(IDX), out=out) is out
    same(x[:2], torch.gather(T(BASE), 0, T(IDX)))
    flat = W(np.arange(6.0))
    assert wick.take(flat, W(np.array([5, 4, 3, 2, 1, 0])), out=flat) is flat
    assert flat.tolist() == [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]


def test_out_of_another_shape_is_resized():
    out = wick.zeros(1, dtype=wick.float64)
    with pytest.warns(UserWarning):
        wick.scatter(W(BASE), 0, W(IDX), 7.5, out=out)
    same(out, torch.scatter(T(BASE), 0, T(IDX), 7.5))


@pytest.mark.parametrize("op", INPLACE_ARGS)
def test_in_place_contiguous_self_is_written_directly(op):
    x = W(BASE)
    ptr = x.data_ptr()
    wargs, targs = INPLACE_ARGS[op](x)
    name = INPLACE_NAME[op]
    assert getattr(x, name)(*wargs) is x
    assert x.data_ptr() == ptr
    same(x, getattr(T(BASE), name)(*targs))


@pytest.mark.parametrize("op", INPLACE_ARGS)
def test_in_place_on_a_transposed_view(op):
    base = W(BASE.T.copy())  # [4, 3]
    x = base.t()  # [3, 4], not contiguous
    assert not x.is_contiguous()
    wargs, targs = INPLACE_ARGS[op](x)
    name = INPLACE_NAME[op]
    assert getattr(x, name)(*wargs) is x
    t = T(BASE.T.copy()).t()
    getattr(t, name)(*targs)
    same(x, t)
    same(base, t.t())  # the base sees the writes


def test_in_place_with_an_argument_that_overlaps_self():
    # src is self itself, and a view of it
    x, t = W(BASE), T(BASE)
    assert x.scatter_(0, W(IDX), x[:2]) is x
    t.scatter_(0, T(IDX), t[:2].clone())
    same(x, t)
    x, t = W(BASE), T(BASE)
    assert x.scatter_add_(0, W(IDX), x) is x
    t.scatter_add_(0, T(IDX), t.clone())
    same(x, t)
    x, t = W(BASE), T(BASE)
    assert x.put_(W(FLAT), x[:, 1:3], True) is x
    t.put_(T(FLAT), t[:, 1:3].clone(), True)
    same(x, t)
    # the index is a view of self (an int64 self)
    y = wick.tensor([[1, 0, 2], [2, 2, 0]])
    ty = torch.tensor([[1, 0, 2], [2, 2, 0]])
    assert y.scatter_(1, y, wick.tensor([[10, 11, 12], [13, 14, 15]])) is y
    ty.scatter_(1, ty.clone(), torch.tensor([[10, 11, 12], [13, 14, 15]]))
    same(y, ty)
    y = wick.arange(6)
    ty = torch.arange(6)
    assert y.put_(y[:3], wick.tensor([7, 8, 9])) is y
    ty.put_(ty[:3].clone(), torch.tensor([7, 8, 9]))
    same(y, ty)


@pytest.mark.parametrize("contiguous", [True, False])
def test_in_place_bad_index_leaves_self_unchanged(contiguous):
    for call in (lambda x: x.scatter_(0, W(np.array([[0, 5]])), 1.0),
                 lambda x: x.scatter_add_(0, W(np.array([[0, 1], [9, 0]])), W(SRC[:2, :2])),
                 lambda x: x.put_(W(np.array([0, 1, 99])), W(np.array([1.0, 2.0, 3.0])))):
        x = W(BASE) if contiguous else W(BASE.T.copy()).t()
        before = x.tolist()
        with pytest.raises(IndexError):
            call(x)
        assert x.tolist() == before


@pytest.mark.parametrize("op", ["scatter_src", "scatter_add", "put_acc"])
def test_functional_leaves_self_alone(op):
    x = W(BASE)
    wargs, _ = INPLACE_ARGS[op](x)
    name = INPLACE_NAME[op][:-1]
    r = getattr(x, name)(*wargs)
    assert r is not x and r.data_ptr() != x.data_ptr()
    assert x.tolist() == BASE.tolist()
