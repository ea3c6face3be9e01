"""Construction, factories, dtypes, devices and properties of wick tensors (conversions between dtypes:
dtypes/test_conversions.py)."""
import numpy as np
import pytest

import wick
from reference import DTYPES, assert_close, wdtype


def test_issue_example():
    x = wick.FloatTensor(10).fill_(1)
    x[4] = 2
    assert x.sum().item() == 11.0
    assert x.add_(1) is x
    assert x.zero_() is x
    assert x.tolist() == [0.0] * 10


def test_legacy_constructors():
    assert wick.Tensor(2, 3).shape == (2, 3) and wick.Tensor(2, 3).dtype is wick.float32
    assert wick.Tensor().shape == (0,)
    assert wick.Tensor([1, 2]).tolist() == [1.0, 2.0]
    assert wick.LongTensor([1, 2]).dtype is wick.int64
    assert wick.DoubleTensor(3).dtype is wick.float64
    assert wick.BoolTensor(2).dtype is wick.bool
    x = wick.FloatTensor(5)
    assert isinstance(x, wick.FloatTensor) and not isinstance(x, wick.LongTensor)
    assert type(x) is wick.Tensor
    # The constructor is not an op: its messages name none (Note [Op names in messages]).
    with pytest.raises(TypeError, match=r"^invalid arguments; expected one of: \(\*size, device=None\), "):
        wick.Tensor("abc")


def test_tensor_from_nested_data_infers_dtype():
    assert wick.tensor([[1, 2], [3, 4]]).dtype is wick.int64
    assert wick.tensor([1, 2.5]).dtype is wick.float32
    assert wick.tensor([True, False]).dtype is wick.bool
    assert wick.tensor(3).shape == ()
    x = wick.tensor([[1, 2], [3, 4]], dtype=wick.float64)
    assert x.dtype is wick.float64 and x.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert wick.tensor([]).shape == (0,)
    assert wick.tensor(np.arange(6).reshape(2, 3)).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_tensor_from_bad_data():
    with pytest.raises(ValueError, match="expected sequence of length 2 at dim 1"):
        wick.tensor([[1, 2], [3]])
    with pytest.raises(ValueError):
        wick.tensor([1, [2]])
    with pytest.raises(TypeError, match="str"):
        wick.tensor(["a"])
    with pytest.raises(OverflowError):
        wick.tensor([2**70])


def test_tensor_copies_its_data():
    x = wick.tensor([1.0, 2.0])
    y = wick.tensor(x)
    y[0] = 5
    assert x.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("factory,value", [(wick.zeros, 0), (wick.ones, 1)])
def test_zeros_ones(factory, value):
    for size in [(2, 3), [2, 3], 2]:
        t = factory(size) if not isinstance(size, tuple) else factory(*size)
        assert t.tolist() == np.full(t.shape, value, dtype=np.float32).tolist()
    assert factory(2, dtype=wick.int32).tolist() == [value, value]
    assert factory((), dtype=wick.bool).shape == ()


def test_full_infers_dtype_from_value():
    assert wick.full((2,), 7).dtype is wick.int64
    assert wick.full((2,), 7.5).tolist() == [7.5, 7.5]
    assert wick.full((2,), True).dtype is wick.bool
    assert wick.full((2,), 3, dtype=wick.float16).tolist() == [3.0, 3.0]


def test_arange_matches_numpy():
    assert wick.arange(5).tolist() == list(range(5)) and wick.arange(5).dtype is wick.int64
    assert wick.arange(1, 10, 3).tolist() == [1, 4, 7]
    assert wick.arange(5, 0, -2).tolist() == [5, 3, 1]
    assert_close(wick.arange(0, 1, 0.1), np.arange(0, 1, 0.1, dtype=np.float32), "float32")
    assert wick.arange(0.5, 3).dtype is wick.float32
    with pytest.raises(ValueError, match="step"):
        wick.arange(0, 5, 0)
    with pytest.raises(ValueError):
        wick.arange(5, 0, 1)


