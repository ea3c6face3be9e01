"""Indexing ops against NumPy: index_select, gather, scatter, scatter_add, index_add, masked_fill,
masked_select, take, put and nonzero, where the declared op tests (ops/test_declared_ops.py) do not reach.

The generated tests check each op in every dtype on its samples, with self contiguous or
transposed and int64 indices in range. Here, in every dtype: self sliced with a step (and a
result that is a new tensor), int32 indices (index_select, index_add) and negative ones
(take, put) in every layout, 0-d values of another dtype, value= by keyword; then 0-d and
empty tensors, out=, sources that alias self, fill values that do not fit, and the errors.
"""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, LAYOUTS, assert_equal, root, shares_storage, small_ints, tensor_in, to_numpy

SHAPE = (3, 4, 5)


# Self contiguous or transposed: the generated tests (<op>-<dtype>-contiguous and -noncontiguous).
STEPPED = ("stepped",)
# index_select and index_add take int32 indices too, which the generated tests never pass.
INDEX_DTYPE_LAYOUTS = [(wick.int64, "stepped")] + [(wick.int32, layout) for layout in LAYOUTS]


def index_tensor(values, layout="contiguous", dtype=wick.int64):
    """An index tensor holding `values`, contiguous or as a transposed view."""
    values = np.asarray(values)
    if layout == "contiguous" or values.ndim < 2:
        return wick.tensor(values.tolist(), dtype=dtype).reshape(values.shape)
    t = wick.tensor(values.T.tolist(), dtype=dtype).reshape(values.T.shape).permute(*reversed(range(values.ndim)))
    assert not t.is_contiguous()
    return t





# ---------------------------------------------------------------------------------------------
# index_select, gather, take, masked_select, nonzero: new tensors read from self

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("index_dtype,layout", INDEX_DTYPE_LAYOUTS, ids=lambda v: str(v).split(".")[-1])
def test_index_select(index_dtype, dim, dtype, layout):
    t, a = tensor_in(layout, dtype, SHAPE, seed=dim + 7)
    n = SHAPE[dim]
    idx = [n - 1, 0, n - 1, 1, 2]
    r = t.index_select(dim, wick.tensor(idx, dtype=index_dtype))
    assert_equal(r, np.take(a, idx, axis=dim), dtype)
    assert r._base is None and not shares_storage(root(t), r)
    # a strided index, and the function form
    step = wick.tensor(idx + idx, dtype=index_dtype)[::2]
    assert_equal(wick.index_select(t, dim, step), np.take(a, (idx + idx)[::2], axis=dim), dtype)


