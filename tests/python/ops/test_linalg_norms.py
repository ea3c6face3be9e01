"""wick.linalg (vector_norm, matrix_norm, norm, cross, vecdot, matrix_power, multi_dot) against PyTorch 1.13's
torch.linalg: results, dtypes, shapes, errors and gradients. The decompositions are tested in test_linalg_lapack.py."""
import math

import numpy as np
import pytest

import wick
from test_contractions import DTYPES, HALF, compare, same_error, values

INF = math.inf
FLOATS = ["float64", "float32", "float16", "bfloat16"]


def normal(shape, seed=0):
    """Random values without ties, where the gradients of max-like norms are defined."""
    return np.random.default_rng(seed).standard_normal(shape)


def test_linalg_is_its_own_namespace():
    assert {"vector_norm", "matrix_norm", "norm", "cross", "vecdot", "matrix_power", "multi_dot"} <= \
        set(wick.linalg.__all__)
    assert not hasattr(wick, "vector_norm") and wick.cross is not wick.linalg.cross


# vector_norm.

# Orders that float32 holds, and (last) some it rounds: PyTorch's gradient takes those unrounded, unlike its
# result (1e300 is the largest magnitude, 1e-300 the count of nonzeros). The gradient of order 0 is undefined in
# PyTorch 1.13 (None), zero in wick.
ORDS = [2, 1, 3, 0.5, -1, -2.5, INF, -INF, float("nan"), 0, 1e300, 1e-300, 3.0000001]


@pytest.mark.parametrize("ord", ORDS, ids=str)
@pytest.mark.parametrize("shape,dim,keepdim", [((2, 3), None, False), ((2, 3, 4), (0, 2), False),
                                               ((2, 3, 4), -1, True), ((2, 3, 4), (2, 0), True), ((2, 3), (), False),
                                               ((), None, False), ((), 0, True), ((3, 1), 1, False)], ids=str)
def test_vector_norm(ord, shape, dim, keepdim):
    """ord is rounded to float32 first, as PyTorch's kernels do: 1e300 is then inf, 1e-300 is 0."""
    compare(lambda lib, x: lib.linalg.vector_norm(x, ord, dim, keepdim), normal(shape), grad=ORDS.index(ord) < 9)


def test_vector_norm_of_zero_order_has_a_zero_gradient():
    """PyTorch 1.13 leaves the gradient of ord=0 undefined (None); wick's is zero."""
    x = wick.tensor(normal((2, 3))).requires_grad_()
    wick.linalg.vector_norm(x, 0).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 3)))


