"""Sorting and selection against NumPy: sort, argsort, topk, kthvalue, median, nanmedian, max/min along a
dim (and with a tensor), unique.

Every dtype an op takes (TypeError for bool where PyTorch 1.13 refuses it), on
contiguous, transposed and sliced inputs, over negative and positive dims,
with ties and NaNs; then 0-d and empty inputs, out=, and the errors. Where
an op's order of equal elements is fixed (stable sort, and the selections,
which pick as a stable sort does), indices are compared exactly; elsewhere
they must be a permutation that gives the values.
"""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, make, to_numpy

NOT_BOOL = DTYPES[1:]
SHAPE = (4, 5, 6)


def tied_values(dtype, shape, rng, nan=True):
    """Few distinct values, so that there are ties, and for floats some NaNs."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    values = rng.integers(0 if dtype == "uint8" else -3, 4, size=shape)
    if dtype in FLOATS:
        values = values.astype(np.float64)
        if nan:
            values[rng.random(shape) < 0.15] = np.nan
    return values


def layouts(a, dtype):
    """(name, NumPy array, wick tensor) of the same values: contiguous, transposed and sliced."""
    t = make(a, dtype)
    yield "contiguous", to_numpy(t), t
    yield "transposed", to_numpy(t).swapaxes(0, 2), t.transpose(0, 2)
    yield "sliced", to_numpy(t)[:, ::2, 1:], t[:, ::2, 1:]


def cases(dtypes, seed):
    rng = np.random.default_rng(seed)
    for dtype in dtypes:
        for layout, a, t in layouts(tied_values(dtype, SHAPE, rng), dtype):
            yield pytest.param(dtype, a, t, id=f"{dtype}-{layout}")


def stable_order(a, axis, descending=False):
    """The positions a stable sort along `axis` puts first, NaN above every number."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    key = np.moveaxis(a.astype(np.float64), axis, -1)
    order = np.lexsort((-np.nan_to_num(key), ~np.isnan(key)), axis=-1)  # NaN first, then the largest
    return np.moveaxis(order, -1, axis)


def check_indices_give_values(a, axis, values, indices):
    assert indices.dtype == wick.int64
    got = to_numpy(indices)
    np.testing.assert_array_equal(np.take_along_axis(a, got, axis), to_numpy(values))
    return got


