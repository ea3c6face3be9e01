"""Operands laid out otherwise than row-major, against NumPy and PyTorch: kernels whose operands lie
across the output's rows (Note [Transposed operands] in wick/cpu/loops.h: copies of transposes and
permutes, pointwise ops mixing layouts, walked in tiles, with sizes that straddle the tile side (64)
and the smallest tiled shape), the layout of new pointwise results, and reductions of permuted
tensors; at one and at two threads."""
import numpy as np
import pytest
import torch

import wick
from reference import to_numpy

DTYPES = ["float32", "float64", "float16", "int8", "int64", "bool"]


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def threads(request):
    before = wick.get_num_threads()
    wick.set_num_threads(request.param)
    yield request.param
    wick.set_num_threads(before)


def values(shape, dtype, seed=0):
    a = np.random.default_rng(seed).uniform(-100, 100, shape)
    return (a > 0) if dtype == "bool" else a.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(64, 64), (300, 129), (129, 300), (8, 2048), (2048, 8), (1000, 7)])
def test_contiguous_copy_of_a_transpose(shape, dtype, threads):
    a = values(shape, dtype)
    x = wick.from_numpy(a).t()
    result = x.contiguous()
    assert result.is_contiguous()
    np.testing.assert_array_equal(to_numpy(result), a.T)
    out = wick.empty(shape[::-1], dtype=getattr(wick, dtype))
    out.copy_(x)
    np.testing.assert_array_equal(to_numpy(out), a.T)


@pytest.mark.parametrize("dtype", ["float32", "int8", "float16"])
@pytest.mark.parametrize("dims", [(0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1), (1, 0, 2)])
def test_contiguous_copy_of_a_permute(dims, dtype, threads):
    a = values((70, 33, 130), dtype)
    result = wick.from_numpy(a).permute(*dims).contiguous()
    np.testing.assert_array_equal(to_numpy(result), a.transpose(dims))


@pytest.mark.parametrize("shape", [(200, 150), (65, 1000)])
def test_converting_copy_of_a_transpose(shape, threads):
    a = values(shape, "float32")
    for dtype in ["float64", "float16", "int32"]:
        result = wick.from_numpy(a).t().to(getattr(wick, dtype), memory_format=wick.contiguous_format)
        np.testing.assert_array_equal(to_numpy(result), a.T.astype(dtype))


def test_writing_into_a_transposed_output(threads):
    a = values((300, 200), "float32")
    out = wick.zeros(200, 300)
    out.t().copy_(wick.from_numpy(a))
    np.testing.assert_array_equal(to_numpy(out), a.T)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_pointwise_ops_mixing_layouts(dtype, threads):
    a, b = values((257, 190), dtype, 1), values((190, 257), dtype, 2)
    x, y = wick.from_numpy(a), wick.from_numpy(b).t()
    np.testing.assert_array_equal(to_numpy(x + y), a + b.T)
    np.testing.assert_array_equal(to_numpy(wick.maximum(y, x)), np.maximum(b.T, a))
    if dtype != "int64":
        expected = np.where(a > b.T, a, b.T * 2)
        np.testing.assert_array_equal(to_numpy(wick.where(x > y, x, y * 2)), expected)


def test_flipped_and_sliced_operands(threads):
    a = values((400, 300), "float32")
    x = wick.from_numpy(a)
    np.testing.assert_array_equal(to_numpy(x.flip(0).t().contiguous()), a[::-1].T)
    np.testing.assert_array_equal(to_numpy(x[::3, 1::2].t().contiguous()), a[::3, 1::2].T)
    np.testing.assert_array_equal(to_numpy(x.t()[5:200].contiguous()), a.T[5:200])


@pytest.mark.parametrize("op", ["exp", "abs", "neg", "sigmoid"])
def test_pointwise_results_keep_their_operands_layout(op):
    # As PyTorch: a new result is laid out as the first operand of its whole shape; its values are
    # those of the same op on a contiguous copy (PyTorch's exp may differ by an ulp at some CPU levels).
    a = values((40, 30, 20), "float32")
    for dims in [(1, 0, 2), (2, 1, 0), (0, 2, 1)]:
        x, t = wick.from_numpy(a).permute(*dims), torch.from_numpy(a).permute(*dims)
        ours, theirs = getattr(x, op)(), getattr(t, op)()
        assert ours.stride() == theirs.stride()
        np.testing.assert_array_equal(to_numpy(ours), to_numpy(getattr(x.contiguous(), op)()))
    x, t = wick.from_numpy(a[0]).t(), torch.from_numpy(a[0]).t()
    y, u = wick.from_numpy(a[1]), torch.from_numpy(a[1])
    assert (x + y.t().contiguous()).stride() == (t + u.t().contiguous()).stride()
    assert (y.t().contiguous() + x).stride() == (u.t().contiguous() + t).stride()
    assert (x[::2] * 2).stride() == (t[::2] * 2).stride()


@pytest.mark.parametrize("name", ["sum", "mean", "amax", "amin", "prod", "all", "any", "argmax", "norm", "var"])
def test_reductions_of_transposed_and_permuted_tensors(name, threads):
    # Reducers that ignore positions walk memory in order; argmax keeps its logical positions.
    a = np.random.default_rng(5).uniform(0.5, 1.5, (30, 40, 50)).astype(np.float64)
    for dims in [(1, 0, 2), (2, 1, 0), (0, 2, 1)]:
        x, t = wick.from_numpy(a).permute(*dims), torch.from_numpy(a).permute(*dims)
        for dim in [None, 0, 1, 2, (0, 2)]:
            if isinstance(dim, tuple) and name in ("argmax", "all", "any", "prod"):
                continue  # one dim at most, in PyTorch 1.13
            kwargs = {} if dim is None else {"dim": dim}
            ours, theirs = getattr(x, name)(**kwargs), getattr(t, name)(**kwargs)
            np.testing.assert_allclose(to_numpy(ours), theirs.numpy(), rtol=1e-12)
