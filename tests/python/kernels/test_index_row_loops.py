"""gather, index_select, scatter, scatter_add, index_add, take, put, nonzero,
masked_fill and masked_select through their row loops (core/src/indexed_rows.h,
Note [Two-pass selection]): every layout of self, index, src and mask, tensors
large enough to split across threads, repeated indices, bad indices at the
first, a middle and the last position, against NumPy."""
import numpy as np
import pytest

import wick

LAYOUTS = ("contiguous", "transposed", "stepped")
BIG = (96, 515)  # about 49k elements: more than a parallel grain (32768), odd row length


def laid_out(a, layout):
    """A wick tensor with the values of `a`: contiguous, with every dim reversed, or the
    even columns of a tensor twice as wide."""
    if layout == "contiguous":
        return wick.from_numpy(np.ascontiguousarray(a))
    if layout == "transposed":
        t = wick.from_numpy(np.ascontiguousarray(a.T)).permute(*reversed(range(a.ndim)))
    else:
        wide = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), dtype=a.dtype)
        wide[..., ::2] = a
        t = wick.from_numpy(wide)[..., ::2]
    assert tuple(t.shape) == a.shape
    assert min(a.shape, default=0) <= 1 or (a.ndim == 1 and layout == "transposed") or not t.is_contiguous()
    return t


def values(t):
    return np.asarray(t.contiguous())


def along(a, dim, idx, src, add):
    """NumPy: a copy of `a` with src[p] written (or added, in index order) at p with its
    `dim` coordinate replaced by idx[p] (np.put_along_axis, np.add.at)."""
    out = a.copy()
    grid = list(np.indices(idx.shape, sparse=True))
    grid[dim] = idx
    part = np.broadcast_to(src, idx.shape) if np.ndim(src) == 0 else src[tuple(slice(0, n) for n in idx.shape)]
    if add:
        np.add.at(out, tuple(grid), part)
    else:
        out[tuple(grid)] = part
    return out


def unique_lines(rng, shape, dim, size):
    """An index with no position repeated along `dim` (scatter's result then has one answer)."""
    perm = np.argsort(rng.random(shape[:dim] + (size,) + shape[dim + 1:]), axis=dim)
    return perm[tuple(slice(0, n) for n in shape)]


def smaller(shape, dim):
    """An index shape smaller than `shape` off `dim`, as gather and scatter allow."""
    return tuple(n if d == dim else max(1, n - 3) for d, n in enumerate(shape))


# ---------------------------------------------------------------------------------------------
# gather, scatter, scatter_add

@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("self_layout", LAYOUTS)
@pytest.mark.parametrize("index_layout", LAYOUTS)
def test_gather(dim, self_layout, index_layout):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(BIG).astype(np.float32)
    d = dim % 2
    idx = rng.integers(0, BIG[d], smaller(BIG, d))
    r = laid_out(a, self_layout).gather(dim, laid_out(idx, index_layout))
    part = a[tuple(slice(None) if k == d else slice(0, n) for k, n in enumerate(idx.shape))]
    np.testing.assert_array_equal(values(r), np.take_along_axis(part, idx, axis=d))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("layout", ("transposed", "stepped"))
@pytest.mark.parametrize("index_dtype", [wick.int64, wick.int32])
def test_index_select_strided_self(dim, layout, index_dtype):
    rng = np.random.default_rng(14)
    a = rng.standard_normal(BIG)
    idx = rng.integers(0, BIG[dim], 700)  # repeats, and longer than the dim
    r = laid_out(a, layout).index_select(dim, wick.from_numpy(idx).to(index_dtype))
    np.testing.assert_array_equal(values(r), np.take(a, idx, axis=dim))


def test_gather_from_an_expanded_self():
    a = np.arange(7, dtype=np.float64)
    idx = np.random.default_rng(2).integers(0, 7, (5000, 7))
    r = wick.from_numpy(a).expand(5000, 7).gather(1, wick.from_numpy(idx))
    np.testing.assert_array_equal(values(r), a[idx])


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_scatter_writes_every_layout(dim, layout):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(BIG)
    src = rng.standard_normal(BIG)
    d = dim % 2
    idx = unique_lines(rng, smaller(BIG, d), d, BIG[d])
    expected = along(a, d, idx, src, add=False)
    index, source = laid_out(idx, layout), laid_out(src, layout)
    np.testing.assert_array_equal(values(laid_out(a, layout).scatter(dim, index, source)), expected)
    t = laid_out(a, layout)
    assert t.scatter_(dim, index, source) is t
    np.testing.assert_array_equal(values(t), expected)
    np.testing.assert_array_equal(values(laid_out(a, layout).scatter(dim, index, 2.5)),
                                  along(a, d, idx, 2.5, add=False))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int16])
