"""Factories (linspace, logspace, eye, randint, randperm, the *_like ones) against NumPy and PyTorch's rules,
where the declared op tests (ops/test_declared_ops.py) do not reach: default dtypes, devices, memory layouts,
ends met exactly, integer truncation, random draws, arguments no sample gives, and the errors."""
import numpy as np
import pytest
import torch

import wick
from reference import DTYPES, FLOATS, NUMPY_DTYPE, assert_close, make, random_values, to_numpy, wdtype

LIKE_OPS = ["empty_like", "zeros_like", "ones_like", "rand_like", "randn_like"]


def source(dtype, shape=(2, 3)):
    rng = np.random.default_rng(1)
    return make(random_values(dtype, shape, rng), dtype)


# --- *_like -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", LIKE_OPS + ["full_like"])
def test_like_keeps_shape_dtype_and_device(op, dtype):
    x = source(dtype)
    args = (x, 1) if op == "full_like" else (x,)
    if op in ("rand_like", "randn_like") and dtype not in FLOATS:
        with pytest.raises(TypeError, match=f"{op}.*floating-point"):
            getattr(wick, op)(*args)
        return
    result = getattr(wick, op)(*args)
    assert result is not x and tuple(result.shape) == (2, 3)
    assert result.dtype is x.dtype and result.device == x.device
    assert result.data_ptr() != x.data_ptr()
    if op == "zeros_like":
        assert not to_numpy(result).any()
    elif op in ("ones_like", "full_like"):
        assert (to_numpy(result) == 1).all()


@pytest.mark.parametrize("op", LIKE_OPS + ["full_like"])
@pytest.mark.parametrize("dtype", ["float64", "float16", "int32"])
def test_like_dtype_and_device_override(op, dtype):
    x = source("int64")
    args = (x, 2) if op == "full_like" else (x,)
    if op in ("rand_like", "randn_like") and dtype == "int32":
        with pytest.raises(TypeError, match=f"{op}.*int32"):
            getattr(wick, op)(*args, dtype=wdtype(dtype), device="cpu")
        return
    result = getattr(wick, op)(*args, dtype=wdtype(dtype), device="cpu")
    assert result.dtype is wdtype(dtype) and tuple(result.shape) == (2, 3) and result.device.type == "cpu"


def test_like_random_ops_refuse_integer_results():
    with pytest.raises(TypeError, match="rand_like"):
        wick.rand_like(wick.ones(2), dtype=wick.int32)
    with pytest.raises(TypeError, match="randn_like"):
        wick.randn_like(wick.ones(2, dtype=wick.int64))
    assert wick.rand_like(wick.ones(2, dtype=wick.int64), dtype=wick.float64).dtype is wick.float64


@pytest.mark.parametrize("make_input,strides", [
    (lambda: wick.ones(3, 4).t(), (1, 4)),                              # transposed: dense, kept
    (lambda: wick.ones(2, 3, 4).permute(2, 0, 1), (1, 12, 4)),          # permuted: dense, kept
    (lambda: wick.ones(3, 4)[:, ::2], (2, 1)),                          # gaps: dense, same order
    (lambda: wick.ones(2, 3, 4)[:, ::2].transpose(1, 2), (8, 1, 4)),    # gaps and a transpose
    (lambda: wick.ones(3, 1).expand(3, 4), (4, 1)),                     # stride 0: row-major
    (lambda: wick.ones(0, 3).t(), (1, 3)),
    (lambda: wick.ones(2, 3), (3, 1)),
])
@pytest.mark.parametrize("op", LIKE_OPS + ["full_like"])
def test_like_preserves_memory_layout(op, make_input, strides):
    x = make_input()
    args = (x, 5) if op == "full_like" else (x,)
    result = getattr(wick, op)(*args)
    assert result.stride() == strides and tuple(result.shape) == tuple(x.shape)


def test_full_like_values():
    x = wick.ones(2, 2, dtype=wick.int64)
    assert wick.full_like(x, 7).tolist() == [[7, 7], [7, 7]]
    assert wick.full_like(x, 2.5).tolist() == [[2, 2], [2, 2]]  # converted to the dtype, as PyTorch
    assert wick.full_like(wick.ones(2), True).tolist() == [1.0, 1.0]
    assert wick.full_like(x, 1.5, dtype=wick.float64).tolist() == [[1.5, 1.5], [1.5, 1.5]]
    assert wick.full_like(wick.ones(3).t(), -1, dtype=wick.bool).tolist() == [True] * 3


