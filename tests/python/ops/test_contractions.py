"""wick.contractions (einsum, tensordot, kron, inner, trace, cdist, chain_matmul, cross and their Tensor methods)
against PyTorch 1.13's functions of the same names: results, dtypes, shapes, errors and gradients.

Where PyTorch's CPU kernels lack a dtype that wick's have (matrix products in float16 and bfloat16), the
reference is PyTorch's result in float32, rounded to that dtype.
"""
import re
import warnings

import numpy as np
import pytest
import torch

import wick
from reference import TOLERANCE

DTYPES = ["float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]
HALF = ("float16", "bfloat16")


def values(shape, dtype="float64", seed=0):
    """Values that every dtype holds exactly and whose short sums of products stay exact: quarters in [-2, 2],
    small integers, or 0 and 1."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype == "uint8":
        return rng.integers(0, 4, size=shape)
    if dtype.startswith("float") or dtype == "bfloat16":
        return rng.integers(-8, 9, size=shape) / 4
    return rng.integers(-3, 4, size=shape)


def run(lib, program, arrays, dtype, grad=False):
    inputs = [lib.tensor(a).to(getattr(lib, dtype)).requires_grad_(grad) for a in arrays]
    return inputs, program(lib, *inputs)


def numpy(t):
    return np.array(t.detach().tolist() if t.dtype in (wick.bool, torch.bool) else t.detach().double().tolist(),
                    dtype=bool if t.dtype in (wick.bool, torch.bool) else np.float64).reshape(tuple(t.shape))


def dtype_name(t):
    return str(t.dtype).split(".")[-1]


def compare(program, *arrays, dtype="float64", grad=None, reference=None, grad_rtol=1e-10):
    """program(lib, *tensors) with wick and with torch on the same values in dtype: the result's shape, dtype and
    values (exact for integers and bool, else to the dtype's tolerance). reference: the dtype in which torch
    computes instead (its result then rounded to dtype). grad (default: for float64): the gradients of every input
    too, for the same cotangent (to grad_rtol)."""
    grad = dtype == "float64" if grad is None else grad
    ours_in, ours = run(wick, program, arrays, dtype, grad)
    theirs_in, theirs = run(torch, program, arrays, reference or dtype, grad)
    if reference:
        theirs = theirs.to(getattr(torch, dtype))
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert dtype_name(ours) == dtype_name(theirs)
    tolerance = TOLERANCE.get(dtype_name(ours), dict(rtol=0, atol=0))
    np.testing.assert_allclose(numpy(ours), numpy(theirs), **tolerance)
    if grad:
        cotangent = np.cos(np.arange(theirs.numel())).reshape(tuple(theirs.shape))
        ours_grad = wick.autograd.grad([ours], ours_in, [wick.tensor(cotangent)], allow_unused=True)
        theirs_grad = torch.autograd.grad([theirs], theirs_in, [torch.tensor(cotangent)], allow_unused=True)
        for i, (a, b) in enumerate(zip(ours_grad, theirs_grad)):
            assert (a is None) == (b is None), f"gradient of input {i}"
            if a is not None:
                np.testing.assert_allclose(numpy(a), numpy(b), rtol=grad_rtol, atol=1e-12,
                                           err_msg=f"gradient of input {i}")
    return ours


def same_error(program, *arrays, dtype="float64", exact=True):
    """program raises with torch, and the same exception with wick: with the same message (its first line) when
    exact, else of the same type."""
    with pytest.raises(Exception) as theirs:
        run(torch, program, arrays, dtype)
    message = re.escape(str(theirs.value).split("\n")[0].replace("torch.", "wick."))
    with pytest.raises(theirs.type, match=message if exact else None):
        run(wick, program, arrays, dtype)


# einsum.

EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bkj->bki", [(2, 3, 4), (2, 5, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("iij->ji", [(3, 3, 4)]),
    ("iji->j", [(3, 4, 3)]),
    ("iii", [(2, 2, 2)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,i->", [(5,), (5,)]),
    ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("ij,kl->ijkl", [(2, 3), (3, 2)]),
    ("ij,kl->", [(2, 3), (3, 2)]),
    ("ij,kl->lk", [(2, 3), (3, 2)]),
    ("ba,ca", [(2, 3), (4, 3)]),
    ("Aa,aB", [(2, 3), (3, 4)]),
    ("bA,AC", [(2, 3), (3, 4)]),
    ("zZ->Zz", [(2, 3)]),
    (" i j -> j i ", [(2, 3)]),
    ("...", [(2, 3)]),
    ("...->", [(2, 3)]),
    ("i...->...", [(2, 3, 4)]),
    ("...j->j...", [(2, 3, 4)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (4, 2)]),
    ("i...,...i->...", [(3, 2, 5), (2, 5, 3)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...i", [(3, 2, 3)]),
    ("b...,b...->b", [(2, 3), (2, 1, 3)]),
    ("...i,...i", [(2, 1, 3), (4, 3)]),
    ("ab,cb->ac", [(2, 1), (3, 5)]),
    ("ab,cb->", [(2, 1), (3, 5)]),
    ("ab,ab->a", [(2, 3), (1, 3)]),
    ("ij,jk->ik", [(2, 3), (1, 4)]),
    ("ijk,jl,kl->il", [(2, 3, 4), (3, 5), (4, 5)]),
    ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 2), (2, 5)]),
    ("ij,jk,kl,lm", [(2, 3), (3, 4), (4, 2), (2, 5)]),
    ("i,i,i", [(4,), (4,), (4,)]),
    ("ab,bc,ca->", [(2, 3), (3, 4), (4, 2)]),
    ("", [()]),
    (",", [(), ()]),
    ("...,...", [(), (2,)]),
    ("i,j", [(0,), (3,)]),
    ("ij,jk", [(2, 0), (0, 4)]),
    ("ij,jk", [(0, 1), (3, 4)]),
    ("ij,ij->j", [(0, 3), (0, 3)]),
    ("ii->", [(0, 0)]),
]


@pytest.mark.parametrize("equation,shapes", EINSUM_CASES, ids=str)
def test_einsum_values_and_gradients(equation, shapes):
    arrays = [values(s, seed=i) for i, s in enumerate(shapes)]
    compare(lambda lib, *ops: lib.einsum(equation, *ops), *arrays)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("equation,shapes", [("ij,jk", [(2, 3), (3, 4)]), ("ii", [(3, 3)]), ("i,j->ij", [(3,), (4,)]),
                                             ("ij->", [(2, 3)]), ("ij,jk,kl", [(2, 3), (3, 4), (4, 2)]),
                                             ("...ij->...ji", [(2, 3, 4)])], ids=str)
def test_einsum_dtypes(dtype, equation, shapes):
    """Sums of integers and bool are int64 (as sum's); a product of two operands keeps their dtype."""
    arrays = [values(s, dtype, seed=i) for i, s in enumerate(shapes)]
    program = lambda lib, *ops: lib.einsum(equation, *ops)  # noqa: E731
    if dtype == "bool" and len(shapes) > 1 and equation != "i,j->ij":
        same_error(program, *arrays, dtype=dtype)  # a bmm of bool
    else:
        compare(program, *arrays, dtype=dtype, reference="float32" if dtype in HALF else None)


def test_einsum_mixed_dtypes():
    """An elementwise product promotes; a bmm needs one dtype, after the sums over labels of one operand
    (which make int32 int64)."""
    compare(lambda lib, a, b: lib.einsum("ij,ij->ij", a, b.double()), values((2, 3)), values((2, 3), seed=1),
            dtype="float32")
    compare(lambda lib, a, b: lib.einsum("i,j->ij", a.int(), b), values((3,)), values((4,), seed=1), grad=False)
    same_error(lambda lib, a, b: lib.einsum("ij,jk", a, b.double()), values((2, 3)), values((3, 4)), dtype="float32")
    same_error(lambda lib, a, b: lib.einsum("ij,jk->", a.int(), b), values((2, 3)), values((3, 4)))


@pytest.mark.parametrize("args", [
    ([0, 1], ), ([0, 1], [1]), ([..., 1], [1]), ([0, 1], "b", [1, 2]), ([0, 1], "b", [1, 2], [2, 0]),
    ([0, 26], "b", [26, 51], [51, 0]), ([0, 1], "b", [1, ...]), ([0, True],),
], ids=str)
def test_einsum_sublist_form(args):
    """einsum(a, [0, 1], b, [1, 2], [0, 2]): 0-25 are A-Z, 26-51 a-z, Ellipsis '...'; a trailing list is the
    output."""
    def program(lib, a, b):
        return lib.einsum(a, *[b if arg == "b" else arg for arg in args])
    compare(program, values((2, 3)), values((3, 4), seed=1))


def test_einsum_takes_the_operands_as_one_list():
    compare(lambda lib, a, b: lib.einsum("ij,jk", [a, b]), values((2, 3)), values((3, 4), seed=1))
    compare(lambda lib, a: lib.einsum("ij->j", (a,)), values((2, 3)))


def test_einsum_results_are_views_where_they_move_nothing():
    x = wick.tensor(values((2, 3)))
    y = wick.einsum("ij->ji", x)
    assert y.data_ptr() == x.data_ptr() and y.shape == (3, 2)


EINSUM_ERRORS = [
    ("ij,jk", [(2, 3)]), ("ij", [(2, 3), (3, 4)]), ("i.j", [(2, 3)]), ("...i...", [(2, 3)]), ("i1", [(2, 3)]),
    ("ij->k", [(2, 3)]), ("ij->ii", [(2, 3)]), ("ij->i.", [(2, 3)]), ("ij->......", [(2, 3)]), ("ijk", [(2, 3)]),
    ("...ijk", [(2, 3)]), ("ii", [(2, 3)]), ("ij,ij", [(2, 3), (3, 4)]), ("...,...", [(2, 3), (4, 3)]),
    ("...j,...j->...", [(2, 3), (5, 3)]), ("ab...,b...->a...", [(2, 3, 4), (3, 5)]), ("ij->->i", [(2, 3)]),
    ("ij-i", [(2, 3)]), ("ij>i", [(2, 3)]), ("ij,ij->", [(2, 3), (3, 2)]), ("\u00e9j", [(2, 3)]),
    ("ij->\u00e9", [(2, 3)]), ("ij->i,j", [(2, 3)]),
]


@pytest.mark.parametrize("equation,shapes", EINSUM_ERRORS, ids=str)
def test_einsum_errors(equation, shapes):
    same_error(lambda lib, *ops: lib.einsum(equation, *ops), *[values(s) for s in shapes])


@pytest.mark.parametrize("program", [
    lambda lib, a: lib.einsum("ij"), lambda lib, a: lib.einsum(a), lambda lib, a: lib.einsum(3, a),
    lambda lib, a: lib.einsum("ij", 3), lambda lib, a: lib.einsum("ij", a, [0, 1]),
    lambda lib, a: lib.einsum("ij", []), lambda lib, a: lib.einsum("ij,jk", [a, 3]),
    lambda lib, a: lib.einsum(a, [0, 52]), lambda lib, a: lib.einsum(a, [0, -1]), lambda lib, a: lib.einsum(a, 5),
    lambda lib, a: lib.einsum(a, [0.5, 1]), lambda lib, a: lib.einsum("ij", a, out=a),
])
def test_einsum_bad_arguments(program):
    same_error(program, values((3, 2)), exact=False)


# tensordot, kron, inner, trace.

TENSORDOT_CASES = [
    ((2, 3), (3, 4), 1), ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (3, 4), 0), ((2, 3), (2, 3), 2), ((), (), 0),
    ((2, 3), (3, 4), ([1], [0])), ((2, 3), (3, 4), [[1], [0]]), ((2, 3), (3, 4), ([-1], [-2])),
    ((2, 3, 4), (4, 5, 2), ([2, 0], [0, 2])), ((2, 3, 4), (2, 3, 4), ([2, 0], [2, 0])),
    ((2, 3, 4), (2, 3, 4), ([0, 1, 2], [0, 1, 2])), ((2, 1), (3, 4), ([1], [1])), ((2, 3), (1, 4), ([1], [0])),
    ((0, 3), (3, 2), 1), ((2, 0), (0, 2), 1), ((2, 3), (3, 4), True),
]


@pytest.mark.parametrize("a,b,dims", TENSORDOT_CASES, ids=str)
def test_tensordot(a, b, dims):
    compare(lambda lib, x, y: lib.tensordot(x, y, dims), values(a), values(b, seed=1))


def test_tensordot_takes_dims_as_a_tensor():
    compare(lambda lib, x, y: lib.tensordot(x, y, lib.tensor(1)), values((2, 3)), values((3, 4)))
    compare(lambda lib, x, y: lib.tensordot(x, y, lib.tensor([[1], [0]])), values((2, 3)), values((3, 4)))
    compare(lambda lib, x, y: lib.tensordot(x, y, dims=lib.tensor(1.5)), values((2, 3)), values((3, 4)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensordot_dtypes(dtype):
    program = lambda lib, x, y: lib.tensordot(x, y, ([1, 2], [0, 1]))  # noqa: E731
    arrays = values((2, 3, 4), dtype), values((3, 4, 2), dtype, seed=1)
    if dtype == "bool":
        same_error(program, *arrays, dtype=dtype)
    else:
        compare(program, *arrays, dtype=dtype, reference="float32" if dtype in HALF else None)


@pytest.mark.parametrize("dims", [-1, 1.0, "x", None, (1, 0), ([1], [0, 1]), ([1, 1], [0, 0]), ([5], [0]),
                                  ([0], [0]), 3, (1,), (1, 0, 2), ([1.0], [0]), {1: 0}], ids=str)
def test_tensordot_bad_dims(dims):
    same_error(lambda lib, x, y: lib.tensordot(x, y, dims), values((2, 3)), values((3, 4)))


def test_tensordot_errors():
    same_error(lambda lib, x, y: lib.tensordot(x, y.double(), 1), values((2, 3)), values((3, 4)), dtype="float32")
    same_error(lambda lib, x, y: lib.tensordot(x, 3), values((2, 3)), values((3, 4)))
    same_error(lambda lib, x, y: lib.tensordot(3, y), values((2, 3)), values((3, 4)))
    same_error(lambda lib, x, y: lib.tensordot(x, y, lib.tensor(-1)), values((2, 3)), values((3, 4)))


@pytest.mark.parametrize("a,b", [((2, 3), (2, 2)), ((3,), (2, 2)), ((2, 2, 2), (3,)), ((), (2, 3)), ((), ()),
                                 ((0, 2), (2, 3)), ((2, 1, 3), (1, 4, 1))], ids=str)
def test_kron(a, b):
    compare(lambda lib, x, y: lib.kron(x, y), values(a), values(b, seed=1))


@pytest.mark.parametrize("first,second", [("int32", "float32"), ("bool", "bool"), ("uint8", "int8"),
                                          ("bool", "int64"), ("float16", "float64")])
def test_kron_promotes_as_mul(first, second):
    compare(lambda lib, x, y: lib.kron(x.to(getattr(lib, first)), y.to(getattr(lib, second))),
            values((2, 2), first), values((2, 3), second, seed=1), grad=False)


@pytest.mark.parametrize("a,b", [((2, 3), (4, 3)), ((3,), (3,)), ((2, 3), (3,)), ((2, 3, 4), (5, 4)), ((2, 3), ()),
                                 ((), ()), ((0,), (0,)), ((2, 0), (3, 0))], ids=str)
def test_inner(a, b):
    compare(lambda lib, x, y: lib.inner(x, y), values(a), values(b, seed=1))


def test_inner_dtypes_and_errors():
    compare(lambda lib, x, y: lib.inner(x.int(), y.int()), values((2, 3)), values((4, 3)), grad=False)
    compare(lambda lib, x, y: lib.inner(x.int(), lib.tensor(2.5)), values((2, 3)), values((4, 3)), grad=False)
    same_error(lambda lib, x, y: lib.inner(x, y), values((2, 3)), values((3, 4)))
    same_error(lambda lib, x, y: lib.inner(x, y.double()), values((2, 3)), values((4, 3)), dtype="float32")
    same_error(lambda lib, x, y: lib.inner(x.bool(), y.bool()), values((2, 3)), values((4, 3)))
    same_error(lambda lib, x, y: lib.inner(x, 2), values((2, 3)), values((4, 3)))


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (0, 3), (3, 0), (1, 1)], ids=str)
def test_trace(shape):
    compare(lambda lib, x: lib.trace(x), values(shape), grad=shape[0] <= shape[1])


def test_trace_gradient_of_a_tall_matrix_is_its_diagonal():
    """PyTorch 1.13's trace_backward puts ones every columns + 1 elements, which past a wide matrix's diagonal
    lands off it (a bug fixed later); wick's gradient is the diagonal's."""
    x = wick.tensor(values((4, 2))).requires_grad_()
    wick.trace(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.eye(4, 2))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "int16", "int8", "uint8"])
