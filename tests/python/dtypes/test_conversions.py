"""Conversions between dtypes: to(), type() and the dtype methods (float(), double(), half(), bfloat16(),
int(), long(), short(), char(), byte(), bool()) in every pair of dtypes, as NumPy casts and PyTorch
names them; a conversion to the dtype a tensor has is the tensor itself; special values, truncation."""
import math

import numpy as np
import pytest

import wick
from reference import DTYPES, NUMPY_DTYPE, TOLERANCE, assert_close, make, random_values, to_numpy, wdtype


@pytest.mark.parametrize("src", DTYPES)
@pytest.mark.parametrize("dst", DTYPES)
def test_to_dtype_matches_numpy_casting(src, dst):
    values = np.array([0, 1, 2, 3, 5, 7], dtype=NUMPY_DTYPE[src])
    x = wick.tensor(values.tolist(), dtype=wdtype(src))
    y = x.to(wdtype(dst))
    assert y.dtype is wdtype(dst)
    assert_close(y, values.astype(NUMPY_DTYPE[dst]), dst)
    assert (y is x) == (src == dst)


def test_to_copy_and_conversions_of_special_values():
    x = wick.tensor([1.0, 2.0])
    assert x.to(wick.float32, copy=True) is not x
    assert x.to("cpu") is x and x.cpu() is x
    assert x.to(wick.tensor([1], dtype=wick.int16)).dtype is wick.int16
    f = wick.tensor([math.inf, -math.inf, math.nan, 65504.0, 1e-7])
    assert to_numpy(f.to(wick.float16)).tolist()[:2] == [math.inf, -math.inf]
    assert math.isnan(f.to(wick.float16).tolist()[2]) and math.isnan(f.to(wick.bfloat16).tolist()[2])
    assert f.to(wick.float16).tolist()[3] == 65504.0
    assert wick.tensor([0.5, -0.0, 2.0]).to(wick.bool).tolist() == [True, False, True]


CONVERSIONS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16", "int": "int32",
               "long": "int64", "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool"}


@pytest.mark.parametrize("src", DTYPES)
@pytest.mark.parametrize("method", sorted(CONVERSIONS))
def test_dtype_methods_convert_every_pair(method, src):
    target = CONVERSIONS[method]
    rng = np.random.default_rng(2)
    # Values every dtype holds (positive, so that the conversion to uint8 is defined) and a zero for bool.
    values = random_values(src, (3, 4), rng, domain="positive")
    values.flat[0] = 0
    x = make(values, src).t()  # non-contiguous
    result = getattr(x, method)()
    assert result.dtype is wdtype(target) and tuple(result.shape) == (4, 3)
    if src == target:
        assert result is x  # as self.to(dtype): nothing to do
    else:
        assert result is not x and result.data_ptr() != x.data_ptr()
    expected = to_numpy(x).astype(NUMPY_DTYPE[target])
    if target == "bfloat16":
        np.testing.assert_allclose(to_numpy(result), to_numpy(x).astype(np.float64), **TOLERANCE["bfloat16"])
    else:
        np.testing.assert_array_equal(to_numpy(result), expected)
    assert result.tolist() == x.to(wdtype(target)).tolist()
    assert x.type(wdtype(target)).tolist() == result.tolist()


def test_type_is_to():
    x = wick.ones(2)
    assert x.type(wick.float32) is x
    assert x.type(wick.float64).dtype is wick.float64
    assert x.type(dtype=wick.int8, non_blocking=True).dtype is wick.int8


def test_conversions_are_methods_and_the_dtype_names_stay():
    assert wick.float is wick.float32 and wick.int is wick.int32 and wick.bool is wick.bool
    assert wick.half is wick.float16 and wick.long is wick.int64 and wick.double is wick.float64
    assert not hasattr(wick, "byte")


def test_float_truncation_and_bool_conversion():
    x = wick.tensor([-2.7, -0.5, 0.0, 0.5, 2.7])
    assert x.int().tolist() == [-2, 0, 0, 0, 2]
    assert x.bool().tolist() == [True, True, False, True, True]
    assert wick.tensor([True, False]).float().tolist() == [1.0, 0.0]
    assert wick.tensor([300]).byte().tolist() == [44]  # wraps, as the integer conversion does


def test_type_names_and_converts_like_pytorch():
    a = np.array([[1.5, -2.0], [3.25, 0.0]], dtype=np.float32)
    x = wick.tensor(a.tolist())
    assert x.type() == "wick.FloatTensor" and wick.tensor([1]).type() == "wick.LongTensor"
    assert wick.tensor([True]).type() == "wick.BoolTensor" and x.half().type() == "wick.HalfTensor"
    for target, dtype in [(wick.int32, np.int32), ("wick.DoubleTensor", np.float64), (wick.ByteTensor, np.uint8)]:
        y = x.type(target)
        assert y.numpy().dtype == dtype and y.tolist() == a.astype(dtype).tolist()
    assert x.type(wick.float32) is x  # already that dtype: no copy, as to()
    with pytest.raises(ValueError, match="invalid type"):
        x.type("torch.FloatTensor")
    with pytest.raises(TypeError, match="legacy tensor class"):
        x.type(3)


@pytest.mark.parametrize("python_type", [float, int, bool])
def test_python_types_stand_for_dtypes_as_in_pytorch(python_type):
    """Python's float, int and bool stand for float64, int64 and bool wherever an op takes a dtype, as in PyTorch
    (torch.zeros(2, dtype=float), x.to(int)); other types are still refused."""
    import torch
    expected = getattr(wick, str(torch.zeros(1, dtype=python_type).dtype).split(".")[1])
    x = wick.tensor([1.5, -2.0, 0.0])
    assert wick.zeros(2, dtype=python_type).dtype is expected
    assert x.to(python_type).dtype is expected
    assert x.to(python_type).tolist() == torch.tensor([1.5, -2.0, 0.0]).to(python_type).tolist()
    assert wick.full((2,), 1, dtype=python_type).dtype is expected
    with pytest.raises(TypeError):
        wick.zeros(2, dtype=str)
    with pytest.raises(TypeError):
        x.to(complex)
