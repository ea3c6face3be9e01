"""Interop without copies through the buffer protocol: memoryview and np.asarray of a tensor, Tensor.numpy()
and wick.from_numpy, with the lifetime of the memory on both sides."""
import gc
import sys
import threading
import warnings
import weakref

import numpy as np
import pytest

import wick
from reference import NUMPY_DTYPE

NUMPY_DTYPES = [d for d in NUMPY_DTYPE if d != "bfloat16"]


def values(dtype_name, shape=(2, 3)):
    """A wick tensor of `shape` holding small values every dtype holds exactly."""
    n = int(np.prod(shape))
    data = (np.arange(n) % 2 == 1) if dtype_name == "bool" else np.arange(n) % 100
    return wick.tensor(data.reshape(shape).tolist(), dtype=getattr(wick, dtype_name))


def collect():
    gc.collect()
    gc.collect()


# --- the buffer protocol and Tensor.numpy() -------------------------------------------------


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_buffer_has_the_format_shape_and_byte_strides_of_each_dtype(dtype):
    x = values(dtype)
    view = memoryview(x)
    assert np.dtype(view.format) == NUMPY_DTYPE[dtype] and view.itemsize == x.itemsize
    assert view.shape == (2, 3) and view.strides == (3 * x.itemsize, x.itemsize) and not view.readonly
    a = np.asarray(x)
    assert a.dtype == NUMPY_DTYPE[dtype] and a.tolist() == x.tolist()
    assert a.ctypes.data == x.data_ptr() and a.flags.writeable


def test_float16_exports_as_format_e_and_int64_as_numpy_int64():
    assert memoryview(wick.zeros(1, dtype=wick.float16)).format == "e"
    assert np.asarray(wick.zeros(1, dtype=wick.int64)).dtype.type is np.int64


def test_asarray_and_memoryview_share_memory_both_ways():
    x = wick.zeros(2, 3)
    a = np.asarray(x)
    a[0, 1] = 5
    assert x.tolist() == [[0, 5, 0], [0, 0, 0]]
    x.fill_(2)
    assert a.tolist() == [[2] * 3] * 2
    view = memoryview(x)
    view[1, 2] = 7.5
    assert x[1, 2].item() == 7.5 and a[1, 2] == 7.5
    assert np.shares_memory(a, x.numpy()) and np.frombuffer(x, dtype=np.float32).ctypes.data == x.data_ptr()


@pytest.mark.parametrize("make", [
    lambda x: x.t(), lambda x: x[:, ::2], lambda x: x[1:, 1:], lambda x: x[1], lambda x: x[:, 1:2].expand(3, 4),
], ids=["t", "step", "offset", "select", "expand"])
def test_views_export_their_strides_and_offset(make):
    base = wick.arange(12, dtype=wick.float64).reshape(3, 4)
    view = make(base)
    a = np.asarray(view)
    assert a.tolist() == view.tolist()
    assert a.strides == tuple(s * 8 for s in view.stride()) and a.ctypes.data == view.data_ptr()
    assert np.shares_memory(a, base.numpy())


def test_zero_dim_and_empty_tensors_export():
    a = np.asarray(wick.tensor(2.5))
    assert a.shape == () and a[()] == 2.5 and memoryview(wick.tensor(1)).shape == ()
    for shape in [(0,), (2, 0), (0, 3)]:
        e = wick.zeros(*shape)
        assert np.asarray(e).shape == shape and memoryview(e).nbytes == 0 and e.numpy().dtype == np.float32


def test_consumers_that_need_contiguous_memory_get_a_buffer_error():
    x = wick.arange(6, dtype=wick.float32).reshape(2, 3)
    assert not memoryview(x.t()).c_contiguous and memoryview(x.t()).f_contiguous
    assert np.frombuffer(x, dtype=np.float32).tolist() == list(range(6))
    with pytest.raises(BufferError, match="contiguous"):
        np.frombuffer(x[:, ::2], dtype=np.float32)
    assert bytes(x.t()) == np.ascontiguousarray(x.numpy().T).tobytes()


