"""Interop without copies: the buffer protocol, Tensor.numpy() and wick.from_numpy, and DLPack
(NumPy, PyTorch and hand-built capsules), with the lifetime of the memory on both sides."""
import ctypes
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


# --- DLPack: producing ----------------------------------------------------------------------


def capsule_name(capsule):
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return get_name(capsule).decode()


def test_dlpack_capsule_kind_follows_max_version():
    x = wick.arange(3)
    assert capsule_name(x.__dlpack__()) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(x.__dlpack__(max_version=(2, 3))) == "dltensor_versioned"
    assert x.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(max_version=1), TypeError, "max_version"),
    (dict(max_version=(1, "0")), TypeError, "max_version"),
    (dict(dl_device="cpu"), TypeError, "dl_device"),
    (dict(stream=1), ValueError, "stream must be None"),
    (dict(dl_device=(2, 0)), BufferError, "cannot be exported"),
    (dict(dl_device=(2, 0), copy=False), BufferError, "without a copy"),
])
def test_dlpack_export_rejects_bad_requests(kwargs, error, match):
    with pytest.raises(error, match=match):
        wick.ones(2).__dlpack__(**kwargs)


def test_dlpack_copy_request_exports_a_copy_flagged_as_such():
    x = wick.arange(4, dtype=wick.float32)
    copied = wick.from_dlpack(x.__dlpack__(max_version=(1, 0), copy=True))
    assert copied.tolist() == x.tolist() and copied.data_ptr() != x.data_ptr()
    capsule = x.__dlpack__(max_version=(1, 0), copy=True)
    assert read_versioned(capsule).flags == 2  # DLPACK_FLAG_BITMASK_IS_COPIED
    assert read_versioned(x.__dlpack__(max_version=(1, 0))).flags == 0
    assert wick.from_dlpack(x.__dlpack__(dl_device=(1, 0), copy=False)).data_ptr() == x.data_ptr()


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_numpy_from_dlpack_shares_wick_memory(dtype):
    x = values(dtype, (3, 4))
    for view in (x, x.t(), x[1:, ::2]):
        a = np.from_dlpack(view)
        assert a.dtype == NUMPY_DTYPE[dtype] and a.tolist() == view.tolist()
        assert a.ctypes.data == view.data_ptr() and np.shares_memory(a, x.numpy())
    a = np.from_dlpack(x)
    x.fill_(7)
    assert (a == 7).all()  # NumPy 1.24 marks DLPack imports read-only: writes go through wick


def test_dlpack_export_keeps_memory_alive_until_the_consumer_is_done():
    x = wick.arange(6, dtype=wick.float64)
    ref = weakref.ref(x)
    a = np.from_dlpack(x)
    del x
    collect()
    assert ref() is None and a.tolist() == [0, 1, 2, 3, 4, 5]  # the capsule holds the storage, not the object


def test_unconsumed_capsules_release_their_memory():
    n = np.arange(8.0)
    before = sys.getrefcount(n)
    t = wick.from_numpy(n)
    capsules = [t.__dlpack__(), t.__dlpack__(max_version=(1, 0))]
    del t
    collect()
    assert sys.getrefcount(n) == before + 1
    del capsules
    collect()
    assert sys.getrefcount(n) == before


def test_consumed_capsules_are_renamed_and_cannot_be_imported_twice():
    x = wick.arange(3)
    for kwargs, used in (({}, "used_dltensor"), (dict(max_version=(1, 0)), "used_dltensor_versioned")):
        capsule = x.__dlpack__(**kwargs)
        y = wick.from_dlpack(capsule)
        assert capsule_name(capsule) == used and y.data_ptr() == x.data_ptr()
        with pytest.raises(ValueError, match="already consumed"):
            wick.from_dlpack(capsule)


