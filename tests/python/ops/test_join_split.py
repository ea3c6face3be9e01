"""Joining and cutting against NumPy: cat (concat), stack, hstack and vstack copy; chunk, split,
split_with_sizes and unbind return tuples of views. What the declared op tests (ops/test_declared_ops.py)
do not reach.

The generated tests check each op's values in every dtype on its samples, the inputs contiguous
or transposed (and, for joins, one of them sliced with a step), and that the pieces of a cut are
views of self. Here, in every dtype: every input sliced with a step, calls no sample makes (a
tuple of tensors, one tensor, a piece longer than the dim, one piece of the whole) in every
layout, and that joins copy into memory of their own; then 0-d tensors, legacy empty
tensors, out=, views that write through, empty tensors and the errors PyTorch raises.
"""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, LAYOUTS, assert_equal, root, shares_storage, tensor_in


def inputs(dtype, layout, shapes):
    """Tensors of `shapes` in `layout` and their values as arrays."""
    pairs = [tensor_in(layout, dtype, shape, seed=i) for i, shape in enumerate(shapes)]
    return [t for t, _ in pairs], [a for _, a in pairs]


# ---------------------------------------------------------------------------------------------
# Joins

# (name, wick join, NumPy reference, input shapes)
JOINS = [
    ("cat", lambda ts: wick.cat(ts), lambda a: np.concatenate(a), [(2, 3, 4), (1, 3, 4), (3, 3, 4)]),
    ("cat(1)", lambda ts: wick.cat(tuple(ts), 1), lambda a: np.concatenate(a, 1), [(2, 1, 4), (2, 3, 4)]),
    ("cat(-1)", lambda ts: wick.cat(ts, dim=-1), lambda a: np.concatenate(a, -1), [(2, 3, 4), (2, 3, 2)]),
    ("concat", lambda ts: wick.concat(ts, -2), lambda a: np.concatenate(a, -2), [(2, 3, 4), (2, 2, 4)]),
    ("cat(one)", lambda ts: wick.cat(ts, 2), lambda a: np.concatenate(a, 2), [(2, 3, 4)]),
    ("cat(empty part)", lambda ts: wick.cat(ts), lambda a: np.concatenate(a), [(0, 3, 4), (2, 3, 4), (0, 3, 4)]),
    ("stack", lambda ts: wick.stack(ts), lambda a: np.stack(a), [(2, 3, 4)] * 3),
    ("stack(3)", lambda ts: wick.stack(ts, 3), lambda a: np.stack(a, 3), [(2, 3, 4)] * 2),
    ("stack(-2)", lambda ts: wick.stack(ts, dim=-2), lambda a: np.stack(a, -2), [(2, 3, 4)] * 2),
    ("hstack", lambda ts: wick.hstack(ts), lambda a: np.hstack(a), [(2, 3, 4), (2, 1, 4)]),
    ("hstack(1-d)", lambda ts: wick.hstack(ts), lambda a: np.hstack(a), [(4,), (2,)]),
    ("vstack", lambda ts: wick.vstack(ts), lambda a: np.vstack(a), [(2, 3, 4), (1, 3, 4)]),
    ("vstack(1-d)", lambda ts: wick.vstack(ts), lambda a: np.vstack(a), [(3,), (3,)]),
]


def sweep(cases, unsampled):
    """Every case in every dtype; in every layout those that no sample reaches, on inputs sliced with a
    step the others (contiguous and transposed, they are <op>-<dtype>-contiguous and -noncontiguous)."""
    for case in cases:
        for dtype in DTYPES:
            for layout in LAYOUTS if case[0] in unsampled else ("stepped",):
                yield pytest.param(*case, dtype, layout, id=f"{case[0]}-{dtype}-{layout}")


@pytest.mark.parametrize("name,join,ref,shapes,dtype,layout", sweep(JOINS, {"cat(1)", "cat(one)"}))
def test_joins_match_numpy(name, join, ref, shapes, dtype, layout):
    tensors, arrays = inputs(dtype, layout, shapes)
    result = join(tensors)
    assert_equal(result, ref(arrays), dtype)
    assert result._base is None and result.is_contiguous()
    assert not any(shares_storage(root(t), result) for t in tensors)  # a copy