def test_scatter_add_repeated_indices(dim, layout, dtype):
    rng = np.random.default_rng(4)
    a = rng.integers(-3, 4, BIG).astype(dtype)
    src = rng.standard_normal(BIG).astype(dtype) if dtype in (np.float32, np.float64) else \
        rng.integers(-3, 4, BIG).astype(dtype)
    d = dim % 2
    idx = rng.integers(0, 4, smaller(BIG, d))  # four targets per line: many repeats
    expected = along(a, d, idx, src, add=True)  # np.add.at adds in index order, as the row loop does
    index, source = laid_out(idx, layout), laid_out(src, layout)
    np.testing.assert_array_equal(values(wick.scatter_add(laid_out(a, layout), dim, index, source)), expected)
    t = laid_out(a, layout)
    assert t.scatter_add_(dim, index, source) is t
    np.testing.assert_array_equal(values(t), expected)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("alpha", [1, -2])
def test_index_add_repeated_indices(dim, layout, alpha):
    rng = np.random.default_rng(15)
    a = rng.integers(-3, 4, BIG).astype(np.float64)
    shape = list(BIG)
    shape[dim] = 700
    src = rng.integers(-3, 4, shape).astype(np.float64)
    idx = rng.integers(0, BIG[dim], 700)  # repeats
    expected = a.copy()
    np.add.at(np.moveaxis(expected, dim, 0), idx, alpha * np.moveaxis(src, dim, 0))
    t = laid_out(a, layout)
    assert t.index_add_(dim, wick.from_numpy(idx), laid_out(src, layout), alpha=alpha) is t
    np.testing.assert_array_equal(values(t), expected)


def test_scatter_repeated_indices_in_a_long_line():
    a = np.zeros(6)
    idx = np.tile(np.arange(3), 20000)
    src = np.arange(idx.size, dtype=np.float64)
    r = wick.from_numpy(a).scatter(0, wick.from_numpy(idx), wick.from_numpy(src))
    assert values(r).tolist() == [src[-3], src[-2], src[-1], 0.0, 0.0, 0.0]  # the last write wins


def test_scatter_flipped_and_zero_d():
    a = np.arange(12.0).reshape(3, 4)
    idx = np.array([[2, 0, 1, 3], [3, 1, 0, 2]])
    x, i = wick.flip(wick.from_numpy(a), [0]), wick.flip(wick.from_numpy(idx), [1])
    np.testing.assert_array_equal(values(x.scatter(1, i, -x)), along(a[::-1], 1, idx[:, ::-1], -a[::-1], False))
    s = wick.tensor(5.0)
    assert s.scatter_add(-1, wick.tensor(0), wick.tensor(2.0)).item() == 7.0
    assert s.gather(-1, wick.tensor([0, 0, 0])).tolist() == [5.0] * 3


def test_scatter_empty_index_and_empty_self():
    x = wick.zeros(0, 4)
    assert x.scatter(1, wick.zeros(0, 2, dtype=wick.int64), 1.0).shape == (0, 4)
    assert x.gather(0, wick.zeros(0, 4, dtype=wick.int64)).shape == (0, 4)
    with pytest.raises(IndexError, match="index 0 is out of bounds for dimension 0 with size 0"):
        wick.zeros(0, 4).scatter_(0, wick.zeros(1, 4, dtype=wick.int64), 1.0)


def test_scatter_reads_index_and_src_as_they_were():
    # self is index and src: the op reads them as they were before its first write
    a = np.array([[1, 0, 2], [2, 2, 0]])
    x = wick.from_numpy(a.copy())
    assert x.scatter_(1, x, x) is x
    np.testing.assert_array_equal(values(x), along(a, 1, a, a, add=False))
    p = wick.tensor([3, 0, 1, 2])
    p.put_(p, p, accumulate=True)
    expected = np.array([3, 0, 1, 2])
    np.add.at(expected, [3, 0, 1, 2], [3, 0, 1, 2])
    assert p.tolist() == expected.tolist()


