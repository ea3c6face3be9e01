"""wick.functional (is_tensor, is_floating_point, is_complex, broadcast_*, atleast_*d, meshgrid) against PyTorch
1.13's functions of the same names, on the same inputs."""
import warnings

import numpy as np
import pytest
import torch

import wick


def both(shape, dtype="float64", start=0):
    data = (np.arange(int(np.prod(shape))) + start).reshape(shape).astype(dtype)
    return wick.tensor(data), torch.tensor(data)


def equal(ours, theirs):
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_type_queries():
    for dtype in ["float32", "float16", "int64", "bool", "uint8"]:
        w, t = both((2,), dtype)
        assert wick.is_tensor(w) and torch.is_tensor(t)
        assert wick.is_floating_point(w) == torch.is_floating_point(t)
        assert wick.is_complex(w) == torch.is_complex(t)
    for obj in [1, [1.0], np.ones(2), None]:
        assert not wick.is_tensor(obj)
        with pytest.raises(TypeError, match="must be Tensor"):
            torch.is_floating_point(obj)
        with pytest.raises(TypeError, match=r"is_floating_point\(\): argument 'input' \(position 1\) must be Tensor"):
            wick.is_floating_point(obj)
        with pytest.raises(TypeError, match="must be Tensor"):
            wick.is_complex(obj)


SHAPES = [[(2, 3), (3,)], [(4, 1, 3), (5, 1), ()], [(0, 1), (1, 4)], [(1,), 3], [(2, 1), [1, 7], (7,)]]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_broadcast_shapes_and_tensors(shapes):
    assert wick.broadcast_shapes(*shapes) == tuple(torch.broadcast_shapes(*shapes))
    tensor_shapes = [s if isinstance(s, (tuple, list)) else (s,) for s in shapes]
    pairs = [both(s, start=i) for i, s in enumerate(tensor_shapes)]
    ours = wick.broadcast_tensors(*(w for w, _ in pairs))
    theirs = torch.broadcast_tensors(*(t for _, t in pairs))
    assert len(ours) == len(theirs)
    for (w, _), o, t in zip(pairs, ours, theirs):
        equal(o, t)
        assert o.numel() == 0 or o.data_ptr() == w.data_ptr()  # views


def test_broadcast_errors():
    with pytest.raises(RuntimeError, match="Shape mismatch"):
        torch.broadcast_shapes((2, 3), (4,))
    with pytest.raises(RuntimeError, match="Shape mismatch"):
        wick.broadcast_shapes((2, 3), (4,))
    with pytest.raises(RuntimeError):
        wick.broadcast_tensors(wick.ones(2), wick.ones(3))
    with pytest.raises(RuntimeError, match="negative dimension"):
        wick.broadcast_shapes((2, -1))


def test_broadcast_to():
    w, t = both((3, 1))
    equal(wick.broadcast_to(w, (2, 3, 4)), torch.broadcast_to(t, (2, 3, 4)))
    with pytest.raises(RuntimeError):
        wick.broadcast_to(w, (2, 4))


def test_broadcast_records_autograd():
    x = wick.ones(3, 1, requires_grad=True)
    a, _ = wick.broadcast_tensors(x, wick.ones(4))
    a.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((3, 1), 4.0))


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (1, 2, 3, 4)], ids=str)
def test_atleast(name, shape):
    w, t = both(shape)
    ours, theirs = getattr(wick, name)(w), getattr(torch, name)(t)
    equal(ours, theirs)
    assert ours.data_ptr() == w.data_ptr()


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_of_several(name):
    pairs = [both(s, start=i) for i, s in enumerate([(), (3,), (2, 2)])]
    for ours, theirs in [(getattr(wick, name)(*(w for w, _ in pairs)), getattr(torch, name)(*(t for _, t in pairs))),
                         (getattr(wick, name)([w for w, _ in pairs]), getattr(torch, name)([t for _, t in pairs]))]:
        assert isinstance(ours, tuple) and len(ours) == len(theirs) == 3
        for o, t in zip(ours, theirs):
            equal(o, t)


@pytest.mark.parametrize("indexing", ["ij", "xy"])
@pytest.mark.parametrize("shapes", [[(3,)], [(3,), (4,)], [(2,), (), (5,)], [(1,), (3,), (2,), (2,)]], ids=str)
def test_meshgrid(indexing, shapes):
    pairs = [both(s, start=10 * i) for i, s in enumerate(shapes)]
    ours = wick.meshgrid(*(w for w, _ in pairs), indexing=indexing)
    theirs = torch.meshgrid(*(t for _, t in pairs), indexing=indexing)
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        equal(o, t)
    for o, t in zip(wick.meshgrid([w for w, _ in pairs], indexing=indexing), theirs):  # one list
        equal(o, t)


def test_meshgrid_without_indexing_warns_and_takes_ij():
    a, b = wick.arange(3), wick.arange(2)
    with pytest.warns(UserWarning, match="indexing argument"):
        x, y = wick.meshgrid(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tx, ty = torch.meshgrid(torch.arange(3), torch.arange(2))
    equal(x, tx)
    equal(y, ty)


def test_meshgrid_errors():
    with pytest.raises(RuntimeError, match="Expected 0D or 1D tensor"):
        wick.meshgrid(wick.ones(2, 2), indexing="ij")
    with pytest.raises(RuntimeError, match="same dtype"):
        wick.meshgrid(wick.ones(2), wick.ones(2, dtype=wick.int64), indexing="ij")
    with pytest.raises(RuntimeError, match="indexing must be one of"):
        wick.meshgrid(wick.ones(2), indexing="yx")
    with pytest.raises(RuntimeError, match="non-empty TensorList"):
        wick.meshgrid(indexing="ij")
