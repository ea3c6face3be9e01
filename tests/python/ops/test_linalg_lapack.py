"""The LAPACK-backed linear algebra (declarations/linalg_lapack.yaml, wick/linalg.py) against PyTorch 1.13 and
NumPy: inv, solve, det, slogdet, cholesky, qr, eigh, eigvalsh, svd, svdvals, lstsq, pinv, matrix_rank, and the
top-level functions and methods (det, logdet, slogdet, inverse, cholesky, pinverse, svd). Decompositions whose
factors are unique only up to signs are checked through what is unique: reconstructions, orthogonality, the
singular values and eigenvalues, the magnitudes of R's diagonal."""
import math
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import wick
from test_contractions import compare, numpy, same_error

SHAPES = [(3, 3), (2, 4, 4), (2, 1, 3, 3), (1, 1), (0, 3, 3), (2, 0, 0), (0, 0)]
RECTANGLES = [(4, 3), (3, 5), (2, 5, 3), (2, 3, 5), (1, 1), (0, 3), (3, 0), (2, 0, 4)]
TOLERANCE = {"float64": dict(rtol=1e-10, atol=1e-10), "float32": dict(rtol=2e-4, atol=2e-5)}


def rng(seed=0):
    return np.random.default_rng(seed)


def conditioned(shape, seed=0):
    """Square matrices far from singular: random entries in [-1, 1] plus n on the diagonal."""
    n = shape[-1]
    return rng(seed).uniform(-1, 1, shape) + n * np.eye(n)


def spd(shape, seed=0):
    """Symmetric positive-definite matrices, well conditioned."""
    a = rng(seed).uniform(-1, 1, shape)
    return (a + np.swapaxes(a, -1, -2)) / 2 + shape[-1] * np.eye(shape[-1])


def wt(a, dtype="float64"):
    return wick.tensor(np.asarray(a).tolist(), dtype=getattr(wick, dtype)).reshape(np.shape(a))


def close(ours, expected, dtype="float64"):
    np.testing.assert_allclose(numpy(ours), np.asarray(expected, dtype=np.float64), **TOLERANCE[dtype])


def swap(a):
    return np.swapaxes(a, -1, -2)


# inv, det, slogdet, logdet and solve: unique results, compared with PyTorch's, gradients included.

@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_inv_det_slogdet(shape, dtype):
    """PyTorch leaves the gradients of empty batches undefined (None), wick's are empty: compared where not empty."""
    a = conditioned(shape)
    compare_ = compare
    if a.size == 0:
        def compare_(program, *arrays, dtype, grad=None):
            return compare(program, *arrays, dtype=dtype, grad=False)
    compare_(lambda lib, x: lib.linalg.inv(x), a, dtype=dtype)
    compare_(lambda lib, x: lib.inverse(x), a, dtype=dtype)
    compare_(lambda lib, x: x.inverse(), a, dtype=dtype)
    compare_(lambda lib, x: lib.linalg.det(x), a, dtype=dtype)
    compare_(lambda lib, x: x.det(), a, dtype=dtype)
    compare_(lambda lib, x: lib.linalg.slogdet(x).logabsdet, a, dtype=dtype)
    compare_(lambda lib, x: lib.linalg.slogdet(x)[0], a, dtype=dtype, grad=False)
    compare_(lambda lib, x: lib.slogdet(x).logabsdet, a, dtype=dtype)
    compare_(lambda lib, x: x.logdet(), a, dtype=dtype)


def test_det_signs_and_singular_matrices():
    """Row swaps and negative pivots give the sign; a singular matrix has det 0, sign 0 and log|det| -inf; logdet
    is NaN for a negative determinant."""
    a = np.array([[[0.0, 1.0], [1.0, 0.0]], [[1.0, 2.0], [2.0, 4.0]], [[-2.0, 0.0], [0.0, 3.0]], [[0, 0], [0, 0]]])
    for program in (lambda lib, x: lib.det(x), lambda lib, x: lib.logdet(x), lambda lib, x: lib.slogdet(x)[0],
                    lambda lib, x: lib.slogdet(x)[1]):
        compare(program, a, grad=False)
    big = np.diag([1e200, 1e200, -1e200])  # det overflows; its log does not
    compare(lambda lib, x: lib.linalg.slogdet(x).logabsdet, big, grad=False)
    compare(lambda lib, x: lib.linalg.det(x), big, grad=False)


