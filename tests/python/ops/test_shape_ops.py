"""Shape ops against NumPy: flatten, unflatten, expand_as, movedim and diagonal (views); repeat, flip, roll,
tril, triu and diag (copies), where the declared op tests (ops/test_declared_ops.py) do not reach.

The generated tests check each op's values in every dtype on its samples, with self contiguous
or transposed. Here, in every dtype: self sliced with a step, arguments no sample gives (a dim
rolled twice, diagonals past int64's half) in every layout, and whether each result is a view
of self or a copy of its own; then in-place and out= forms, 0-d and empty tensors, the errors.
"""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, LAYOUTS, assert_equal, root, shares_storage, tensor_in, to_numpy

# (name, wick call, NumPy reference), each on a tensor of shape (3, 4, 5).
CASES = [
    ("flatten", lambda t: t.flatten(), lambda a: a.reshape(-1)),
    ("flatten(1)", lambda t: wick.flatten(t, 1), lambda a: a.reshape(3, -1)),
    ("flatten(0,1)", lambda t: t.flatten(0, 1), lambda a: a.reshape(12, 5)),
    ("flatten(-2,-1)", lambda t: t.flatten(start_dim=-2, end_dim=-1), lambda a: a.reshape(3, 20)),
    ("unflatten", lambda t: t.unflatten(1, (2, 2)), lambda a: a.reshape(3, 2, 2, 5)),
    ("unflatten(-1)", lambda t: wick.unflatten(t, -1, (-1, 1)), lambda a: a.reshape(3, 4, 5, 1)),
    ("expand_as", lambda t: t[:, :1].expand_as(wick.empty(2, 3, 4, 5)),
     lambda a: np.broadcast_to(a[:, :1], (2, 3, 4, 5))),
    ("movedim", lambda t: t.movedim(0, 2), lambda a: np.moveaxis(a, 0, 2)),
    ("movedim(lists)", lambda t: wick.movedim(t, (0, 1), (-1, 0)), lambda a: np.moveaxis(a, (0, 1), (-1, 0))),
    ("diagonal", lambda t: t.diagonal(), lambda a: np.diagonal(a)),
    ("diagonal(1,-1,0)", lambda t: t.diagonal(1, -1, 0), lambda a: np.diagonal(a, 1, -1, 0)),
    ("diagonal(-2,1,2)", lambda t: wick.diagonal(t, offset=-2, dim1=1, dim2=2), lambda a: np.diagonal(a, -2, 1, 2)),
    ("diagonal(9)", lambda t: t.diagonal(9), lambda a: np.diagonal(a, 9)),
    ("repeat", lambda t: t.repeat(2, 1, 3), lambda a: np.tile(a, (2, 1, 3))),
    ("repeat(new dims)", lambda t: t.repeat(2, 1, 1, 2), lambda a: np.tile(a, (2, 1, 1, 2))),
    ("repeat(0)", lambda t: t.repeat((1, 0, 1)), lambda a: np.tile(a, (1, 0, 1))),
    ("flip", lambda t: t.flip(0, 2), lambda a: np.flip(a, (0, 2))),
    ("flip(-1)", lambda t: wick.flip(t, [-1]), lambda a: np.flip(a, -1)),
    ("flip(all)", lambda t: t.flip((0, 1, 2)), lambda a: np.flip(a)),
    ("flip()", lambda t: t.flip(()), lambda a: a),
    ("roll", lambda t: t.roll(7), lambda a: np.roll(a, 7)),
    ("roll(dim)", lambda t: t.roll(-1, 1), lambda a: np.roll(a, -1, 1)),
    ("roll(dims)", lambda t: wick.roll(t, (1, -13), (0, -1)), lambda a: np.roll(a, (1, -13), (0, -1))),
    ("roll(same dim twice)", lambda t: t.roll((1, 1), (2, 2)), lambda a: np.roll(a, 2, 2)),
    ("tril", lambda t: t.tril(), lambda a: np.tril(a)),
    ("tril(-1)", lambda t: wick.tril(t, -1), lambda a: np.tril(a, -1)),
    ("tril(2)", lambda t: t.tril(diagonal=2), lambda a: np.tril(a, 2)),
    ("triu", lambda t: t.triu(), lambda a: np.triu(a)),
    ("triu(1)", lambda t: wick.triu(t, 1), lambda a: np.triu(a, 1)),
    ("triu(-3)", lambda t: t.triu(-3), lambda a: np.triu(a, -3)),
    ("tril(huge)", lambda t: t.tril(2 ** 62), lambda a: a),
    ("triu(huge)", lambda t: t.triu(2 ** 62), lambda a: np.zeros_like(a)),
    ("tril(-huge)", lambda t: t.tril(-2 ** 63), lambda a: np.zeros_like(a)),
    ("diag(2-d)", lambda t: t[1].diag(), lambda a: np.diag(a[1])),
    ("diag(2-d, 2)", lambda t: wick.diag(t[:, 1], 2), lambda a: np.diag(a[:, 1], 2)),
    ("diag(2-d, -1)", lambda t: t[:, :, 3].diag(-1), lambda a: np.diag(a[:, :, 3], -1)),
    ("diag(1-d)", lambda t: t[0, 1].diag(), lambda a: np.diag(a[0, 1])),
    ("diag(1-d, -2)", lambda t: wick.diag(t[2, :, 4], diagonal=-2), lambda a: np.diag(a[2, :, 4], -2)),
]
# The arguments of these cases are no op's samples: they run in every layout. The others run on
# self sliced with a step; contiguous and transposed, they are <op>-<dtype>-contiguous and
# -noncontiguous of the generated tests.
UNSAMPLED = {"roll(same dim twice)", "tril(huge)", "triu(huge)", "tril(-huge)"}
VIEWS = {"unflatten", "unflatten(-1)", "expand_as", "movedim", "movedim(lists)", "diagonal", "diagonal(1,-1,0)",
         "diagonal(-2,1,2)", "diagonal(9)"}