@pytest.mark.parametrize("dtype", list(NUMPY_DTYPE))
def test_wick_round_trips_through_its_own_capsules(dtype):
    x = values(dtype, (2, 3))
    for view in (x, x.t(), x[:, 1:], x[0, 0], x[:0]):
        for kwargs in ({}, dict(max_version=(1, 0))):
            y = wick.from_dlpack(view.__dlpack__(**kwargs))
            assert y.dtype is x.dtype and y.shape == view.shape and y.stride() == view.stride()
            assert y.tolist() == view.tolist() and (view.numel() == 0 or y.data_ptr() == view.data_ptr())
    y = wick.from_dlpack(x)
    y.zero_()
    assert not x.tolist()[0][1]


# --- DLPack: consuming ----------------------------------------------------------------------


def test_from_dlpack_imports_numpy_arrays_without_a_copy():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    for view in (a, a.T, a[1:, ::2], a[0, 0, ...], a[:0]):
        t = wick.from_dlpack(view)
        assert t.tolist() == view.tolist() and t.shape == view.shape
        assert t.stride() == tuple(s // 4 for s in view.strides)
        assert view.size == 0 or t.data_ptr() == view.ctypes.data
    t = wick.from_dlpack(a)
    t.add_(100)
    assert a[0, 0] == 100
    a[2, 3] = -1
    assert t[2, 3].item() == -1


def test_from_dlpack_keeps_the_numpy_array_alive():
    a = np.arange(6.0)
    before = sys.getrefcount(a)
    t = wick.from_dlpack(a)
    assert sys.getrefcount(a) > before
    ref = weakref.ref(a)
    del a
    collect()
    assert ref() is not None and t.tolist() == [0, 1, 2, 3, 4, 5]
    del t
    collect()
    assert ref() is None


def test_from_dlpack_rejects_objects_that_are_not_tensors():
    with pytest.raises(TypeError, match="__dlpack__"):
        wick.from_dlpack([1, 2])
    with pytest.raises(TypeError, match="named 'dltensor'"):
        wick.from_dlpack(make_capsule(ctypes.c_void_p(1), b"something_else"))

    class Bad:
        def __dlpack__(self, **kwargs):
            return 3

    with pytest.raises(TypeError, match="not a DLPack capsule"):
        wick.from_dlpack(Bad())


def test_from_dlpack_asks_for_dlpack_1_and_falls_back_for_old_producers():
    x = wick.arange(4)
    calls = []

    class Modern:
        def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
            calls.append(("modern", stream, max_version))
            return x.__dlpack__(max_version=max_version)

        def __dlpack_device__(self):
            return x.__dlpack_device__()

    class Legacy:  # as NumPy < 2 and PyTorch < 2.4: no keywords at all
        def __dlpack__(self):
            calls.append(("legacy",))
            return x.__dlpack__()

    assert wick.from_dlpack(Modern()).data_ptr() == x.data_ptr()
    assert wick.from_dlpack(Legacy()).data_ptr() == x.data_ptr()
    assert calls == [("modern", None, (1, 0)), ("legacy",)]


# Hand-built capsules, from the DLPack specification, to reach what NumPy and PyTorch never send.
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", LEGACY_DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                                     ("deleter", VERSIONED_DELETER), ("flags", ctypes.c_uint64),
                                     ("dl_tensor", DLTensor)]
assert ctypes.sizeof(DLTensor) == 48 and ctypes.sizeof(DLManagedTensorVersioned) == 80

_CAPSULE_NAMES = {}  # a capsule keeps a pointer to its name: keep every name alive
_LIVE_PRODUCERS = set()  # as a real producer's allocation, each lives until its deleter runs


def make_capsule(pointer, name):
    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    kept = _CAPSULE_NAMES.setdefault(name, ctypes.create_string_buffer(name))
    return new(ctypes.cast(pointer, ctypes.c_void_p), kept, None)


def read_versioned(capsule):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return DLManagedTensorVersioned.from_address(get(capsule, b"dltensor_versioned"))


