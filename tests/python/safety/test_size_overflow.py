"""Sizes, strides and offsets past int64: an exception as PyTorch raises it, never a wrong tensor.

See Note [Checked size arithmetic]. Each case is checked against PyTorch: the exception type
where it raises (MemoryError where an allocation cannot be made), and the values where it does not.
"""
import numpy as np
import pytest
import torch

import wick

BIG = 2**62
INT64_MAX = 2**63 - 1
INT64_MIN = -2**63


@pytest.mark.parametrize("make", [
    lambda m: m.zeros(0).view(BIG, 4),
    lambda m: m.zeros(0).reshape(BIG, 4),
    lambda m: m.zeros(0).view(BIG, BIG, 2),
    lambda m: m.zeros(1).expand(BIG, 4),
    lambda m: m.zeros(1).expand(BIG, 2, 2),
    lambda m: m.zeros(2).unflatten(0, (BIG, 4)),
    lambda m: m.zeros(5).narrow(0, 3, INT64_MAX),
], ids=["view", "reshape", "view3", "expand", "expand3", "unflatten", "narrow"])
def test_geometry_past_int64_raises_like_pytorch(make):
    with pytest.raises(RuntimeError):
        make(torch)
    with pytest.raises(RuntimeError):
        make(wick)


@pytest.mark.parametrize("make", [
    lambda m: m.empty(BIG, 4),
    lambda m: m.empty(2**61, 4),
    lambda m: m.zeros(3).repeat(BIG, 4),
    lambda m: m.add(m.zeros(1).expand(BIG), 1),
    lambda m: m.add(m.zeros(1).expand(BIG), 1, out=m.empty(0)),
    lambda m: m.cat([m.zeros(1).expand(BIG), m.zeros(1).expand(BIG)]),
    lambda m: m.ones(2**40, 2**40),
], ids=["empty", "empty-bytes", "repeat", "add", "add-out", "cat", "ones"])
def test_allocations_past_memory_raise_memory_error(make):
    with pytest.raises(RuntimeError):
        make(torch)
    with pytest.raises(MemoryError):
        make(wick)


def test_expand_within_int64_is_a_view_of_any_size():
    x = wick.tensor([7.0]).expand(BIG)
    assert x.shape == (BIG,) and x.numel() == BIG
    assert x[BIG - 1].item() == 7.0 and x[::2**61].tolist() == [7.0, 7.0]


def test_empty_tensors_may_have_sizes_whose_product_passes_int64():
    for m in (torch, wick):
        x = m.zeros(BIG, 0, BIG)
        assert tuple(x.shape) == (BIG, 0, BIG) and x.numel() == 0
        assert tuple(x.reshape(-1).shape) == (0,) and tuple(x.flatten().shape) == (0,)
        assert tuple(x.transpose(0, 2).unsqueeze(1).shape) == (BIG, 1, 0, BIG)
        assert tuple(m.empty_like(x).shape) == (BIG, 0, BIG)
    assert wick.zeros(BIG, 0).view(-1, 4).shape == torch.zeros(BIG, 0).view(-1, 4).shape
    for m in (torch, wick):  # but repeats, and view sizes other than -1, whose product passes int64 are refused
        with pytest.raises(RuntimeError):
            m.zeros(0, 4).repeat(BIG, 1, 3)
        with pytest.raises(RuntimeError):
            m.zeros(0, 4).view(BIG, -1, 2)


@pytest.mark.parametrize("key", [
    slice(0, None, 2**62), slice(0, 5, INT64_MAX), slice(None, None, INT64_MAX), slice(INT64_MIN, None, 2**62),
    slice(INT64_MAX, None), slice(INT64_MIN, None), slice(INT64_MIN, INT64_MAX), slice(1, INT64_MAX, 3),
    slice(-2**70, 2**70, 2**70), slice(3, 1, INT64_MAX),
])
def test_slices_with_any_bounds_and_steps_give_what_lists_give(key):
    data = list(range(5))
    assert wick.arange(5)[key].tolist() == data[key] == np.arange(5)[key].tolist()


def test_narrow_and_select_at_the_edges():
    x = wick.arange(5)
    assert x.narrow(0, 5, 0).tolist() == [] and x.narrow(0, -5, 5).tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(IndexError):
        x.narrow(0, INT64_MIN, 1)
    with pytest.raises(RuntimeError):
        x.narrow(0, 1, INT64_MAX)
    with pytest.raises(IndexError):
        x.select(0, INT64_MIN)


def test_diagonal_offsets_past_the_matrix_are_empty():
    x = wick.arange(12).reshape(3, 4)
    t = torch.arange(12).reshape(3, 4)
    for offset in (INT64_MAX, INT64_MIN, 4, -3, 3, -2):
        assert x.diagonal(offset).tolist() == t.diagonal(offset).tolist()


def test_arange_over_the_whole_int64_range():
    for start, end, step in [(INT64_MIN, INT64_MAX, 2**62), (INT64_MAX, INT64_MIN, -2**62),
                             (INT64_MIN + 1, INT64_MAX, INT64_MAX)]:
        assert wick.arange(start, end, step).tolist() == list(range(start, end, step))


def test_huge_view_sizes_from_int_lists():
    x = wick.zeros(4)
    for shape in [(2**63 - 1, 1), (-1, 2**63 - 1), (2**32, 2**32)]:
        with pytest.raises(RuntimeError):
            x.view(shape)
    with pytest.raises(OverflowError):
        x.view(2**63, 1)


def test_tensors_of_very_many_dims():
    x = wick.zeros([1] * 100_000)
    assert (x + 1).sum().item() == 1.0 and x.view(-1).shape == (1,)
    with pytest.raises(RecursionError):
        x.tolist()
    assert wick.zeros([1] * 500).tolist() == torch.zeros([1] * 500).tolist()