@pytest.mark.parametrize("ord", [2, 1, INF, 0.5])
def test_vector_norm_of_zeros(ord):
    """The gradient of a norm of zeros is 0, not NaN."""
    compare(lambda lib, x: lib.linalg.vector_norm(x, ord, 1), np.zeros((2, 3)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_vector_norm_keeps_floating_dtypes(dtype):
    compare(lambda lib, x: lib.linalg.vector_norm(x, 3, 1), values((2, 3), dtype), dtype=dtype)


@pytest.mark.parametrize("source,target", [("float32", "float64"), ("float16", "float32"), ("bfloat16", "float64"),
                                           ("float64", "float64")])
def test_vector_norm_casts_to_dtype_first(source, target):
    x = normal((2, 3))
    compare(lambda lib, t: lib.linalg.vector_norm(t.to(getattr(lib, source)), 3, dtype=getattr(lib, target)), x,
            grad=False)
    compare(lambda lib, t: lib.linalg.vector_norm(t.float(), 2.5, dtype=lib.float64), x, grad_rtol=1e-6)


@pytest.mark.parametrize("ord,shape,dim", [(INF, (0, 3), None), (-1, (0, 3), None), (-0.5, (2, 0), None),
                                           (-1e-7, (2, 0), None), (-123456789.0, (2, 0), None),
                                           (-123456789, (2, 0), None), (INF, (0, 3), 0), (-INF, (0, 3), (0, 1)),
                                           (-INF, (2, 0), (-1, 0)), (-INF, (2, 0), (1, 0)), (-1, (2, 0), ()),
                                           (-1, (0,), 0), (-1, (2, 0), 5)], ids=str)
def test_vector_norm_of_nothing_without_an_identity(ord, shape, dim):
    """A minimum or a negative power sum of no elements has no value: PyTorch's message names ord and the dim."""
    same_error(lambda lib, x: lib.linalg.vector_norm(x, ord, dim), values(shape))


@pytest.mark.parametrize("ord,shape,dim", [(INF, (0, 3), 1), (-0.5, (0, 3), 1), (0, (0, 3), None),
                                           (2, (0, 3), None), (float("nan"), (2, 0), None), (-1, (2, 0, 3), (0, 2))],
                         ids=str)
def test_vector_norm_of_nothing_with_an_identity(ord, shape, dim):
    compare(lambda lib, x: lib.linalg.vector_norm(x, ord, dim), values(shape), grad=ord != 0)


@pytest.mark.parametrize("program,exact", [
    (lambda lib, x: lib.linalg.vector_norm(x.int()), True), (lambda lib, x: lib.linalg.vector_norm(x.bool()), True),
    (lambda lib, x: lib.linalg.vector_norm(x, dtype=lib.int64), True),
    (lambda lib, x: lib.linalg.vector_norm(x, dtype=lib.float32), True),
    (lambda lib, x: lib.linalg.vector_norm(x.float(), 3, dtype=lib.float16), True),
    (lambda lib, x: lib.linalg.vector_norm(x.bfloat16(), dtype=lib.float16), True),
    (lambda lib, x: lib.linalg.vector_norm(x.int(), dtype=lib.float32), True),
    (lambda lib, x: lib.linalg.vector_norm(x, ord="fro"), True),
    (lambda lib, x: lib.linalg.vector_norm(x, None), False),
    (lambda lib, x: lib.linalg.vector_norm(x, dim=1.0), True), (lambda lib, x: lib.linalg.vector_norm(3), True),
    (lambda lib, x: lib.linalg.vector_norm(x, dim=2), False),
    (lambda lib, x: lib.linalg.vector_norm(x, 2, (0, -2)), False),
    (lambda lib, x: lib.linalg.vector_norm(x, dtype="x"), False),
    (lambda lib, x: lib.linalg.vector_norm(x, 2, 1, True, lib.float64), False),
])
def test_vector_norm_errors(program, exact):
    same_error(program, values((2, 3)), exact=exact)


# matrix_norm and norm.

MATRIX_ORDS = ["fro", 1, -1, INF, -INF, 1.0, True]


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("shape,dim,keepdim", [((2, 3), (-2, -1), False), ((2, 3, 4), (-2, -1), True),
                                               ((2, 3, 4), (2, 0), False), ((2, 3, 4), (2, 0), True),
                                               ((2, 3, 4), [0, 2], False), ((3, 2), (1, 0), True)], ids=str)
def test_matrix_norm(ord, shape, dim, keepdim):
    compare(lambda lib, x: lib.linalg.matrix_norm(x, ord, dim, keepdim), normal(shape))


@pytest.mark.parametrize("ord", ["fro", 1, -INF])
@pytest.mark.parametrize("dtype", FLOATS)
def test_matrix_norm_dtypes(ord, dtype):
    compare(lambda lib, x: lib.linalg.matrix_norm(x, ord), values((2, 3, 4), dtype), dtype=dtype)
    compare(lambda lib, x: lib.linalg.matrix_norm(x.float(), ord, dtype=lib.float64), normal((3, 4)))


@pytest.mark.parametrize("ord,shape", [(1, (0, 3)), ("fro", (0, 3)), (-1, (0, 3)), (1, (2, 0, 3)), (INF, (3, 0)),
                                       (-INF, (2, 3, 0))], ids=str)
def test_matrix_norm_of_nothing(ord, shape):
    compare(lambda lib, x: lib.linalg.matrix_norm(x, ord), values(shape))


@pytest.mark.parametrize("ord,shape", [(INF, (0, 3)), (1, (3, 0))], ids=str)
def test_matrix_norm_of_nothing_without_a_largest_sum(ord, shape):
    same_error(lambda lib, x: lib.linalg.matrix_norm(x, ord), values(shape))


@pytest.mark.parametrize("program", [
    lambda lib, x: lib.linalg.matrix_norm(x, 3), lambda lib, x: lib.linalg.matrix_norm(x, "x"),
    lambda lib, x: lib.linalg.matrix_norm(x, float("nan")), lambda lib, x: lib.linalg.matrix_norm(x[0]),
    lambda lib, x: lib.linalg.matrix_norm(x[0], 3), lambda lib, x: lib.linalg.matrix_norm(x.int()),
    lambda lib, x: lib.linalg.matrix_norm(x.int(), 1), lambda lib, x: lib.linalg.matrix_norm(x.int(), 3),
    lambda lib, x: lib.linalg.matrix_norm(x.half(), 2), lambda lib, x: lib.linalg.matrix_norm(x.half(), "nuc"),
    lambda lib, x: lib.linalg.matrix_norm(x, dim=(0,)), lambda lib, x: lib.linalg.matrix_norm(x, dim=(0, -2)),
    lambda lib, x: lib.linalg.matrix_norm(x, dim=(0, 1, 2)), lambda lib, x: lib.linalg.matrix_norm(x, dim=[]),
    lambda lib, x: lib.linalg.matrix_norm(x, dim=(0, 5)), lambda lib, x: lib.linalg.matrix_norm(x, 1, (1, -1)),
    lambda lib, x: lib.linalg.matrix_norm(x, dtype=lib.int32),
    lambda lib, x: lib.linalg.matrix_norm(x, 1, dtype=lib.float32),
])
def test_matrix_norm_errors(program):
    same_error(program, values((2, 3)))


def test_matrix_norm_bad_arguments():
    same_error(lambda lib, x: lib.linalg.matrix_norm(x, None), values((2, 3)), exact=False)
    same_error(lambda lib, x: lib.linalg.matrix_norm(x, dim=0), values((2, 3)), exact=False)


@pytest.mark.parametrize("ord", [2, -2, 2.0, "nuc"], ids=str)
@pytest.mark.parametrize("shape,dim,keepdim", [((3, 4), (-2, -1), False), ((2, 4, 3), (-2, -1), True),
                                               ((2, 3, 4), (2, 0), False), ((2, 3, 4), (0, 2), True),
                                               ((0, 3, 2), (-2, -1), False)], ids=str)
def test_matrix_norms_of_singular_values(ord, shape, dim, keepdim):
    """From the singular values (svdvals); their gradient is not implemented in wick (test_linalg_lapack.py)."""
    compare(lambda lib, x: lib.linalg.matrix_norm(x, ord, dim, keepdim), normal(shape), grad=False)
    compare(lambda lib, x: lib.linalg.norm(x, ord, dim, keepdim), normal(shape), dtype="float32")


@pytest.mark.parametrize("ord", [2, "nuc"], ids=str)
def test_matrix_norms_of_singular_values_refuse_low_precision(ord):
    same_error(lambda lib, x: lib.linalg.matrix_norm(x.half(), ord), values((2, 3)))
    compare(lambda lib, x: lib.linalg.matrix_norm(x.float(), ord, dtype=lib.float64), normal((3, 4)), grad=False)


@pytest.mark.parametrize("ord,shape,dim", [
    (None, (2, 3), None), (None, (2, 3, 4), None), (None, (), None), (1, (2, 3), None), (1, (3,), None),
    ("fro", (2, 3), None), (None, (2, 3), 1), (None, (2, 3), (0, 1)), (3, (2, 3), 1), (INF, (2, 3), (0, 1)),
    (INF, (2, 3), (1, 0)), (INF, (2, 3), None), (-INF, (3,), None), (0, (3,), None), (None, (2, 3), [0]),
    (-1, (2, 3, 4), (1, 2)), (0, (2, 3, 4), (2,)), ("fro", (2, 3, 4), (2, 0)),
], ids=str)
def test_norm_picks_vector_or_matrix(ord, shape, dim):
    compare(lambda lib, x: lib.linalg.norm(x, ord, dim), normal(shape), grad=ord != 0)
    compare(lambda lib, x: lib.linalg.norm(x, ord, dim, keepdim=True), normal(shape), grad=ord != 0)


def test_norm_dtype():
    compare(lambda lib, x: lib.linalg.norm(x.float(), dtype=lib.float64), normal((2, 3)))
    compare(lambda lib, x: lib.linalg.norm(x.float(), 1, dtype=lib.float64), normal((2, 3)))


@pytest.mark.parametrize("program", [
    lambda lib, x: lib.linalg.norm(lib.ones(2, 2, 2), 1), lambda lib, x: lib.linalg.norm(x[0], "fro"),
    lambda lib, x: lib.linalg.norm(lib.ones(2, 2, 2), "fro"), lambda lib, x: lib.linalg.norm(x, dim=(0, 1, 1)),
    lambda lib, x: lib.linalg.norm(x, 3, (0, 1)), lambda lib, x: lib.linalg.norm(x, "fro", 1),
    lambda lib, x: lib.linalg.norm(x, "fro", (0, 1, 2)), lambda lib, x: lib.linalg.norm(x, dim=()),
    lambda lib, x: lib.linalg.norm(x, "fro", ()), lambda lib, x: lib.linalg.norm(x.int()),
    lambda lib, x: lib.linalg.norm(x, "x"), lambda lib, x: lib.linalg.norm(x, "x", 1),
    lambda lib, x: lib.linalg.norm(lib.tensor(3.0), 2), lambda lib, x: lib.linalg.norm(lib.tensor(3.0), "fro"),
])
def test_norm_errors(program):
    same_error(program, values((2, 3)))


# cross and vecdot.

@pytest.mark.parametrize("a,b,dim", [((2, 3), (2, 3), -1), ((3, 3), (3, 3), 0), ((3, 3), (3, 3), -2),
                                     ((1, 3), (4, 3), -1), ((3, 1), (3, 4), 0), ((2, 3, 4), (2, 3, 1), 1),
                                     ((0, 3), (0, 3), 1), ((3,), (3,), 0)], ids=str)
def test_cross(a, b, dim):
    compare(lambda lib, x, y: lib.linalg.cross(x, y, dim=dim), values(a), values(b, seed=1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross_dtypes(dtype):
    program = lambda lib, x, y: lib.linalg.cross(x, y)  # noqa: E731
    arrays = values((4, 3), dtype), values((4, 3), dtype, seed=1)
    if dtype == "bool":
        same_error(program, *arrays, dtype=dtype)
    else:
        compare(program, *arrays, dtype=dtype, reference="float32" if dtype in HALF else None)


@pytest.mark.parametrize("program,exact", [
    (lambda lib, x, y: lib.linalg.cross(x, x, dim=0), True), (lambda lib, x, y: lib.linalg.cross(x[0], y), True),
    (lambda lib, x, y: lib.linalg.cross(x, y, dim=2), True), (lambda lib, x, y: lib.linalg.cross(x.int(), y), True),
    (lambda lib, x, y: lib.linalg.cross(x[0, 0], y[0, 0]), True),
    (lambda lib, x, y: lib.linalg.cross(x, y, dim=None), True),
    (lambda lib, x, y: lib.linalg.cross(x, y, -1), False),
    (lambda lib, x, y: lib.linalg.cross(x, lib.ones(3, 3)), False),
])
def test_cross_errors(program, exact):
    same_error(program, values((2, 3)), values((2, 3), seed=1), exact=exact)


@pytest.mark.parametrize("a,b,dim", [((2, 3), (2, 3), -1), ((2, 3), (2, 3), 0), ((2, 3), (3,), -1),
                                     ((2, 3), (1, 3), 1), ((), (), 0), ((0, 3), (0, 3), -1), ((2, 0), (2, 0), 1)],
                         ids=str)
def test_vecdot(a, b, dim):
    compare(lambda lib, x, y: lib.linalg.vecdot(x, y, dim=dim), values(a), values(b, seed=1))


@pytest.mark.parametrize("dtype", FLOATS)
def test_vecdot_dtypes(dtype):
    compare(lambda lib, x, y: lib.linalg.vecdot(x, y), values((2, 3), dtype), values((2, 3), dtype, seed=1),
            dtype=dtype)


@pytest.mark.parametrize("program,exact", [
    (lambda lib, x, y: lib.linalg.vecdot(x, y.double()), True), (lambda lib, x, y: lib.linalg.vecdot(x.int(), y), True),
    (lambda lib, x, y: lib.linalg.vecdot(x.bool(), y.bool()), True),
    (lambda lib, x, y: lib.linalg.vecdot(x.int(), y.long()), True),
    (lambda lib, x, y: lib.linalg.vecdot(x, y, dim=5), False),
    (lambda lib, x, y: lib.linalg.vecdot(x, y[:1, :2]), False),
    (lambda lib, x, y: lib.linalg.vecdot(x, y, 1), False),
])
def test_vecdot_errors(program, exact):
    same_error(program, values((2, 3)), values((2, 3), seed=1), dtype="float32", exact=exact)


# matrix_power and multi_dot.

@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 13])
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (1, 1), (0, 2, 2), (2, 0, 0)], ids=str)
def test_matrix_power(n, shape):
    compare(lambda lib, x: lib.linalg.matrix_power(x, n), normal(shape) / 2)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5])