@pytest.mark.parametrize("a_shape,b_shape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3)),
                                             ((2, 3, 3), (3, 4)), ((3, 3), (2, 3, 1)), ((2, 1, 3, 3), (5, 3, 2)),
                                             ((0, 3, 3), (0, 3)), ((3, 3), (3, 0)), ((0, 0), (0, 2))], ids=str)
@pytest.mark.parametrize("left", [True, False])
def test_solve(a_shape, b_shape, left):
    vector = len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and b_shape == a_shape[:-1])
    if not left and not vector:  # X @ A = B: B has A's columns
        b_shape = b_shape[:-2] + (b_shape[-1], b_shape[-2])
    a, b = conditioned(a_shape), rng(1).uniform(-2, 2, b_shape)
    if vector and not left:  # PyTorch 1.13 takes a vector as a column there, of the wrong shape for X A = B
        same_error(lambda lib, x, y: lib.linalg.solve(x, y, left=left), a, b)
        return
    compare(lambda lib, x, y: lib.linalg.solve(x, y, left=left), a, b)
    compare(lambda lib, x, y: lib.linalg.solve(x, y, left=left), a, b, dtype="float32")


def test_solve_against_numpy_on_an_ill_conditioned_matrix():
    """A Hilbert matrix (condition number about 1.5e7): the same LU as NumPy's solver, to about the same digits."""
    n = 6
    a = 1 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1)
    b = np.arange(n, dtype=np.float64)
    np.testing.assert_allclose(numpy(wick.linalg.solve(wt(a), wt(b))), np.linalg.solve(a, b), rtol=1e-8)
    np.testing.assert_allclose(numpy(wick.linalg.inv(wt(a))), np.linalg.inv(a), rtol=1e-7)


# Errors, as PyTorch raises them.

SQUARE_FUNCTIONS = {
    "inv": lambda lib, x: lib.linalg.inv(x), "det": lambda lib, x: lib.linalg.det(x),
    "slogdet": lambda lib, x: lib.linalg.slogdet(x), "cholesky": lambda lib, x: lib.linalg.cholesky(x),
    "eigh": lambda lib, x: lib.linalg.eigh(x), "eigvalsh": lambda lib, x: lib.linalg.eigvalsh(x),
    "solve": lambda lib, x: lib.linalg.solve(x, x),
}
BAD_INPUTS = {"nonsquare": lambda x: x[:2], "vector": lambda x: x[0], "int": lambda x: x.int(),
              "half": lambda x: x.half(), "bool": lambda x: x.bool()}


@pytest.mark.parametrize("function", SQUARE_FUNCTIONS)
@pytest.mark.parametrize("bad", BAD_INPUTS)
def test_square_errors(function, bad):
    """The same messages, but where PyTorch's kernels refuse a dtype in their own words ("lu_cpu" not implemented
    for 'Half'), as eigh's refuse integers: there the same type."""
    program, make = SQUARE_FUNCTIONS[function], BAD_INPUTS[bad]
    exact = bad in ("nonsquare", "vector") or (bad in ("int", "bool") and not function.startswith("eig"))
    same_error(lambda lib, x: program(lib, make(x)), conditioned((3, 3)), exact=exact)


@pytest.mark.parametrize("program", [
    lambda lib, x: lib.linalg.qr(x), lambda lib, x: lib.linalg.svd(x), lambda lib, x: lib.linalg.svdvals(x),
    lambda lib, x: lib.linalg.pinv(x), lambda lib, x: lib.linalg.qr(x, "x"), lambda lib, x: lib.linalg.eigh(x, "X"),
    lambda lib, x: lib.linalg.lstsq(x, x[:2]), lambda lib, x: lib.linalg.lstsq(x, x, driver="x"),
    lambda lib, x: lib.linalg.solve(x, x[:, :2].double()), lambda lib, x: lib.linalg.solve(x, x[:2]),
    lambda lib, x: lib.linalg.solve(x, x[0, :2]),
], ids=range(11))
@pytest.mark.parametrize("make", [lambda x: x, lambda x: x[0], lambda x: x.long()], ids=["ok", "vector", "long"])
def test_other_errors(program, make):
    x = conditioned((3, 3))
    try:
        program(torch, make(torch.tensor(x, dtype=torch.float32)))
    except Exception:
        same_error(lambda lib, t: program(lib, make(t)), x, dtype="float32", exact=False)
    else:
        program(wick, make(wt(x, "float32")))


SINGULAR = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])