def test_rand_like_values():
    x = wick.ones(200, 10, dtype=wick.float64).t()
    r = wick.rand_like(x)
    values = to_numpy(r)
    assert r.stride() == x.stride() and (values >= 0).all() and (values < 1).all() and values.std() > 0.2
    n = to_numpy(wick.randn_like(x))
    assert abs(n.mean()) < 0.15 and 0.85 < n.std() < 1.15
    wick.manual_seed(3)
    a = wick.rand_like(x).tolist()
    wick.manual_seed(3)
    assert wick.rand_like(x).tolist() == a


# --- linspace, logspace, eye ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-1.3, 7.1, 13), (3, -2.7, 9), (0.1, 0.2, 101),
                                             (2.5, 2.5, 4), (-3, 3, 1000), (1, 2, 2)])
def test_linspace_matches_numpy(start, end, steps, dtype):
    result = wick.linspace(start, end, steps, dtype=wdtype(dtype))
    assert result.dtype is wdtype(dtype) and tuple(result.shape) == (steps,)
    ref = np.linspace(np.array(start, NUMPY_DTYPE[dtype]), np.array(end, NUMPY_DTYPE[dtype]), steps)
    assert_close(result, ref, dtype)
    assert result[-1].item() == np.array(end, NUMPY_DTYPE[dtype]).item()  # end is met exactly


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8"])
def test_linspace_integer_dtypes(dtype):
    # Start and end become values of the dtype first; the others truncate toward zero.
    assert wick.linspace(0, 10, 6, dtype=wdtype(dtype)).tolist() == [0, 2, 4, 6, 8, 10]
    assert wick.linspace(10, 0, 4, dtype=wdtype(dtype)).tolist() == [10, 6, 3, 0]
    assert wick.linspace(0.5, 10.7, 6, dtype=wdtype(dtype)).tolist() == [0, 2, 4, 6, 8, 10]
    if dtype != "uint8":
        assert wick.linspace(-7, 3, 4, dtype=wdtype(dtype)).tolist() == [-7, -3, 0, 3]


def test_linspace_defaults_and_edges():
    assert wick.linspace(0, 10, 5).dtype is wick.float32  # integers in, default float out
    assert wick.linspace(0, 10, 5).tolist() == [0.0, 2.5, 5.0, 7.5, 10.0]
    assert wick.linspace(2.5, 5, 1).tolist() == [2.5]
    assert tuple(wick.linspace(2.5, 5, 0).shape) == (0,)
    assert wick.linspace(start=0, end=1, steps=3, dtype=wick.float64).tolist() == [0.0, 0.5, 1.0]
    assert wick.linspace(-128, 127, 3, dtype=wick.int8).tolist() == [-128, 0, 127]  # the dtype's whole range
    assert np.isnan(to_numpy(wick.linspace(0, float("inf"), 3))).any()  # floats take infinities, as PyTorch
    with pytest.raises(TypeError, match="steps"):
        wick.linspace(0, 1)  # steps is required, as in PyTorch 1.13


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("start,end,steps,base", [(0, 3, 4, 10.0), (0, 3, 4, 2), (-2, 0, 3, 10.0),
                                                  (1.5, -1.5, 7, 2.5), (0, 1, 50, 10.0), (3, 3, 2, 10.0)])
def test_logspace_matches_numpy(start, end, steps, base, dtype):
    result = wick.logspace(start, end, steps, base, dtype=wdtype(dtype))
    assert result.dtype is wdtype(dtype)
    assert_close(result, np.logspace(start, end, steps, base=base), dtype)
    assert_close(wick.logspace(start, end, steps, base=base, dtype=wdtype(dtype)),
                 np.logspace(start, end, steps, base=base), dtype)


def test_logspace_defaults_and_edges():
    assert wick.logspace(0, 2, 3).dtype is wick.float32
    assert wick.logspace(0, 2, 3).tolist() == [1.0, 10.0, 100.0]
    assert wick.logspace(2, 5, 1).tolist() == [100.0]
    assert tuple(wick.logspace(2, 5, 0).shape) == (0,)
    assert wick.logspace(0, 3, 4, dtype=wick.int64).tolist() == [1, 10, 100, 1000]
    assert wick.logspace(0, 3, 4, base=2, dtype=wick.int32).tolist() == [1, 2, 4, 8]
    assert wick.logspace(0.5, 2.5, 3, dtype=wick.int64).tolist() == [1, 10, 100]  # exponents truncate first


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 2), (0, 3), (1, 1)])  # (3,), (2, 4) and (0,): eye-<dtype>-contiguous
def test_eye_matches_numpy(shape, dtype):
    result = wick.eye(*shape, dtype=wdtype(dtype))
    assert result.dtype is wdtype(dtype)
    assert_close(result, np.eye(*shape), dtype)


