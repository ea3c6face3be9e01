"""Views share storage with their base; their sizes and strides match NumPy's. detach() shares it too."""
import numpy as np
import pytest

import wick
from reference import to_numpy


def base():
    return wick.arange(24, dtype=wick.float32).reshape(2, 3, 4)


def nbase():
    return np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def shares(a, b):
    return a.data_ptr() <= b.data_ptr() < a.data_ptr() + a.numel() * a.itemsize or a.data_ptr() == b.data_ptr()


def test_t_shares_storage():
    a = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = a.t()
    assert b.data_ptr() == a.data_ptr() and b.tolist() == [[1.0, 3.0], [2.0, 4.0]]
    b[0, 1] = 10
    assert a[1, 0].item() == 10


@pytest.mark.parametrize("op,ref", [
    (lambda t: t.view(6, 4), lambda a: a.reshape(6, 4)),
    (lambda t: t.view((4, -1)), lambda a: a.reshape(4, -1)),
    (lambda t: t.view(24), lambda a: a.reshape(24)),
    (lambda t: t.reshape(3, 8), lambda a: a.reshape(3, 8)),
    (lambda t: t.transpose(0, 2), lambda a: a.transpose(2, 1, 0)),
    (lambda t: t.transpose(-1, -2), lambda a: a.swapaxes(-1, -2)),
    (lambda t: t.permute(2, 0, 1), lambda a: a.transpose(2, 0, 1)),
    (lambda t: t.permute((1, 2, 0)), lambda a: a.transpose(1, 2, 0)),
    (lambda t: t.narrow(2, 1, 2), lambda a: a[:, :, 1:3]),
    (lambda t: t.select(1, -1), lambda a: a[:, -1]),
    (lambda t: t[:, ::2, 1:], lambda a: a[:, ::2, 1:]),
    (lambda t: t[0].unsqueeze(0), lambda a: a[0][None]),
    (lambda t: t[:, :1].squeeze(), lambda a: a[:, :1].squeeze()),
    (lambda t: t[:, :1].squeeze(1), lambda a: a[:, :1].squeeze(1)),
    (lambda t: t[:1].expand(3, 3, 4), lambda a: np.broadcast_to(a[:1], (3, 3, 4))),
    (lambda t: t[:1].expand(-1, 3, 4), lambda a: a[:1]),
])
def test_views_match_numpy_and_share_storage(op, ref):
    t, nb = base(), nbase()
    v = op(t)
    expected = ref(nb)
    assert v.shape == expected.shape
    assert to_numpy(v).tolist() == expected.tolist()
    assert shares(t, v)
    if np.shares_memory(expected, nb):
        # Strides of size-1 dims carry no meaning; NumPy and PyTorch pick differently.
        ours = [s for s, n in zip(v.stride(), v.shape) if n > 1]
        numpys = [s // 4 for s, n in zip(expected.strides, expected.shape) if n > 1]
        assert ours == numpys


def test_writes_through_views_reach_the_base():
    t = base()
    t.transpose(0, 2)[1, 2, 0] = -1
    t.narrow(2, 0, 1).fill_(7)
    expected = nbase()
    expected.transpose(2, 1, 0)[1, 2, 0] = -1
    expected[:, :, 0:1] = 7
    assert to_numpy(t).tolist() == expected.tolist()


def test_view_needs_compatible_strides_and_reshape_copies():
    t = base().transpose(0, 1)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        t.view(24)
    r = t.reshape(24)
    assert r.tolist() == nbase().transpose(1, 0, 2).reshape(24).tolist()
    assert r.data_ptr() != t.data_ptr()


def test_reshape_of_contiguous_is_a_view():
    t = base()
    assert t.reshape(4, 6).data_ptr() == t.data_ptr()


@pytest.mark.parametrize("call,exc,match", [
    (lambda t: t.view(5, 5), RuntimeError, "invalid for input of size 24"),
    (lambda t: t.view(-1, -1), RuntimeError, "only one dimension can be inferred"),
    (lambda t: t.transpose(0, 3), IndexError, "Dimension out of range"),
    (lambda t: t.permute(0, 1), RuntimeError, "number of dims"),
    (lambda t: t.permute(0, 0, 1), RuntimeError, "repeated dim"),
    (lambda t: t.narrow(0, 1, 5), RuntimeError, "exceeds dimension size"),
    (lambda t: t.select(1, 3), IndexError, "out of bounds"),
    (lambda t: t.expand(3, 4), RuntimeError, "must be greater or equal"),
    (lambda t: t.expand(2, 5, 4), RuntimeError, "must match the existing size"),
    (lambda t: t.t(), RuntimeError, "<= 2 dimensions"),
    (lambda t: t.unsqueeze(5), IndexError, "Dimension out of range"),
])
def test_view_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call(base())


def test_t_of_vectors_and_scalars():
    v = wick.arange(3)
    assert v.t().tolist() == [0, 1, 2] and wick.tensor(1).t().shape == ()


def test_detach_shares_memory_with_its_own_object():
    base = wick.arange(12.0).reshape(3, 4)
    x = base[1:, ::2]
    d = x.detach()
    assert d is not x and d._base is None
    assert d.data_ptr() == x.data_ptr() and d.stride() == x.stride() and d.storage_offset() == x.storage_offset()
    assert d.shape == x.shape and d.dtype is x.dtype
    d.fill_(-1)
    assert base.tolist() == [[0.0, 1.0, 2.0, 3.0], [-1.0, 5.0, -1.0, 7.0], [-1.0, 9.0, -1.0, 11.0]]
    f = wick.detach(x)
    assert f is not x and f is not d and f.data_ptr() == x.data_ptr()
    d.foo = 1
    assert not hasattr(x, "foo")
    assert x.detach_() is x