def sweep():
    for name, op, ref in CASES:
        for dtype in DTYPES:
            for layout in LAYOUTS if name in UNSAMPLED else ("stepped",):
                yield pytest.param(name, op, ref, dtype, layout, id=f"{name}-{dtype}-{layout}")


@pytest.mark.parametrize("name,op,ref,dtype,layout", sweep())
def test_matches_numpy(name, op, ref, dtype, layout):
    t, a = tensor_in(layout, dtype, (3, 4, 5), seed=len(name))
    before = to_numpy(t).copy()
    result = op(t)
    assert_equal(result, ref(a), dtype)
    np.testing.assert_array_equal(to_numpy(t), before)  # the input is untouched
    if name in VIEWS:
        assert root(result) is root(t)
    else:
        assert result._base is None or name.startswith("flatten")
        if not name.startswith("flatten") and result.numel() > 0:
            assert result.is_contiguous() and not shares_storage(root(t), result)


# ---------------------------------------------------------------------------------------------
# Views share storage; copies do not.

def test_views_share_storage_and_writes_reach_the_base():
    x = wick.arange(24, dtype=wick.float32).reshape(2, 3, 4)
    for v in (x.flatten(), x.flatten(1), x.unflatten(2, (2, 2)), x.diagonal(0, 1, 2), x.movedim(2, 0),
              x[:, :1].expand_as(x)):
        assert v._base is x._base and shares_storage(x, v)
    d = x.diagonal(1, 1, 2)
    assert d.storage_offset() == 1 and d.stride() == (12, 5)
    d.fill_(-1)
    expected = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for b in range(2):
        for i in range(3):
            expected[b, i, i + 1] = -1
    np.testing.assert_array_equal(to_numpy(x), expected)
    x.unflatten(0, (1, 2))[0, 1, 2, 3] = 7
    assert x[1, 2, 3].item() == 7


def test_flatten_is_a_view_only_when_strides_allow():
    x = wick.arange(24).reshape(2, 3, 4)
    assert x.flatten().data_ptr() == x.data_ptr() and x.flatten()._base is x._base
    t = x.transpose(0, 2)
    f = t.flatten()
    assert f._base is None and not shares_storage(x, f)
    assert f.tolist() == np.arange(24).reshape(2, 3, 4).transpose(2, 1, 0).reshape(-1).tolist()
    # Merging dims that are contiguous together is still a view, even in a transposed tensor.
    p = x.permute(1, 2, 0)  # (3, 4, 2) with strides (4, 1, 12): dims 0 and 1 merge
    assert p.flatten(0, 1)._base is x._base and p.flatten(0, 1).stride() == (1, 12)
    assert p.flatten(1)._base is None
    # start_dim == end_dim: the very same tensor, as PyTorch returns it.
    assert x.flatten(1, 1) is x and x.flatten(-1, 2) is x


