"""wick.as_tensor: shares memory with a tensor or a NumPy array when dtype and device allow, else copies."""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, NUMPY_DTYPE, to_numpy


def test_a_tensor_comes_back_as_itself():
    x = wick.arange(4)
    assert wick.as_tensor(x) is x
    assert wick.as_tensor(x, dtype=wick.int64) is x and wick.as_tensor(x, device="cpu") is x
    v = x[1:]
    assert wick.as_tensor(v) is v


def test_a_tensor_of_another_dtype_is_converted():
    x = wick.arange(4)
    y = wick.as_tensor(x, dtype=wick.float64)
    assert y.dtype == wick.float64 and y.tolist() == [0.0, 1.0, 2.0, 3.0]
    y.fill_(7)
    assert x.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bfloat16"])
def test_an_ndarray_shares_memory(dtype):
    a = np.arange(6).reshape(2, 3).astype(NUMPY_DTYPE[dtype])
    t = wick.as_tensor(a)
    assert t.dtype == getattr(wick, dtype) and t.shape == (2, 3)
    np.testing.assert_array_equal(to_numpy(t), a)
    assert t.data_ptr() == a.__array_interface__["data"][0]
    t[0, 0] = 1
    assert a[0, 0] == 1
    assert wick.as_tensor(a, dtype=getattr(wick, dtype), device="cpu").data_ptr() == t.data_ptr()


def test_a_strided_ndarray_keeps_its_strides():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)[::2, 1::2]
    t = wick.as_tensor(a)
    assert t.stride() == (12, 2) and t.tolist() == a.tolist()
    del a
    assert t.tolist() == [[1.0, 3.0, 5.0], [13.0, 15.0, 17.0]]  # the array lives as long as the tensor


def test_an_ndarray_of_another_dtype_is_copied():
    a = np.arange(3, dtype=np.int64)
    t = wick.as_tensor(a, dtype=wick.float32)
    assert t.dtype == wick.float32 and t.tolist() == [0.0, 1.0, 2.0]
    t.fill_(9)
    assert a.tolist() == [0, 1, 2]


def test_other_data_is_copied_as_tensor_does():
    assert wick.as_tensor([1, 2]).dtype == wick.int64
    assert wick.as_tensor([[1.5], [2]], dtype=wick.float64).tolist() == [[1.5], [2.0]]
    assert wick.as_tensor(3.5).shape == () and wick.as_tensor(True).dtype == wick.bool
    assert wick.as_tensor((1, 2), device=wick.device("cpu")).tolist() == [1, 2]


def test_read_only_arrays_warn_as_from_numpy_does():
    a = np.arange(3.0)
    a.setflags(write=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="not writable"):
            wick.as_tensor(a)


@pytest.mark.parametrize("data,kwargs,error,message", [
    (np.arange(4)[::-1], {}, ValueError, "negative"),
    (np.arange(4, dtype=np.uint16), {}, TypeError, "can't convert np.ndarray of type numpy.uint16"),
    (np.array(["a"]), {}, TypeError, "can't convert np.ndarray"),
    ([1, "a"], {}, TypeError, "could not convert an object of type 'str'"),
    (None, {}, TypeError, "could not convert an object of type 'NoneType'"),
    ([1, 2], {"dtype": "float"}, TypeError, "must be wick.dtype, not str"),
    (wick.ones(2), {"device": "gpu"}, ValueError, "expected a device string"),
])
def test_errors(data, kwargs, error, message):
    with pytest.raises(error, match=message):
        wick.as_tensor(data, **kwargs)


def test_dtype_and_device_are_keyword_only():
    with pytest.raises(TypeError, match=r"as_tensor\(\) takes at most 1 positional argument \(2 given\)"):
        wick.as_tensor([1], wick.float32)


@pytest.mark.parametrize("data", [
    np.array([1.5, 2.5]), np.array([[1, 2]], dtype=np.int32), np.array([True]), np.array(2.5, dtype=np.float16),
    np.float64(1.5), np.int8(3), [np.float64(1.5), 2], [np.int16(1), np.int16(2)], [[np.uint8(1)], [True]],
    [np.array([1.0], dtype=np.float16), [2.0]], [1, 2.5], [True, 2], [],
], ids=lambda d: type(d).__name__ + "-" + str(getattr(d, "dtype", "list")))
def test_tensor_infers_the_dtype_of_numpy_data_as_pytorch(data):
    torch = pytest.importorskip("torch")
    expected = torch.tensor(data)
    got = wick.tensor(data)
    assert str(got.dtype).split(".")[1] == str(expected.dtype).split(".")[1]
    assert got.tolist() == expected.tolist()


def test_tensor_of_an_ndarray_is_a_copy():
    a = np.arange(6.0).reshape(2, 3)[:, ::2]
    t = wick.tensor(a)
    a[0, 0] = 7
    assert t.dtype == wick.float64 and t.tolist() == [[0.0, 2.0], [3.0, 5.0]] and t.is_contiguous()
    assert wick.tensor(a, dtype=wick.int32).tolist() == [[7, 2], [3, 5]]