class Producer:
    """A foreign producer over a NumPy array's memory, counting calls of its deleter. Its
    capsules have no destructor: the deleter runs only when a consumer calls it."""

    def __init__(self, array, versioned=True, code=None, bits=None, lanes=1, strides="auto", byte_offset=0,
                 device_type=1, version=(1, 0), flags=0, misalign=0):
        self.array, self.deleted = array, 0
        _LIVE_PRODUCERS.add(self)
        self.shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        self.strides = (ctypes.c_int64 * max(array.ndim, 1))(*[s // array.itemsize for s in array.strides])
        if strides != "auto":
            self.strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        dl = DLTensor(ctypes.c_void_p(array.ctypes.data + misalign - byte_offset), DLDevice(device_type, 0), array.ndim,
                      DLDataType({"i": 0, "u": 1, "f": 2, "b": 6}[array.dtype.kind] if code is None else code,
                                 bits or array.itemsize * 8, lanes), self.shape, self.strides, byte_offset)
        if versioned:
            self.deleter = VERSIONED_DELETER(self._delete)
            self.managed = DLManagedTensorVersioned(DLPackVersion(*version), None, self.deleter, flags, dl)
            self.capsule = make_capsule(ctypes.pointer(self.managed), b"dltensor_versioned")
        else:
            self.deleter = LEGACY_DELETER(self._delete)
            self.managed = DLManagedTensor(dl, None, self.deleter)
            self.capsule = make_capsule(ctypes.pointer(self.managed), b"dltensor")

    def _delete(self, _):
        self.deleted += 1
        _LIVE_PRODUCERS.discard(self)


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
def test_imported_tensors_call_the_producer_deleter_exactly_once(versioned):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    producer = Producer(a, versioned=versioned)
    t = wick.from_dlpack(producer.capsule)
    assert capsule_name(producer.capsule).startswith("used_") and producer.deleted == 0
    assert t.tolist() == a.tolist() and t.data_ptr() == a.ctypes.data
    view = t.t()
    del t
    collect()
    assert producer.deleted == 0
    del view
    collect()
    assert producer.deleted == 1


def test_imports_honour_null_strides_and_byte_offset():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    t = wick.from_dlpack(Producer(a, strides=None).capsule)
    assert t.stride() == (4, 1) and t.tolist() == a.tolist()
    t = wick.from_dlpack(Producer(a[1:], byte_offset=32).capsule)
    assert t.data_ptr() == a[1:].ctypes.data and t.tolist() == a[1:].tolist()


def test_read_only_imports_warn():
    a = np.arange(3.0)
    with pytest.warns(UserWarning, match="read-only"):
        t = wick.from_dlpack(Producer(a, flags=1).capsule)
    assert t.tolist() == [0, 1, 2]


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(version=(2, 0)), BufferError, "DLPack 2.0"),
    (dict(code=5, bits=64), TypeError, "unsupported DLPack dtype"),
    (dict(code=1, bits=32), TypeError, "unsupported DLPack dtype"),
    (dict(lanes=4), TypeError, "lanes"),
    (dict(strides=(-1,)), ValueError, "negative stride"),
    (dict(device_type=4), NotImplementedError, "device type 4"),
    (dict(misalign=1), ValueError, "aligned"),
    (dict(byte_offset=1, misalign=1), ValueError, "aligned"),
])
def test_bad_capsules_raise_and_are_left_to_their_producer(kwargs, error, match):
    producer = Producer(np.arange(3.0), **kwargs)
    with pytest.raises(error, match=match):
        wick.from_dlpack(producer.capsule)
    assert capsule_name(producer.capsule) == "dltensor_versioned" and producer.deleted == 0
    _LIVE_PRODUCERS.discard(producer)


# --- DLPack with PyTorch ----------------------------------------------------------------------