@pytest.mark.parametrize("layout", STEPPED)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_gather(dim, dtype, layout):
    t, a = tensor_in(layout, dtype, SHAPE, seed=dim + 11)
    rng = np.random.default_rng(dim + 5)
    # index may be smaller than self except along dim, and longer along dim
    shape = [2, 3, 4]
    shape[dim] = 6
    idx = rng.integers(0, SHAPE[dim], size=shape)
    sub = {0: a[:, :3, :4], 1: a[:2, :, :4], 2: a[:2, :3, :]}[dim % 3]
    expected = np.take_along_axis(sub, idx, axis=dim)
    for ilayout in ("contiguous", "transposed"):
        r = t.gather(dim, index_tensor(idx, ilayout))
        assert_equal(r, expected, dtype)
    assert_equal(wick.gather(t, dim, index_tensor(idx), sparse_grad=False), expected, dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_take(dtype, layout):
    t, a = tensor_in(layout, dtype, SHAPE, seed=3)
    idx = np.array([[0, 59, -1], [-60, 17, 17]])
    assert_equal(t.take(wick.tensor(idx.tolist())), np.take(a.reshape(-1), idx), dtype)
    assert_equal(wick.take(t, wick.tensor(5)), np.take(a.reshape(-1), 5), dtype)


@pytest.mark.parametrize("layout", STEPPED)
@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_select(dtype, layout):
    t, a = tensor_in(layout, dtype, SHAPE, seed=4)
    rng = np.random.default_rng(4)
    mask = rng.integers(0, 2, size=SHAPE).astype(bool)
    assert_equal(t.masked_select(wick.tensor(mask.tolist())), a[mask], dtype)
    # the mask broadcasts with self, and self with the mask
    row = mask[0, 0]
    assert_equal(wick.masked_select(t, wick.tensor(row.tolist())), a[np.broadcast_to(row, SHAPE)], dtype)
    big = rng.integers(0, 2, size=(2,) + SHAPE).astype(bool)
    assert_equal(t.masked_select(wick.tensor(big.tolist())), np.broadcast_to(a, big.shape)[big], dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero(dtype, layout):
    t, a = tensor_in(layout, dtype, SHAPE, seed=5)
    r = t.nonzero()
    assert r.dtype == wick.int64
    assert r.tolist() == np.argwhere(a).tolist() and wick.nonzero(t).shape == (np.count_nonzero(a), 3)
    columns = wick.nonzero(t, as_tuple=True)
    assert type(columns) is tuple and len(columns) == 3
    for column, expected in zip(columns, np.nonzero(a)):
        assert column.dtype == wick.int64 and column.tolist() == expected.tolist()
    assert t.nonzero(as_tuple=False).tolist() == r.tolist()


@pytest.mark.parametrize("values", [5, 0, [], [[]], [[0, 2], [3, 0]]])
def test_nonzero_as_tuple_indexes_as_numpy(values):
    """A 0-d tensor gives one column, as torch's (and NumPy's, of the array made 1-d); the tuple indexes self."""
    t, a = wick.tensor(values), np.array(values, dtype=np.int64)
    columns = t.nonzero(as_tuple=True)
    expected = np.nonzero(np.atleast_1d(a))
    assert [c.tolist() for c in columns] == [e.tolist() for e in expected]
    if t.dim():
        assert t[columns].tolist() == a[np.nonzero(a)].tolist()
    alone = wick.where(t)  # where(condition) alone is nonzero(condition, as_tuple=True)
    assert type(alone) is tuple and [c.tolist() for c in alone] == [e.tolist() for e in expected]
    assert all(c.dtype == wick.int64 for c in alone)


# ---------------------------------------------------------------------------------------------
# scatter, scatter_add, index_add, masked_fill, put: functional forms copy, in-place forms write self

def scatter_reference(a, dim, idx, src, add):
    """NumPy: a copy of `a` with src[p] written (or added) at p with its `dim` coordinate replaced by idx[p]."""
    out = a.copy()
    grid = list(np.indices(idx.shape, sparse=True))
    grid[dim] = idx
    values = src[tuple(slice(0, n) for n in idx.shape)] if np.ndim(src) else np.full(idx.shape, src)
    if add:
        np.add.at(out, tuple(grid), values.astype(out.dtype))
    else:
        out[tuple(grid)] = values  # repeated positions: the last write wins, as in scatter()
    return out


def unique_rows(rng, shape, dim, size):
    """An index with no position repeated along `dim` (so scatter's result does not depend on order)."""
    perm = np.argsort(rng.random(shape[:dim] + (size,) + shape[dim + 1:]), axis=dim)
    return perm[tuple(slice(0, n) for n in shape)]


@pytest.mark.parametrize("layout", STEPPED)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter(dim, dtype, layout):
    rng = np.random.default_rng(dim + 20)
    t, a = tensor_in(layout, dtype, SHAPE, seed=1)
    src, s = tensor_in(layout, dtype, (4, 5, 6), seed=2)
    d = dim % 3
    ishape = [2, 3, 4]
    idx = unique_rows(rng, tuple(ishape), d, SHAPE[d])
    before = to_numpy(t).copy()
    r = t.scatter(dim, index_tensor(idx), src)
    assert_equal(r, scatter_reference(a, d, idx, s, add=False), dtype)
    assert r._base is None and not shares_storage(root(t), r)
    np.testing.assert_array_equal(to_numpy(t), before)
    # a Python number, by position and by keyword; the function form
    value = True if dtype == "bool" else 3
    assert_equal(t.scatter(dim, index_tensor(idx, "transposed"), value=value),
                 scatter_reference(a, d, idx, value, add=False), dtype)
    assert_equal(wick.scatter(t, dim, index_tensor(idx), value), scatter_reference(a, d, idx, value, add=False), dtype)
    # in place: returns self, writes through a non-contiguous view
    assert t.scatter_(dim, index_tensor(idx), src) is t
    assert_equal(t, scatter_reference(a, d, idx, s, add=False), dtype)


def test_scatter_repeated_indices_last_write_wins():
    x = wick.zeros(5)
    x.scatter_(0, wick.tensor([1, 1, 1, 3]), wick.tensor([1.0, 2.0, 3.0, 4.0]))
    assert x.tolist() == [0.0, 3.0, 0.0, 4.0, 0.0]


@pytest.mark.parametrize("layout", STEPPED)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_add_accumulates_repeated_indices(dim, dtype, layout):
    rng = np.random.default_rng(dim + 30)
    t, a = tensor_in(layout, dtype, SHAPE, values=small_ints(dtype, rng))
    src, s = tensor_in(layout, dtype, (4, 5, 6), values=small_ints(dtype, rng))
    d = dim % 3
    idx = rng.integers(0, SHAPE[d], size=(4 if d == 0 else 3, 4 if d == 1 else 3, 5 if d == 2 else 3))
    expected = scatter_reference(a, d, idx, s, add=True)
    assert_equal(t.scatter_add(dim, index_tensor(idx, "transposed"), src), expected, dtype)
    assert_equal(wick.scatter_add(t, dim, index_tensor(idx), src), expected, dtype)
    assert t.scatter_add_(dim, index_tensor(idx), src) is t
    assert_equal(t, expected, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("index_dtype,layout", INDEX_DTYPE_LAYOUTS, ids=lambda v: str(v).split(".")[-1])
def test_index_add(index_dtype, dim, dtype, layout):
    rng = np.random.default_rng(dim + 40)
    t, a = tensor_in(layout, dtype, SHAPE, values=small_ints(dtype, rng))
    d = dim % 3
    idx = np.array([0, SHAPE[d] - 1, 0, 1, 0])  # repeats accumulate
    sshape = list(SHAPE)
    sshape[d] = len(idx)
    src, s = tensor_in(layout, dtype, tuple(sshape), values=small_ints(dtype, rng))
    alpha = True if dtype == "bool" else 2

    def expected(scale):
        out = a.copy()
        np.add.at(np.moveaxis(out, d, 0), idx, np.moveaxis(s * scale if dtype != "bool" else s, d, 0)
                  .astype(out.dtype))
        return out

    index = wick.tensor(idx.tolist(), dtype=index_dtype)
    assert_equal(t.index_add(dim, index, src), expected(1), dtype)
    assert_equal(wick.index_add(t, dim, index, src, alpha=alpha), expected(alpha), dtype)
    assert t.index_add_(dim, index, src, alpha=alpha) is t
    assert_equal(t, expected(alpha), dtype)


@pytest.mark.parametrize("layout", STEPPED)
@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_fill(dtype, layout):
    rng = np.random.default_rng(50)
    t, a = tensor_in(layout, dtype, SHAPE, seed=6)
    mask = rng.integers(0, 2, size=SHAPE).astype(bool)
    value = True if dtype == "bool" else (2.5 if dtype in ("float16", "bfloat16", "float32", "float64") else 7)
    expected = np.where(mask, np.asarray(value).astype(a.dtype), a)
    before = to_numpy(t).copy()
    r = t.masked_fill(wick.tensor(mask.tolist()), value)
    assert_equal(r, expected, dtype)
    assert r._base is None and not shares_storage(root(t), r)
    np.testing.assert_array_equal(to_numpy(t), before)
    # a 0-d tensor value, of another dtype: cast as the Python number is
    assert_equal(wick.masked_fill(t, wick.tensor(mask.tolist()), wick.tensor(value)), expected, dtype)
    # the mask broadcasts, in place too, through a non-contiguous view
    row = wick.tensor(mask[0, 0].tolist())
    bexpected = np.where(mask[0, 0], np.asarray(value).astype(a.dtype), a)
    assert_equal(t.masked_fill(row, value), bexpected, dtype)
    assert t.masked_fill_(row, value) is t
    assert_equal(t, bexpected, dtype)
    assert t.masked_fill_(wick.tensor(mask.tolist()), wick.tensor(value)) is t
    assert_equal(t, np.where(mask, np.asarray(value).astype(a.dtype), bexpected), dtype)


def test_masked_fill_broadcasts_self_out_of_place_only():
    x = wick.arange(3.0)
    m = wick.tensor([[True], [False]])
    assert x.masked_fill(m, 9).tolist() == [[9.0, 9.0, 9.0], [0.0, 1.0, 2.0]]
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        x.masked_fill_(m, 9)
    assert x.tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_put(dtype, layout):
    rng = np.random.default_rng(60)
    t, a = tensor_in(layout, dtype, SHAPE, values=small_ints(dtype, rng))
    idx = np.array([[0, 59], [-1, 7], [7, -60]])
    src, s = tensor_in("transposed", dtype, (3, 2), values=small_ints(dtype, rng))
    written = a.copy().reshape(-1)
    written[idx.reshape(-1)] = s.reshape(-1)  # the last write to 7 wins
    added = a.copy().reshape(-1)
    np.add.at(added, idx.reshape(-1), s.reshape(-1))
    index = index_tensor(idx, "transposed")
    assert_equal(t.put(index, src), written.reshape(SHAPE), dtype)
    assert_equal(wick.put(t, index, src, True), added.reshape(SHAPE), dtype)
    assert t.put_(index, src, accumulate=True) is t
    assert_equal(t, added.reshape(SHAPE), dtype)


# ---------------------------------------------------------------------------------------------
# out= forms

def test_out_forms():
    x = wick.arange(12, dtype=wick.float32).reshape(3, 4)
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = wick.tensor([[2, 0, 1, 1]])
    calls = [
        (lambda out: wick.index_select(x, 1, wick.tensor([3, 0]), out=out), a[:, [3, 0]].tolist()),
        (lambda out: wick.gather(x, 0, idx, out=out), [[8.0, 1.0, 6.0, 7.0]]),
        (lambda out: wick.take(x, wick.tensor([11, 0]), out=out), [11.0, 0.0]),
        (lambda out: wick.masked_select(x, x > 9, out=out), [10.0, 11.0]),
    ]
    for call, expected in calls:
        out = wick.empty(0)
        assert call(out) is out and out.tolist() == expected
    o = wick.empty(3, 4)
    assert wick.scatter(x, 0, idx, -1.0, out=o) is o and o.tolist() == scatter_reference(
        a, 0, np.array([[2, 0, 1, 1]]), -1.0, False).tolist()
    assert wick.scatter_add(x, 0, idx, wick.ones(1, 4), out=o) is o
    assert wick.index_add(x, 0, wick.tensor([1]), wick.ones(1, 4), alpha=3, out=o) is o
    assert o.tolist() == (a + np.array([[0], [3], [0]])).tolist()
    # out= may be self or an operand: the result is computed before it is written
    assert wick.scatter(x, 0, idx, x, out=x) is x
    assert x.tolist() == scatter_reference(a, 0, np.array([[2, 0, 1, 1]]), a, False).tolist()
    with pytest.raises(TypeError, match="dtype"):
        wick.gather(x, 0, idx, out=wick.empty(1, 4, dtype=wick.int64))


# ---------------------------------------------------------------------------------------------
# 0-d and empty tensors

def test_zero_dim():
    s = wick.tensor(5.0)
    zero = wick.tensor(0)
    assert s.index_select(0, zero).shape == () and s.index_select(-1, wick.tensor([0])).item() == 5.0
    assert s.gather(0, zero).item() == 5.0 and s.gather(0, wick.tensor([0, 0])).tolist() == [5.0, 5.0]
    assert wick.tensor([5.0]).gather(0, zero).shape == ()
    assert s.take(zero).shape == () and s.take(wick.tensor([-1, 0])).tolist() == [5.0, 5.0]
    assert s.scatter(0, zero, wick.tensor(3.0)).item() == 3.0 and s.scatter(0, wick.tensor([0]), 4).item() == 4.0
    assert s.scatter_add(0, zero, wick.tensor(3.0)).item() == 8.0
    assert s.index_add(0, wick.tensor([0]), wick.tensor(2.0), alpha=2).item() == 9.0
    assert s.masked_fill(wick.tensor(True), 1).item() == 1.0 and s.masked_fill(wick.tensor(False), 1).item() == 5.0
    assert s.masked_fill(wick.tensor([True, False]), 2).tolist() == [2.0, 5.0]
    assert s.masked_select(wick.tensor(True)).tolist() == [5.0] and s.masked_select(wick.tensor(False)).shape == (0,)
    assert s.put(zero, wick.tensor(1.0)).item() == 1.0
    assert s.nonzero().shape == (1, 0) and wick.tensor(0.0).nonzero().shape == (0, 0)
    assert s.item() == 5.0


def test_empty():
    e = wick.zeros(2, 0, 3)
    none = wick.tensor([], dtype=wick.int64)
    assert e.index_select(1, none).shape == (2, 0, 3) and e.index_select(2, wick.tensor([0, 0])).shape == (2, 0, 2)
    x = wick.arange(6.0).reshape(2, 3)
    assert x.index_select(0, none).shape == (0, 3)
    assert x.gather(1, wick.zeros(2, 0, dtype=wick.int64)).shape == (2, 0)
    assert x.gather(1, wick.zeros(0, dtype=wick.int64)).shape == (0,)  # an empty index is not checked
    assert x.scatter(1, wick.zeros(0, dtype=wick.int64), 1.0).tolist() == x.tolist()
    assert x.scatter_add(0, wick.zeros(2, 0, dtype=wick.int64), x).tolist() == x.tolist()
    assert x.index_add(1, none, wick.zeros(2, 0)).tolist() == x.tolist()
    assert x.take(none).shape == (0,) and wick.zeros(0).take(none).shape == (0,)
    assert wick.zeros(0, 3).masked_select(wick.zeros(0, 3, dtype=wick.bool)).shape == (0,)
    assert e.masked_fill(wick.tensor(True), 1).shape == (2, 0, 3) and e.nonzero().shape == (0, 3)
    assert e.put(none, wick.zeros(0)).shape == (2, 0, 3)


# ---------------------------------------------------------------------------------------------
# Errors

def x23():
    return wick.arange(6.0).reshape(2, 3)


I = wick.tensor  # noqa: E741


@pytest.mark.parametrize("call,exc,match", [
    # out of range: IndexError, with the position, the dim and its size
    (lambda x: x.index_select(1, I([3])), IndexError, "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.index_select(1, I([-1])), IndexError, "index -1 is out of bounds"),
    (lambda x: x.index_select(0, I([0, 2], dtype=wick.int32)), IndexError, "index 2 is out of bounds"),
    (lambda x: x.gather(1, I([[0], [3]])), IndexError, "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.gather(0, I([[-1]])), IndexError, "index -1 is out of bounds"),
    (lambda x: x.scatter(1, I([[3]]), 1.0), IndexError, "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.scatter_(0, I([[2]]), x), IndexError, "index 2 is out of bounds for dimension 0 with size 2"),
    (lambda x: x.scatter_add(1, I([[-1]]), x), IndexError, "index -1 is out of bounds"),
    (lambda x: x.index_add(1, I([0, 0, 3]), x), IndexError, "index 3 is out of bounds for dimension 1"),
    (lambda x: x.index_add_(0, I([-1, 0]), wick.ones(2, 3)), IndexError, "index -1 is out of bounds"),
    (lambda x: x.take(I([6])), IndexError, "tried to access index 6 on a tensor of 6 elements"),
    (lambda x: x.take(I([-7])), IndexError, "tried to access index -7 on a tensor of 6 elements"),
    (lambda x: wick.zeros(0).take(I([0])), IndexError, "take from an empty tensor"),
    (lambda x: x.put_(I([6]), I([1.0])), IndexError, "tried to access index 6"),
    (lambda x: wick.zeros(0).put_(I([0]), I([1.0])), IndexError, "empty tensor"),
    (lambda x: x.put_(I([0]), I([1.0, 2.0])), IndexError, "same number of elements"),
    # bad dims
    (lambda x: x.index_select(2, I([0])), IndexError, "Dimension out of range"),
    (lambda x: x.gather(-3, I([[0]])), IndexError, "Dimension out of range"),
    (lambda x: x.scatter(2, I([[0]]), 1.0), IndexError, "Dimension out of range"),
    (lambda x: x.scatter(2, I([], dtype=wick.int64), 1.0), IndexError, "Dimension out of range"),
    (lambda x: x.index_add(2, I([0]), x), IndexError, "Dimension out of range"),
    # index dtypes: int64 (and int32 for index_select and index_add), as PyTorch
    (lambda x: x.index_select(0, I([0], dtype=wick.int16)), RuntimeError, "Expected dtype int32 or int64"),
    (lambda x: x.index_select(0, I([0.0])), RuntimeError, "Expected dtype int32 or int64"),
    (lambda x: x.gather(0, I([[0]], dtype=wick.int32)), RuntimeError, "Expected dtype int64 for index"),
    (lambda x: x.scatter(0, I([[0]], dtype=wick.int32), 1.0), RuntimeError, "Expected dtype int64 for index"),
    (lambda x: x.scatter_add_(0, I([[0]], dtype=wick.uint8), x), RuntimeError, "Expected dtype int64 for index"),
    (lambda x: x.index_add(0, I([0], dtype=wick.int8), x[:1]), RuntimeError, "Expected dtype int32/int64"),
    (lambda x: x.take(I([0], dtype=wick.int32)), RuntimeError, "Expected a long tensor for index, but got Int"),
    (lambda x: x.put_(I([0], dtype=wick.int32), I([1.0])), RuntimeError, "Expected a long tensor for index"),
    # value dtypes that must match
    (lambda x: x.scatter(0, I([[0]]), I([[1]])), RuntimeError, "Expected self.dtype to be equal to src.dtype"),
    (lambda x: x.scatter_add(0, I([[0]]), x.double()), RuntimeError, "self.dtype to be equal to src.dtype"),
    (lambda x: x.index_add(0, I([0]), I([[1, 2, 3]])), RuntimeError, r"self \(Float\) and source \(Long\)"),
    (lambda x: x.put_(I([0]), I([1])), RuntimeError, "same dtype"),
    # masks: bool (uint8 deprecated), broadcastable
    (lambda x: x.masked_fill(I([1, 0, 1]), 1.0), RuntimeError, "expected a mask with dtype wick.bool"),
    (lambda x: x.masked_fill_(I([1.0, 0.0, 1.0]), 1.0), RuntimeError, "mask with dtype wick.bool"),
    (lambda x: x.masked_select(I([1, 0, 1])), RuntimeError, "mask with dtype wick.bool"),
    (lambda x: x.masked_fill(I([True, False]), 1.0), RuntimeError, "must match the size"),
    (lambda x: x.masked_select(I([True, False])), RuntimeError, "must match the size"),
    (lambda x: x.masked_fill(I([True, False, True]), I([1.0])), RuntimeError, "0-dimensional value tensor"),
    # fill values that do not fit the dtype
    (lambda x: wick.zeros(2, dtype=wick.int8).masked_fill(I([True, False]), 300), RuntimeError,
     "value cannot be converted to type int8_t without overflow"),
    (lambda x: wick.zeros(2, dtype=wick.uint8).masked_fill(I([True, False]), -256), RuntimeError, "overflow"),
    (lambda x: wick.zeros(2, dtype=wick.uint8).masked_fill(I([True, False]), -1.5), RuntimeError, "overflow"),
    (lambda x: wick.zeros(2, dtype=wick.int32).masked_fill(I([True, False]), float("nan")), RuntimeError,
     "overflow"),
    (lambda x: wick.zeros(2, dtype=wick.int64).masked_fill(I([True, False]), 2.0 ** 63), RuntimeError, "overflow"),
    (lambda x: wick.zeros(2, dtype=wick.float16).masked_fill_(I([True, False]), 65520.0), RuntimeError,
     "at::Half without overflow"),
    (lambda x: wick.zeros(2, dtype=wick.float32).masked_fill(I([True, False]), 1e39), RuntimeError, "overflow"),
    (lambda x: wick.zeros(2, dtype=wick.int8).masked_fill(I([True]), I(200)), RuntimeError, "overflow"),
    (lambda x: wick.zeros(2, dtype=wick.int8).scatter(0, I([0]), 128), RuntimeError, "int8_t without overflow"),
    # shapes
    (lambda x: x.index_select(0, I([[0]])), IndexError, "Index is supposed to be a vector"),
    (lambda x: wick.tensor(1.0).index_select(0, I([0, 0])), RuntimeError, "Index to scalar can have only 1 value"),
    (lambda x: x.gather(1, I([0])), RuntimeError, "same number of dimensions as input"),
    (lambda x: x.gather(1, I([[0], [0], [0]])), RuntimeError, "Size does not match at dimension 0"),
    (lambda x: x.scatter(1, I([[0, 1]]), I([[1.0]])), RuntimeError, "to be smaller size than src"),
    (lambda x: x.scatter(1, I([[0, 1]]), I([1.0, 2.0])), RuntimeError, "same number of dimensions as src"),
    (lambda x: x.scatter(1, I([0]), 1.0), RuntimeError, "same number of dimensions as self"),
    (lambda x: x.scatter(1, I([[0], [0], [0]]), 1.0), RuntimeError, "smaller than self"),
    (lambda x: x.index_add(1, I([[0, 1, 2]]), x), IndexError, "Index is supposed to be a vector"),
    (lambda x: x.index_add(1, I([0, 1]), x), RuntimeError, r"Number of indices \(2\)"),
    (lambda x: x.index_add(0, I([0, 1, 1]), wick.ones(3, 2)), RuntimeError, "source tensor shape must match"),
    (lambda x: x.index_add(1, I([0]), wick.ones(2)), RuntimeError, "out of bounds of the source tensor"),
    # writing into a tensor whose elements share memory
    (lambda x: x[:1].expand(2, 3).scatter_(0, I([[0]]), 1.0), RuntimeError, "more than one element"),
    (lambda x: x[:1].expand(2, 3).index_add_(0, I([0]), wick.ones(1, 3)), RuntimeError, "more than one element"),
    (lambda x: x[:1].expand(2, 3).put_(I([0]), I([1.0])), RuntimeError, "more than one element"),
    # argument types
    (lambda x: x.scatter_add(0, I([[0]]), 1.0), TypeError, "scatter_add"),
    (lambda x: x.gather(0, [[0]]), TypeError, "gather"),
    (lambda x: x.index_add(0, I([0]), x[:1], 2), TypeError, "index_add"),
    (lambda x: x.masked_fill(I([True, False, True]), "a"), TypeError, "masked_fill"),
])
def test_errors(call, exc, match):
    x = x23()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=match):
            call(x)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]  # a failed in-place op leaves self as it was


def test_uint8_masks_are_deprecated_but_work():
    x = x23()
    m = wick.tensor([1, 0, 1], dtype=wick.uint8)
    with pytest.warns(UserWarning, match=r"masked_fill\(\) received a mask with dtype wick.uint8"):
        assert x.masked_fill(m, -1).tolist() == [[-1.0, 1.0, -1.0], [-1.0, 4.0, -1.0]]
    with pytest.warns(UserWarning, match=r"masked_select\(\) received a mask with dtype wick.uint8"):
        assert x.masked_select(m).tolist() == [0.0, 2.0, 3.0, 5.0]


def test_masked_fill_on_an_expanded_tensor_warns():
    x = wick.zeros(3).expand(2, 3)
    with pytest.warns(UserWarning, match="expanded tensors is deprecated"):
        x.masked_fill_(wick.tensor([True, False, False]), 1)
    assert x.tolist() == [[1.0, 0.0, 0.0]] * 2


def test_fill_values_that_fit():
    m = wick.tensor([True, False])
    assert wick.zeros(2, dtype=wick.uint8).masked_fill(m, -1).tolist() == [255, 0]  # wraps, as in PyTorch
    assert wick.zeros(2, dtype=wick.int8).masked_fill(m, -128).tolist() == [-128, 0]
    assert wick.zeros(2, dtype=wick.int64).masked_fill(m, 2.9).tolist() == [2, 0]
    assert wick.zeros(2, dtype=wick.bool).masked_fill(m, 5).tolist() == [True, False]
    assert wick.zeros(2, dtype=wick.float16).masked_fill(m, float("inf")).tolist() == [float("inf"), 0.0]
    assert np.isnan(wick.zeros(2).masked_fill(m, float("nan")).tolist()[0])
    assert wick.zeros(2, dtype=wick.float16).masked_fill(m, 65504.0).tolist() == [65504.0, 0.0]
    assert wick.zeros(2, dtype=wick.int64).masked_fill(m, wick.tensor(1.5)).tolist() == [1, 0]


def test_sources_that_alias_self():
    """A source sharing memory with self is read as it was before the op wrote anything."""
    x = wick.arange(6.0)
    a = np.arange(6.0)
    x.index_add_(0, wick.tensor([1, 2, 3]), x[:3])
    np.add.at(a, [1, 2, 3], np.arange(3.0))
    assert x.tolist() == a.tolist()
    y = wick.arange(5.0)
    y.scatter_(0, wick.tensor([1, 2, 3, 4]), y[:4])
    assert y.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0]
    z = wick.arange(5.0)
    z.put_(wick.tensor([1, 2, 3, 4]), z[:4], accumulate=True)
    assert z.tolist() == [0.0, 1.0, 3.0, 5.0, 7.0]
    idx = wick.tensor([1, 0, 0])
    idx.scatter_(0, idx, wick.tensor([5, 6, 7]))  # the index is read before it is written
    assert idx.tolist() == [7, 5, 0]