def test_matrix_power_dtypes(dtype, n):
    program = lambda lib, x: lib.linalg.matrix_power(x, n)  # noqa: E731
    x = values((3, 3), dtype)
    if dtype == "bool" and n > 1:
        same_error(program, x, dtype=dtype)
    else:
        compare(program, x, dtype=dtype, reference="float32" if dtype in HALF else None)


def test_matrix_power_of_3_multiplies_as_pytorch():
    """(A @ A) @ A, which float32's rounding tells from A @ (A @ A) here (0 at [1, 0], not -1)."""
    compare(lambda lib, x: lib.linalg.matrix_power(x, 3), np.array([[4096, 2 ** 24], [-1, 2 ** -12]]), dtype="float32")


def test_matrix_power_of_0_is_in_the_graph():
    x = wick.tensor(normal((3, 3))).requires_grad_()
    y = wick.linalg.matrix_power(x, 0)
    assert y.requires_grad
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 3)))


@pytest.mark.parametrize("n", [-1, -2, -3, -6])
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (0, 2, 2), (2, 0, 0)], ids=str)
def test_negative_powers(n, shape):
    """Powers of the inverse; a well-conditioned matrix keeps them close to PyTorch's."""
    compare(lambda lib, x: lib.linalg.matrix_power(x, n), normal(shape) / 4 + 2 * np.eye(shape[-1]),
            grad_rtol=1e-9)


