"""Pickling and copying keep a tensor's class, dtype, shape, values and attributes; the attributes
travel as pickle's state, so they may refer to the tensor itself."""
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


def test_a_view_is_pickled_as_its_own_values():
    base = wick.arange(12).reshape(3, 4)
    view = base.t()[1:]
    y = pickle.loads(pickle.dumps(view))
    assert y.tolist() == view.tolist() and y.shape == view.shape and y.is_contiguous()
