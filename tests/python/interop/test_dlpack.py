"""Interop without copies through DLPack: exporting capsules, importing NumPy's, PyTorch's and hand-built
ones (from the specification), with the lifetime of the memory on both sides."""
import ctypes
import gc
import sys
import weakref

import numpy as np
import pytest

import wick
from reference import NUMPY_DTYPE


def values(dtype_name, shape=(2, 3)):
    """A wick tensor of `shape` holding small values every dtype holds exactly."""
    n = int(np.prod(shape))
    data = (np.arange(n) % 2 == 1) if dtype_name == "bool" else np.arange(n) % 100
    return wick.tensor(data.reshape(shape).tolist(), dtype=getattr(wick, dtype_name))


def collect():
    gc.collect()
    gc.collect()


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


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool", "float16", "bfloat16"])
def test_tensor_and_as_tensor_read_pytorch_tensors_through_dlpack(dtype):
    """wick.tensor(t) copies a PyTorch tensor in its dtype (not element by element), wick.as_tensor shares it."""
    torch = pytest.importorskip("torch")
    source = (torch.arange(12) % 3).to(getattr(torch, dtype)).reshape(3, 4)
    for t in (source, source.t(), source[:, 1:3]):
        copied = wick.tensor(t)
        assert copied.dtype == getattr(wick, dtype) and copied.shape == tuple(t.shape)
        assert copied.float().tolist() == t.float().tolist()
        assert wick.tensor(t, dtype=wick.float64).tolist() == t.double().tolist()
    shared = wick.as_tensor(source)
    copied = wick.tensor(source)
    shared[0, 0] = 1
    assert source[0, 0].item() == 1 and copied[0, 0].item() == 0
    assert wick.as_tensor(source, dtype=wick.float64).dtype == wick.float64
