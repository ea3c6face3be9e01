"""The in-place view ops t_, transpose_ (and its aliases), squeeze_ and unsqueeze_, and Tensor.unfold, against
torch 1.13: geometry, shared memory, errors and gradients."""
import numpy as np
import pytest
import torch

import wick

CALLS = [("t_", ()), ("transpose_", (0, 2)), ("transpose_", (-1, 1)), ("swapaxes_", (0, 1)), ("swapdims_", (2, 0)),
         ("squeeze_", ()), ("squeeze_", (1,)), ("squeeze_", (0,)), ("unsqueeze_", (0,)), ("unsqueeze_", (-1,)),
         ("unsqueeze_", (2,))]


def pair(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return wick.tensor(a.tolist()), torch.tensor(a)


@pytest.mark.parametrize("name,args", CALLS, ids=lambda v: str(v))
@pytest.mark.parametrize("shape", [(2, 1, 3), (4, 1), (1,), ()], ids=str)
def test_in_place_views_as_torch(name, args, shape):
    w, t = pair(shape)
    try:
        expected = getattr(t, name)(*args)
    except (RuntimeError, IndexError) as e:
        with pytest.raises(type(e)):
            getattr(w, name)(*args)
        assert tuple(w.shape) == shape  # refused: unchanged
        return
    storage = w.data_ptr()
    result = getattr(w, name)(*args)
    assert result is w
    assert tuple(w.shape) == tuple(expected.shape) and w.stride() == expected.stride()
    assert w.data_ptr() == storage
    np.testing.assert_array_equal(w.numpy(), expected.numpy())


def test_in_place_view_of_a_view_keeps_sharing_memory():
    base = wick.zeros(2, 3)
    v = base[1]
    v.unsqueeze_(0)
    assert v.shape == (1, 3)
    v[0, 2] = 7
    assert base[1, 2].item() == 7
    row = base.t()
    row.t_()
    assert row.shape == (2, 3) and row.is_contiguous()


def test_in_place_views_and_autograd():
    a = wick.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf"):
        a.t_()
    for name, args, forward in [("t_", (), lambda x: x.t()), ("unsqueeze_", (1,), lambda x: x.unsqueeze(1)),
                                ("transpose_", (0, 1), lambda x: x.transpose(0, 1))]:
        w = wick.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        t = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        wy, ty = w * 2, t * 2
        getattr(wy, name)(*args)
        getattr(ty, name)(*args)
        weights = np.arange(ty.numel(), dtype=np.float32).reshape(tuple(ty.shape))
        (wy * wick.tensor(weights.tolist())).sum().backward()
        (ty * torch.tensor(weights)).sum().backward()
        np.testing.assert_array_equal(w.grad.numpy(), t.grad.numpy())
    w = wick.ones(3, 1, requires_grad=True)
    y = w * 3
    y.squeeze_()
    y.sum().backward()
    assert w.grad.shape == (3, 1) and w.grad.tolist() == [[3.0], [3.0], [3.0]]


def test_in_place_view_of_a_view_that_requires_grad_is_refused():
    y = wick.ones(2, 3, requires_grad=True) * 2
    v = y[0]
    with pytest.raises(RuntimeError, match="view"):
        v.unsqueeze_(0)
    assert v.shape == (3,)
    with wick.no_grad():
        v.unsqueeze_(0)
    assert v.shape == (1, 3)


@pytest.mark.parametrize("shape,dim,size,step", [((7,), 0, 3, 2), ((7,), 0, 7, 1), ((7,), -1, 1, 10), ((3, 8), 1, 3, 2),
                                                  ((3, 8), 0, 2, 1), ((4, 5, 6), 2, 4, 3), ((2, 0), 1, 0, 1),
                                                  ((5,), 0, 0, 2), ((), 0, 1, 1), ((), -1, 0, 1)])
def test_unfold_as_torch(shape, dim, size, step):
    w, t = pair(shape)
    wu, tu = w.unfold(dim, size, step), t.unfold(dim, size, step)
    assert tuple(wu.shape) == tuple(tu.shape) and wu.stride() == tu.stride()
    np.testing.assert_array_equal(wu.numpy(), tu.numpy())
    if wu.numel():
        assert wu.data_ptr() == w.data_ptr()


@pytest.mark.parametrize("args", [(0, 8, 1), (0, -1, 1), (0, 2, 0), (0, 2, -1), (1, 2, 1), (-2, 2, 1)])
def test_unfold_errors_as_torch(args):
    w, t = pair((7,))
    with pytest.raises(Exception) as expected:
        t.unfold(*args)
    with pytest.raises(type(expected.value)):
        w.unfold(*args)


def test_unfold_gradient_sums_overlapping_windows():
    w = wick.tensor(np.linspace(-1, 1, 24).reshape(4, 6).tolist(), dtype=wick.float64, requires_grad=True)
    t = torch.tensor(np.linspace(-1, 1, 24).reshape(4, 6), requires_grad=True)
    wu, tu = w.unfold(1, 3, 1), t.unfold(1, 3, 1)
    weights = np.arange(tu.numel(), dtype=np.float64).reshape(tuple(tu.shape))
    (wu * wick.tensor(weights.tolist(), dtype=wick.float64)).pow(2).sum().backward()
    (tu * torch.tensor(weights)).pow(2).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), t.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("size", [(2, 2), (4,), (3, 3), (0,), (), (1, 4, 1)], ids=str)
def test_resize_as_torch(size):
    w, t = pair((4,))
    assert w.resize_(size) is w and (not size or w.resize_(*size) is w)
    t.resize_(size)
    assert tuple(w.shape) == tuple(t.shape) and w.stride() == t.stride() and w.is_contiguous()
    kept = min(4, int(np.prod(size)))
    np.testing.assert_array_equal(w.reshape(-1)[:kept].numpy(), t.reshape(-1)[:kept].numpy())
    other = wick.empty(7)
    assert other.resize_as_(w) is other and other.shape == w.shape
    assert wick.resize_as_(wick.empty(1), w).shape == w.shape


def test_resize_refusals():
    with pytest.raises(RuntimeError, match="require grad"):
        wick.ones(2, requires_grad=True).resize_(4)
    with pytest.raises(RuntimeError, match="require grad"):
        (wick.ones(2, requires_grad=True) * 2).resize_(1)
    with pytest.raises(ValueError):
        wick.ones(2).resize_(-1)
    with pytest.raises(MemoryError):
        wick.ones(2).resize_(2 ** 40, 2 ** 40)
    with pytest.raises(TypeError):
        wick.ones(2).resize_("a")


@pytest.mark.parametrize("step", [2 ** 60, 2 ** 62, 2 ** 63 - 1])
def test_unfold_with_one_window_keeps_byte_strides_in_range(step):
    """A window stride step * stride is taken only where it fits in bytes: one window reaches no second."""
    for dtype in (wick.float64, wick.int8):
        w = wick.arange(7).to(dtype).unfold(0, 2, step)
        assert w.shape == (1, 2) and w.tolist() == [[0, 1]] and w.numpy().tolist() == [[0, 1]]
        assert all(abs(s) * w.itemsize < 2 ** 63 for s in w.stride())


def test_a_stride_past_int64_bytes_is_refused():
    with pytest.raises(RuntimeError, match="more bytes than an int64 holds"):
        wick.empty_strided((1,), (2 ** 62,))
    assert wick.empty_strided((1,), (2 ** 60,), dtype=wick.int8).stride() == (2 ** 60,)