@pytest.mark.parametrize("n", [-1, -2])
def test_negative_powers_errors(n):
    same_error(lambda lib, x: lib.linalg.matrix_power(x.int(), n), values((3, 3)))
    same_error(lambda lib, x: lib.linalg.matrix_power(x, n), values((2, 3)))
    with pytest.raises(RuntimeError, match="linalg.inv: The diagonal element 1 is zero"):
        wick.linalg.matrix_power(wick.zeros(3, 3, dtype=wick.float64), n)


@pytest.mark.parametrize("program,exact", [
    (lambda lib, x: lib.linalg.matrix_power(x, 2), True), (lambda lib, x: lib.linalg.matrix_power(x[0], 2), True),
    (lambda lib, x: lib.linalg.matrix_power(x, 2.0), True), (lambda lib, x: lib.linalg.matrix_power(x, True), True),
    (lambda lib, x: lib.linalg.matrix_power(3, 2), True), (lambda lib, x: lib.linalg.matrix_power(x, n=2), False),
])
def test_matrix_power_errors(program, exact):
    same_error(program, values((2, 3)), exact=exact)


MULTI_DOT_CASES = [
    [(2, 3), (3, 4)], [(3,), (3, 4)], [(2, 3), (3,)], [(3,), (3,)], [(2, 3), (3, 4), (4, 5)],
    [(3,), (3, 4), (4, 5), (5,)], [(10, 1), (1, 10), (10, 1)], [(1, 10), (10, 1), (1, 10)], [(2, 2), (2, 2), (2, 2)],
    [(2, 3), (3, 3), (3, 3), (3, 3), (3, 4)], [(2, 3), (3, 4), (4, 1), (1, 5), (5, 2), (2, 7)],
    [(0, 3), (3, 4), (4, 0)], [(3, 0), (0, 4)], [(3,), (3, 1), (1, 4), (4, 2), (2,)],
]