@pytest.mark.parametrize("program,message", [
    (lambda lib, x: lib.linalg.inv(x), "linalg.inv: The diagonal element 2 is zero, the inversion could not be "
                                       "completed because the input matrix is singular."),
    (lambda lib, x: lib.linalg.inv(lib.stack([x.T @ x + 1, x])), "linalg.inv: (Batch element 1): The diagonal "
                                                                  "element 2 is zero"),
    (lambda lib, x: lib.linalg.solve(x, x), "torch.linalg.solve: The solver failed because the input matrix is "
                                            "singular."),
    (lambda lib, x: lib.linalg.cholesky(x), "linalg.cholesky: The factorization could not be completed because the "
                                            "input is not positive-definite (the leading minor of order 2 is not "
                                            "positive-definite)."),
    (lambda lib, x: lib.linalg.matrix_power(x, -1), "linalg.inv: The diagonal element 2 is zero"),
])
def test_singular_matrices(program, message):
    """PyTorch's LinAlgError (a RuntimeError), with its message."""
    with pytest.raises(torch.linalg.LinAlgError) as theirs:
        program(torch, torch.tensor(SINGULAR))
    assert str(theirs.value).startswith(message)
    with pytest.raises(wick.linalg.LinAlgError, match="^" + re.escape(message)):
        program(wick, wt(SINGULAR))
    assert issubclass(wick.linalg.LinAlgError, RuntimeError)


def test_top_level_errors_name_the_failure():
    with pytest.raises(RuntimeError, match="The diagonal element 2 is zero"):
        wt(SINGULAR).inverse()
    with pytest.raises(RuntimeError, match="leading minor of order 2 is not positive-definite"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wick.cholesky(wt(SINGULAR))


# cholesky.

@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(shape, upper):
    a = spd(shape)
    compare(lambda lib, x: lib.linalg.cholesky(x, upper=upper), a)
    compare(lambda lib, x: lib.linalg.cholesky(x, upper=upper), a, dtype="float32")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(lambda lib, x: lib.cholesky(x, upper), a)
        compare(lambda lib, x: x.cholesky(upper=upper), a)


def test_cholesky_reads_the_lower_triangle():
    a = np.tril(spd((4, 4))) + np.triu(rng(3).uniform(-9, 9, (4, 4)), 1)  # garbage above the diagonal
    compare(lambda lib, x: lib.linalg.cholesky(x), a)


def test_cholesky_is_deprecated():
    """A UserWarning, once per process as PyTorch's TORCH_WARN_ONCE: a fresh interpreter shows it."""
    program = ("import warnings, wick\n"
               "with warnings.catch_warnings(record=True) as caught:\n"
               "    warnings.simplefilter('always')\n"
               "    wick.cholesky(wick.eye(2)); wick.eye(2).cholesky()\n"
               "print([str(w.message).split(':')[0] for w in caught])\n")
    shown = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=os.environ,
                           check=True).stdout
    assert shown.strip() == "['cholesky() is deprecated in favor of linalg.cholesky() and will be removed in a " \
                            "future release']"


# qr, eigh, svd: factors unique up to signs.

def assert_orthonormal_columns(q, dtype="float64"):
    q = numpy(q)
    close_to = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    np.testing.assert_allclose(swap(q) @ q, close_to, **TOLERANCE[dtype])


@pytest.mark.parametrize("shape", RECTANGLES + [(3, 3), (2, 4, 4)], ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_qr(shape, mode, dtype):
    a = rng().uniform(-2, 2, shape)
    Q, R = wick.linalg.qr(wt(a, dtype), mode)
    tQ, tR = torch.linalg.qr(torch.tensor(a, dtype=getattr(torch, dtype)), mode)
    assert type(Q) is wick.Tensor and tuple(Q.shape) == tuple(tQ.shape) and tuple(R.shape) == tuple(tR.shape)
    assert Q.dtype == R.dtype == getattr(wick, dtype)
    close(R.abs(), tR.abs().numpy(), dtype)  # R is unique up to the signs of its rows
    np.testing.assert_array_equal(numpy(R), np.triu(numpy(R)))
    if mode != "r":
        close(Q.matmul(R), a, dtype)
        assert_orthonormal_columns(Q, dtype)
    assert wick.linalg.qr(wt(a)).__class__.__name__ == "linalg_qr"


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (0, 3, 3), (2, 0, 0), (5, 5)], ids=str)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_eigh(shape, uplo, dtype):
    a = rng().uniform(-2, 2, shape)  # not symmetric: only the triangle UPLO names counts
    values, vectors = wick.linalg.eigh(wt(a, dtype), UPLO=uplo)
    np_values, _ = np.linalg.eigh(a, UPLO=uplo)
    close(values, np_values, dtype)
    close(wick.linalg.eigvalsh(wt(a, dtype), uplo), np_values, dtype)
    sym = np.tril(a) + swap(np.tril(a, -1)) if uplo == "L" else np.triu(a) + swap(np.triu(a, 1))
    close((vectors * values.unsqueeze(-2)).matmul(vectors.mT), sym, dtype)
    assert_orthonormal_columns(vectors, dtype)


