"""sum, mean and max against NumPy: all elements, over dims, keepdim, dtypes, empty inputs and NaN."""
import math

import numpy as np
import pytest

import wick
from reference import DTYPES, NUMPY_DTYPE, assert_close, make, random_values, to_numpy


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_all_matches_numpy(dtype):
    rng = np.random.default_rng(1)
    t = make(random_values(dtype, (4, 5), rng), dtype)
    a = to_numpy(t)
    s = t.sum()
    expected_dtype = "int64" if dtype in ("bool", "uint8", "int8", "int16", "int32", "int64") else dtype
    assert s.shape == () and repr(s.dtype) == f"wick.{expected_dtype}"
    assert_close(s, a.astype(np.float64 if expected_dtype not in ("int64",) else np.int64).sum(), expected_dtype)


@pytest.mark.parametrize("dim,keepdim", [(0, False), (1, True), (-1, False), ((0, 2), False), ([0, 1, 2], True),
                                         ((), False)])
def test_sum_and_mean_over_dims(dim, keepdim):
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, size=(3, 4, 5))
    t = wick.tensor(a.tolist(), dtype=wick.float64)
    axis = tuple(dim) if isinstance(dim, (tuple, list)) else dim
    axis = None if axis == () else axis
    assert_close(t.sum(dim, keepdim=keepdim), a.sum(axis=axis, keepdims=keepdim), "float64")
    assert_close(wick.mean(t, dim, keepdim), a.mean(axis=axis, keepdims=keepdim), "float64")


def test_sum_of_a_transposed_view():
    t = wick.arange(12, dtype=wick.float32).reshape(3, 4).t()
    assert t.sum(0).tolist() == np.arange(12).reshape(3, 4).T.sum(0).tolist()


def test_sum_dtype_argument_and_integer_promotion():
    t = wick.tensor([200, 100], dtype=wick.uint8)
    assert t.sum().item() == 300 and t.sum().dtype is wick.int64
    assert t.sum(dtype=wick.uint8).item() == 44
    assert wick.tensor([True, True]).sum().item() == 2
    assert wick.tensor([0.1] * 10, dtype=wick.float16).sum(dtype=wick.float64).dtype is wick.float64


def test_empty_reductions():
    e = wick.zeros(0, 3)
    assert e.sum().item() == 0 and e.sum(0).tolist() == [0.0, 0.0, 0.0]
    assert math.isnan(e.mean().item())
    with pytest.raises(RuntimeError, match="numel\\(\\) == 0"):
        e.max()


def test_mean_requires_floats():
    assert wick.tensor([1.0, 2.0, 4.0]).mean().item() == pytest.approx(7 / 3)
    with pytest.raises(TypeError, match="floating point"):
        wick.tensor([1, 2]).mean()
    assert wick.tensor([1, 2]).mean(dtype=wick.float64).item() == 1.5


@pytest.mark.parametrize("dtype", DTYPES)
def test_max_matches_numpy(dtype):
    rng = np.random.default_rng(3)
    t = make(random_values(dtype, (7, 3), rng), dtype)
    assert_close(t.max(), to_numpy(t).max(), dtype)
    assert t.max().dtype is t.dtype


def test_max_propagates_nan():
    assert math.isnan(wick.tensor([1.0, math.nan, 3.0]).max().item())
    assert math.isnan(wick.tensor([math.nan, 1.0]).max().item())
    assert wick.tensor([-math.inf, -1.0]).max().item() == -1.0


def test_reduction_dim_errors():
    t = wick.zeros(2, 3)
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.sum(2)
    with pytest.raises(RuntimeError, match="appears multiple times"):
        t.sum((0, 0))
    assert NUMPY_DTYPE["float32"] == np.float32


def test_dim_none_reduces_everything_as_the_signature_says():
    import inspect

    x = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
    for op in (wick.Tensor.sum, wick.Tensor.mean):
        assert str(inspect.signature(getattr(x, op.__name__))) == "(dim=None, keepdim=False, *, dtype=None)"
        assert op(x, dim=None).item() == op(x).item() and op(x, None, True).shape == (1, 1)
    assert x.sum(dim=None, dtype=wick.float64).dtype is wick.float64
