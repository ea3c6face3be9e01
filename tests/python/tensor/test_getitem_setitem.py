"""Indexing through the mapping protocol: basic indices (ints, slices, None, Ellipsis) as views, advanced ones
(integer tensors, masks, lists, arrays, bools) as copies, each checked against the same index on a NumPy array;
assignment broadcasts."""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, make, random_values, to_numpy


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
    ({}, IndexError, "only integers"),
    ([0, 3], IndexError, "index 3 is out of bounds for dimension 0 with size 3"),
    ((slice(None), [-5]), IndexError, "index -5 is out of bounds for dimension 1 with size 4"),
    (wick.tensor([0.0, 1.0]), IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
    (wick.tensor([0, 1], dtype=wick.int16), IndexError, "must be long, int, byte or bool"),
    (wick.tensor(1.0), IndexError, "must be long, int, byte or bool"),
    ([0.5], IndexError, "not floats"),
    (np.array([0.5]), IndexError, "integer or boolean type"),
    ([0, "a"], IndexError, "only ints or bools"),
    ([0, slice(None)], IndexError, "only ints or bools"),
    (([0, 1], [0, 1, 2]), IndexError, r"could not be broadcast together with shapes \[2\], \[3\]"),
    ([True, False], IndexError, r"shape of the mask \[2\] at index 0 does not match .* \[3, 4, 5\] at index 0"),
    ((slice(None), wick.ones(4, 4, dtype=wick.bool)), IndexError, "mask .* at index 1 does not match"),
    (([0], [0], [0], [0]), IndexError, "too many indices"),
    ((wick.ones(3, 4, dtype=wick.bool), 0, 0), IndexError, "too many indices"),
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


# Advanced indexing. Indices are written for NumPy (arrays, lists, tuples of them); as_wick() turns each array
# into a wick tensor of the same dtype, so each case runs once with tensors and once with the raw Python objects.

def as_wick(index):
    if isinstance(index, tuple):
        return tuple(as_wick(i) for i in index)
    if isinstance(index, np.ndarray):
        return make(index, index.dtype.name)
    return index


def shares_memory(a, b):
    return b.numel() > 0 and a.data_ptr() <= b.data_ptr() < a.data_ptr() + a.numel() * a.itemsize


MASK_34 = (np.arange(12).reshape(3, 4) % 3 == 0)
ADVANCED = [
    np.array([0, 2]), [0, 2], [-1, 0, -3], [2, 2, 0, 2], np.array([[0, 1], [2, 1]]), np.array([1, 0], dtype=np.int32),
    (slice(1, None), [0, -1]), (slice(None, None, 2), [3, 1]), (Ellipsis, [1, 3]), (Ellipsis, [3], 0),
    ([0, 2], [1, 3]), ([0, 2], np.array([[1], [3]])), ([0, 2], slice(None), [1, 4]), ([2], slice(1, 3), [[0], [4]]),
    (None, [1, 0]), ([1, 0], None), (slice(None), None, [2, 1]), (1, [0, 2]), ([0, 1], 1),
    ([0, 1], slice(None), 1), ([[0, 1], [1, 2]],), ([(0, 1), (1, 2)],), ((0, 2), 1), np.array([], dtype=np.int64),
    (slice(None), []), [0],
    np.array([True, False, True]), [False, True, True], (slice(None), np.array([True, False, False, True])),
    (Ellipsis, np.array([False, True, False, True, True])), MASK_34, (MASK_34, [1, 3, 0, 2]), (MASK_34, slice(1, 3)),
    np.zeros((3, 4), dtype=bool), np.ones((3, 4, 5), dtype=bool), np.arange(60).reshape(3, 4, 5) % 7 == 2,
    (np.array([True, False, True]), [1, 3]), (np.array([True, False, True]), slice(None), [0, 4]),
    True, False, (True, 0), ([0, 2], True), (None, True, [1]), (slice(None), False), (0, True, [1, 2]),
]


@pytest.mark.parametrize("index", ADVANCED)
def test_advanced_getitem_matches_numpy_and_copies(index):
    t, a = pair()
    expected = a[index]
    for form in (as_wick(index), index):
        v = t[form]
        assert v.shape == expected.shape
        assert v.dtype == wick.int64
        assert v.tolist() == expected.tolist()
        assert v.is_contiguous() and not shares_memory(t, v)


@pytest.mark.parametrize("index", [
    np.array([2, 0]), (slice(None), np.array([True, False, True, True])), ([1, 1], slice(None), [0, 2]),
    (Ellipsis, [0, 0]), np.arange(60).reshape(5, 4, 3).transpose(2, 1, 0) % 4 == 1,
])
@pytest.mark.parametrize("view", ["transpose", "step", "expand"])
def test_advanced_getitem_of_non_contiguous_sources(index, view):
    base = np.arange(60).reshape(5, 4, 3)
    w = wick.arange(60).reshape(5, 4, 3)
    if view == "transpose":
        t, a = w.transpose(0, 2), base.transpose(2, 1, 0)
    elif view == "step":
        t, a = wick.arange(120).reshape(3, 8, 5)[:, ::2], np.arange(120).reshape(3, 8, 5)[:, ::2]
    else:
        t, a = w[0:1, :, 0:1].expand(3, 4, 5), np.broadcast_to(base[0:1, :, 0:1], (3, 4, 5))
    assert not t.is_contiguous()
    assert t[as_wick(index)].tolist() == a[index].tolist()


def test_non_adjacent_scalar_and_tensor_follow_pytorch():
    # An int selects before the tensors apply (PyTorch's rule), so an int between slices does not
    # separate the advanced indices from the front as it does in NumPy.
    t = wick.arange(120).reshape(2, 3, 4, 5)
    a = np.arange(120).reshape(2, 3, 4, 5)
    v = t[:, 1, :, [0, 1]]
    assert v.shape == (2, 4, 2)
    assert v.tolist() == a[:, 1][:, :, [0, 1]].tolist()
    v = t[1, :, [3, 0]]
    assert v.shape == (3, 2, 5)
    assert v.tolist() == a[1][:, [3, 0]].tolist()


def test_zero_dim_integer_tensors_act_as_ints():
    t, a = pair()
    for index in (wick.tensor(1), wick.tensor(-1), wick.tensor(2, dtype=wick.int32), np.int64(1), np.array(2)):
        v = t[index]
        assert v.tolist() == a[int(index)].tolist()
        assert shares_memory(t, v)
    v = t[1, wick.tensor(2)]
    assert v.tolist() == a[1, 2].tolist() and shares_memory(t, v)
    assert t[wick.tensor(1), [0, 3]].tolist() == a[1, [0, 3]].tolist()


def test_zero_dim_masks_and_bools():
    t, a = pair()
    assert t[wick.tensor(True)].tolist() == a[None].tolist()
    assert t[wick.tensor(False)].shape == (0, 3, 4, 5)
    assert t[np.True_].shape == (1, 3, 4, 5) and t[np.False_].shape == (0, 3, 4, 5)
    s = wick.tensor(5)
    assert s[True].tolist() == [5] and s[False].shape == (0,)
    assert s[None, True].shape == (1, 1) and s[True, None].shape == (1, 1)
    with pytest.raises(IndexError, match="too many indices"):
        s[[0]]


def test_empty_sources_and_indices():
    e = wick.zeros(0, 3)
    assert e[[]].shape == (0, 3)
    assert e[:, [2, 0]].shape == (0, 2)
    assert e[wick.zeros(0, 3, dtype=wick.bool)].shape == (0,)
    with pytest.raises(IndexError, match="index 0 is out of bounds for dimension 0 with size 0"):
        e[[0]]
    t, _ = pair()
    assert t[[], [], 0].shape == (0,)
    assert t[wick.tensor([], dtype=wick.int64).reshape(0, 2)].shape == (0, 2, 4, 5)


def test_uint8_masks_are_masks_with_a_warning():
    t, a = pair()
    mask = np.array([1, 0, 1], dtype=np.uint8)
    with pytest.warns(UserWarning, match="uint8 is deprecated"):
        v = t[make(mask, "uint8")]
    assert v.tolist() == a[mask.astype(bool)].tolist()


def test_mask_from_a_comparison():
    x = wick.arange(10, dtype=wick.float32)
    assert x[x > 6].tolist() == [7.0, 8.0, 9.0]
    x[x > 6] = 0
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype(dtype):
    rng = np.random.default_rng(7)
    a = random_values(dtype, (3, 4), rng)
    t = make(a, dtype)
    npa = to_numpy(t)
    mask = np.array([[True, False, True, True], [False] * 4, [True, True, False, True]])
    assert t[[2, 0, 2]].dtype == t.dtype
    assert to_numpy(t[[2, 0, 2]]).tolist() == npa[[2, 0, 2]].tolist()
    assert to_numpy(t[make(mask, "bool")]).tolist() == npa[mask].tolist()
    assert to_numpy(t[:, [-1, 1]]).tolist() == npa[:, [-1, 1]].tolist()
    values = random_values(dtype, (2, 4), rng)
    t[[0, 2]] = make(values, dtype)
    npa[[0, 2]] = to_numpy(make(values, dtype))
    t[1, [1, 3]] = 1
    npa[1, [1, 3]] = 1
    assert to_numpy(t).tolist() == npa.tolist()


@pytest.mark.parametrize("index,value", [
    ([0, 2], 7), ([2, 0], -1.5), (MASK_34, 0), (MASK_34, np.arange(4 * 5).reshape(4, 5)),
    (np.zeros((3, 4), dtype=bool), 9),
    ((slice(None), [1, 3]), np.arange(5)), ((slice(None), [1, 3]), np.arange(3 * 2 * 5).reshape(3, 2, 5)),
    (([0, 2], [1, 3]), np.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])), (([0, 2], slice(None), [4, 0]), 3),
    ((Ellipsis, [0]), np.arange(12).reshape(3, 4, 1)), ([-1], 5), ([1, 1], np.arange(2 * 4 * 5).reshape(2, 4, 5)),
    (np.array([True, False, True]), np.arange(5)), (np.arange(60).reshape(3, 4, 5) % 4 == 0, 100),
    (True, 8), (False, 8), ((1, True), np.arange(20).reshape(1, 4, 5)), ([[0], [2]], np.arange(5)),
])
def test_advanced_setitem_matches_numpy(index, value):
    expected = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
    expected[index] = value
    for form, val in ((as_wick(index), as_wick(np.asarray(value, dtype=np.float64))), (index, value)):
        t = wick.arange(60, dtype=wick.float64).reshape(3, 4, 5)
        if isinstance(val, np.ndarray):
            val = val.tolist()
        t[form] = val
        assert t.tolist() == expected.tolist()