@pytest.mark.parametrize("shape", RECTANGLES + [(3, 3), (2, 4, 4), (6, 2)], ids=str)
@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_svd(shape, full_matrices, dtype):
    a = rng().uniform(-2, 2, shape)
    U, S, Vh = wick.linalg.svd(wt(a, dtype), full_matrices=full_matrices)
    tU, tS, tVh = torch.linalg.svd(torch.tensor(a, dtype=getattr(torch, dtype)), full_matrices=full_matrices)
    assert [tuple(t.shape) for t in (U, S, Vh)] == [tuple(t.shape) for t in (tU, tS, tVh)]
    close(S, tS.numpy(), dtype)
    close(wick.linalg.svdvals(wt(a, dtype)), tS.numpy(), dtype)
    k = S.shape[-1]
    close((U[..., :k] * S.unsqueeze(-2)).matmul(Vh[..., :k, :]), a, dtype)
    assert_orthonormal_columns(U, dtype)
    assert_orthonormal_columns(Vh.mT, dtype)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3), (0, 3), (2, 0)], ids=str)
@pytest.mark.parametrize("some", [True, False])
def test_torch_svd(shape, some):
    """torch.svd returns V, not Vh; without compute_uv, U and V are square matrices of zeros."""
    a = rng().uniform(-2, 2, shape)
    for U, S, V in (wick.svd(wt(a), some), wt(a).svd(some=some)):
        tU, tS, tV = torch.svd(torch.tensor(a), some)
        assert [tuple(t.shape) for t in (U, S, V)] == [tuple(t.shape) for t in (tU, tS, tV)]
        close(S, tS.numpy())
        k = S.shape[-1]
        close((U[..., :k] * S.unsqueeze(-2)).matmul(V[..., :k].mT), a)
    U, S, V = wick.svd(wt(a), some, compute_uv=False)
    tU, tS, tV = torch.svd(torch.tensor(a), some, compute_uv=False)
    assert (tuple(U.shape), tuple(V.shape)) == (tuple(tU.shape), tuple(tV.shape))
    assert not U.any() and not V.any()
    close(S, tS.numpy())


# Composites: pinv, pinverse, matrix_rank, lstsq, unique results compared with PyTorch's.

RANK_DEFICIENT = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])


@pytest.mark.parametrize("a", [rng().uniform(-2, 2, (4, 3)), rng().uniform(-2, 2, (2, 3, 5)), RANK_DEFICIENT,
                               np.zeros((3, 2)), np.zeros((0, 3)), np.zeros((2, 3, 0))],
                         ids=["tall", "wide", "deficient", "zeros", "empty", "empty2"])
def test_pinv_and_rank(a):
    compare(lambda lib, x: lib.linalg.pinv(x), a, grad=False)
    compare(lambda lib, x: lib.pinverse(x), a, grad=False)
    compare(lambda lib, x: x.pinverse(rcond=0.1), a, grad=False)
    compare(lambda lib, x: lib.linalg.pinv(x, atol=0.5), a, grad=False)
    compare(lambda lib, x: lib.linalg.pinv(x, rtol=0.3), a, grad=False)
    compare(lambda lib, x: lib.linalg.matrix_rank(x), a, grad=False)
    compare(lambda lib, x: lib.linalg.matrix_rank(x, atol=1.0, rtol=0.0), a, grad=False)


@pytest.mark.parametrize("a", [spd((3, 3)), spd((2, 4, 4)) - 4 * np.eye(4), RANK_DEFICIENT.T @ RANK_DEFICIENT],
                         ids=["spd", "indefinite", "deficient"])
def test_hermitian_pinv_and_rank(a):
    compare(lambda lib, x: lib.linalg.pinv(x, hermitian=True), a, grad=False)
    compare(lambda lib, x: lib.linalg.matrix_rank(x, hermitian=True), a, grad=False)