@pytest.mark.parametrize("dtype,a,t", cases(DTYPES, 1))
@pytest.mark.parametrize("dim", [-1, 0, 1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort(dtype, a, t, dim, descending):
    want = stable_order(a, dim, descending)
    values, indices = wick.sort(t, dim, descending, stable=True)
    assert values.dtype == t.dtype and tuple(values.shape) == a.shape
    np.testing.assert_array_equal(to_numpy(values), np.take_along_axis(a, want, dim))
    np.testing.assert_array_equal(to_numpy(indices), want)
    if not descending:
        np.testing.assert_array_equal(to_numpy(values), np.sort(a, axis=dim))
    # Not stable: the same values, and indices that are a permutation giving them.
    values, indices = t.sort(dim=dim, descending=descending)
    np.testing.assert_array_equal(to_numpy(values), np.take_along_axis(a, want, dim))
    got = check_indices_give_values(a, dim, values, indices)
    np.testing.assert_array_equal(np.sort(got, axis=dim), np.sort(want, axis=dim))
    np.testing.assert_array_equal(to_numpy(t.argsort(dim, descending, stable=True)), want)
    np.testing.assert_array_equal(to_numpy(wick.argsort(t, dim=dim, descending=descending)), got)


@pytest.mark.parametrize("dtype,a,t", cases(NOT_BOOL, 2))
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k", [0, 1, 3])
def test_topk(dtype, a, t, largest, k):
    want = np.take(stable_order(a, 1, descending=largest), np.arange(k), axis=1)
    values, indices = t.topk(k, 1, largest)
    assert tuple(values.shape) == a.shape[:1] + (k,) + a.shape[2:]
    np.testing.assert_array_equal(to_numpy(values), np.take_along_axis(a, want, 1))
    np.testing.assert_array_equal(to_numpy(indices), want)
    values, indices = wick.topk(t, k, dim=-2, largest=largest, sorted=False)  # any order, the same elements
    got = check_indices_give_values(a, 1, values, indices)
    np.testing.assert_array_equal(np.sort(got, axis=1), np.sort(want, axis=1))


@pytest.mark.parametrize("dtype,a,t", cases(NOT_BOOL, 3))
@pytest.mark.parametrize("dim", [-1, 0])
def test_kthvalue(dtype, a, t, dim):
    n = a.shape[dim]
    for k in (1, (n + 1) // 2, n):
        want = np.take(stable_order(a, dim), [k - 1], axis=dim)
        values, indices = t.kthvalue(k, dim, keepdim=True)
        np.testing.assert_array_equal(to_numpy(values), np.take_along_axis(a, want, dim))
        np.testing.assert_array_equal(to_numpy(indices), want)
        values, indices = wick.kthvalue(t, k, dim)
        assert tuple(values.shape) == tuple(np.squeeze(want, dim).shape)
        np.testing.assert_array_equal(to_numpy(values), np.squeeze(np.take_along_axis(a, want, dim), dim))
        if dtype != "float16" and not np.isnan(a).any():  # np.partition puts the k-th value in its place
            np.testing.assert_array_equal(to_numpy(values), np.take(np.partition(a, k - 1, axis=dim), k - 1, dim))


def median_reference(a, axis, ignore_nan):
    """(values, indices) of the lower median along `axis`, line by line."""
    lines = np.moveaxis(a, axis, -1).reshape(-1, a.shape[axis])
    values, indices = [], []
    for line in lines:
        order = np.argsort(line, kind="stable")  # NaNs last, in their order
        nans = int(np.isnan(line.astype(np.float64)).sum())
        numbers = len(line) - nans
        rank = numbers if nans and not ignore_nan else max(numbers - 1, 0) // 2
        values.append(line[order[rank]])
        indices.append(order[rank])
    shape = np.moveaxis(a, axis, -1).shape[:-1]
    return np.array(values, dtype=a.dtype).reshape(shape), np.array(indices).reshape(shape)


@pytest.mark.parametrize("dtype,a,t", cases(NOT_BOOL, 4))
@pytest.mark.parametrize("dim", [-1, 1])
@pytest.mark.parametrize("op", ["median", "nanmedian"])
def test_median(dtype, a, t, dim, op):
    want_values, want_indices = median_reference(a, dim, op == "nanmedian")
    values, indices = getattr(t, op)(dim)
    np.testing.assert_array_equal(to_numpy(values), want_values)
    np.testing.assert_array_equal(to_numpy(indices), want_indices)
    values, indices = getattr(wick, op)(t, dim=dim, keepdim=True)
    np.testing.assert_array_equal(to_numpy(values), np.expand_dims(want_values, dim))
    flat = to_numpy(t).ravel()
    whole = getattr(t, op)()
    assert whole.dim() == 0
    np.testing.assert_array_equal(to_numpy(whole), median_reference(flat, 0, op == "nanmedian")[0])


def test_median_with_nan():
    t = wick.tensor([[4.0, float("nan"), 1.0, float("nan")], [2.0, 3.0, 1.0, 0.0]])
    values, indices = t.median(1)
    assert np.isnan(values[0].item()) and indices.tolist() == [1, 2]  # the first NaN; the lower median 1.0
    assert values[1].item() == 1.0
    assert np.isnan(t.median().item()) and t.nanmedian().item() == 1.0
    assert t.nanmedian(1).values.tolist() == [1.0, 1.0]
    values, indices = wick.tensor([float("nan")] * 3).nanmedian(0)
    assert np.isnan(values.item()) and indices.item() == 0


@pytest.mark.parametrize("dtype,a,t", cases(DTYPES, 6))
@pytest.mark.parametrize("dim", [-1, 0, 2])
@pytest.mark.parametrize("op", ["max", "min"])
def test_max_min_along_dim(dtype, a, t, dim, op):
    values, indices = getattr(t, op)(dim)
    reference = getattr(np, op)(a, axis=dim)  # NaN propagates
    np.testing.assert_array_equal(to_numpy(values), reference)
    if dtype != "bool":  # NumPy's argmax and argmin give the first extreme, or the first NaN
        arg = np.argmax if op == "max" else np.argmin
        np.testing.assert_array_equal(to_numpy(indices), arg(a, axis=dim))
        np.testing.assert_array_equal(to_numpy(indices), to_numpy(getattr(wick, "arg" + op)(t, dim)))
    else:
        check_indices_give_values(a, dim, values.unsqueeze(dim), indices.unsqueeze(dim))
    values, indices = getattr(wick, op)(t, dim=dim, keepdim=True)
    np.testing.assert_array_equal(to_numpy(values), getattr(np, op)(a, axis=dim, keepdims=True))
    assert tuple(indices.shape) == tuple(values.shape)


def test_max_min_with_a_tensor_are_maximum_minimum():
    x = wick.tensor([[1, 5], [float("nan"), 0]])
    y = wick.tensor([3, 2], dtype=wick.int32)
    for op, ref in (("max", "maximum"), ("min", "minimum")):
        got = getattr(x, op)(y)
        assert got.dtype == wick.float32
        np.testing.assert_array_equal(to_numpy(got), getattr(np, ref)(to_numpy(x), to_numpy(y).astype(np.float32)))
        np.testing.assert_array_equal(to_numpy(getattr(wick, op)(x, other=y)), to_numpy(got))


def np_unique(a):
    """(output, inverse, counts) of np.unique with each NaN apart. Asking for the index too makes
    NumPy sort stably, so that the NaNs keep their order, as unique's do."""
    output, _, inverse, counts = np.unique(a, return_index=True, return_inverse=True, return_counts=True,
                                           equal_nan=False)
    return output, inverse, counts


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique(dtype):
    t = make(tied_values(dtype, (4, 6), np.random.default_rng(7)), dtype)
    a = to_numpy(t)
    output, inverse, counts = np_unique(a)
    np.testing.assert_array_equal(to_numpy(t.unique()), output)
    got = wick.unique(t, return_inverse=True, return_counts=True)
    assert type(got) is tuple and len(got) == 3
    np.testing.assert_array_equal(to_numpy(got[0]), output)
    np.testing.assert_array_equal(to_numpy(got[1]), inverse.reshape(a.shape))
    np.testing.assert_array_equal(to_numpy(got[2]), counts)
    only_counts = t.unique(sorted=False, return_counts=True)
    assert len(only_counts) == 2 and to_numpy(only_counts[1]).tolist() == counts.tolist()
    only_inverse = t.t().unique(return_inverse=True)
    np.testing.assert_array_equal(to_numpy(only_inverse[1]), np_unique(a.T)[1].reshape(a.T.shape))


@pytest.mark.parametrize("dtype", NOT_BOOL)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unique_along_a_dim(dtype, dim):
    rng = np.random.default_rng(8)
    base = tied_values(dtype, (3, 4), rng, nan=False)
    a3 = np.concatenate([base, base[:2], base[1:]], axis=0)  # repeated rows
    t = make(np.stack([a3, a3[::-1]], axis=2), dtype)  # (7, 4, 2): rows repeat along dim 0
    a = to_numpy(t)
    output, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=dim)
    got_output, got_inverse, got_counts = wick.unique(t, return_inverse=True, return_counts=True, dim=dim)
    np.testing.assert_array_equal(to_numpy(got_output), output)
    np.testing.assert_array_equal(to_numpy(got_inverse), inverse.ravel())
    np.testing.assert_array_equal(to_numpy(got_counts), counts)


def test_unique_returns_and_nan():
    """A tensor, or a tuple of what was asked for, as torch.unique; each NaN distinct, in its order."""
    nan = float("nan")
    x = wick.tensor([2.0, nan, 1.0, nan, 2.0])
    want = np_unique(to_numpy(x))
    for inverse in (False, True):
        for counts in (False, True):
            got = wick.unique(x, return_inverse=inverse, return_counts=counts)
            picked = [want[0]] + [want[1]] * inverse + [want[2]] * counts
            got = got if inverse or counts else (got,)
            assert isinstance(got, tuple) == (inverse or counts) or len(got) == 1
            assert len(got) == len(picked)
            for g, w in zip(got, picked):
                np.testing.assert_array_equal(to_numpy(g), w)
    output, inverse, counts = wick.tensor(3).unique(return_inverse=True, return_counts=True)
    assert output.tolist() == [3] and inverse.dim() == 0 and inverse.item() == 0 and counts.tolist() == [1]


def test_zero_dim_inputs():
    t = wick.tensor(3.5)
    for result in (t.sort(), t.sort(0), t.topk(1), t.kthvalue(1), t.max(0), t.min(-1), t.median(0),
                   t.nanmedian(0)):
        values, indices = result
        assert values.dim() == 0 and values.item() == 3.5 and indices.item() == 0
    assert t.argsort().item() == 0 and t.median().item() == 3.5


def test_empty_inputs():
    e = wick.zeros(0, 3)
    values, indices = e.sort(0)
    assert tuple(values.shape) == (0, 3) and indices.dtype == wick.int64
    assert tuple(e.sort(1).values.shape) == (0, 3)
    assert tuple(e.topk(0, dim=0).values.shape) == (0, 3) and tuple(e.topk(2, dim=1).values.shape) == (0, 2)
    assert tuple(e.max(1).values.shape) == (0,) and tuple(e.median(1, keepdim=True).indices.shape) == (0, 1)
    assert tuple(e.kthvalue(1, 1).values.shape) == (0,)
    assert np.isnan(wick.zeros(0).median().item()) and np.isnan(wick.zeros(0).nanmedian().item())
    output, inverse, counts = e.unique(return_inverse=True, return_counts=True)
    assert output.tolist() == [] and tuple(inverse.shape) == (0, 3) and counts.tolist() == []
    assert tuple(wick.unique(e, dim=0).shape) == (0, 3)


def test_errors():
    t = wick.zeros(2, 3)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        t.topk(4)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        t.topk(-1)
    with pytest.raises(RuntimeError, match=r"kthvalue\(\): selected number k out of range for dimension 1"):
        t.kthvalue(0)
    with pytest.raises(RuntimeError, match="selected number k out of range for dimension 0"):
        t.kthvalue(3, 0)
    for call in (lambda: t.sort(2), lambda: t.argsort(-3), lambda: t.topk(1, 2), lambda: t.max(2),
                 lambda: t.min(-3), lambda: t.median(5), lambda: t.kthvalue(1, 2), lambda: t.unique(dim=2)):
        with pytest.raises(IndexError, match="Dimension out of range"):
            call()
    for op in ("max", "min", "median", "nanmedian"):
        with pytest.raises(IndexError, match=rf"{op}\(\): Expected reduction dim 1 to have non-zero size"):
            getattr(wick.zeros(2, 0), op)(1)
    for call in (lambda: wick.zeros(2, 0).max(), lambda: wick.zeros(0, dtype=wick.int64).median()):
        with pytest.raises(RuntimeError):
            call()
    b = wick.ones(3, dtype=wick.bool)
    for call in (lambda: b.topk(1), lambda: b.kthvalue(1), lambda: b.median(), lambda: b.nanmedian(0)):
        with pytest.raises(TypeError, match="not implemented for 'Bool'"):
            call()
    with pytest.raises(RuntimeError, match="0 sized dimensions"):
        wick.zeros(2, 0).unique(dim=0)
    with pytest.raises(TypeError):
        t.topk(1.5)
    with pytest.raises(TypeError):
        t.sort(stable=None)


def test_out():
    x = wick.tensor([[3, 1, 2], [0, 5, 4]])
    values, indices = wick.empty(0, dtype=wick.int64), wick.empty(0, dtype=wick.int64)
    result = wick.sort(x, 1, out=(values, indices))
    assert type(result) is wick.return_types.sort
    assert result.values is values and result[1] is indices
    assert values.tolist() == [[1, 2, 3], [0, 4, 5]] and indices.tolist() == [[1, 2, 0], [0, 2, 1]]
    with pytest.warns(UserWarning, match=r"topk\(\): an output with one or more elements was resized"):
        wick.topk(x, 1, out=(values, indices))
    assert values.tolist() == [[3], [5]] and indices.tolist() == [[0], [1]]
    with pytest.warns(UserWarning, match="was resized"):
        result = wick.kthvalue(x, 2, 0, True, out=(values, indices))
    assert values.tolist() == [[3, 5, 4]] and indices.tolist() == [[0, 1, 1]] and result.values is values
    with pytest.raises(TypeError, match="argument 'out' must be tuple of Tensors, not list"):
        wick.sort(x, out=[values, indices])
    with pytest.raises(TypeError, match="must be a tuple of 2 Tensors, not of 1"):
        wick.sort(x, out=(values,))
    with pytest.raises(TypeError, match="item 1 is int"):
        wick.topk(x, 1, out=(values, 1))
    with pytest.raises(TypeError, match="expected out= to have dtype int64"):
        wick.sort(x, out=(wick.empty(0, dtype=wick.int64), wick.empty(0, dtype=wick.int32)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wick.sort(x, out=(wick.empty(0, dtype=wick.int64), wick.empty(0, dtype=wick.int64)))  # empty: no warning


def test_large_strided_sort():
    """Long lines of a transposed view sort as NumPy sorts them, as on a contiguous copy."""
    a = np.random.default_rng(9).standard_normal((300, 200))
    t = wick.from_numpy(a)
    values, indices = t.t().sort(1)
    np.testing.assert_array_equal(to_numpy(indices), np.argsort(a.T, axis=1, kind="stable"))
    np.testing.assert_array_equal(to_numpy(values), to_numpy(t.t().contiguous().sort(1).values))