def test_eye_default_dtype_and_keywords():
    assert wick.eye(2).dtype is wick.float32
    assert wick.eye(n=2, m=3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


# --- randint, randperm --------------------------------------------------------------------------

def test_randint_range_shape_and_dtype():
    r = wick.randint(3, 7, (40, 50))
    values = to_numpy(r)
    assert r.dtype is wick.int64 and tuple(r.shape) == (40, 50)
    assert values.min() == 3 and values.max() == 6  # every value of [3, 7) turns up in 2000 draws
    assert set(np.unique(to_numpy(wick.randint(5, (1000,)))).tolist()) == {0, 1, 2, 3, 4}
    assert to_numpy(wick.randint(-2**62, 2**62, (100,))).std() > 2**58  # a wide range, no overflow
    assert tuple(wick.randint(5, (0, 3)).shape) == (0, 3)
    assert tuple(wick.randint(5, ()).shape) == ()


@pytest.mark.parametrize("dtype", DTYPES)
def test_randint_dtypes(dtype):
    high = 2 if dtype == "bool" else 100
    r = wick.randint(0, high, (500,), dtype=wdtype(dtype))
    values = to_numpy(r).astype(np.float64)
    assert r.dtype is wdtype(dtype)
    assert values.min() == 0 and values.max() == high - 1 and (values == np.round(values)).all()


def test_randint_determinism():
    wick.manual_seed(123)
    a, p = wick.randint(0, 1000, (50,)).tolist(), wick.randperm(50).tolist()
    wick.manual_seed(123)
    assert wick.randint(0, 1000, (50,)).tolist() == a and wick.randperm(50).tolist() == p
    wick.manual_seed(124)
    assert wick.randint(0, 1000, (50,)).tolist() != a


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "uint8", "float32", "float64", "float16", "bfloat16"])
def test_randperm_is_a_permutation(dtype):
    n = 200
    r = wick.randperm(n, dtype=wdtype(dtype))
    values = to_numpy(r).astype(np.int64)
    assert r.dtype is wdtype(dtype) and tuple(r.shape) == (n,)
    assert sorted(values.tolist()) == list(range(n)) and values.tolist() != list(range(n))


def test_randperm_defaults_and_edges():
    assert wick.randperm(5).dtype is wick.int64
    assert wick.randperm(0).tolist() == [] and wick.randperm(1).tolist() == [0]
    assert sorted(wick.randperm(256, dtype=wick.uint8).tolist()) == list(range(256))
    wick.manual_seed(0)
    counts = np.zeros(4)
    for _ in range(400):
        counts[wick.randperm(4).tolist().index(0)] += 1
    assert counts.min() > 50  # 0 lands in every position