# ---------------------------------------------------------------------------------------------
# take, put

@pytest.mark.parametrize("self_layout", LAYOUTS)
@pytest.mark.parametrize("index_layout", LAYOUTS)
def test_take(self_layout, index_layout):
    rng = np.random.default_rng(5)
    a = rng.standard_normal(BIG)
    idx = rng.integers(-a.size, a.size, (130, 401))
    r = laid_out(a, self_layout).take(laid_out(idx, index_layout))
    np.testing.assert_array_equal(values(r), np.take(a.reshape(-1), idx))


@pytest.mark.parametrize("self_layout", LAYOUTS)
@pytest.mark.parametrize("index_layout", LAYOUTS)
@pytest.mark.parametrize("accumulate", [False, True])
def test_put(self_layout, index_layout, accumulate):
    rng = np.random.default_rng(6)
    a = rng.integers(-3, 4, BIG).astype(np.float64)
    if accumulate:  # repeats, and both ends from either side
        idx = rng.integers(-a.size, a.size, (60, 801))
        idx[0, :5] = [-1, a.size - 1, 0, -a.size, 7]
    else:  # one answer: no position twice, some counted from the end
        idx = rng.permutation(a.size)[:60 * 801].reshape(60, 801) - rng.integers(0, 2, (60, 801)) * a.size
    src = rng.integers(-3, 4, (801, 60)).astype(np.float64)
    expected = a.copy().reshape(-1)
    flat = np.where(idx < 0, idx + a.size, idx).reshape(-1)
    if accumulate:
        np.add.at(expected, flat, src.reshape(-1))
    else:
        expected[flat] = src.reshape(-1)
    index, source = laid_out(idx, index_layout), laid_out(src, "transposed")
    np.testing.assert_array_equal(values(laid_out(a, self_layout).put(index, source, accumulate)),
                                  expected.reshape(BIG))
    t = laid_out(a, self_layout)
    assert t.put_(index, source, accumulate) is t
    np.testing.assert_array_equal(values(t), expected.reshape(BIG))


def test_put_accumulates_repeats_in_order():
    x = wick.zeros(3, dtype=wick.float32)
    src = np.full(100000, 0.1, dtype=np.float32)
    x.put_(wick.from_numpy(np.zeros(100000, dtype=np.int64)), wick.from_numpy(src), accumulate=True)
    expected = np.zeros(3, dtype=np.float32)
    np.add.at(expected, np.zeros(100000, dtype=np.int64), src)
    assert x.tolist() == expected.tolist()


# ---------------------------------------------------------------------------------------------
# Bad indices: the first in row-major order is named; in-place forms leave self unchanged

POSITIONS = [0, 31000, 48959]  # first, middle, last of a (96, 510) index


def bad_index(value, at, extra=None):
    idx = np.random.default_rng(7).integers(0, 96, (96, 510))
    flat = idx.reshape(-1)
    flat[at] = value
    if extra is not None:
        flat[-1] = extra  # a later bad value, not the one reported
    return idx