TORCH_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_imports_wick_tensors_without_a_copy(dtype):
    torch = pytest.importorskip("torch")
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack

    x = values(dtype, (3, 4))
    for view in (x, x.t(), x[1:, ::2], x[2, 1]):
        t = torch_from_dlpack(view)
        assert t.dtype is getattr(torch, dtype) and tuple(t.shape) == view.shape and t.stride() == view.stride()
        assert t.data_ptr() == view.data_ptr() and t.tolist() == view.tolist()
    t = torch_from_dlpack(x)
    t[0, 0] = 3
    assert x[0, 0].item() == 3
    x.fill_(1)
    assert bool((t == 1).all())


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_wick_imports_torch_tensors_without_a_copy(dtype):
    torch = pytest.importorskip("torch")
    t = torch.arange(12).reshape(3, 4).to(getattr(torch, dtype))
    for view in (t, t.t(), t[1:, ::2], t[2, 1]):
        x = wick.from_dlpack(view)
        assert x.dtype is getattr(wick, dtype) and x.shape == tuple(view.shape) and x.stride() == view.stride()
        assert x.data_ptr() == view.data_ptr() and x.tolist() == view.tolist()
    x = wick.from_dlpack(t)
    x.fill_(2)
    assert bool((t == 2).all())
    t[1, 1] = 5
    assert x[1, 1].item() == 5


def test_torch_round_trip_of_zero_dim_and_empty_tensors():
    torch = pytest.importorskip("torch")
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack

    assert torch_from_dlpack(wick.tensor(2.5)).item() == 2.5
    assert tuple(torch_from_dlpack(wick.zeros(0, 3)).shape) == (0, 3)
    assert wick.from_dlpack(torch.tensor(7)).item() == 7
    assert wick.from_dlpack(torch.zeros(2, 0)).shape == (2, 0)


def test_bool_round_trip_with_torch():
    torch = pytest.importorskip("torch")
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack

    t = torch.tensor([True, False, True])
    try:
        capsule = torch.utils.dlpack.to_dlpack(t)
    except RuntimeError as e:  # PyTorch < 2.0 predates kDLBool
        x = wick.tensor([True, False])
        assert wick.from_dlpack(x.__dlpack__()).tolist() == [True, False]  # wick speaks it both ways
        pytest.skip(f"this PyTorch ({torch.__version__}) has no bool in DLPack: {e}")
    x = wick.from_dlpack(capsule)
    assert x.dtype is wick.bool and x.data_ptr() == t.data_ptr() and x.tolist() == [True, False, True]
    back = torch_from_dlpack(x)
    assert back.dtype is torch.bool and back.data_ptr() == t.data_ptr()


def test_torch_memory_outlives_the_torch_tensor_and_wick_memory_the_wick_tensor():
    torch = pytest.importorskip("torch")
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack

    t = torch.arange(6, dtype=torch.float64)
    x = wick.from_dlpack(t)
    del t  # PyTorch may keep the object itself (it preserves it while C++ holds the tensor)
    collect()
    assert x.tolist() == [0, 1, 2, 3, 4, 5]

    y = wick.arange(4, dtype=wick.int32)
    back = torch_from_dlpack(y)
    del y
    collect()
    assert back.tolist() == [0, 1, 2, 3]


@pytest.mark.cuda
def test_cuda_round_trip_with_torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this PyTorch has no CUDA")
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack

    x = wick.arange(6, dtype=wick.float32).cuda()
    assert x.__dlpack_device__() == (2, 0)
    t = torch_from_dlpack(x)
    assert t.is_cuda and t.data_ptr() == x.data_ptr() and t.tolist() == [0, 1, 2, 3, 4, 5]
    back = wick.from_dlpack(torch.ones(3, device="cuda"))
    assert back.is_cuda and back.cpu().tolist() == [1, 1, 1]
    copied = wick.from_dlpack(x.__dlpack__(max_version=(1, 0), dl_device=(1, 0)))
    assert not copied.is_cuda and copied.tolist() == [0, 1, 2, 3, 4, 5]
