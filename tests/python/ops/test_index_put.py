"""index_put_ and index_put against NumPy's indexed assignment and np.add.at (accumulate=True), where the
declared op tests (ops/test_declared_ops.py) do not reach: int32 indices, None entries that broadcast, masks,
repeated positions over two dims, values that broadcast, self sliced with a step, results that are new
tensors, values that overlap self, writes through views, and the errors PyTorch raises.

The generated tests check both in every dtype with int64 indices: one dim (accumulating repeats too),
None then an index, two dims and a 0-d value; self contiguous or transposed, in place on a view."""
import numpy as np
import pytest

import wick
from reference import (DTYPES, LAYOUTS, assert_equal, make, random_values, root, shares_storage, small_ints, tensor_in,
                       to_numpy)

SHAPE = (4, 5, 3)


def index(values, dtype="int64"):
    return wick.tensor(values, dtype=getattr(wick, dtype))


# (name, wick indices, the same as a NumPy index, shape of the indexed result); repeats only where noted.
CASES = [
    ("one dim", lambda: (index([3, 0, 1]),), (np.array([3, 0, 1]),), (3, 5, 3)),
    ("two dims", lambda: (index([1, 2]), index([4, 0])), (np.array([1, 2]), np.array([4, 0])), (2, 3)),
    ("None first", lambda: (None, index([2, -1], "int32")), (slice(None), np.array([2, -1])), (4, 2, 3)),
    ("broadcast", lambda: (index([[0], [3]]), None, index([2, 0])),
     (np.array([[0], [3]]), slice(None), np.array([2, 0])), (2, 2, 5)),
    ("mask", lambda: (index([True, False, True, True], "bool"),), (np.array([True, False, True, True]),), (3, 5, 3)),
    ("repeats", lambda: (index([1, 3, 1, 1]), index([0, 2, 0, 0])),
     (np.array([1, 3, 1, 1]), np.array([0, 2, 0, 0])), (4, 3)),
]


def accumulate_cases():
    """One dim accumulated, self contiguous or transposed: index_put-/index_put_-<dtype>-contiguous and
    -noncontiguous (indices of 5 into 3 rows: repeats add up); it stays on self sliced with a step."""
    for case in CASES:
        for dtype in DTYPES:
            for layout in ("stepped",) if case[0] == "one dim" else LAYOUTS:
                yield pytest.param(*case, dtype, layout, id=f"{case[0]}-{dtype}-{layout}")


@pytest.mark.parametrize("name,indices,np_index,shape,dtype,layout", accumulate_cases())
def test_accumulate_matches_np_add_at(name, indices, np_index, shape, dtype, layout):
    rng = np.random.default_rng(5)
    x, a = tensor_in(layout, dtype, SHAPE, values=small_ints(dtype, rng))
    values = make(small_ints(dtype, rng)(shape), dtype)  # sums stay exact in every dtype
    want = a.astype(np.float64) if dtype != "bool" else a.copy()
    if dtype == "bool":
        np.logical_or.at(want, np_index, to_numpy(values))
    else:
        np.add.at(want, np_index, to_numpy(values).astype(np.float64))
    if dtype not in ("bool", "float16", "bfloat16", "float32", "float64"):  # integers wrap, as in C
        want = want.astype(np.int64).astype(a.dtype)
    result = x.index_put(indices(), values, accumulate=True)
    assert_equal(result, want, dtype)
    assert result._base is None and not shares_storage(root(x), result)
    np.testing.assert_array_equal(to_numpy(x), a)  # index_put leaves self alone
    assert x.index_put_(indices(), values, True) is x
    assert_equal(x, want, dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,indices,np_index,shape", [c for c in CASES if c[0] != "repeats"],
                         ids=[c[0] for c in CASES if c[0] != "repeats"])
