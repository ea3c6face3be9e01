"""Tensor methods that make or view tensors like another (new_*, view_as, reshape_as, type_as, mT) and the small
queries beside them (element_size, nelement, is_complex), against PyTorch 1.13 on the same calls."""
import warnings

import numpy as np
import pytest
import torch

import wick

DTYPES = ["float32", "float64", "int64", "int32", "uint8", "bool", "float16"]


def both(dtype, shape=(2, 3)):
    data = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    return wick.tensor(data), torch.tensor(data)


def same(ours, theirs):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    assert ours.requires_grad == theirs.requires_grad


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["new_zeros", "new_ones", "new_empty"])
@pytest.mark.parametrize("size", [(2, 3), ((4,),), ([],), (0, 5)], ids=str)
def test_new_factories_take_self_dtype(dtype, name, size):
    w, t = both(dtype)
    ours, theirs = getattr(w, name)(*size), getattr(t, name)(*size)
    same(ours, theirs)
    if name != "new_empty":
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("name", ["new_zeros", "new_ones", "new_empty"])
def test_new_factories_keywords(name):
    w, t = both("int64")
    ours = getattr(w, name)(3, dtype=wick.float64, requires_grad=True)
    theirs = getattr(t, name)(3, dtype=torch.float64, requires_grad=True)
    same(ours, theirs)
    assert ours.is_leaf and ours.device == w.device


@pytest.mark.parametrize("dtype", DTYPES)
def test_new_full(dtype):
    w, t = both(dtype)
    ours, theirs = w.new_full((2, 2), 1), t.new_full((2, 2), 1)
    same(ours, theirs)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    same(w.new_full([3], 2.5, dtype=wick.float64), t.new_full([3], 2.5, dtype=torch.float64))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("data", [[1.7, -2.2, 3.0], [[1, 0], [2, 5]], 4])
def test_new_tensor_copies_data_in_self_dtype(dtype, data):
    w, t = both(dtype)
    try:
        theirs = t.new_tensor(data)
    except RuntimeError:  # a value the dtype cannot hold (-2.2 as uint8)
        with pytest.raises(RuntimeError, match="cannot be converted to type"):
            w.new_tensor(data)
        return
    ours = w.new_tensor(data)
    same(ours, theirs)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_new_tensor_of_a_tensor_warns_and_detaches():
    w = wick.ones(2, requires_grad=True)
    source = w * 2
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        copy = w.new_tensor(source)
    assert not copy.requires_grad and copy.grad_fn is None
    copy.add_(1)  # a copy: the source is unchanged
    np.testing.assert_array_equal(source.detach().numpy(), [2.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert w.new_tensor([1], requires_grad=True).requires_grad


def test_view_as_and_reshape_as():
    w, t = both("float32", (2, 6))
    ow, ot = both("int64", (3, 4))
    ours, theirs = w.view_as(ow), t.view_as(ot)
    same(ours, theirs)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert ours.data_ptr() == w.data_ptr()  # a view
    transposed = w.t()
    with pytest.raises(RuntimeError):
        transposed.view_as(ow)
    with pytest.raises(RuntimeError):
        t.t().view_as(ot)
    np.testing.assert_array_equal(transposed.reshape_as(ow).numpy(), t.t().reshape_as(ot).numpy())


def test_view_as_records_the_view_for_autograd():
    x = wick.arange(6.0, requires_grad=True)
    y = (x.view_as(wick.empty(2, 3)) * wick.tensor([[1.0], [2.0]])).sum()
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 1, 1, 2, 2, 2])


@pytest.mark.parametrize("dtype", DTYPES)
def test_type_as(dtype):
    w, t = both("int32")
    ow, ot = both(dtype)
    ours, theirs = w.type_as(ow), t.type_as(ot)
    same(ours, theirs)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert w.type_as(w) is w


@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), (1, 5, 2, 2)])
def test_mT(shape):
    w, t = both("float64", shape)
    np.testing.assert_array_equal(w.mT.numpy(), t.mT.numpy())
    assert w.mT.data_ptr() == w.data_ptr()  # a view


def test_mT_needs_matrices():
    w, t = both("float64", (3,))
    with pytest.raises(RuntimeError, match="only supported on matrices or batches of matrices"):
        t.mT
    with pytest.raises(RuntimeError, match="only supported on matrices or batches of matrices. Got 1-D"):
        w.mT
    # PyTorch 1.13 gives a 0-d tensor back unchanged (deprecated there); wick refuses it, as later PyTorch does.
    with pytest.raises(RuntimeError, match="Got 0-D"):
        wick.tensor(3.0).mT


@pytest.mark.parametrize("dtype", DTYPES)
def test_element_size_nelement_is_complex(dtype):
    w, t = both(dtype, (3, 4))
    assert w.element_size() == t.element_size()
    assert w.nelement() == t.nelement() == 12
    assert w.is_complex() is t.is_complex() is False