@pytest.mark.parametrize("shapes", MULTI_DOT_CASES, ids=str)
def test_multi_dot(shapes):
    arrays = [normal(s, seed=i) for i, s in enumerate(shapes)]
    compare(lambda lib, *ms: lib.linalg.multi_dot(ms), *arrays)
    compare(lambda lib, *ms: lib.linalg.multi_dot(list(ms)), *arrays, dtype="float32")


# Square matrices cost the same in any order: PyTorch then multiplies three as (A @ B) @ C, and four or more as
# its matrix_chain_order says, splitting at the first of equal costs: A @ (B @ (C @ D)). In float32 these values
# show the order: the others give far other values, of which no tolerance would hide one.
TIED_CHAINS = [
    [[[-1, -4096], [2 ** 24, 1]], [[1, 4096], [1, -1]], [[2 ** 24, 2 ** 24], [2 ** 24, -4096]]],
    [[[-1, -4096], [-4096, 4096]], [[-4096, 4096], [0, 2 ** 24]], [[4096, -1], [-1, 4096]],
     [[-4096, 2 ** 24], [2 ** 24, -1]]],
]


@pytest.mark.parametrize("chain", TIED_CHAINS, ids=len)
def test_multi_dot_breaks_ties_as_pytorch(chain):
    compare(lambda lib, *ms: lib.linalg.multi_dot(ms), *[np.array(m, dtype=np.float64) for m in chain],
            dtype="float32")


