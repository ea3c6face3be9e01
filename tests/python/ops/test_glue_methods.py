"""Tensor methods and functions of the Python glue, against PyTorch: torch.svd's named tuple (U, S, V), the result
types of the glue in wick.return_types (so that they pickle), positive, the in-place comparisons and logical ops
(eq_, lt_, logical_and_, ...), apply_ and the matrix_power method.
"""
import pickle

import numpy as np
import pytest
import torch

import wick
from reference import to_numpy


def w(t):
    return wick.from_numpy(t.numpy().copy())


def same(ours, theirs):
    got = torch.from_numpy(np.array(to_numpy(ours)))
    assert got.dtype == theirs.dtype and got.shape == theirs.shape
    torch.testing.assert_close(got, theirs, equal_nan=True)


A = torch.from_numpy(np.random.default_rng(0).standard_normal((4, 3)))


@pytest.mark.parametrize("some", [True, False])
def test_svd_has_pytorchs_fields(some):
    theirs = torch.svd(A, some)
    for ours in (wick.svd(w(A), some), w(A).svd(some=some)):
        assert ours._fields == ("U", "S", "V")
        same(ours.S, theirs.S)
        # Singular vectors are defined up to sign: compare the shapes and the reconstruction.
        assert ours.U.shape == theirs.U.shape and ours.V.shape == theirs.V.shape
        k = ours.S.shape[0]
        same(ours.U[:, :k] @ wick.diag(ours.S) @ ours.V[:, :k].mT, A)
    outs = (wick.empty(0, dtype=wick.float64), wick.empty(0, dtype=wick.float64), wick.empty(0, dtype=wick.float64))
    result = wick.svd(w(A), out=outs)
    assert all(r is o for r, o in zip(result, outs))
    same(outs[1], theirs.S)


@pytest.mark.parametrize("call", [
    lambda m: m.linalg.slogdet(m.eye(2)), lambda m: m.linalg.qr(m.eye(2)), lambda m: m.linalg.svd(m.eye(2)),
    lambda m: m.aminmax(m.ones(2)), lambda m: m.svd(m.eye(2)), lambda m: m.max(m.ones(2, 2), 1),
    lambda m: m.frexp(m.ones(2)), lambda m: m.mode(m.ones(3)),
])
def test_result_types_pickle(call):
    ours = call(wick)
    again = pickle.loads(pickle.dumps(ours))
    assert type(again) is type(ours) and type(ours).__module__ == "wick.return_types"
    assert getattr(wick.return_types, type(ours).__name__) is type(ours)
    theirs = call(torch)
    assert type(ours).__name__ == type(theirs).__name__
    for field in ours._fields:  # PyTorch's field names, in its order
        assert getattr(ours, field) is ours[ours._fields.index(field)]
        assert getattr(theirs, field) is theirs[ours._fields.index(field)]
    for a, b in zip(again, ours):
        assert a.tolist() == b.tolist()


def test_positive():
    x = wick.tensor([1.0, -2.0])
    assert wick.positive(x) is x and x.positive() is x
    with pytest.raises(TypeError):
        wick.tensor([True]).positive()


PREDICATES = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less_equal", "not_equal", "logical_and", "logical_or",
              "logical_xor"]


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
@pytest.mark.parametrize("name", PREDICATES)
def test_predicates_in_place(name, dtype):
    x = torch.tensor([[0, 1, 2], [3, 1, 0]]).to(getattr(torch, dtype))
    others = [torch.tensor([1, 0, 2]).to(getattr(torch, dtype))] + ([] if name.startswith("logical") else [1])
    for other in others:
        theirs = x.clone()
        expected = getattr(theirs, name + "_")(other)
        ours = w(x)
        result = getattr(ours, name + "_")(other if isinstance(other, int) else w(other))
        assert result is ours
        same(ours, expected)


def test_logical_not_in_place():
    x = torch.tensor([0.0, 2.0, -1.0])
    ours = w(x)
    assert ours.logical_not_() is ours
    same(ours, x.clone().logical_not_())


def test_predicate_in_place_cannot_grow_self():
    with pytest.raises(RuntimeError):
        torch.ones(3).lt_(torch.ones(2, 3))
    with pytest.raises(RuntimeError):
        wick.ones(3).lt_(wick.ones(2, 3))


@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_apply_(dtype):
    x = torch.arange(6).reshape(2, 3).to(getattr(torch, dtype))
    ours = w(x)
    assert ours.apply_(lambda v: v * 3 - 1) is ours
    same(ours, x.clone().apply_(lambda v: v * 3 - 1))
    with pytest.raises(TypeError):
        ours.apply_(5)


def test_matrix_power_method():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    same(w(a).matrix_power(3), a.matrix_power(3))
    same(wick.matrix_power(w(a), -1), torch.matrix_power(a, -1))


@pytest.mark.parametrize("shape,wrap", [((3, 3), False), ((2, 5), False), ((7, 3), False), ((7, 3), True),
                                        ((8, 3), True), ((4, 3), True), ((3, 3, 3), False), ((0, 0), False)])
def test_fill_diagonal_(shape, wrap):
    x = torch.arange(float(np.prod(shape))).reshape(shape)
    ours = w(x)
    assert ours.fill_diagonal_(-1.0, wrap=wrap) is ours
    same(ours, x.clone().fill_diagonal_(-1.0, wrap=wrap))
    t = torch.zeros(4, 6)[:, ::2]  # not contiguous: the diagonal of the view
    ours = w(torch.zeros(4, 6))[:, ::2]
    same(ours.fill_diagonal_(5), t.fill_diagonal_(5))


@pytest.mark.parametrize("call", [lambda m: m.zeros(3).fill_diagonal_(1), lambda m: m.zeros(2, 3, 3).fill_diagonal_(1)])
def test_fill_diagonal_errors(call):
    with pytest.raises(RuntimeError):
        call(torch)
    with pytest.raises(RuntimeError):
        call(wick)