def test_setitem_repeated_indices_keep_the_last_write():
    t = wick.zeros(5)
    t[[1, 3, 1, 1]] = wick.tensor([10.0, 20.0, 30.0, 40.0])
    assert t.tolist() == [0.0, 40.0, 0.0, 20.0, 0.0]
    m = wick.zeros(3, 2, dtype=wick.int64)
    m[[0, 0], [1, 1]] = wick.tensor([5, 6])
    assert m.tolist() == [[0, 6], [0, 0], [0, 0]]


def test_setitem_casts_values_and_accepts_leading_ones():
    t = wick.zeros(4, dtype=wick.int32)
    t[[0, 2]] = 2.7
    assert t.tolist() == [2, 0, 2, 0] and t.dtype == wick.int32
    t[[1, 3]] = wick.tensor([[[1.9, -1.9]]])
    assert t.tolist() == [2, 1, 2, -1]
    b = wick.zeros(3, dtype=wick.bool)
    b[[2]] = 5
    assert b.tolist() == [False, False, True]


def test_setitem_through_views_and_from_overlapping_values():
    t, a = pair()
    row = t[1]
    row[[0, 2], 1:3] = -1
    a[1][[0, 2], 1:3] = -1
    assert t.tolist() == a.tolist()
    x = wick.arange(6)
    x[[5, 4, 3]] = x[0:3]
    assert x.tolist() == [0, 1, 2, 2, 1, 0]
    y = wick.arange(6)
    y[y > 2] = y[0:3]
    assert y.tolist() == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("index,value,exc,match", [
    ([0, 1], wick.ones(3, 4, 5), RuntimeError, r"shape mismatch: value tensor of shape \[3, 4, 5\] cannot be "
                                               r"broadcast to indexing result of shape \[2, 4, 5\]"),
    ([0, 3], 1, IndexError, "index 3 is out of bounds for dimension 0 with size 3"),
    ([True, False], 1, IndexError, "shape of the mask"),
    (wick.tensor([1.0]), 1, IndexError, "must be long, int, byte or bool"),
    ([0, 1], "ab", TypeError, "could not convert"),
])
def test_bad_advanced_setitem(index, value, exc, match):
    t, _ = pair()
    before = t.tolist()
    with pytest.raises(exc, match=match):
        t[index] = value
    assert t.tolist() == before


def test_writes_into_expanded_tensors_are_refused():
    t = wick.zeros(1, 3).expand(2, 3)
    with pytest.raises(RuntimeError, match="single memory location"):
        t[[0], [1]] = 1.0


def test_advanced_indexing_warnings_can_be_errors():
    t, _ = pair()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="uint8"):
            t[wick.tensor([1, 0, 1], dtype=wick.uint8)]


@pytest.mark.cuda
def test_advanced_indexing_on_cuda_says_it_is_not_implemented():
    t = wick.arange(6).cuda()
    assert t[wick.tensor(2)].cpu().tolist() == 2  # a view; no advanced indexing
    with pytest.raises(NotImplementedError, match="cpu only"):
        t[[0, 2]]
    with pytest.raises(NotImplementedError, match="cpu only"):
        t[[0, 2]] = 1
