"""Type promotion as PyTorch does it: the result dtype of an op on tensors and Python numbers or 0-d
tensors of other dtypes (a number or a 0-d tensor of the same kind does not widen a tensor), of
comparisons, and of joins of tensors of several dtypes."""
import math

import numpy as np
import pytest

import wick
from reference import make, to_numpy, wdtype


@pytest.mark.parametrize("tensor_dtype,other,expected", [
    (wick.int32, 2, wick.int32),
    (wick.int32, 2.5, wick.float32),
    (wick.bool, 1, wick.int64),
    (wick.bool, True, wick.bool),
    (wick.uint8, 300, wick.uint8),
    (wick.float16, 2.5, wick.float16),
    (wick.int64, wick.tensor(1.5, dtype=wick.float64), wick.float64),
    (wick.float16, wick.tensor(1.0, dtype=wick.float64), wick.float16),
    (wick.int32, wick.tensor(1, dtype=wick.int64), wick.int32),
    (wick.uint8, wick.tensor([1], dtype=wick.int8), wick.int16),
    (wick.float16, wick.tensor([1], dtype=wick.bfloat16), wick.float32),
])
def test_type_promotion(tensor_dtype, other, expected):
    assert wick.add(wick.ones(1, dtype=tensor_dtype), other).dtype is expected


def test_comparisons_promote_before_comparing():
    assert (wick.tensor([1, 2]) == wick.tensor([1.0, 2.5])).tolist() == [True, False]
    assert (wick.tensor([200], dtype=wick.uint8) > wick.tensor([-1], dtype=wick.int8)).tolist() == [True]
    assert wick.eq(wick.tensor([math.nan]), math.nan).tolist() == [False]


@pytest.mark.parametrize("first,second", [("int32", "uint8"), ("bool", "float16"), ("int8", "uint8"),
                                          ("int64", "float16"), ("bfloat16", "float16"), ("bool", "bool"),
                                          ("float32", "float64"), ("uint8", "int64")])
def test_cat_and_stack_promote_as_pytorch(first, second):
    torch = pytest.importorskip("torch")
    want = str(torch.promote_types(getattr(torch, first), getattr(torch, second))).split(".")[1]
    a = make(np.array([[1, 0], [1, 1]]), first)
    b = make(np.array([[0, 1]]), second)
    for result, expected in ((wick.cat([a, b]), [[1, 0], [1, 1], [0, 1]]),
                             (wick.stack([a[0], b[0]]), [[1, 0], [0, 1]])):
        assert result.dtype == wdtype(want)
        np.testing.assert_array_equal(to_numpy(result), np.array(expected).astype(to_numpy(result).dtype))