def test_trace_dtypes(dtype):
    """Integers sum to int64, as sum's."""
    compare(lambda lib, x: lib.trace(x), values((3, 4), dtype), dtype=dtype)


@pytest.mark.parametrize("shape", [(3,), (2, 2, 2), ()], ids=str)
def test_trace_needs_a_matrix(shape):
    same_error(lambda lib, x: lib.trace(x), values(shape))


# cdist.

@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 3.0, 0.5, 1.5, float("inf")], ids=str)
@pytest.mark.parametrize("a,b", [((5, 3), (4, 3)), ((2, 5, 3), (4, 3)), ((2, 1, 3, 2), (4, 5, 2)), ((1, 3), (1, 3))],
                         ids=str)
def test_cdist(p, a, b):
    rng = np.random.default_rng(4)  # no ties between the largest differences, where p=inf's gradient differs
    compare(lambda lib, x, y: lib.cdist(x, y, p), rng.standard_normal(a), rng.standard_normal(b))
    compare(lambda lib, x, y: lib.cdist(x, y, p), values(a), values(b, seed=1), grad=False)


def test_cdist_inf_shares_the_gradient_among_ties():
    """As vector_norm's (and amax's) gradient, wick's splits evenly among equal largest differences; PyTorch
    1.13's cdist alone gives each of them the whole gradient."""
    x = wick.tensor([[1.0, -1.0, 0.5]]).requires_grad_()
    wick.cdist(x, wick.zeros(1, 3), p=float("inf")).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.5, -0.5, 0.0]])