def test_bfloat16_has_no_buffer_and_says_how_to_convert():
    x = wick.tensor([0.5, 1.5], dtype=wick.bfloat16)
    with pytest.raises(BufferError, match="bfloat16.*float32"):
        memoryview(x)
    with pytest.raises(TypeError, match="bfloat16.*float32"):
        np.asarray(x)
    with pytest.raises(TypeError, match="bfloat16"):
        x.numpy()
    assert np.asarray(x.to(wick.float32)).tolist() == [0.5, 1.5]


def test_array_protocol_honours_dtype_and_copy():
    x = wick.arange(4, dtype=wick.int32)
    same = x.__array__()
    assert same.ctypes.data == x.data_ptr()
    assert x.__array__(copy=False).ctypes.data == x.data_ptr()
    assert x.__array__(np.int32, copy=False).ctypes.data == x.data_ptr()
    copied = x.__array__(copy=True)
    copied[0] = 9
    assert x[0].item() == 0 and copied.dtype == np.int32
    converted = x.__array__(np.float64)
    assert converted.dtype == np.float64 and converted.tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="copy"):
        x.__array__(np.float64, copy=False)
    assert np.array(x).ctypes.data != x.data_ptr()  # np.array copies by default
    assert np.asarray(x, dtype=np.float32).dtype == np.float32


def test_numpy_array_keeps_the_tensor_alive():
    x = wick.arange(5)
    ref = weakref.ref(x)
    a = x.numpy()
    del x
    collect()
    assert ref() is not None and a.tolist() == [0, 1, 2, 3, 4]
    del a
    collect()
    assert ref() is None


def test_exported_buffer_outlives_the_tensor_and_its_views():
    x = wick.arange(6).reshape(2, 3)
    view = memoryview(x.t())
    a = np.asarray(x[1])
    del x
    collect()
    assert view.tolist() == [[0, 3], [1, 4], [2, 5]] and a.tolist() == [3, 4, 5]
    view.release()


@pytest.mark.cuda
def test_cuda_tensors_have_no_host_buffer():
    x = wick.arange(3, dtype=wick.float32).cuda()
    with pytest.raises(BufferError, match="cpu"):
        memoryview(x)
    with pytest.raises(TypeError, match="cpu"):
        x.numpy()
    with pytest.raises(TypeError, match="cpu"):
        np.asarray(x)
    assert x.numpy(force=True).tolist() == [0, 1, 2]


# --- wick.from_numpy -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_from_numpy_shares_memory_for_every_supported_dtype(dtype):
    a = np.asarray(values(dtype).tolist(), dtype=NUMPY_DTYPE[dtype])
    t = wick.from_numpy(a)
    assert t.dtype is getattr(wick, dtype) and t.shape == a.shape and t.tolist() == a.tolist()
    assert t.data_ptr() == a.ctypes.data
    t.fill_(1)
    assert (a == 1).all()
    a[0, 0] = 0
    assert t[0, 0].item() == 0


