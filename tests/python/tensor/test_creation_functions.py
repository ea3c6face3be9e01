"""wick.creation_functions (asarray, frombuffer) against PyTorch 1.13's functions of the same names: the same
values, dtypes and shapes, memory shared where PyTorch shares it, and the same kinds of errors and warnings."""
import array
import gc
import warnings
import weakref

import numpy as np
import pytest
import torch

import wick
from wick import creation_functions

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def same(ours, theirs):
    """Same dtype, shape and values (bfloat16 through float32)."""
    assert str(ours.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.detach().to(wick.float64).tolist() == theirs.detach().to(torch.float64).tolist()


def both_raise(call_wick, call_torch):
    """Both calls raise, the same kind of exception; returns wick's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as theirs:
            call_torch()
        with pytest.raises(Exception) as ours:
            call_wick()
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    return ours.value


# frombuffer

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("count,offset", [(-1, 0), (2, 0), (1, 8), (-1, 8), (3, 4)], ids=str)
def test_frombuffer(dtype, count, offset):
    data = bytearray(range(1, 33)) if dtype != "bool" else bytearray([1, 0, 0, 1] * 8)  # bools: 0 or 1 bytes
    itemsize = np.dtype(dtype).itemsize
    if offset % itemsize:
        return  # wick views only aligned memory (see test_frombuffer_unaligned)
    kwargs = {"count": count, "offset": offset}
    try:
        theirs = torch.frombuffer(bytearray(data), dtype=getattr(torch, dtype), **kwargs)
    except ValueError:
        both_raise(lambda: wick.frombuffer(data, dtype=getattr(wick, dtype), **kwargs),
                   lambda: torch.frombuffer(bytearray(data), dtype=getattr(torch, dtype), **kwargs))
        return
    ours = wick.frombuffer(data, dtype=getattr(wick, dtype), **kwargs)
    same(ours, theirs)


def test_frombuffer_shares_memory_and_keeps_the_buffer_alive():
    data = array.array("i", [1, 2, 3])
    t = wick.frombuffer(data, dtype=wick.int32)
    t[0] = 7
    assert data[0] == 7
    data[2] = 9
    assert t.tolist() == [7, 2, 9]

    class Buffer(bytearray):
        pass

    buffer = Buffer(b"\x01\x00\x00\x00")
    alive = weakref.ref(buffer)
    t = wick.frombuffer(buffer, dtype=wick.int32)
    del buffer
    gc.collect()
    assert alive() is not None and t.tolist() == [1]
    del t
    gc.collect()
    assert alive() is None


def test_frombuffer_of_read_only_memory_warns_once():
    creation_functions._warn_once.cache_clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert wick.frombuffer(b"abcd", dtype=wick.uint8).tolist() == [97, 98, 99, 100]
        wick.frombuffer(b"abcd", dtype=wick.uint8)
    assert len(caught) == 1 and "not writable" in str(caught[0].message)


@pytest.mark.parametrize("call", [
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, offset=16),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, offset=-1),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, offset=2 ** 62),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, count=0),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, count=5),
    lambda lib: lib.frombuffer(bytearray(15), dtype=lib.int32),
    lambda lib: lib.frombuffer(bytearray(15), dtype=lib.int32, offset=1, count=4),
    lambda lib: lib.frombuffer(bytearray(), dtype=lib.int32),
    lambda lib: lib.frombuffer([1, 2], dtype=lib.float32),
    lambda lib: lib.frombuffer(np.arange(8)[::2], dtype=lib.int32),
    lambda lib: lib.frombuffer(bytearray(16), dtype=None),
    lambda lib: lib.frombuffer(bytearray(16)),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, count=1.0),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, count=True),
    lambda lib: lib.frombuffer(bytearray(16), dtype=lib.int32, requires_grad=True),
    lambda lib: lib.frombuffer(bytearray(16), dtype="float32"),
], ids=range(16))
def test_frombuffer_errors(call):
    both_raise(lambda: call(wick), lambda: call(torch))


def test_frombuffer_requires_grad_and_buffers():
    assert wick.frombuffer(bytearray(8), dtype=wick.float32, requires_grad=True).requires_grad
    same(wick.frombuffer(np.arange(4).reshape(2, 2), dtype=wick.int32),
         torch.frombuffer(np.arange(4).reshape(2, 2), dtype=torch.int32))
    same(wick.frombuffer(memoryview(bytearray(range(8))), dtype=wick.int16, offset=2),
         torch.frombuffer(memoryview(bytearray(range(8))), dtype=torch.int16, offset=2))


def test_frombuffer_unaligned_and_bfloat16():
    """Documented differences: wick views memory only at an address aligned to the element size (PyTorch takes
    any), and cannot view it as bfloat16 (wick makes the tensor through NumPy, which has no bfloat16)."""
    with pytest.raises(ValueError, match="aligned"):
        wick.frombuffer(bytearray(9), dtype=wick.int32, offset=1, count=2)
    with pytest.raises(TypeError, match="bfloat16"):
        wick.frombuffer(bytearray(8), dtype=wick.bfloat16)


# asarray

def test_asarray_of_a_tensor_is_itself_or_a_copy():
    x = wick.arange(3.0)
    assert wick.asarray(x) is x
    assert wick.asarray(x, dtype=wick.float32, device="cpu", copy=False) is x
    y = wick.asarray(x, copy=True)
    assert y is not x and y.tolist() == x.tolist() and y.data_ptr() != x.data_ptr()
    z = wick.asarray(x, dtype=wick.float64)
    assert z.dtype is wick.float64 and z.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="can't alias tensor with dtype 'Float' into dtype 'Double'"):
        wick.asarray(x, dtype=wick.float64, copy=False)


def test_asarray_shares_numpy_memory():
    for dtype in DTYPES:
        a = np.arange(6).reshape(2, 3).astype(dtype)
        ours, theirs = wick.asarray(a), torch.asarray(a)
        same(ours, theirs)
        assert ours.data_ptr() == a.ctypes.data
    a = np.arange(6.0)
    t = wick.asarray(a)
    t[1] = 100
    assert a[1] == 100
    assert wick.asarray(a, copy=True).data_ptr() != a.ctypes.data
    assert wick.asarray(a, dtype=wick.float32).dtype is wick.float32
    assert wick.asarray(a[::2]).tolist() == [0.0, 2.0, 4.0]
    both_raise(lambda: wick.asarray(np.arange(3), dtype=wick.float32, copy=False),
               lambda: torch.asarray(np.arange(3), dtype=torch.float32, copy=False))
    both_raise(lambda: wick.asarray(np.arange(3)[::-1]), lambda: torch.asarray(np.arange(3)[::-1]))
    unsupported = np.arange(3, dtype=np.uint16)
    both_raise(lambda: wick.asarray(unsupported), lambda: torch.asarray(unsupported))


def test_asarray_of_read_only_numpy_warns_once_when_it_shares():
    creation_functions._warn_once.cache_clear()
    a = np.arange(3.0)
    a.flags.writeable = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wick.asarray(a)
        wick.asarray(a)
        wick.asarray(a, copy=True)
    assert len(caught) == 1 and "NumPy array is not writable" in str(caught[0].message)


def test_asarray_of_buffers_reads_the_default_dtype():
    data = bytearray(range(16))
    for kwargs in [{}, {"dtype": "uint8"}, {"dtype": "int16"}, {"dtype": "float64"}]:
        ours = wick.asarray(data, **{k: getattr(wick, v) for k, v in kwargs.items()})
        theirs = torch.asarray(bytearray(data), **{k: getattr(torch, v) for k, v in kwargs.items()})
        same(ours, theirs)
    t = wick.asarray(data, dtype=wick.uint8)
    t[0] = 200
    assert data[0] == 200
    same(wick.asarray(array.array("d", [1.5, 2.5]), dtype=wick.float64),
         torch.asarray(array.array("d", [1.5, 2.5]), dtype=torch.float64))
    both_raise(lambda: wick.asarray(bytearray(7)), lambda: torch.asarray(bytearray(7)))


def test_asarray_through_dlpack_shares_torch_memory():
    t = torch.arange(4.0)
    ours = wick.asarray(t)
    ours[0] = 5
    assert t[0].item() == 5
    assert wick.asarray(t, dtype=wick.float64).tolist() == [5.0, 1.0, 2.0, 3.0]
    with pytest.raises(ValueError):
        wick.asarray(t, dtype=wick.float64, copy=False)


@pytest.mark.parametrize("obj", [3, 2.5, True, [1, 2], [[1.0, 2.0], [3.0, 4.0]], [True, False], [], (1, 2.5)],
                         ids=repr)
@pytest.mark.parametrize("dtype", [None, "float64", "int32"])
def test_asarray_of_numbers_and_sequences_copies(obj, dtype):
    kwargs = {} if dtype is None else {"dtype": getattr(wick, dtype)}
    same(wick.asarray(obj, **kwargs), torch.asarray(obj, **({} if dtype is None else {"dtype": getattr(torch, dtype)})))
    both_raise(lambda: wick.asarray(obj, copy=False), lambda: torch.asarray(obj, copy=False))


def test_asarray_of_a_numpy_scalar_is_a_number():
    """A documented difference: PyTorch 1.13 reads a NumPy scalar's one-element buffer as its default dtype
    (np.float32(2) gives tensor([2.]), np.int64(3) garbage); wick takes it as the number it is."""
    assert wick.asarray(np.float32(2)).tolist() == 2.0 and wick.asarray(np.float32(2)).dtype is wick.float32
    assert wick.asarray(np.int64(3)).tolist() == 3


def test_asarray_requires_grad_as_torch():
    for lib in (wick, torch):
        leaf = lib.arange(3.0).requires_grad_(True)
        assert lib.asarray(leaf) is leaf and not leaf.requires_grad  # PyTorch clears the flag in place
        leaf.requires_grad_(True)
        assert lib.asarray(leaf, requires_grad=True) is leaf
        non_leaf = lib.arange(3.0).requires_grad_(True) * 2
        assert lib.asarray(non_leaf, requires_grad=True) is non_leaf
        detached = lib.asarray(non_leaf)
        assert detached is not non_leaf and not detached.requires_grad and detached.data_ptr() == non_leaf.data_ptr()
        copied = lib.asarray(leaf, dtype=lib.float64, requires_grad=True)
        assert copied.requires_grad and copied.grad_fn is not None
        assert lib.asarray([1.0, 2.0], requires_grad=True).requires_grad
    both_raise(lambda: wick.asarray([1, 2], requires_grad=True), lambda: torch.asarray([1, 2], requires_grad=True))
    both_raise(lambda: wick.asarray(wick.arange(3), requires_grad=True),
               lambda: torch.asarray(torch.arange(3), requires_grad=True))


@pytest.mark.parametrize("call", [
    lambda lib: lib.asarray(lib.arange(3), copy=1),
    lambda lib: lib.asarray(lib.arange(3), dtype="float"),
    lambda lib: lib.asarray(lib.arange(3), requires_grad=1),
    lambda lib: lib.asarray("abc"),
    lambda lib: lib.asarray([1, "a"]),
], ids=range(5))
def test_asarray_errors(call):
    both_raise(lambda: call(wick), lambda: call(torch))


@pytest.mark.parametrize("obj", [None, object()], ids=repr)
def test_asarray_of_what_is_no_number_raises_as_tensor(obj):
    """asarray copies a non-sequence through wick.tensor(), so it raises as that does (TypeError, where
    PyTorch's tensor() raises RuntimeError "Could not infer dtype of ...")."""
    with pytest.raises(Exception) as ours:
        wick.asarray(obj)
    with pytest.raises(Exception) as direct:
        wick.tensor(obj)
    assert type(ours.value) is type(direct.value)


def test_exports():
    assert wick.asarray is creation_functions.asarray and wick.frombuffer is creation_functions.frombuffer
    assert set(creation_functions.__all__) <= set(wick.__all__)