@pytest.mark.parametrize("dtype", DTYPES)
def test_multi_dot_dtypes(dtype):
    program = lambda lib, *ms: lib.linalg.multi_dot(ms)  # noqa: E731
    arrays = values((2, 3), dtype), values((3, 4), dtype, seed=1), values((4,), dtype, seed=2)
    if dtype == "bool":
        same_error(program, *arrays, dtype=dtype)
    else:
        compare(program, *arrays, dtype=dtype, reference="float32" if dtype in HALF else None)


@pytest.mark.parametrize("program,exact", [
    (lambda lib, x, y: lib.linalg.multi_dot([x]), True), (lambda lib, x, y: lib.linalg.multi_dot([]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, y, x[0]]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, x]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([lib.ones(2, 2, 2), x]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, lib.ones(2, 3, 3)]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, lib.ones(3, 3, 3), y]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, y.double()]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x.int(), y]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x.bool(), y.bool()]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([lib.tensor(2.0), x]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, lib.tensor(2.0)]), True),
    (lambda lib, x, y: lib.linalg.multi_dot([x, 3]), True), (lambda lib, x, y: lib.linalg.multi_dot(x), True),
    (lambda lib, x, y: lib.linalg.multi_dot(x, y), False),
])
def test_multi_dot_errors(program, exact):
    same_error(program, values((2, 3)), values((3, 4), seed=1), dtype="float32", exact=exact)
