"""repr() prints as PyTorch does, with `wick.` in place of `torch.`."""
import math

import numpy as np
import pytest

import wick


@pytest.mark.parametrize("make,expected", [
    (lambda: wick.tensor([[1.0, 2.0], [3.0, 4.0]]), "tensor([[1., 2.],\n        [3., 4.]])"),
    (lambda: wick.tensor([1.5, 2.25]), "tensor([1.5000, 2.2500])"),
    (lambda: wick.tensor([-1.5, 2.0]), "tensor([-1.5000,  2.0000])"),
    (lambda: wick.tensor(3.0), "tensor(3.)"),
    (lambda: wick.tensor(5), "tensor(5)"),
    (lambda: wick.tensor([1, 2, 3]), "tensor([1, 2, 3])"),
    (lambda: wick.tensor([True, False]), "tensor([ True, False])"),
    (lambda: wick.zeros(0, 3), "tensor([], size=(0, 3))"),
    (lambda: wick.zeros(0), "tensor([])"),
    (lambda: wick.zeros(0, dtype=wick.int64), "tensor([], dtype=wick.int64)"),
    (lambda: wick.tensor([1.0, 2.0], dtype=wick.float64), "tensor([1., 2.], dtype=wick.float64)"),
    (lambda: wick.tensor([1, 2], dtype=wick.int32), "tensor([1, 2], dtype=wick.int32)"),
    (lambda: wick.tensor([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
    (lambda: wick.tensor([math.nan, 1.0]), "tensor([nan, 1.])"),
    (lambda: wick.tensor([math.inf, -2.5]), "tensor([    inf, -2.5000])"),
    (lambda: wick.arange(2000), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"),
    (lambda: wick.zeros(2, 2, 2),
     "tensor([[[0., 0.],\n         [0., 0.]],\n\n        [[0., 0.],\n         [0., 0.]]])"),
    (lambda: wick.arange(30, dtype=wick.float32),
     "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
     "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
     "        28., 29.])"),
])
def test_repr_matches_pytorch(make, expected):
    assert repr(make()) == expected


def test_repr_of_views_and_half_types():
    assert repr(wick.arange(6).reshape(2, 3).t()) == "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])"
    assert repr(wick.tensor([0.5], dtype=wick.bfloat16)) == "tensor([0.5000], dtype=wick.bfloat16)"


_rng = np.random.default_rng(0)


@pytest.mark.parametrize("array", [
    _rng.standard_normal((10, 200)).astype("float32"),            # every dim summarised, not only the first
    np.arange(3000.0, dtype="float32").reshape(3, 1000),  # integral, a wide range: sci
    np.array([1.0, 2000.0]),
    np.array([3.0, 1e9]),
    _rng.integers(-5, 5, (40, 40, 3)),
    (_rng.standard_normal((7, 7, 7, 7)) * 1e5),
], ids=["summarised-2d", "integral-wide", "integral-ratio", "integral-huge", "int-3d", "float64-4d"])
def test_repr_matches_torch_on_larger_tensors(array):
    torch = pytest.importorskip("torch")
    assert repr(wick.from_numpy(array)).replace("wick.", "torch.") == repr(torch.from_numpy(array))