def test_copies_do_not_share_storage():
    x = wick.arange(12, dtype=wick.float32).reshape(3, 4)
    for r in (x.repeat(1, 1), x.flip(()), x.roll(0), x.tril(5), x.triu(-5), wick.diag(x)):
        assert r._base is None and not shares_storage(x, r)
        r.fill_(-1)
    assert x.tolist() == np.arange(12).reshape(3, 4).tolist()


# ---------------------------------------------------------------------------------------------
# In-place and out= forms

@pytest.mark.parametrize("which", ["tril_", "triu_"])
def test_inplace_triangles_on_views_write_through(which):
    base = wick.arange(1, 25, dtype=wick.float64).reshape(2, 3, 4)
    expected = np.arange(1, 25, dtype=np.float64).reshape(2, 3, 4)
    v = base.transpose(1, 2)[:, ::2]  # (2, 2, 3), non-contiguous
    assert getattr(v, which)() is v
    ev = expected.transpose(0, 2, 1)[:, ::2]
    ev[...] = np.tril(ev) if which == "tril_" else np.triu(ev)
    np.testing.assert_array_equal(to_numpy(base), expected)


def test_out_forms():
    x = wick.arange(9, dtype=wick.float32).reshape(3, 3)
    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    out = wick.empty(3, 3)
    assert wick.tril(x, 1, out=out) is out and out.tolist() == np.tril(a, 1).tolist()
    assert wick.triu(x, out=out) is out and out.tolist() == np.triu(a).tolist()
    d = wick.empty(0)
    assert wick.diag(x, -1, out=d) is d and d.tolist() == [3.0, 7.0]
    m = wick.empty(0)
    assert wick.diag(wick.tensor([1.0, 2.0]), out=m) is m and m.tolist() == [[1.0, 0.0], [0.0, 2.0]]
    # out= aliasing the input still sees the input as it was.
    assert wick.tril(x, out=x) is x and x.tolist() == np.tril(a).tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="was resized"):
            wick.triu(x, out=wick.empty(2))
    with pytest.raises(TypeError, match="dtype"):
        wick.tril(x, out=wick.empty(3, 3, dtype=wick.int64))


# ---------------------------------------------------------------------------------------------
# 0-d and empty tensors

def test_zero_dim():
    s = wick.tensor(3.5)
    assert s.flatten().shape == (1,) and s.flatten(0, -1).tolist() == [3.5]
    assert s.flatten()._base is s
    assert s.repeat(()).shape == () and s.repeat(()).item() == 3.5
    assert s.repeat(2, 3).tolist() == [[3.5] * 3] * 2
    assert s.flip(0).item() == 3.5 and s.flip(()).shape == ()
    assert s.roll(4).shape == () and s.roll(4).item() == 3.5
    assert s.movedim(0, -1).shape == () and s.movedim((), ()).shape == ()
    assert s.expand_as(wick.empty(2)).tolist() == [3.5, 3.5]
    assert wick.tensor(1.0).expand_as(s).shape == ()


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 4), (3, 0)])
def test_empty(shape):
    a = np.zeros(shape, dtype=np.float32)
    t = wick.zeros(*shape)
    assert t.flatten().shape == (0,)
    assert t.repeat(*([2] * len(shape))).shape == np.tile(a, [2] * len(shape)).shape
    assert t.flip(0).shape == shape and t.roll(3).shape == shape and t.roll(1, 0).shape == shape
    if len(shape) >= 2:
        assert t.tril().shape == shape and t.triu_(1).shape == shape
        assert t.diagonal().shape == np.diagonal(a).shape
        assert t.unflatten(-1, (1, -1)).shape == a.reshape(shape[:-1] + (1, shape[-1])).shape
    if len(shape) <= 2:
        assert wick.diag(t).shape == np.diag(a).shape
    assert wick.diag(wick.zeros(0), 2).tolist() == [[0.0] * 2] * 2


def test_diag_of_a_diagonal_outside_the_matrix_is_empty():
    x = wick.ones(2, 3)
    assert x.diag(3).shape == (0,) and x.diag(-2).shape == (0,) and x.diag(2 ** 63 - 1).shape == (0,)
    assert x.diagonal(-2 ** 63).shape == (0,) and x.diagonal(5).storage_offset() == 0


# ---------------------------------------------------------------------------------------------
# Errors