@pytest.mark.parametrize("make", [
    lambda a: a[::2], lambda a: a.T, lambda a: a[:, 1:], lambda a: a[1:, ::3], lambda a: a[0],
    lambda a: np.broadcast_to(a[:1], (5, 6)).copy()[:, ::2],
], ids=["step", "T", "offset", "both", "row", "copy"])
def test_from_numpy_accepts_positive_strides(make):
    base = np.arange(30, dtype=np.float32).reshape(5, 6)
    a = make(base)
    t = wick.from_numpy(a)
    assert t.tolist() == a.tolist() and t.data_ptr() == a.ctypes.data
    assert t.stride() == tuple(s // 4 for s in a.strides)
    t.mul_(-1)
    assert t.tolist() == a.tolist() and (a <= 0).all()


def test_from_numpy_zero_dim_and_empty():
    t = wick.from_numpy(np.array(3.5))
    assert t.shape == () and t.item() == 3.5
    for shape in [(0,), (3, 0), (0, 2, 2)]:
        e = wick.from_numpy(np.zeros(shape, dtype=np.int16))
        assert e.shape == shape and e.dtype is wick.int16 and e.numel() == 0


@pytest.mark.parametrize("bad, error, match", [
    (np.zeros(3, dtype=np.complex64), TypeError, "complex64.*supported types"),
    (np.zeros(3, dtype=np.complex128), TypeError, "complex128"),
    (np.array([None, 1], dtype=object), TypeError, "object"),
    (np.zeros(3, dtype=np.uint16), TypeError, "uint16"),
    (np.zeros(3, dtype=np.uint64), TypeError, "uint64"),
    (np.zeros(3, dtype="datetime64[s]"), TypeError, "datetime64"),
    (np.zeros(3, dtype="U3"), TypeError, "supported types"),
    (np.zeros(3, dtype=[("a", np.int32)]), TypeError, "supported types"),
    (np.arange(5.0)[::-1], ValueError, "negative"),
    (np.lib.stride_tricks.as_strided(np.zeros(8, np.int16), shape=(3,), strides=(3,)), ValueError, "multiple"),
    (np.frombuffer(bytearray(17), dtype=np.int32, count=4, offset=1), ValueError, "aligned"),
    (np.zeros(3, dtype=">f4"), ValueError, "byte order"),
    ([1.0, 2.0], TypeError, r"expected np.ndarray \(got list\)"),
    (wick.zeros(2), TypeError, "expected np.ndarray"),
    (np.float64(1.0), TypeError, "expected np.ndarray"),
])
def test_from_numpy_rejects_what_it_cannot_share(bad, error, match):
    with pytest.raises(error, match=match):
        wick.from_numpy(bad)


def test_from_numpy_of_a_read_only_array_warns_and_still_shares():
    a = np.arange(4.0)
    a.flags.writeable = False
    with pytest.warns(UserWarning, match="not writable"):
        t = wick.from_numpy(a)
    assert t.data_ptr() == a.ctypes.data and t.tolist() == [0, 1, 2, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            wick.from_numpy(np.broadcast_to(np.arange(3), (2, 3)))


def test_from_numpy_keeps_the_array_alive_and_releases_it():
    a = np.arange(10.0)
    before = sys.getrefcount(a)
    t = wick.from_numpy(a)
    assert sys.getrefcount(a) == before + 1
    view = t[2:5]
    del t
    collect()
    assert sys.getrefcount(a) == before + 1  # the view's storage still holds the array
    del view
    collect()
    assert sys.getrefcount(a) == before

    ref = weakref.ref(a)
    t = wick.from_numpy(a)
    del a
    collect()
    assert ref() is not None and t.tolist() == list(range(10))
    del t
    collect()
    assert ref() is None


def test_from_numpy_failures_do_not_leak_a_reference():
    a = np.arange(6, dtype=np.int32)[::-1]
    before = sys.getrefcount(a)
    for _ in range(3):
        with pytest.raises(ValueError):
            wick.from_numpy(a)
    assert sys.getrefcount(a) == before


def test_the_last_reference_may_be_dropped_on_another_thread():
    a = np.ones(1000)
    ref = weakref.ref(a)
    holder = [wick.from_numpy(a)]
    del a
    thread = threading.Thread(target=holder.clear)
    thread.start()
    thread.join()
    collect()
    assert ref() is None


@pytest.mark.parametrize("expr", ["x + a", "x * a", "x - a", "x / a", "x ** a", "x // a", "x % a", "x @ a2",
                                  "x + a32", "x + a0", "x - a0i", "xi & ai", "xi << ai"])
def test_operators_take_an_ndarray_on_the_right_as_pytorch(expr):
    """x op array: the array as a tensor of its own dtype, as PyTorch's operators take it."""
    import torch
    env = {"a": np.array([1.5, 2.0, 4.0]), "a2": np.ones((3, 2), dtype=np.float32), "a32": np.ones(3, dtype=np.float32),
           "a0": np.array(3.0), "a0i": np.array(2), "ai": np.array([1, 2, 3], dtype=np.int16)}
    mine = eval(expr, {"x": wick.tensor([1.0, -2.0, 3.0]), "xi": wick.tensor([7, 8, 9]), **env})
    theirs = eval(expr, {"x": torch.tensor([1.0, -2.0, 3.0]), "xi": torch.tensor([7, 8, 9]), **env})
    assert isinstance(mine, wick.Tensor)
    assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_in_place_operators_take_an_ndarray():
    x = wick.tensor([1.0, 2.0])
    y = x
    x += np.array([0.5, 0.25])
    assert x is y and x.tolist() == [1.5, 2.25]
    with pytest.raises(TypeError):
        x + np.array(["a", "b"])
    with pytest.raises(TypeError):
        wick.add(x, np.ones(2))  # the named function refuses it, as PyTorch's
