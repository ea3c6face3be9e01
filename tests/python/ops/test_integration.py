"""wick.trapezoid, wick.trapz and wick.cumulative_trapezoid against PyTorch 1.13: spacing by dx or by sample points
x (1-D along dim, or broadcasting against y), every dim, integer and empty inputs, gradients and errors."""
import numpy as np
import pytest
import torch

import wick

FUNCTIONS = ["trapezoid", "trapz", "cumulative_trapezoid"]
rng = np.random.default_rng(0)
Y = rng.standard_normal((3, 4, 5))


def check(name, y, *args, **kwargs):
    """name(y, *args, **kwargs) in wick and torch (numpy arrays converted to each's tensors) agree."""
    def convert(module, v):
        return module.tensor(v) if isinstance(v, np.ndarray) else v
    ours = getattr(wick, name)(convert(wick, y), *(convert(wick, a) for a in args), **kwargs)
    theirs = getattr(torch, name)(convert(torch, y), *(convert(torch, a) for a in args), **kwargs)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_spacing(name, dim):
    check(name, Y, dim=dim)
    check(name, Y, dx=0.25, dim=dim)
    x = np.cumsum(rng.random(Y.shape[dim]))
    check(name, Y, x, dim=dim)
    check(name, Y, np.cumsum(rng.random(Y.shape), axis=dim), dim=dim)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_broadcasting_x_integers_and_empty(name):
    check(name, Y, np.arange(4.0).reshape(4, 1), dim=1)
    check(name, np.array([1, 2, 4]))
    check(name, np.array([1, 2, 4]), dx=2)
    check(name, np.array([[1, 2, 4]]), np.array([0, 1, 3]))
    check(name, np.zeros((2, 0)))
    check(name, np.zeros((2, 1)))
    if name != "cumulative_trapezoid":
        check(name, np.zeros(0, dtype=np.int64))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_gradient(name):
    y = wick.tensor(Y, requires_grad=True)
    t = torch.tensor(Y, requires_grad=True)
    x = np.cumsum(rng.random(5))
    getattr(wick, name)(y, wick.tensor(x)).sum().backward()
    getattr(torch, name)(t, torch.tensor(x)).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), t.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_errors(name):
    for bad in [lambda m: getattr(m, name)(m.ones(3), m.ones(2)),
                lambda m: getattr(m, name)(m.ones(3), dim=2),
                lambda m: getattr(m, name)(m.tensor(3.0)),
                lambda m: getattr(m, name)(m.ones(2, 3), m.ones(4, 3)),
                lambda m: getattr(m, name)([1.0, 2.0])]:
        with pytest.raises(Exception) as expected:
            bad(torch)
        with pytest.raises(expected.type):
            bad(wick)
