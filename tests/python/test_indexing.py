"""Basic indexing through the mapping protocol: ints, slices, None, Ellipsis; assignment broadcasts."""
import numpy as np
import pytest

import wick
from reference import to_numpy


def pair():
    return wick.arange(60).reshape(3, 4, 5), np.arange(60).reshape(3, 4, 5)


@pytest.mark.parametrize("index", [
    3 - 3, 2, -1, (1, 2), (1, -1, 4), slice(None), slice(1, None), slice(None, None, 2), slice(-2, None),
    slice(5, 10), (slice(1, None), 0), (Ellipsis, 1), (0, Ellipsis), (None, 1), (1, None, slice(None, None, 3)),
    (slice(None), None, 2), (), Ellipsis, (slice(0, 3, 2), slice(1, 4, 2), slice(None, None, 4)), np.int64(1),
    (slice(10, 1),),
])
def test_getitem_matches_numpy_and_is_a_view(index):
    t, a = pair()
    v = t[index]
    expected = a[index]
    assert v.shape == expected.shape
    assert to_numpy(v).tolist() == np.asarray(expected).tolist()
    if v.numel():
        assert t.data_ptr() <= v.data_ptr() < t.data_ptr() + t.numel() * t.itemsize


def test_issue_indexing_examples():
    x = wick.arange(10, dtype=wick.float32)
    assert x[3].item() == 3.0
    x[4] = 2
    assert x[4].item() == 2.0
    m = wick.arange(6).reshape(2, 3)
    assert m[1:, 0].tolist() == [3]


@pytest.mark.parametrize("index,value", [
    (1, 7), ((0, 1), -3), (slice(None, None, 2), 9.5), ((Ellipsis, 0), 1), ((slice(1, None), 2), 4),
])
def test_setitem_scalar(index, value):
    t, a = pair()
    t = t.to(wick.float64)
    a = a.astype(np.float64)
    t[index] = value
    a[index] = value
    assert to_numpy(t).tolist() == a.tolist()


def test_setitem_broadcasts_tensors_and_lists():
    t, a = pair()
    t[0] = wick.tensor([1, 2, 3, 4, 5])
    a[0] = [1, 2, 3, 4, 5]
    t[1, :, 2] = wick.tensor(-1)
    a[1, :, 2] = -1
    t[2, 1:3] = [[9] * 5, [8] * 5]
    a[2, 1:3] = [[9] * 5, [8] * 5]
    assert to_numpy(t).tolist() == a.tolist()
    with pytest.raises(RuntimeError, match="cannot be broadcast"):
        t[0] = wick.tensor([1, 2])


def test_setitem_from_an_overlapping_view():
    t = wick.arange(6)
    t[1:] = t[:-1]
    assert t.tolist() == [0, 0, 1, 2, 3, 4]


@pytest.mark.parametrize("index,exc,match", [
    (3, IndexError, "out of bounds"),
    (-4, IndexError, "out of bounds"),
    ((0, 0, 0, 0), IndexError, "too many indices"),
    ((Ellipsis, Ellipsis), IndexError, "single ellipsis"),
    (slice(None, None, -1), ValueError, "step must be greater than zero"),
    (slice(None, None, 0), ValueError, "slice step cannot be zero"),
    ("a", IndexError, "only integers"),
    (1.5, IndexError, "only integers"),
    (wick.tensor([0, 1]), NotImplementedError, "advanced indexing"),
    ([0, 1], NotImplementedError, "advanced indexing"),
])
def test_bad_indices(index, exc, match):
    t, _ = pair()
    with pytest.raises(exc, match=match):
        t[index]


def test_zero_dim_indexing():
    s = wick.tensor(5)
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        s[0]
    assert s[()].item() == 5 and s[None].shape == (1,) and s[...].shape == ()


def test_len_iter_contains():
    t = wick.arange(6).reshape(3, 2)
    assert len(t) == 3
    assert [r.tolist() for r in t] == [[0, 1], [2, 3], [4, 5]]
    assert 4 in t and 7 not in t
    with pytest.raises(TypeError, match="0-d"):
        len(wick.tensor(1))
    with pytest.raises(TypeError, match="deletion"):
        del t[0]