@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
@pytest.mark.parametrize("rows", [4, 30], ids=str)
def test_cdist_compute_modes(mode, rows):
    """p=2 past 25 rows goes through the matrix product, as PyTorch's, which differs in rounding (and gradient)."""
    rng = np.random.default_rng(3)
    x1, x2 = rng.standard_normal((2, rows, 3)), rng.standard_normal((3, 3))
    compare(lambda lib, x, y: lib.cdist(x, y, compute_mode=mode), x1, x2)
    compare(lambda lib, x, y: lib.cdist(x, y, compute_mode=mode), x1, x2, dtype="float32")


@pytest.mark.parametrize("rows1,rows2,mode,expanded", [
    (25, 25, "use_mm_for_euclid_dist_if_necessary", False), (26, 3, "use_mm_for_euclid_dist_if_necessary", True),
    (3, 26, "use_mm_for_euclid_dist_if_necessary", True), (3, 3, "use_mm_for_euclid_dist", True),
    (30, 30, "donot_use_mm_for_euclid_dist", False)])
def test_cdist_expands_where_pytorch_does(rows1, rows2, mode, expanded):
    """The expansion loses the distance between near rows far from 0 in float32; the differences keep it."""
    base = 1000 + np.random.default_rng(5).standard_normal((max(rows1, rows2), 3))
    x1, x2 = base[:rows1], base[:rows2] + 1e-3
    exact = np.sqrt(((x1.astype(np.float32)[:, None] - x2.astype(np.float32)[None]) ** 2).sum(-1))
    for lib in (wick, torch):
        result = numpy(lib.cdist(lib.tensor(x1).float(), lib.tensor(x2).float(), compute_mode=mode))
        assert (np.abs(result - exact).max() > 1e-2) == expanded