def test_join_of_zero_dim_tensors():
    """stack, hstack and vstack take 0-d tensors, which cat refuses."""
    s = [wick.tensor(1.5), wick.tensor(-2.0)]
    assert wick.stack(s).tolist() == [1.5, -2.0]
    assert wick.hstack(s).tolist() == [1.5, -2.0]
    assert wick.vstack(s).tolist() == [[1.5], [-2.0]]
    with pytest.raises(RuntimeError, match=r"zero-dimensional tensor \(at position 1\) cannot be concatenated"):
        wick.cat([wick.ones(2), wick.tensor(1.0)])


def test_cat_skips_legacy_empty_tensors():
    """1-d tensors without elements take no part in the shape checks, but in promotion they do."""
    x = wick.arange(6, dtype=wick.int32).reshape(2, 3)
    e = wick.empty(0, dtype=wick.float64)
    r = wick.cat([e, x, e], 1)
    assert r.dtype == wick.float64 and r.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert wick.cat([x, wick.empty(0, dtype=wick.int32)], -1).tolist() == x.tolist()
    only = wick.cat([e, e], 5)  # nothing fixes the shape: the dim is not even checked
    assert only.shape == (0,) and only.dtype == wick.float64
    # A 2-d empty tensor is no legacy one: its other sizes must match.
    with pytest.raises(RuntimeError, match="Expected size 0 but got size 3 for tensor number 1 in the list"):
        wick.cat([wick.empty(2, 0), wick.ones(2, 3)])


def test_cat_out():
    a, b = wick.arange(4).reshape(2, 2), wick.ones(1, 2, dtype=wick.int32)
    out = wick.empty(3, 2, dtype=wick.float64)  # a castable dtype
    assert wick.cat([a, b], out=out) is out
    assert out.tolist() == [[0, 1], [2, 3], [1, 1]]
    grown = wick.empty(0, dtype=wick.int64)  # no elements: resized without a warning
    assert wick.concat((a, a), -1, out=grown) is grown and grown.tolist() == [[0, 1, 0, 1], [2, 3, 2, 3]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="was resized"):
            wick.cat([a, b], out=wick.empty(5, dtype=wick.int64))
    with pytest.raises(TypeError, match="input types can't be cast to the desired output type Long"):
        wick.cat([a, wick.ones(1, 2)], out=wick.empty(3, 2, dtype=wick.int64))
    with pytest.raises(TypeError, match="desired output type Bool"):
        wick.stack([a, a], out=wick.empty(0, dtype=wick.bool))
    x = wick.ones(4, 3)
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        wick.cat([x[:2], x[2:]], out=x)
    s = wick.empty(0)
    assert wick.stack([wick.ones(2), wick.zeros(2)], 1, out=s) is s and s.tolist() == [[1, 0], [1, 0]]
    base = wick.zeros(2, 3)
    column_major = base.t()  # a non-contiguous out= of the right shape is written through
    assert wick.cat([wick.ones(1, 2), wick.full((2, 2), 2.0)], out=column_major) is column_major
    assert base.tolist() == [[1, 2, 2], [1, 2, 2]]
    assert wick.stack([wick.ones(3), wick.zeros(3)], 1, out=base.t()).tolist() == [[1, 0], [1, 0], [1, 0]]
    assert base.tolist() == [[1, 1, 1], [0, 0, 0]]
    h, v = wick.empty(0), wick.empty(0)
    assert wick.hstack([wick.ones(2), wick.zeros(1)], out=h) is h and h.tolist() == [1, 1, 0]
    assert wick.vstack([wick.ones(2), wick.zeros(2)], out=v) is v and v.tolist() == [[1, 1], [0, 0]]


def test_concat_is_cat():
    a, b = wick.arange(3), wick.arange(2)
    assert wick.concat([a, b]).tolist() == wick.cat([a, b]).tolist() == [0, 1, 2, 0, 1]
    out = wick.empty(5, dtype=wick.int64)
    assert wick.concat((a, b), out=out) is out