@pytest.mark.parametrize("at", POSITIONS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_bad_index_gather_scatter(at, layout):
    a = np.random.default_rng(8).standard_normal(BIG)
    idx = laid_out(bad_index(96, at, extra=-5 if at != POSITIONS[-1] else None), layout)
    message = "index 96 is out of bounds for dimension 0 with size 96"
    with pytest.raises(IndexError, match="gather\\(\\): " + message):
        wick.from_numpy(a).gather(0, idx)
    with pytest.raises(IndexError, match="scatter\\(\\): " + message):
        wick.from_numpy(a).scatter(0, idx, 1.0)
    with pytest.raises(IndexError, match="scatter_add\\(\\): " + message):
        wick.from_numpy(a).scatter_add(0, idx, wick.from_numpy(a))
    for call in (lambda t: t.scatter_(0, idx, wick.from_numpy(a)), lambda t: t.scatter_(0, idx, 1.0),
                 lambda t: t.scatter_add_(0, idx, wick.from_numpy(a))):
        t = laid_out(a, layout)
        with pytest.raises(IndexError, match=message):
            call(t)
        np.testing.assert_array_equal(values(t), a)  # nothing written


@pytest.mark.parametrize("at", POSITIONS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_bad_index_take_put(at, layout):
    a = np.random.default_rng(9).standard_normal(BIG)
    idx = bad_index(-a.size - 1, at, extra=a.size if at != POSITIONS[-1] else None)
    index, src = laid_out(idx, layout), wick.from_numpy(np.ones(idx.size))
    message = f"tried to access index {-a.size - 1} on a tensor of {a.size} elements"
    with pytest.raises(IndexError, match=message):
        wick.from_numpy(a).take(index)
    with pytest.raises(IndexError, match=message):
        wick.from_numpy(a).put(index, src)
    for accumulate in (False, True):
        t = laid_out(a, layout)
        with pytest.raises(IndexError, match=message):
            t.put_(index, src, accumulate)
        np.testing.assert_array_equal(values(t), a)


def test_bad_index_before_bad_value():
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        wick.zeros(2, dtype=wick.int8).scatter(0, wick.tensor([5]), 128)
    with pytest.raises(RuntimeError, match="int8_t without overflow"):
        wick.zeros(2, dtype=wick.int8).scatter(0, wick.tensor([1]), 128)


# ---------------------------------------------------------------------------------------------
# nonzero

@pytest.mark.parametrize("shape", [(70001,), BIG, (3, 40, 301), (2, 3, 4, 5, 6), (40000, 1), (1, 5), (0, 3), ()])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_nonzero(shape, layout):
    rng = np.random.default_rng(10)
    a = np.where(rng.random(shape) < 0.3, rng.standard_normal(shape), 0.0)
    if a.size > 3:
        a.reshape(-1)[:3] = [np.nan, -0.0, np.inf]  # NaN is set; -0.0 is not
    t = laid_out(a, layout) if a.ndim else wick.from_numpy(a)
    r = t.nonzero()
    assert r.dtype == wick.int64 and tuple(r.shape) == (np.count_nonzero(a), a.ndim)
    np.testing.assert_array_equal(values(r) if r.numel() else np.argwhere(a), np.argwhere(a))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int32", "float16", "float64"])
def test_nonzero_dtypes(dtype):
    a = np.random.default_rng(11).integers(0, 3, (130, 257)) == 0
    t = wick.from_numpy(a.astype(np.float64)).to(getattr(wick, dtype))
    np.testing.assert_array_equal(values(t.nonzero()), np.argwhere(a))


# ---------------------------------------------------------------------------------------------
# masked_fill, masked_select

@pytest.mark.parametrize("self_layout", LAYOUTS)
@pytest.mark.parametrize("mask_layout", LAYOUTS + ("row",))
def test_masked_fill_and_select(self_layout, mask_layout):
    rng = np.random.default_rng(12)
    a = rng.standard_normal(BIG)
    m = rng.random(BIG[1:] if mask_layout == "row" else BIG) < 0.4  # "row": one row, broadcast
    mask = wick.from_numpy(m) if mask_layout == "row" else laid_out(m, mask_layout)
    np.testing.assert_array_equal(values(laid_out(a, self_layout).masked_select(mask)), a[np.broadcast_to(m, BIG)])
    filled = np.where(m, -7.0, a)
    np.testing.assert_array_equal(values(laid_out(a, self_layout).masked_fill(mask, -7.0)), filled)
    t = laid_out(a, self_layout)
    assert t.masked_fill_(mask, -7.0) is t
    np.testing.assert_array_equal(values(t), filled)


def test_masked_select_broadcasts_self_and_uint8_masks():
    rng = np.random.default_rng(13)
    a = rng.standard_normal(BIG[1])
    m = rng.integers(0, 2, BIG).astype(np.uint8)
    with pytest.warns(UserWarning, match="dtype wick.uint8, this behavior is now deprecated"):
        r = wick.from_numpy(a).masked_select(wick.from_numpy(m))
    np.testing.assert_array_equal(values(r), np.broadcast_to(a, BIG)[m != 0])
    m[-1, -1] = 2  # as PyTorch: a uint8 mask holds 0 and 1 alone
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="Mask tensor can take 0 and 1 values only"):
        wick.from_numpy(a).masked_select(wick.from_numpy(m))