def test_cdist_between_equal_rows_has_a_gradient_of_zero():
    x = values((3, 4))
    compare(lambda lib, a, b: lib.cdist(a, b), x, x)


@pytest.mark.parametrize("a,b", [((0, 3), (4, 3)), ((2, 0), (4, 0)), ((0, 2, 0), (4, 0)), ((2, 0, 3), (1, 4, 3))],
                         ids=str)
@pytest.mark.parametrize("p", [2.0, 0.0, float("inf")], ids=str)
def test_cdist_of_nothing(a, b, p):
    compare(lambda lib, x, y: lib.cdist(x, y, p), values(a), values(b))
    compare(lambda lib, x, y: lib.cdist(x, y.double(), p), values(a), values(b), dtype="float32")


@pytest.mark.parametrize("program", [
    lambda lib, x, y: lib.cdist(x, y.double()), lambda lib, x, y: lib.cdist(x.int(), y.int()),
    lambda lib, x, y: lib.cdist(x, y.int()), lambda lib, x, y: lib.cdist(x, y, p=-1),
    lambda lib, x, y: lib.cdist(x, y, p=float("nan")), lambda lib, x, y: lib.cdist(x[0], y),
    lambda lib, x, y: lib.cdist(x, y[:, :2]), lambda lib, x, y: lib.cdist(x, y, compute_mode="x"),
    lambda lib, x, y: lib.cdist(x, y, compute_mode=None), lambda lib, x, y: lib.cdist(x.int(), y, compute_mode="x"),
    lambda lib, x, y: lib.cdist(x[:0], y, p=-1), lambda lib, x, y: lib.cdist(x.int()[:0], y),
])
def test_cdist_errors(program):
    same_error(program, values((2, 3)), values((4, 3)), dtype="float32")