def test_rand_and_randn():
    wick.manual_seed(0)
    a = wick.rand(1000)
    wick.manual_seed(0)
    assert wick.rand(1000).tolist() == a.tolist()
    values = np.array(a.tolist())
    assert values.min() >= 0 and values.max() < 1 and abs(values.mean() - 0.5) < 0.05
    n = np.array(wick.randn(10000, dtype=wick.float64).tolist())
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    with pytest.raises(TypeError, match="floating"):
        wick.rand(3, dtype=wick.int32)


def test_properties():
    x = wick.zeros(2, 3, 4)
    assert x.shape == (2, 3, 4) and x.size() == (2, 3, 4) and x.size(1) == 3 and x.size(-1) == 4
    assert x.dim() == 3 and x.ndim == 3 and x.numel() == 24 and wick.numel(x) == 24
    assert x.stride() == (12, 4, 1) and x.stride(0) == 12
    assert x.dtype is wick.float32 and x.device == wick.device("cpu") and str(x.device) == "cpu"
    assert x.is_contiguous() and not x.transpose(0, 1).is_contiguous()
    assert x.itemsize == 4 and not x.is_cuda


def test_dtype_objects():
    assert repr(wick.float32) == "wick.float32"
    assert wick.float is wick.float32 and wick.long is wick.int64 and wick.half is wick.float16
    assert wick.float64.is_floating_point and not wick.int8.is_floating_point
    assert [wdtype(d).itemsize for d in DTYPES] == [1, 1, 1, 2, 4, 8, 2, 2, 4, 8]


def test_device_objects():
    assert wick.device("cuda:1").index == 1 and wick.device("cuda").type == "cuda"
    assert repr(wick.device("cpu")) == "device(type='cpu')"
    assert wick.device("cuda", 2) == wick.device("cuda:2")
    assert len({wick.device("cpu"), wick.device("cpu")}) == 1
    with pytest.raises(ValueError, match="device string"):
        wick.device("tpu")


def test_item_and_tolist():
    assert wick.tensor(2.5).item() == 2.5 and isinstance(wick.tensor(3).item(), int)
    assert wick.tensor([True]).item() is True
    assert wick.tensor([[1, 2]], dtype=wick.int8).tolist() == [[1, 2]]
    assert wick.tensor([1.5], dtype=wick.bfloat16).tolist() == [1.5]
    with pytest.raises(RuntimeError, match="2 elements"):
        wick.tensor([1, 2]).item()


def test_contiguous_and_clone():
    x = wick.arange(6).reshape(2, 3)
    assert x.contiguous() is x
    y = x.t().contiguous()
    assert y.is_contiguous() and y.tolist() == [[0, 3], [1, 4], [2, 5]]
    c = x.clone()
    c[0, 0] = 100
    assert x[0, 0].item() == 0 and wick.clone(x).tolist() == x.tolist()


def test_subclass_keeps_its_class_and_identity():
    class Tagged(wick.Tensor):
        pass

    x = Tagged(3)
    assert type(x) is Tagged
    assert x.fill_(2) is x and type(x.fill_(2)) is Tagged
    x.tag = "mine"
    assert x.add_(1).tag == "mine"
    assert type(x + 1) is wick.Tensor


def test_pickle_copy_and_numpy_keep_dtype_shape_values_and_attributes():
    import copy
    import pickle

    x = wick.arange(6, dtype=wick.int16).reshape(2, 3).t()
    x.tag = "kept"
    for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        assert y is not x and y.dtype is wick.int16 and y.shape == (3, 2)
        assert y.tolist() == x.tolist() and y.tag == "kept"
    a = np.asarray(x)
    assert a.dtype == np.int16 and a.tolist() == x.tolist()


def test_storage_offset_of_views():
    x = wick.arange(12).reshape(3, 4)
    assert x.storage_offset() == 0 and x[1, 2:].storage_offset() == 6 and x.t()[2].storage_offset() == 2