def t3():
    return wick.arange(24, dtype=wick.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("call,exc,match", [
    (lambda t: t.flatten(2, 1), RuntimeError, "start_dim cannot come after end_dim"),
    (lambda t: t.flatten(3), IndexError, "Dimension out of range"),
    (lambda t: wick.tensor(1.0).flatten(1), IndexError, "Dimension out of range"),
    (lambda t: t.unflatten(1, (2, 2)), RuntimeError, "don't multiply up to the size of dim 1"),
    (lambda t: t.unflatten(1, ()), RuntimeError, "sizes must be non-empty"),
    (lambda t: t.unflatten(1, (-1, -1)), RuntimeError, "only one dimension can be inferred"),
    (lambda t: t.unflatten(1, (-2, 3)), RuntimeError, "invalid size"),
    (lambda t: t.unflatten(1, (2 ** 32, 2 ** 32, 3)), RuntimeError, "don't multiply up"),
    (lambda t: t.unflatten(1, (0, -1)), RuntimeError, "ambiguous"),
    (lambda t: t.unflatten(3, (1,)), IndexError, "Dimension out of range"),
    (lambda t: wick.tensor(1.0).unflatten(0, (1,)), IndexError, "no dimensions"),
    (lambda t: t.expand_as(wick.empty(2, 5, 4)), RuntimeError, "must match the existing size"),
    (lambda t: t.expand_as(wick.empty(3, 4)), RuntimeError, "must be greater or equal"),
    (lambda t: t.expand_as(3), TypeError, "expand_as"),
    (lambda t: t.movedim((0, 1), (2,)), RuntimeError, "same number of dims"),
    (lambda t: t.movedim((0, 0), (1, 2)), RuntimeError, "repeated dim in `source`"),
    (lambda t: t.movedim((0, 1), (2, -1)), RuntimeError, "repeated dim in `destination`"),
    (lambda t: t.movedim(3, 0), IndexError, "Dimension out of range"),
    (lambda t: t.movedim((0, 0), (1, 3)), IndexError, "Dimension out of range"),  # range first, then repeats
    (lambda t: t.diagonal(0, 1, 1), RuntimeError, "cannot be identical"),
    (lambda t: t.diagonal(0, 1, -2), RuntimeError, "cannot be identical"),
    (lambda t: t.diagonal(0, 0, 3), IndexError, "Dimension out of range"),
    (lambda t: wick.arange(3).diagonal(), IndexError, "Dimension out of range"),
    (lambda t: t.repeat(2, 2), RuntimeError, "can not be smaller than number of dimensions"),
    (lambda t: t.repeat(1, -1, 1), RuntimeError, "negative dimension -1"),
    (lambda t: t.repeat(2 ** 62, 2 ** 62, 1), MemoryError, "too large"),
    (lambda t: t.repeat(1.5, 2, 2), TypeError, "repeat"),
    (lambda t: t.flip(0, 0), RuntimeError, "appears multiple times"),
    (lambda t: t.flip(0, -3), RuntimeError, "appears multiple times"),
    (lambda t: t.flip(3), IndexError, "Dimension out of range"),
    (lambda t: t.roll(()), RuntimeError, "`shifts` required"),
    (lambda t: t.roll((1, 2)), RuntimeError, "shifts and dimensions must align"),
    (lambda t: t.roll((1, 2), (0,)), RuntimeError, "shifts and dimensions must align"),
    (lambda t: t.roll(1, 3), IndexError, "Dimension out of range"),
    (lambda t: wick.tensor(1.0).roll(1, 0), IndexError, "no dimensions"),
    (lambda t: wick.arange(3).tril(), IndexError, "at least 2 dimensions"),
    (lambda t: wick.tensor(1).triu_(), IndexError, "at least 2 dimensions"),
    (lambda t: t.tril(0.5), TypeError, "tril"),
    (lambda t: t[0].expand(2, 3, 4).tril_(), RuntimeError, "more than one element of the written-to tensor"),
    (lambda t: t.diag(), RuntimeError, "matrix or a vector expected"),
    (lambda t: wick.tensor(1.0).diag(), RuntimeError, "matrix or a vector expected"),
    (lambda t: wick.arange(2).diag(2 ** 63 - 1), MemoryError, "too large"),
    (lambda t: wick.arange(2).diag(-2 ** 63), MemoryError, "too large"),
    (lambda t: wick.arange(2).diag(2 ** 40), MemoryError, ""),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call(t3())


def test_repeat_is_a_method_only_and_takes_varargs_or_a_sequence():
    x = wick.arange(3)
    assert x.repeat(2).tolist() == x.repeat([2]).tolist() == x.repeat((2,)).tolist() == [0, 1, 2, 0, 1, 2]
    assert not hasattr(wick, "repeat") and not hasattr(wick, "expand_as")