@pytest.mark.parametrize("call,exc,match", [
    (lambda: wick.linspace(0, 1, -1), ValueError, "non-negative"),
    (lambda: wick.linspace(0, 1, 3, dtype=wick.bool), TypeError, "Bool"),
    (lambda: wick.linspace(0, 1, 2.5), TypeError, "linspace"),
    (lambda: wick.linspace(0, 300, 3, dtype=wick.uint8), RuntimeError, "cannot be converted to type uint8_t"),
    (lambda: wick.linspace(0, float("inf"), 3, dtype=wick.int64), RuntimeError, "cannot be converted to type int64_t"),
    (lambda: wick.linspace(0, 1e6, 3, dtype=wick.float16), RuntimeError, "cannot be converted to type at::Half"),
    (lambda: wick.logspace(0, 1e300, 3), RuntimeError, "cannot be converted to type float without overflow"),
    (lambda: wick.logspace(0, 1, -2), ValueError, "non-negative"),
    (lambda: wick.logspace(0, 1, 3, dtype=wick.bool), TypeError, "Bool"),
    (lambda: wick.logspace(0, 1, 3, base="e"), TypeError, "logspace"),
    (lambda: wick.eye(-1), ValueError, "n must be greater or equal to 0, got -1"),
    (lambda: wick.eye(2, -3), ValueError, "m must be greater or equal to 0, got -3"),
    (lambda: wick.eye(2, None), TypeError, "eye"),
    (lambda: wick.eye(2 ** 40, 2 ** 40), MemoryError, ""),
    (lambda: wick.randint(5, 5, (3,)), ValueError, "from=5 >= to=5"),
    (lambda: wick.randint(0, (3,)), ValueError, "from=0 >= to=0"),
    (lambda: wick.randint(0, 300, (3,), dtype=wick.uint8), ValueError, "out of bounds for uint8"),
    (lambda: wick.randint(-1, 3, (3,), dtype=wick.uint8), ValueError, "out of bounds for uint8"),
    (lambda: wick.randint(0, 3, (3,), dtype=wick.bool), ValueError, "out of bounds for bool"),
    (lambda: wick.randint(0, 3, (-1,)), ValueError, ""),
    (lambda: wick.randint(0, 3.5, (3,)), TypeError, "randint"),
    (lambda: wick.randperm(-1), ValueError, "non-negative"),
    (lambda: wick.randperm(300, dtype=wick.uint8), ValueError, "too large"),
    (lambda: wick.randperm(2050, dtype=wick.float16), ValueError, "too large"),
    (lambda: wick.randperm(3, dtype=wick.bool), TypeError, "Bool"),
    (lambda: wick.zeros_like([1, 2]), TypeError, "zeros_like"),
    (lambda: wick.full_like(wick.ones(2)), TypeError, "full_like"),
    (lambda: wick.ones_like(wick.ones(2), device="cuda:0"), RuntimeError, "CUDA|cuda"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_randint_float16_beyond_exact_integers_warns():
    with pytest.warns(UserWarning, match="holds exactly"):
        wick.randint(0, 5000, (3,), dtype=wick.float16)


@pytest.mark.parametrize("size,stride", [((2, 3), (3, 1)), ((2, 3), (1, 2)), ((3, 4), (0, 1)), ((2, 0, 3), (9, 5, 1)),
                                         ((), ()), ((5,), (3,)), ((2, 2), (5, 7))])
def test_empty_strided_as_torch(size, stride):
    w = wick.empty_strided(size, stride, dtype=wick.int16)
    t = torch.empty_strided(size, stride, dtype=torch.int16)
    assert w.shape == tuple(t.shape) and w.stride() == t.stride() and w.dtype == wick.int16
    assert w.storage_offset() == 0 and w._base is None
    if 0 not in stride:  # elements that share memory cannot be written in place
        w.fill_(3)
        assert (w == 3).all().item()
    assert wick.empty_strided(size, stride, requires_grad=True).requires_grad


@pytest.mark.parametrize("size,stride,error", [
    ((2, 3), (1,), RuntimeError), ((2,), (-1,), RuntimeError), ((-1,), (1,), ValueError),
    ((2 ** 40, 2 ** 40), (2 ** 40, 1), MemoryError), ((2, 2 ** 62), (2 ** 62, 4), MemoryError)])
def test_empty_strided_refuses_bad_geometry(size, stride, error):
    with pytest.raises(error):
        wick.empty_strided(size, stride)


@pytest.mark.parametrize("name,args", [("zeros", ()), ("ones", ()), ("full", (2.5,)), ("empty", ())])
def test_factories_fill_out_as_torch(name, args):
    """out= keeps out's dtype and device, takes the size asked for, and a dtype given must be out's."""
    for out_dtype in ("float64", "int32"):
        out, t_out = wick.ones(5, dtype=getattr(wick, out_dtype)), torch.ones(5, dtype=getattr(torch, out_dtype))
        result = getattr(wick, name)((2, 3), *args, out=out)
        expected = getattr(torch, name)((2, 3), *args, out=t_out)
        assert result is out and out.shape == (2, 3) and out.dtype == getattr(wick, out_dtype)
        if name != "empty":
            assert out.tolist() == expected.tolist()
    with pytest.raises(RuntimeError, match="does not match dtype of out"):
        getattr(wick, name)(2, *args, out=wick.empty(2), dtype=wick.int64)
    assert getattr(wick, name)([2], *args, out=wick.empty(0), dtype=wick.float32).shape == (2,)
    with pytest.raises(RuntimeError):
        getattr(wick, name)(2, *args, out=wick.empty(2, requires_grad=True))