@pytest.mark.parametrize("a_shape,b_shape", [((5, 3), (5, 2)), ((5, 3), (5,)), ((3, 5), (3, 2)), ((2, 5, 3), (2, 5, 2)),
                                             ((4, 4), (4, 1))], ids=str)
@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
def test_lstsq(a_shape, b_shape, driver):
    a, b = rng().uniform(-2, 2, a_shape), rng(1).uniform(-2, 2, b_shape)
    if driver == "gels" and a_shape[-2] < a_shape[-1]:
        driver = "gelsd"  # gels needs full rank; a wide matrix has it in PyTorch's eyes only through gelsd
    ours = wick.linalg.lstsq(wt(a), wt(b), driver=driver)
    theirs = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver=driver)
    assert ours.__class__.__name__ == "linalg_lstsq"
    for mine, other in zip(ours, theirs):
        assert tuple(mine.shape) == tuple(other.shape) and str(mine.dtype)[5:] == str(other.dtype)[6:]
        close(mine, other.double().numpy())


def test_lstsq_of_a_rank_deficient_matrix():
    """gelsd's minimum-norm solution, rank and singular values; no residuals, since the rank is short."""
    b = rng(1).uniform(-2, 2, (4, 2))
    ours = wick.linalg.lstsq(wt(RANK_DEFICIENT), wt(b), driver="gelsd")
    theirs = torch.linalg.lstsq(torch.tensor(RANK_DEFICIENT), torch.tensor(b), driver="gelsd")
    for mine, other in zip(ours, theirs):
        assert tuple(mine.shape) == tuple(other.shape)
        close(mine, other.double().numpy())


# Gradients: through inv, det, slogdet, logdet, solve and cholesky (compared above); none yet through the others,
# which say so when a gradient reaches them.

@pytest.mark.parametrize("program", [
    lambda x: wick.linalg.qr(x).Q, lambda x: wick.linalg.eigh(x).eigenvectors, lambda x: wick.linalg.eigvalsh(x),
    lambda x: wick.linalg.svd(x).S, lambda x: wick.linalg.svdvals(x), lambda x: wick.linalg.pinv(x),
    lambda x: wick.svd(x)[1], lambda x: x.pinverse(), lambda x: wick.linalg.matrix_norm(x, 2),
], ids=range(9))
def test_decompositions_without_derivatives_say_so(program):
    x = wt(spd((3, 3))).requires_grad_()
    y = program(x)
    assert y.requires_grad
    with pytest.raises(NotImplementedError, match="no derivative"):
        y.sum().backward()


def test_gradients_of_solve_broadcast_back():
    """A broadcast over B's batch: A's gradient is summed back to A's shape."""
    compare(lambda lib, x, y: lib.linalg.solve(x, y), conditioned((3, 3)), rng(1).uniform(-1, 1, (4, 3, 2)))


def test_named_results():
    sign, logabsdet = wick.linalg.slogdet(wt(conditioned((2, 2))))
    assert wick.linalg.slogdet(wt(conditioned((2, 2)))).sign is not None and math.isfinite(float(logabsdet))
    assert wick.slogdet(wt(conditioned((2, 2)))).logabsdet is not None
    assert set(wick.linalg.eigh(wt(spd((2, 2))))._fields) == {"eigenvalues", "eigenvectors"}
    assert wick.linalg.svd(wt(spd((2, 2))))._fields == ("U", "S", "Vh")


@pytest.mark.parametrize("name", ["svd", "svdvals", "pinv", "matrix_rank"])
def test_a_matrix_holding_nan_fails_to_converge_as_pytorch(name):
    """LAPACK's gesdd refuses NaN as a bad argument: PyTorch's LinAlgError, naming the matrix of the batch."""
    data = [[[1.0, 2.0], [3.0, 4.0]], [[float("nan"), 1.0], [1.0, 2.0]]]
    with pytest.raises(torch.linalg.LinAlgError):
        getattr(torch.linalg, name)(torch.tensor(data))
    with pytest.raises(wick.linalg.LinAlgError, match="Batch element 1"):
        getattr(wick.linalg, name)(wick.tensor(data))
    inf = wick.tensor([[float("inf"), 1.0], [1.0, 2.0]])
    try:
        getattr(wick.linalg, name)(inf)  # LAPACK may compute NaNs or refuse: either, never a crash
    except RuntimeError:
        pass
