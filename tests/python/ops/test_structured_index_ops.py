"""The forms the generator writes for the structured index ops (gather, scatter, scatter_add,
index_add, take, put; Note [Structured ops] in wick/structured.h) against PyTorch: out= that is not contiguous or
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
IADD = np.array([2, 0, 2, 1, 2])  # index_add along dim 0, repeats accumulating
IADD_SRC = np.arange(20.0).reshape(5, 4) * 0.5 - 3


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
    "index_add": (lambda s, **kw: wick.index_add(s, 0, W(IADD), W(IADD_SRC), alpha=2, **kw),
                  lambda s, **kw: torch.index_add(s, 0, T(IADD), T(IADD_SRC), alpha=2, **kw), "index_add_"),
    "take": (lambda s, **kw: wick.take(s, W(FLAT), **kw),
             lambda s, **kw: torch.take(s, T(FLAT), **kw), None),
}

INPLACE_ARGS = {
    "scatter_src": lambda w: ((0, W(IDX), W(SRC[:2])), (0, T(IDX), T(SRC[:2]))),
    "scatter_value": lambda w: ((0, W(IDX), 7.5), (0, T(IDX), 7.5)),
    "scatter_add": lambda w: ((0, W(IDX), W(SRC[:2])), (0, T(IDX), T(SRC[:2]))),
    "index_add": lambda w: ((0, W(IADD), W(IADD_SRC)), (0, T(IADD), T(IADD_SRC))),
    "put": lambda w: ((W(FLAT), W(SRC[:3, :2]), False), (T(FLAT), T(SRC[:3, :2]), False)),
    "put_acc": lambda w: ((W(FLAT), W(SRC[:3, :2]), True), (T(FLAT), T(SRC[:3, :2]), True)),
}
INPLACE_NAME = {"scatter_src": "scatter_", "scatter_value": "scatter_", "scatter_add": "scatter_add_",
                "index_add": "index_add_", "put": "put_", "put_acc": "put_"}


@pytest.mark.parametrize("op", OPS)
def test_out_not_contiguous(op):
    call, ref, _ = OPS[op]
    want = ref(T(BASE))
    out = wick.zeros(*reversed(want.shape), dtype=wick.float64).t()  # right shape, transposed
    assert not out.is_contiguous()
    assert call(W(BASE), out=out) is out
    same(out, want)
    assert not out.is_contiguous()  # written through, not replaced


@pytest.mark.parametrize("op", ["scatter_src", "scatter_value", "scatter_add", "index_add"])
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
                 lambda x: x.index_add_(0, W(np.array([0, 2, 0, 3])), W(IADD_SRC[:4])),
                 lambda x: x.put_(W(np.array([0, 1, 99])), W(np.array([1.0, 2.0, 3.0])))):
        x = W(BASE) if contiguous else W(BASE.T.copy()).t()
        before = x.tolist()
        with pytest.raises(IndexError):
            call(x)
        assert x.tolist() == before


@pytest.mark.parametrize("op", ["scatter_src", "scatter_add", "index_add", "put_acc"])
def test_functional_leaves_self_alone(op):
    x = W(BASE)
    wargs, _ = INPLACE_ARGS[op](x)
    name = INPLACE_NAME[op][:-1]
    r = getattr(x, name)(*wargs)
    assert r is not x and r.data_ptr() != x.data_ptr()
    assert x.tolist() == BASE.tolist()


# --- index_add: its out= and in-place forms beside PyTorch's ---------------------------------------

def test_index_add_out_not_contiguous():
    want = torch.index_add(T(BASE), 0, T(IADD), T(IADD_SRC), alpha=-1.5)
    for out in (wick.zeros(4, 3, dtype=wick.float64).t(), wick.zeros(3, 8, dtype=wick.float64)[:, ::2]):
        assert not out.is_contiguous()
        assert wick.index_add(W(BASE), 0, W(IADD), W(IADD_SRC), alpha=-1.5, out=out) is out
        assert not out.is_contiguous()  # written through, not replaced
        same(out, want)


def test_index_add_out_overlapping_self():
    # PyTorch refuses an out= that partly overlaps an input; wick gives the answer of the inputs as they were.
    base = W(np.arange(16.0).reshape(4, 4))
    x, out = base[:3], base[1:]
    want = torch.index_add(T(np.arange(16.0).reshape(4, 4))[:3].clone(), 0, T(IADD), T(IADD_SRC))
    assert wick.index_add(x, 0, W(IADD), W(IADD_SRC), out=out) is out
    same(out, want)
    same(base[:1], torch.tensor([[0.0, 1.0, 2.0, 3.0]]))  # the rest of the base is untouched


def test_index_add_out_overlapping_source():
    src = W(IADD_SRC)
    out = src[1:4]  # [3, 4], a view of the source the op reads
    want = torch.index_add(T(BASE), 0, T(IADD), T(IADD_SRC), alpha=3)
    assert wick.index_add(W(BASE), 0, W(IADD), src, alpha=3, out=out) is out
    same(out, want)
    same(src[:1], T(IADD_SRC)[:1])
    same(src[4:], T(IADD_SRC)[4:])


def test_index_add_out_of_another_shape_is_resized():
    out = wick.zeros(2, dtype=wick.float64)
    with pytest.warns(UserWarning):
        assert wick.index_add(W(BASE), 0, W(IADD), W(IADD_SRC), out=out) is out
    same(out, torch.index_add(T(BASE), 0, T(IADD), T(IADD_SRC)))


@pytest.mark.parametrize("dim,index,source_shape", [(0, [1, 0, 1], (3, 4)), (1, [3, 3, 0, 2, 3], (3, 5))])
def test_index_add_in_place_on_a_transposed_view(dim, index, source_shape):
    source = np.arange(np.prod(source_shape), dtype=float).reshape(source_shape) - 7
    base = W(BASE.T.copy())  # [4, 3]
    x = base.t()  # [3, 4], not contiguous
    assert not x.is_contiguous()
    assert x.index_add_(dim, W(index), W(source), alpha=2) is x
    t = T(BASE.T.copy()).t()
    t.index_add_(dim, T(index), T(source), alpha=2)
    same(x, t)
    same(base, t.t())  # the base sees the writes


# A [4, 4] self, the index, and the source as a view of self.
SOURCE_VIEWS = {
    "self": ([2, 0, 1, 1], lambda a: a),
    "rows": ([1, 2], lambda a: a[:2]),  # row 1 is written before source row 1 is read
    "stepped": ([3, 0], lambda a: a[::2]),
    "transposed": ([1, 2, 3, 1], lambda a: a.t()),
}


@pytest.mark.parametrize("source", SOURCE_VIEWS)
def test_index_add_in_place_source_is_a_view_of_self(source):
    # The source is read as it was before the first write, as if PyTorch were given a clone of it.
    index, view = SOURCE_VIEWS[source]
    values = np.arange(16.0).reshape(4, 4) - 5
    x, t = W(values), T(values)
    ptr = x.data_ptr()
    assert x.index_add_(0, W(index), view(x), alpha=-2) is x
    assert x.data_ptr() == ptr  # written through a result of its own, then copied in
    t.index_add_(0, T(index), view(t).clone(), alpha=-2)
    same(x, t)


@pytest.mark.parametrize("index_dtype", ["int64", "int32"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bfloat16", "float16"])
def test_index_add_in_place_contiguous_self_is_written_directly(dtype, index_dtype):
    rng = np.random.default_rng(7)
    self_values = rng.uniform(-3, 3, size=(3, 4)) if "float" in dtype else rng.integers(-5, 6, size=(3, 4))
    source_values = (rng.uniform(-3, 3, size=(7, 4)) if "float" in dtype
                     else rng.integers(-5, 6, size=(7, 4)))
    index = np.array([1, 1, 0, 1, 2, 1, 1])  # repeats: exact in the half types too, as PyTorch rounds
    tdtype, wdtype_ = getattr(torch, dtype), getattr(wick, dtype)
    t = torch.tensor(self_values, dtype=tdtype)
    src_t = torch.tensor(source_values, dtype=tdtype)
    x = wick.tensor(t.double().tolist() if "float" in dtype else t.tolist(), dtype=wdtype_)
    src = wick.tensor(src_t.double().tolist() if "float" in dtype else src_t.tolist(), dtype=wdtype_)
    ptr = x.data_ptr()
    assert x.index_add_(0, wick.tensor(index.tolist(), dtype=getattr(wick, index_dtype)), src, alpha=2) is x
    assert x.data_ptr() == ptr
    t.index_add_(0, torch.tensor(index, dtype=getattr(torch, index_dtype)), src_t, alpha=2)
    assert x.tolist() == (t.double().tolist() if "float" in dtype else t.tolist())


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_index_add_in_place_bad_index_leaves_self_unchanged(layout):
    index = np.array([0, 2, 0, 3])  # the last one is out of range, after three good ones
    x = W(BASE) if layout == "contiguous" else W(BASE.T.copy()).t()
    before = x.tolist()
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        x.index_add_(0, W(index), W(IADD_SRC[:4]))
    assert x.tolist() == before  # PyTorch raises too, having written the rows before the bad index
    t = T(BASE)
    with pytest.raises(IndexError):
        t.index_add_(0, T(index), T(IADD_SRC[:4]))
