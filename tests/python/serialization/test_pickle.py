"""Pickling and copying keep a tensor's class, dtype, shape, strides, values and attributes; the values travel
as raw bytes, the attributes as pickle's state, so they may refer to the tensor itself."""
import copy
import pickle

import numpy as np
import pytest

import wick
from reference import DTYPES, make, to_numpy

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


class Tagged(wick.Tensor):
    def describe(self):
        return f"{self.tag}: {self.tolist()}"


class Restored(wick.Tensor):
    def __setstate__(self, state):
        self.__dict__.update(state, restored=True)


def round_trips(x):
    """x pickled with every protocol, and deep-copied: new objects all through."""
    return [pickle.loads(pickle.dumps(x, protocol)) for protocol in PROTOCOLS] + [copy.deepcopy(x)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)])
def test_values_dtype_and_shape(dtype, shape):
    a = np.random.default_rng(len(shape)).integers(-3, 4, size=shape)
    x = make(a.astype(bool) if dtype == "bool" else a, dtype)
    for y in round_trips(x) + [copy.copy(x)]:
        assert type(y) is wick.Tensor and y is not x and y.dtype is x.dtype and y.shape == x.shape
        np.testing.assert_array_equal(to_numpy(y), to_numpy(x))
        assert not y.__dict__  # no state when there are no attributes


def test_an_attribute_that_refers_to_the_tensor_itself():
    x = wick.arange(6.0).reshape(2, 3)
    x.me, x.pair, x.tag = x, [x, 1], "kept"
    for y in round_trips(x):
        assert y.me is y and y.pair[0] is y and y.pair[1] == 1 and y.tag == "kept"
        assert y.tolist() == x.tolist()
    shallow = copy.copy(x)  # a shallow copy shares the attributes' values, as for any object
    assert shallow is not x and shallow.me is x and shallow.tag == "kept"


def test_tensors_that_refer_to_each_other():
    x, y = wick.ones(2), wick.zeros(3)
    x.other, y.other = y, x
    for a, b in (pickle.loads(pickle.dumps((x, y))), copy.deepcopy((x, y))):
        assert a.other is b and b.other is a and a.tolist() == [1.0, 1.0] and b.tolist() == [0.0] * 3


def test_a_subclass_comes_back_as_itself_with_its_attributes():
    x = Tagged([1.0, 2.0])
    x.tag, x.me = "mine", x
    for y in round_trips(x):
        assert type(y) is Tagged and y.me is y and y.tag == "mine" and y.describe() == "mine: [1.0, 2.0]"
        assert y.dtype is wick.float32
    shallow = copy.copy(x)
    assert type(shallow) is Tagged and shallow.me is x and shallow.describe() == "mine: [1.0, 2.0]"


def test_a_subclass_with_setstate_receives_the_state():
    x = Restored(2)
    x.tag = 1
    for y in round_trips(x):
        assert type(y) is Restored and y.tag == 1 and y.restored is True


def test_a_view_keeps_its_strides_and_carries_only_the_bytes_it_reaches():
    base = wick.arange(1000, dtype=wick.int64).reshape(10, 100)
    view = base.t()[1:3]
    y = pickle.loads(pickle.dumps(view))
    assert y.tolist() == view.tolist() and y.stride() == (1, 100) and not y.is_contiguous()
    assert y.storage_offset() == 0  # its offset into the bytes it carries
    assert 8 * 902 <= len(pickle.dumps(view)) < 8 * 902 + 200  # elements 1 to 902, not the whole storage
    expanded = wick.tensor([3.0]).expand(1000, 1000)
    y = pickle.loads(pickle.dumps(expanded))
    assert y.stride() == (0, 0) and y.shape == (1000, 1000) and y[999, 999].item() == 3.0
    assert len(pickle.dumps(expanded)) < 200
    empty = base[3:3, 50:]
    y = pickle.loads(pickle.dumps(empty))
    assert y.shape == (0, 50) and y.dtype is wick.int64


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_a_million_float32_pickle_to_about_four_megabytes(protocol):
    size = len(pickle.dumps(wick.zeros(1_000_000), protocol))
    assert 4_000_000 <= size < 4_000_000 + 300


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_bytes_come_back_exactly(dtype):
    x = make(np.array([0, 1, 1, 0, 1, 1]), dtype).reshape(2, 3).t()
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        x = wick.tensor([[float("nan"), -0.0], [float("inf"), 1e-3], [-2.5, 7.0]], dtype=x.dtype)
    y = pickle.loads(pickle.dumps(x))
    assert y.stride() == x.stride() and y.dtype is x.dtype
    as_bytes = [bytes(memoryview(wick._C._storage_bytes(t)[0])) for t in (x, y)]
    assert as_bytes[0] == as_bytes[1]


@pytest.mark.cuda
def test_a_cuda_tensor_comes_back_on_its_device():
    x = wick.arange(6.0).reshape(2, 3).cuda().t()
    y = pickle.loads(pickle.dumps(x))
    assert y.device == x.device and y.stride() == x.stride() and y.cpu().tolist() == x.cpu().tolist()