@pytest.mark.parametrize("program", [
    lambda lib, x, y: lib.cdist(x, 3), lambda lib, x, y: lib.cdist(x, y, "x"),
    lambda lib, x, y: lib.cdist(x.expand(2, 2, 3), y.expand(3, 4, 3)),
])
def test_cdist_bad_arguments(program):
    same_error(program, values((2, 3)), values((4, 3)), exact=False)


# chain_matmul and cross.

def test_chain_matmul():
    matrices = [values((2, 3)), values((3, 4), seed=1), values((4, 1), seed=2), values((1, 5), seed=3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(lambda lib, *ms: lib.chain_matmul(*ms), *matrices)
        compare(lambda lib, *ms: lib.chain_matmul(*ms), *matrices[:2])
        compare(lambda lib, m: lib.chain_matmul(m), matrices[0])
        compare(lambda lib, *ms: lib.chain_matmul(*ms), *matrices[:3], dtype="int32")
        x = wick.tensor(matrices[0])
        assert wick.chain_matmul(x).data_ptr() != x.data_ptr()  # one matrix is copied


def test_chain_matmul_warns_once():
    wick.contractions._warn_once.cache_clear()
    x = wick.ones(2, 2)
    with pytest.warns(UserWarning, match="chain_matmul is deprecated") as caught:
        wick.chain_matmul(x, x)
    assert caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wick.chain_matmul(x, x)


@pytest.mark.parametrize("program", [
    lambda lib, x, y: lib.chain_matmul(), lambda lib, x, y: lib.chain_matmul(x[0]),
    lambda lib, x, y: lib.chain_matmul(x, x[0]), lambda lib, x, y: lib.chain_matmul(x, x),
    lambda lib, x, y: lib.chain_matmul(x, y.double()), lambda lib, x, y: lib.chain_matmul(x.bool(), y.bool()),
    lambda lib, x, y: lib.chain_matmul(x, y, x), lambda lib, x, y: lib.chain_matmul([x, y]),
    lambda lib, x, y: lib.chain_matmul(x, 3),
])
def test_chain_matmul_errors(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_error(program, values((2, 3)), values((3, 4)), dtype="float32")


@pytest.mark.parametrize("a,b,dim", [((2, 3), (2, 3), None), ((3, 2), (3, 2), None), ((3, 3), (3, 3), None),
                                     ((3, 3), (3, 3), -1), ((3, 3), (3, 3), 0), ((1, 3), (4, 3), 1),
                                     ((3, 1), (3, 4), None), ((2, 3, 4), (2, 3, 4), None), ((0, 3), (0, 3), None),
                                     ((3,), (3,), None), ((5, 3), (5, 3), -1)], ids=str)
def test_cross(a, b, dim):
    """Without dim, the first dim of input of size 3 (PyTorch 1.13's deprecated default; it does not warn yet)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare(lambda lib, x, y: lib.cross(x, y, dim), values(a), values(b, seed=1))
        compare(lambda lib, x, y: x.cross(y, dim=dim), values(a), values(b, seed=1))
    compare(lambda lib, x, y: lib.cross(x, y, dim), values(a, "int32"), values(b, "int32", seed=1), dtype="int32")


@pytest.mark.parametrize("program", [
    lambda lib, x, y: lib.cross(lib.ones(2, 4), lib.ones(2, 4)), lambda lib, x, y: lib.cross(x, y[0]),
    lambda lib, x, y: lib.cross(x[0], y, dim=0), lambda lib, x, y: lib.cross(x, x, dim=5),
    lambda lib, x, y: lib.cross(x, x, dim=0), lambda lib, x, y: lib.cross(x.bool(), y.bool()),
    lambda lib, x, y: lib.cross(x, y.double()), lambda lib, x, y: lib.cross(x.int(), y.double()),
    lambda lib, x, y: lib.cross(x, 3), lambda lib, x, y: lib.cross(x, y, 1.5),
])
def test_cross_errors(program):
    same_error(program, values((2, 3)), values((2, 3), seed=1), dtype="float32")


def test_cross_batches_that_do_not_broadcast():
    same_error(lambda lib, x, y: lib.cross(x, y, dim=1), values((2, 3)), values((3, 3)), exact=False)


def test_methods():
    """x.kron(y), x.inner(y), x.trace() and x.cross(y) are the functions with x first."""
    compare(lambda lib, x, y: x.kron(y), values((2, 3)), values((2, 2), seed=1))
    compare(lambda lib, x, y: x.inner(y), values((2, 3)), values((4, 3), seed=1))
    compare(lambda lib, x: x.trace(), values((3, 4)))
    compare(lambda lib, x, y: x.cross(y), values((4, 3)), values((4, 3), seed=1))
    for name in wick.contractions.METHODS:
        assert getattr(wick.Tensor, name) is getattr(wick, name)