@pytest.mark.parametrize("call,error,message", [
    (lambda: wick.cat([]), RuntimeError, r"cat\(\): expected a non-empty list of Tensors"),
    (lambda: wick.stack(()), RuntimeError, r"stack\(\): expected a non-empty list of Tensors"),
    (lambda: wick.hstack([]), RuntimeError, r"hstack\(\): expected a non-empty list of Tensors"),
    (lambda: wick.vstack([]), RuntimeError, r"vstack\(\): expected a non-empty list of Tensors"),
    (lambda: wick.cat([wick.ones(2, 3), wick.ones(3, 2)]), RuntimeError,
     r"Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor number 1"),
    (lambda: wick.cat([wick.ones(2, 3), wick.ones(3)]), RuntimeError,
     "Tensors must have same number of dimensions: got 2 and 1"),
    (lambda: wick.cat([wick.ones(2, 3)], 2), IndexError, r"expected to be in range of \[-2, 1\], but got 2"),
    (lambda: wick.cat([wick.ones(2, 3)], -3), IndexError, r"but got -3"),
    (lambda: wick.stack([wick.ones(2, 3), wick.ones(3, 2)]), RuntimeError,
     r"each tensor must have the same size, but got \[2, 3\] at entry 0 and \[3, 2\] at entry 1"),
    (lambda: wick.stack([wick.ones(2)], 2), IndexError, r"expected to be in range of \[-2, 1\], but got 2"),
    (lambda: wick.vstack([wick.ones(2), wick.ones(3)]), RuntimeError,
     "Expected size 2 but got size 3 for tensor number 1"),
    (lambda: wick.hstack([wick.ones(2, 3), wick.ones(3, 3)]), RuntimeError, "except in dimension 1"),
])
def test_join_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ---------------------------------------------------------------------------------------------
# Cuts: views, returned as tuples

def np_split(a, size, axis):
    """np.split at every `size` elements: the pieces split() and chunk() make."""
    n = a.shape[axis]
    return np.split(a, list(range(size, n, size)) if size else [], axis)


# (name, wick cut, NumPy reference), on a tensor of shape (5, 6, 4)
CUTS = [
    ("chunk(2)", lambda t: t.chunk(2), lambda a: np.array_split(a, 2)),
    ("chunk(3,1)", lambda t: wick.chunk(t, 3, 1), lambda a: np.array_split(a, 3, 1)),
    ("chunk(4,-1)", lambda t: t.chunk(4, dim=-1), lambda a: np.array_split(a, 4, -1)),
    ("chunk(4,1)", lambda t: t.chunk(4, 1), lambda a: np_split(a, 2, 1)),  # 3 chunks of 2 fill the dim
    ("chunk(9)", lambda t: t.chunk(9), lambda a: np_split(a, 1, 0)),
    ("split(2)", lambda t: t.split(2), lambda a: np_split(a, 2, 0)),
    ("split(4,1)", lambda t: wick.split(t, 4, 1), lambda a: np_split(a, 4, 1)),
    ("split(7,-2)", lambda t: t.split(7, dim=-2), lambda a: [a]),
    ("split(sizes)", lambda t: t.split([1, 4], 0), lambda a: np.split(a, [1], 0)),
    ("split(sizes,-1)", lambda t: wick.split(t, (0, 3, 1), -1), lambda a: np.split(a, [0, 3], -1)),
    ("split_with_sizes", lambda t: t.split_with_sizes([2, 2, 2], 1), lambda a: np.split(a, [2, 4], 1)),
    ("split_with_sizes(fn)", lambda t: wick.split_with_sizes(t, [5]), lambda a: [a]),
    ("unbind", lambda t: t.unbind(), lambda a: [a[i] for i in range(5)]),
    ("unbind(-1)", lambda t: wick.unbind(t, -1), lambda a: [a[..., i] for i in range(4)]),
]