def test_assignment_matches_numpy(name, indices, np_index, shape, dtype, layout):
    x, a = tensor_in(layout, dtype, SHAPE, seed=len(name))
    rng = np.random.default_rng(6)
    values = make(random_values(dtype, shape[-1:], rng), dtype)  # broadcasts along the rest
    want = a.copy()
    want[np_index] = to_numpy(values)
    assert_equal(wick.index_put(x, indices(), values), want, dtype)
    assert wick.index_put_(x, list(indices()), values) is x
    assert_equal(x, want, dtype)


def test_repeated_positions_without_accumulate_keep_the_last_write():
    x = wick.zeros(3)
    x.index_put_((index([1, 1, 1]),), wick.tensor([5.0, 6.0, 7.0]))
    assert x.tolist() == [0.0, 7.0, 0.0]


def test_values_overlapping_self_are_read_first():
    x = wick.arange(5.0)
    x.index_put_((index([4, 3, 2, 1, 0]),), x)
    assert x.tolist() == [4.0, 3.0, 2.0, 1.0, 0.0]


def test_writes_reach_the_base_of_a_view():
    base = wick.zeros(3, 4)
    col = base[:, 1]
    assert col.index_put_((index([0, 2]),), wick.tensor(9.0)) is col
    assert base.tolist() == [[0, 9, 0, 0], [0, 0, 0, 0], [0, 9, 0, 0]]


def test_empty_indices_and_empty_values():
    x = wick.arange(4.0)
    assert x.index_put_((), wick.tensor(1.0)).tolist() == [1.0] * 4  # no index: the whole tensor
    assert x.index_put_((index([]),), wick.empty(0)).tolist() == [1.0] * 4
    assert x.index_put_([None], wick.tensor([2.0, 3.0, 4.0, 5.0]), accumulate=True).tolist() == [3, 4, 5, 6]


@pytest.mark.parametrize("call,error,message", [
    (lambda: wick.zeros(3).index_put_((index([0]),), wick.tensor([1])), TypeError,
     "Index put requires the source and destination dtypes match, got Float for the destination and Long for "
     "the source."),
    (lambda: wick.zeros(3).index_put_(index([0]), wick.tensor(1.0)), TypeError,
     r"argument 'indices' \(position 1\) must be tuple of \(Tensor or None\), not Tensor"),
    (lambda: wick.zeros(3).index_put_((None, 1), wick.tensor(1.0)), TypeError,
     r"index_put_\(\): expected Tensor or None as element 1 in argument 0, but got int"),
    (lambda: wick.index_put(wick.zeros(3), [[0]], wick.tensor(1.0)), TypeError,
     "expected Tensor or None as element 0 in argument 1, but got list"),
    (lambda: wick.zeros(3).index_put_((index([3]),), wick.tensor(1.0)), IndexError,
     "index 3 is out of bounds for dimension 0 with size 3"),
    (lambda: wick.zeros(3).index_put_((index([0], "float32"),), wick.tensor(1.0)), IndexError,
     "tensors used as indices must be long, int, byte or bool tensors"),
    (lambda: wick.zeros(3).index_put_((index([0, 1]),), wick.ones(3)), RuntimeError,
     r"shape mismatch: value tensor of shape \[3\] cannot be broadcast to indexing result of shape \[2\]"),
    (lambda: wick.zeros(3).index_put_((index([0]), index([0])), wick.tensor(1.0)), IndexError,
     "too many indices for tensor of dimension 1"),
    (lambda: wick.zeros(1).expand(3).index_put_((index([0]),), wick.tensor(1.0)), RuntimeError,
     "single memory location"),
    (lambda: wick.zeros(3).index_put_((index([0]),), 1.0), TypeError, "must be Tensor, not float"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_setitem_still_casts_its_value():
    """x[idx] = value converts the value to x's dtype, which index_put_ itself refuses to do."""
    x = wick.zeros(4, dtype=wick.int32)
    x[index([1, 3])] = wick.tensor([2.7, -1.2])
    x[[0]] = 5
    assert x.tolist() == [5, 2, 0, -1]