@pytest.mark.parametrize("name,cut,ref,dtype,layout", sweep(CUTS, {"split(7,-2)", "split_with_sizes(fn)"}))
def test_cuts_match_numpy_and_are_views(name, cut, ref, dtype, layout):
    t, a = tensor_in(layout, dtype, (5, 6, 4), seed=len(name))
    pieces = cut(t)
    expected = ref(a)
    assert isinstance(pieces, tuple) and len(pieces) == len(expected)
    for piece, want in zip(pieces, expected):
        assert isinstance(piece, wick.Tensor)
        assert_equal(piece, want, dtype)
        assert root(piece) is root(t) and (piece.numel() == 0 or shares_storage(root(t), piece))  # a view


def test_cut_views_write_through():
    x = wick.zeros(4, 6)
    left, right = x.split(3, 1)
    right.fill_(2)
    x.chunk(2)[1][:, 0] = 7
    rows = x.unbind()
    rows[0][1] = -1
    assert x.tolist() == [[0, -1, 0, 2, 2, 2], [0, 0, 0, 2, 2, 2], [7, 0, 0, 2, 2, 2], [7, 0, 0, 2, 2, 2]]
    assert left.storage_offset() == 0 and right.storage_offset() == 3 and rows[3].storage_offset() == 18


def test_cuts_of_empty_tensors():
    e = wick.empty(0, 3)
    assert [p.shape for p in e.split(2)] == [(0, 3)]
    assert [p.shape for p in e.split(0)] == [(0, 3)]
    assert [p.shape for p in e.chunk(3)] == [(0, 3)] * 3  # as PyTorch: `chunks` empty views
    assert [p.shape for p in e.unbind()] == []
    assert e.unbind() == ()
    assert [p.shape for p in e.unbind(1)] == [(0,)] * 3
    assert [p.shape for p in e.split([0, 0])] == [(0, 3), (0, 3)]
    assert [p.shape for p in wick.ones(2, 0).chunk(2, 1)] == [(2, 0), (2, 0)]


@pytest.mark.parametrize("call,error,message", [
    (lambda: wick.ones(5).chunk(0), ValueError, "chunks must be greater than 0, got: 0"),
    (lambda: wick.ones(5).chunk(-2), ValueError, "chunks must be greater than 0, got: -2"),
    (lambda: wick.tensor(1.0).chunk(2), RuntimeError, r"chunk\(\): expects at least a 1-dimensional tensor"),
    (lambda: wick.ones(5).split(-1), ValueError, "split_size must be non-negative, but got split_size=-1"),
    (lambda: wick.ones(5).split(0), RuntimeError,
     "split_size can only be 0 if dimension size is 0, but got dimension size of 5"),
    (lambda: wick.tensor(1.0).split(1), RuntimeError, r"split\(\): expects at least a 1-dimensional tensor"),
    (lambda: wick.ones(5).split([2, 2]), RuntimeError,
     r"split_sizes must sum exactly to 5 \(the size of dimension 0\), but got split_sizes=\[2, 2\]"),
    (lambda: wick.ones(5).split([-1, 6]), ValueError, r"non-negative entries, but got split_sizes=\[-1, 6\]"),
    (lambda: wick.ones(5).split([1 << 62, 1 << 62, 5]), RuntimeError, "must sum exactly to 5"),
    (lambda: wick.ones(5).split_with_sizes([]), RuntimeError, "must sum exactly to 5"),
    (lambda: wick.ones(2, 3).split(1, 2), IndexError, r"expected to be in range of \[-2, 1\], but got 2"),
    (lambda: wick.tensor(1.0).unbind(), IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    (lambda: wick.ones(2, 3).unbind(-3), IndexError, "but got -3"),
    (lambda: wick.ones(5).split(2.5), TypeError, "invalid combination of arguments"),
])
def test_cut_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_too_many_views_fail_cleanly():
    with pytest.raises(MemoryError, match=r"chunk\(\): cannot make 4611686018427387904 views"):
        wick.empty(0).chunk(1 << 62)
    with pytest.raises(MemoryError):
        wick.empty(0).chunk(1 << 48)
    with pytest.raises(MemoryError, match=r"unbind\(\): cannot make"):
        wick.ones(1).expand(1 << 62).unbind()
