"""wick.linalg: PyTorch's torch.linalg namespace, composed of declared ops: vector and matrix norms, cross and dot
products of batches of vectors, matrix powers and chained matrix products, and the decompositions and solvers of
declarations/linalg_lapack.yaml (LAPACK), with PyTorch's checks and errors.
"""
import ctypes
import math
import operator

from wick import _C
from wick._arguments import (_bool, _dtype, _int, _int_list, _is_int, _number, _scalar_type, _tensor, _tensor_sequence,
                             _wrap_dim, _written, _written_fields)
from wick.functional import broadcast_shapes
from wick.return_types import named_tuple
from wick.type_info import can_cast, promote_types

__all__ = ["vector_norm", "matrix_norm", "norm", "cross", "vecdot", "matrix_power", "multi_dot", "inv", "solve", "det",
           "slogdet", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals", "lstsq", "pinv", "matrix_rank",
           "LinAlgError"]

# The C++ names of the dtypes, which the messages of multi_dot and of out= tensors use.
_CPP_TYPES = {_C.float16: "c10::Half", _C.bfloat16: "c10::BFloat16", _C.float32: "float", _C.float64: "double",
              _C.int64: "long int", _C.int32: "int", _C.int16: "short int", _C.int8: "signed char",
              _C.uint8: "unsigned char", _C.bool: "bool"}


def _dims(function, value):
    """The dim of a reduction (None, an int or a sequence of ints) as a list, or None."""
    if value is None:
        return None
    return [operator.index(value)] if _is_int(value) else _int_list(function, "dim", None, value)


def _format(number):
    """A number as PyTorch's messages print a Scalar: an int as itself, a float as C++ streams a double."""
    return str(int(number)) if isinstance(number, int) else f"{number:g}"


# out= tensors.
#
# Note [out= in wick.linalg]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's linear algebra functions check the dtype of an out= tensor in one of two ways: most take only their
# result's dtype; pinv, matrix_rank, lstsq and matrix_power (for n = 0 or 1) take any dtype that it casts to
# safely. Their messages differ, so each function passes its own. _written (wick._arguments) then resizes out and
# writes the result, refusing out= where an input requires grad, as the out= ops that PyTorch's functions call
# refuse it (PyTorch's message names such an inner op, mm() or _linalg_svd(); wick's names the function itself).
# matrix_norm, norm and matrix_power (n = 0 or 1) instead copy their result into out, a copy that autograd
# records: they take inputs that require grad (_copied).

_EXACT = "Expected out tensor to have dtype {cpp_result}, but got {cpp_out} instead"


def _castable(function, name="result"):
    """PyTorch's message (checkLinalgCompatibleDtype's) for an out= tensor, called name, of function whose dtype
    the result's does not cast to safely."""
    return f"{function}: Expected {name} to be safely castable from {{result}} dtype, but got {name} with dtype {{out}}"


def _check_out(function, result, out, message, castable=False):
    """RuntimeError(message) unless out, an out= tensor, has result's dtype (or, when castable, one that it casts
    to safely); message is formatted with the dtypes of result and out as PyTorch (result, out) and C++
    (cpp_result, cpp_out) name them."""
    out = _tensor(function, "out", None, out)
    if out.dtype != result.dtype and not (castable and can_cast(result.dtype, out.dtype)):
        raise RuntimeError(message.format(result=_scalar_type(result.dtype), out=_scalar_type(out.dtype),
                                          cpp_result=_CPP_TYPES[result.dtype], cpp_out=_CPP_TYPES[out.dtype]))


def _out(function, result, out, parameters, message=_EXACT, castable=False):
    """What function (named as PyTorch's parser names it) returns: result, or out holding it, refused where one of
    parameters requires grad (see Note [out= in wick.linalg])."""
    if out is None:
        return result
    _check_out(function, result, out, message, castable)
    return _written(function, result, out, *parameters)


def _out_fields(function, results, out, parameters, castable_in=None):
    """The same for a function returning the named tuple results, out a tuple or list of as many tensors: each
    must have its field's dtype, or one that it casts to safely when castable_in names the function (for the
    message)."""
    if isinstance(out, (tuple, list)) and len(out) == len(results):  # else _written_fields raises the TypeError
        for name, result, tensor in zip(results._fields, results, out):
            message = _EXACT if castable_in is None else _castable(castable_in, name)
            _check_out(function, result, tensor, message, castable_in is not None)
    return _written_fields(function, results, out, *parameters)


def _copied(function, result, out, message, castable=False):
    """result, or out holding it as _out writes it but by a copy that autograd records, so that inputs requiring
    grad are taken (see Note [out= in wick.linalg])."""
    if out is None:
        return result
    out = _out(function, result.detach(), out, (), message, castable)
    return out.copy_(result) if result.requires_grad else out


# Checks that PyTorch's linear algebra functions share.

def _check_floating(function, tensor, low_precision=True):
    if not tensor.dtype.is_floating_point:
        raise RuntimeError(f"{function}: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_type(tensor.dtype)}")
    if not low_precision and tensor.dtype in (_C.float16, _C.bfloat16):
        raise RuntimeError(f"{function}: Low precision dtypes not supported. Got {_scalar_type(tensor.dtype)}")


def _check_same_dtype(function, first, second, names):
    """PyTorch's refusal of two operands (named names[0] and names[1]) of different dtypes."""
    if first.dtype != second.dtype:
        raise RuntimeError(f"{function}: Expected {names[0]} and {names[1]} to have the same dtype, but found "
                           f"{names[0]} of type {_scalar_type(first.dtype)} and {names[1]} of type "
                           f"{_scalar_type(second.dtype)} instead")


def _check_norm_dtype(function, dtype, input_dtype):
    """The dtype= of a norm: floating, and one that input's dtype widens to (PyTorch's check_linalg_norm_dtype)."""
    if dtype is None:
        return
    if not dtype.is_floating_point:
        raise RuntimeError(f"{function}: dtype should be floating point or complex, but got {_scalar_type(dtype)}")
    if promote_types(input_dtype, dtype) != dtype:
        raise RuntimeError(f"{function}: the dtype of the input ({_scalar_type(input_dtype)}) should be convertible "
                           f"without narrowing to the specified dtype ({_scalar_type(dtype)})")


def _check_product(kernel, a, b):
    """The RuntimeError that PyTorch's CPU matrix-product kernels raise for operands they do not take: two
    dtypes, or bool."""
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_type(a.dtype)} but found {_scalar_type(b.dtype)}")
    if a.dtype == _C.bool:
        raise RuntimeError(f"\"{kernel}\" not implemented for 'Bool'")


def _check_square(function, tensor):
    if tensor.dim() < 2:
        raise RuntimeError(f"{function}: The input tensor A must have at least 2 dimensions.")
    if tensor.shape[-1] != tensor.shape[-2]:
        raise RuntimeError(f"{function}: A must be batches of square matrices, but they are {tensor.shape[-2]} by "
                           f"{tensor.shape[-1]} matrices")


# Norms.

def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor

    The vector ord-norm of input over dim (an int or a tuple; every dim when None or empty): sum(abs(x)**ord) **
    (1/ord), the largest (inf) or smallest (-inf) magnitude, or the count of nonzeros (0). Floating inputs only;
    dtype= casts the input first, to a dtype it widens to. As PyTorch, ord is rounded to float32.
    """
    input = _tensor("linalg_vector_norm", "input", 1, input)
    ord = _number("linalg_vector_norm", "ord", None, ord)
    dims = _dims("linalg_vector_norm", dim)
    keepdim = _bool("linalg_vector_norm", "keepdim", None, keepdim)
    dtype = _dtype("linalg_vector_norm", dtype)
    _check_floating("linalg.vector_norm", input)
    # A minimum, or a power sum of negative powers, of no elements has no value.
    if input.numel() == 0 and (ord < 0 or ord == math.inf):
        if not dims:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_format(ord)} norm on an empty tensor because "
                               "the operation does not have an identity")
        for d in dims:
            if input.shape[_wrap_dim(d, input.dim())] == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {_format(ord)} norm on the dimension {d}"
                                   "because this dimension is empty and the operation does not have an identity")
    _check_norm_dtype("linalg.vector_norm", dtype, input.dtype)
    x = input if dtype is None else input.to(dtype)
    return _out("linalg_vector_norm", _C.norm(x, ctypes.c_float(float(ord)).value, dims, keepdim), out, (input,))


def _matrix_norm_dims(input, dim, low_precision):
    """The two dims of matrix_norm, wrapped, after PyTorch's checks of input and dim."""
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    _check_floating("linalg.matrix_norm", input, low_precision)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    first, second = (_wrap_dim(d, input.dim()) for d in dim)
    if first == second:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({first}, {second})")
    return first, second


def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """matrix_norm(input, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None, out=None) -> Tensor

    The matrix norm of the matrices in dims dim of input: 'fro' (the square root of the sum of squares), 1 or -1
    (the largest or smallest column sum of magnitudes), inf or -inf (the same of rows), 2 or -2 (the largest or
    smallest singular value), 'nuc' (the sum of the singular values).
    """
    input = _tensor("linalg_matrix_norm", "input", 1, input)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    else:
        ord = _number("linalg_matrix_norm", "ord", None, ord)
        if abs(ord) not in (1, 2, math.inf):
            raise RuntimeError(f"linalg.matrix_norm: Order {_format(ord)} not supported.")
    dim = _int_list("linalg_matrix_norm", "dim", None, dim)
    keepdim = _bool("linalg_matrix_norm", "keepdim", None, keepdim)
    dtype = _dtype("linalg_matrix_norm", dtype)
    needs_svd = ord == "nuc" or (not isinstance(ord, str) and abs(ord) == 2)
    first, second = _matrix_norm_dims(input, dim, low_precision=not needs_svd)
    _check_norm_dtype("linalg.matrix_norm", dtype, input.dtype)
    return _copied("linalg_matrix_norm", _matrix_norm(input, ord, first, second, keepdim, dtype, needs_svd), out,
                   "linalg.matrix_norm expected out tensor dtype {result} but got: {out}")


def _matrix_norm(input, ord, first, second, keepdim, dtype, needs_svd):
    """The ord-norm of the matrices in dims first and second of input, as matrix_norm computes it."""
    if ord == "fro":
        return vector_norm(input, 2, (first, second), keepdim, dtype=dtype)
    if needs_svd:  # the largest or smallest singular value, or their sum, of the matrices moved last
        moved = (input if dtype is None else input.to(dtype)).movedim((first, second), (-2, -1))
        s = svdvals(moved)
        result = s.sum(-1) if ord == "nuc" else s.amax(-1) if ord > 0 else s.amin(-1)
        if keepdim:
            result = result.unsqueeze(min(first, second)).unsqueeze(max(first, second))
        return result
    # The 1-norm is the largest column sum of magnitudes, the inf-norm that of the transpose.
    if ord in (math.inf, -math.inf):
        first, second = second, first
    sums = vector_norm(input, 1, first, keepdim, dtype=dtype)
    second -= 1 if not keepdim and first < second else 0
    return sums.amax(second, keepdim) if ord > 0 else sums.amin(second, keepdim)


def norm(input, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    """norm(input, ord=None, dim=None, keepdim=False, *, out=None, dtype=None) -> Tensor

    A vector norm (vector_norm) or a matrix norm (matrix_norm), as PyTorch chooses: a matrix norm for a string ord,
    or for a numeric ord over two dims (dim of length 2, or a 2-d input without dim); otherwise the vector ord-norm
    (the 2-norm when ord is None, over every dim when dim is None too).
    """
    input = _tensor("linalg_norm", "input", 1, input)
    dims = _dims("linalg_norm", dim)
    if dims is not None and len(dims) not in (1, 2):
        must = "mut" if isinstance(ord, str) else "must"  # sic: PyTorch 1.13 says "mut" for a string ord
        raise RuntimeError(f"linalg.norm: If dim is specified, it {must} be of length 1 or 2. Got {dims}")
    if dims is None and ord is not None and input.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                           f"Got {input.dim()}D.")
    if isinstance(ord, str) or (ord is not None and (len(dims) == 2 if dims is not None else input.dim() == 2)):
        result = matrix_norm(input, ord, dims if dims is not None else [0, 1], keepdim, dtype=dtype)
    else:
        result = vector_norm(input, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
    return _copied("linalg_norm", result, out, "linalg.norm expected out tensor dtype {result} but got: {out}")


# Products.

def cross(input, other, *, dim=-1, out=None):
    """cross(input, other, *, dim=-1, out=None) -> Tensor

    The cross product of the 3-vectors along dim of input and other (same number of dims, broadcast together).
    """
    input = _tensor("linalg_cross", "input", 1, input)
    other = _tensor("linalg_cross", "other", 2, other)
    dim = _int("linalg_cross", "dim", None, dim)
    if input.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if input.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    wrapped = _wrap_dim(dim, input.dim())
    if input.shape[wrapped] != 3 or other.shape[wrapped] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[wrapped]} and "
                           f"{other.shape[wrapped]}")
    broadcast_shapes(input.shape, other.shape)
    _check_product("cross", input, other)
    # Component i is a[i+1] * b[i+2] - a[i+2] * b[i+1]: rolled copies line those up.
    next_a, last_a = input.roll(-1, wrapped), input.roll(1, wrapped)
    next_b, last_b = other.roll(-1, wrapped), other.roll(1, wrapped)
    return _out("linalg_cross", next_a * last_b - last_a * next_b, out, (input, other))


def vecdot(x, y, *, dim=-1, out=None):
    """vecdot(x, y, *, dim=-1, out=None) -> Tensor

    The dot products of the vectors along dim of x and y (broadcast together): (x * y).sum(dim). Floating inputs of
    one dtype only, as PyTorch 1.13.
    """
    x = _tensor("linalg_vecdot", "x", 1, x)
    y = _tensor("linalg_vecdot", "y", 2, y)
    dim = _int("linalg_vecdot", "dim", None, dim)
    _check_floating("linalg.vecdot", x)
    _check_same_dtype("linalg.vecdot", x, y, ("x", "y"))
    return _out("linalg_vecdot", (x * y).sum(dim), out, (x, y),
                "linalg.vecdot: Expected out of dtype{result} but found {out}")  # sic: no space after "dtype"


def matrix_power(input, n, *, out=None):
    """matrix_power(input, n, *, out=None) -> Tensor

    The n-th power of the square matrix (or batch of them) input, for n >= 0: the identity for 0, else products of
    repeated squares; for n < 0, the same of the inverse.
    """
    input = _tensor("linalg_matrix_power", "input", 1, input)
    n = _int("linalg_matrix_power", "n", 2, n)
    _check_square("linalg.matrix_power", input)
    castable = _castable("matrix_power")
    if out is not None:  # PyTorch checks first that input's dtype casts to out's, then writes its powers
        _check_out("linalg_matrix_power", input, out, castable, castable=True)
    result = _power(input, n)
    if n == 0 and out is not None:  # PyTorch copies the identity into out, outside input's graph
        result = result.detach()
    if n in (0, 1):  # copied into out, as PyTorch copies input or the identity
        return _copied("linalg_matrix_power", result, out, castable, castable=True)
    return _out("linalg_matrix_power", result, out, (input,))


def _power(input, n):
    """The n-th power of the square matrices of input, as matrix_power computes it."""
    if n < 0:
        input, n = inv(input), -n
    if n == 0:  # copied into a clone, so that the result stays in input's autograd graph as PyTorch's does
        return input.clone().copy_(_C.eye(input.shape[-2], input.shape[-1], device=input.device))
    if n == 1:
        return input.clone()
    _check_product("addmm_impl_cpu_", input, input)
    if n == 3:  # PyTorch's own order for 3: (A @ A) @ A
        return input.matmul(input).matmul(input)
    # The binary digits of n from the lowest: square each time, multiply in the squares whose digit is 1.
    result = square = None
    while n:
        n, digit = divmod(n, 2)
        square = input if square is None else square.matmul(square)
        if digit:
            result = square if result is None else result.matmul(square)
    return result


def _chain_split(rows):
    """split[i][j]: the k at which to split the product of matrices i..j of a chain (matrix i is rows[i] x
    rows[i + 1]) into i..k and k+1..j, for the fewest multiplications: PyTorch's matrix_chain_order, which takes the
    first k of equal costs."""
    n = len(rows) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j], split[i][j] = min((cost[i][k] + cost[k + 1][j] + rows[i] * rows[k + 1] * rows[j + 1], k)
                                          for k in range(i, j))
    return split


def _chain_product(matrices, split, i, j):
    if i == j:
        return matrices[i]
    k = split[i][j]
    return _C.mm(_chain_product(matrices, split, i, k), _chain_product(matrices, split, k + 1, j))


def multi_dot(tensors, *, out=None):
    """multi_dot(tensors, *, out=None) -> Tensor

    The product of two or more matrices (a list or tuple), multiplied in the order that costs the fewest
    multiplications. The first may be a 1-d row vector and the last a 1-d column vector, which the result drops.
    """
    given = _tensor_sequence("linalg_multi_dot", "tensors", 1, tensors)
    if len(given) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(given)}")
    first, last = given[0], given[-1]
    if first.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.dim()}D")
    if last.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.dim()}D")
    for i, t in enumerate(given[1:-1], 1):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    out_shape = first.shape[:1] if first.dim() == 2 else ()
    out_shape += last.shape[1:] if last.dim() == 2 else ()
    matrices = (first if first.dim() == 2 else first.unsqueeze(0),) + given[1:-1] + \
        (last if last.dim() == 2 else last.unsqueeze(-1),)
    for i in range(1, len(matrices)):
        if matrices[i].dtype != matrices[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{_CPP_TYPES[matrices[0].dtype]} and tensor {i} {_CPP_TYPES[matrices[i].dtype]}")
        if matrices[i - 1].shape[-1] != matrices[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(given[i - 1].shape)} and "
                               f"{list(given[i].shape)} cannot be multiplied")
    _check_product("addmm_impl_cpu_", matrices[0], matrices[0])
    rows = [m.shape[0] for m in matrices] + [matrices[-1].shape[1]]
    split = _chain_split(rows)
    if len(matrices) == 3:  # PyTorch's own rule for three matrices breaks a tie toward (A @ B) @ C
        a, b, c, d = rows
        split[0][2] = 0 if a * c * (b + d) > b * d * (a + c) else 1
    result = _chain_product(matrices, split, 0, len(matrices) - 1).reshape(out_shape)
    return _out("linalg_multi_dot", result, out, given,
                "multi_dot(): expected out tensor to have dtype {cpp_result} but got {cpp_out}")


# Decompositions and solvers (declarations/linalg_lapack.yaml). The `_ex` ops return an int32 info per matrix,
# from which these raise PyTorch's errors, with its wording.

class LinAlgError(RuntimeError):
    """A matrix that a linear algebra function cannot handle: singular, not positive-definite (torch.linalg's)."""

    __module__ = "wick.linalg"


_slogdet_result = named_tuple("linalg_slogdet", ["sign", "logabsdet"])
_qr_result = named_tuple("linalg_qr", ["Q", "R"])
_eigh_result = named_tuple("linalg_eigh", ["eigenvalues", "eigenvectors"])
_svd_result = named_tuple("linalg_svd", ["U", "S", "Vh"])
_lstsq_result = named_tuple("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])


def _check_lapack(function, A, square=True):
    """PyTorch's checks of the input of a linear algebra function: matrices of float32 or float64."""
    if square:
        _check_square(function, A)
    elif A.dim() < 2:
        raise RuntimeError(f"{function}: The input tensor A must have at least 2 dimensions.")
    _check_floating(function, A, low_precision=False)
    if A.device.type != "cpu":
        raise NotImplementedError(f"{function}: wick computes it on the CPU only (LAPACK), not on {A.device}")


def _raise_for(function, A, info, message):
    """LinAlgError for the first matrix whose info is nonzero: message.format(info), after its place in the batch
    when A is a batch, as PyTorch's _linalg_check_errors."""
    for i, code in enumerate(info.reshape(-1).tolist()):
        if code != 0:
            where = f"(Batch element {i}): " if A.dim() > 2 else ""
            raise LinAlgError(f"{function}: {where}{message.format(code)}")


def inv(A, *, out=None):
    """inv(A, *, out=None) -> Tensor

    The inverse of each square matrix of A (float32 or float64, batched); LinAlgError (a RuntimeError) where one
    is singular.
    """
    A = _tensor("linalg_inv", "A", 1, A)
    _check_lapack("linalg.inv", A)
    result, info = _C._linalg_inv_ex(A)
    _raise_for("linalg.inv", A, info, "The diagonal element {} is zero, the inversion could not be completed "
                                      "because the input matrix is singular.")
    return _out("linalg_inv", result, out, (A,))


def _is_vector_rhs(A, B):
    """PyTorch's rule: B is a (batch of) vector(s) when 1-d, or when it has A's batch dims and one dim of size n."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def solve(A, B, *, left=True, out=None):
    """solve(A, B, *, left=True, out=None) -> Tensor

    The solution X of A @ X = B (left) or X @ A = B (not left), batched and broadcast; B may be a vector (or a
    batch of them). LinAlgError where A is singular.
    """
    A = _tensor("linalg_solve", "A", 1, A)
    B = _tensor("linalg_solve", "B", 2, B)
    left = _bool("linalg_solve", "left", None, left)
    _check_lapack("linalg.solve", A)
    _check_same_dtype("linalg.solve", A, B, ("A", "B"))
    vector = _is_vector_rhs(A, B)
    # A vector is a column, even for X A = B, which PyTorch 1.13 then refuses unless n is 1.
    matrix_b = B.unsqueeze(-1) if vector else B
    if matrix_b.dim() < 2 or (A.shape[-1] != matrix_b.shape[-2] if left else A.shape[-2] != matrix_b.shape[-1]):
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {equation} "
                           f"({A.shape[-2]}x{A.shape[-1]} and {matrix_b.shape[-2]}x{matrix_b.shape[-1]})")
    broadcast_shapes(A.shape[:-2], matrix_b.shape[:-2])
    if not left:  # X A = B is A^T X^T = B^T
        A, matrix_b = A.transpose(-2, -1), matrix_b.transpose(-2, -1)
    X, info = _C._linalg_solve_ex(A, matrix_b)
    _raise_for("torch.linalg.solve", A, info, "The solver failed because the input matrix is singular.")
    if not left:
        X = X.transpose(-2, -1)
    return _out("linalg_solve", X.squeeze(-1) if vector else X, out, (A, B))


def det(A, *, out=None):
    """det(A, *, out=None) -> Tensor

    The determinant of each square matrix of A.
    """
    A = _tensor("linalg_det", "A", 1, A)
    _check_lapack("linalg.det", A)
    return _out("linalg_det", _C.det(A), out, (A,))


def slogdet(A, *, out=None):
    """slogdet(A, *, out=None) -> (Tensor sign, Tensor logabsdet)

    The sign of the determinant of each square matrix of A, and the log of its absolute value.
    """
    A = _tensor("linalg_slogdet", "A", 1, A)
    _check_lapack("linalg.slogdet", A)
    return _out_fields("linalg_slogdet", _slogdet_result(*_C.slogdet(A)), out, (A,))


def cholesky(A, *, upper=False, out=None):
    """cholesky(A, *, upper=False, out=None) -> Tensor

    The lower triangular L with L @ L.mT == A (its transpose U when upper) of each symmetric positive-definite
    matrix of A, read from its lower triangle. LinAlgError where one is not positive-definite.
    """
    A = _tensor("linalg_cholesky", "A", 1, A)
    upper = _bool("linalg_cholesky", "upper", None, upper)
    _check_lapack("linalg.cholesky", A)
    L, info = _C._linalg_cholesky_ex(A)
    _raise_for("linalg.cholesky", A, info, "The factorization could not be completed because the input is not "
                                           "positive-definite (the leading minor of order {} is not "
                                           "positive-definite).")
    return _out("linalg_cholesky", L.transpose(-2, -1) if upper else L, out, (A,))


def qr(A, mode="reduced", *, out=None):
    """qr(A, mode='reduced', *, out=None) -> (Tensor Q, Tensor R)

    Q with orthonormal columns and upper triangular R with Q @ R == A: min(m, n) columns of Q and rows of R
    ('reduced'), Q square ('complete'), or R alone with Q empty ('r').
    """
    A = _tensor("linalg_qr", "A", 1, A)
    if not isinstance(mode, str):
        raise TypeError(f"linalg_qr(): argument 'mode' must be str, not {type(mode).__name__}")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    _check_lapack("linalg.qr", A, square=False)
    return _out_fields("linalg_qr", _qr_result(*_C._linalg_qr(A, mode)), out, (A,))


def _uplo(function, UPLO):
    if not isinstance(UPLO, str):
        raise TypeError(f"{function}(): argument 'UPLO' must be str, not {type(UPLO).__name__}")
    if UPLO.upper() not in ("L", "U") or len(UPLO) != 1:
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO.upper()


def eigh(A, UPLO="L", *, out=None):
    """eigh(A, UPLO='L', *, out=None) -> (Tensor eigenvalues, Tensor eigenvectors)

    The eigenvalues (ascending) and orthonormal eigenvectors (columns) of each symmetric matrix of A, read from
    its lower (UPLO='L') or upper ('U') triangle.
    """
    A = _tensor("linalg_eigh", "A", 1, A)
    UPLO = _uplo("linalg_eigh", UPLO)
    _check_lapack("linalg.eigh", A)
    return _out_fields("linalg_eigh", _eigh_result(*_C._linalg_eigh(A, UPLO, True)), out, (A,))


def eigvalsh(A, UPLO="L", *, out=None):
    """eigvalsh(A, UPLO='L', *, out=None) -> Tensor

    The eigenvalues of eigh(A, UPLO), ascending.
    """
    A = _tensor("linalg_eigvalsh", "A", 1, A)
    UPLO = _uplo("linalg_eigvalsh", UPLO)
    _check_lapack("linalg.eigh", A)  # PyTorch's messages name eigh
    return _out("linalg_eigvalsh", _C._linalg_eigh(A, UPLO, False)[0], out, (A,))


def _svd(function, A, full_matrices, compute_uv):
    """The (U, S, Vh) of _linalg_svd, with its failure on a matrix holding NaN as PyTorch's LinAlgError."""
    try:
        return _C._linalg_svd(A, full_matrices, compute_uv)
    except RuntimeError as e:
        message = str(e)
        if "failed to converge" not in message:
            raise
        raise LinAlgError(f"{function}: {message.split('(): ', 1)[-1]}") from None


def svd(A, full_matrices=True, *, out=None):
    """svd(A, full_matrices=True, *, out=None) -> (Tensor U, Tensor S, Tensor Vh)

    U @ diag(S) @ Vh == A for each matrix of A, S descending; U and Vh square when full_matrices, else of
    min(m, n) columns and rows.
    """
    A = _tensor("linalg_svd", "A", 1, A)
    full_matrices = _bool("linalg_svd", "full_matrices", None, full_matrices)
    _check_lapack("linalg.svd", A, square=False)
    return _out_fields("linalg_svd", _svd_result(*_svd("linalg.svd", A, full_matrices, True)), out, (A,))


def svdvals(A, *, out=None):
    """svdvals(A, *, out=None) -> Tensor

    The singular values of each matrix of A, descending.
    """
    A = _tensor("linalg_svdvals", "A", 1, A)
    _check_lapack("linalg.svd", A, square=False)
    return _out("linalg_svdvals", _svd("linalg.svd", A, False, False)[1], out, (A,))


def _eps(dtype):
    """The machine epsilon of float32 or float64."""
    return 2.0 ** -23 if dtype == _C.float32 else 2.0 ** -52


def _tolerances(A, atol, rtol):
    """(atol, rtol) of pinv and matrix_rank as floats: rtol defaults to eps * max(m, n) when atol is None or 0."""
    if rtol is None and (atol is None or atol == 0):
        rtol = _eps(A.dtype) * max(A.shape[-2], A.shape[-1])
    return 0.0 if atol is None else float(atol), 0.0 if rtol is None else float(rtol)


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """pinv(A, *, atol=None, rtol=None, hermitian=False, out=None) -> Tensor

    The pseudo-inverse of each matrix of A, from its SVD (from eigh when hermitian): singular values at most
    max(atol, rtol * the largest) count as zero; rtol defaults to eps * max(m, n) when atol is None or 0.
    """
    A = _tensor("linalg_pinv", "A", 1, A)
    hermitian = _bool("linalg_pinv", "hermitian", None, hermitian)
    _check_lapack("linalg.pinv", A, square=hermitian)
    atol, rtol = _tolerances(A, atol, rtol)
    return _out("linalg_pinv", _pinv(A, atol, rtol, hermitian), out, (A,), _castable("linalg.pinv"), castable=True)


def _pinv(A, atol, rtol, hermitian):
    """The pseudo-inverse of each matrix of A, as pinv computes it."""
    if A.numel() == 0:
        return _C.zeros([*A.shape[:-2], A.shape[-1], A.shape[-2]], dtype=A.dtype)
    if hermitian:
        values, vectors = _C._linalg_eigh(A, "L", True)
        magnitude = values.abs()
        tol = (magnitude.amax(-1, True) * rtol).clamp_min(atol)
        inverse = _C.where(magnitude > tol, values.reciprocal(), _C.zeros_like(values))
        return (vectors * inverse.unsqueeze(-2)).matmul(vectors.transpose(-2, -1))
    U, S, Vh = _svd("linalg.pinv", A, False, True)
    tol = (S.narrow(-1, 0, 1) * rtol).clamp_min(atol)
    inverse = _C.where(S > tol, S.reciprocal(), _C.zeros_like(S))
    return (Vh.transpose(-2, -1) * inverse.unsqueeze(-2)).matmul(U.transpose(-2, -1))


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None) -> Tensor

    The number of singular values (eigenvalue magnitudes when hermitian) of each matrix of A above
    max(atol, rtol * the largest), as int64; rtol defaults to eps * max(m, n) when atol is None or 0.
    """
    A = _tensor("linalg_matrix_rank", "A", 1, A)
    hermitian = _bool("linalg_matrix_rank", "hermitian", None, hermitian)
    _check_lapack("linalg.matrix_rank", A, square=hermitian)
    # An integer result, which autograd does not record: out= takes inputs that require grad.
    return _out("linalg_matrix_rank", _rank(A, *_tolerances(A, atol, rtol), hermitian), out, (),
                _castable("torch.linalg.matrix_rank"), castable=True)


def _rank(A, atol, rtol, hermitian):
    """The rank of each matrix of A, as matrix_rank computes it."""
    s = _C._linalg_eigh(A, "L", False)[0].abs() if hermitian else _svd("linalg.matrix_rank", A, False, False)[1]
    if s.shape[-1] == 0:
        return _C.zeros(list(s.shape[:-1]), dtype=_C.int64)
    tol = (s.amax(-1, True) * rtol).clamp_min(atol)
    return (s > tol).sum(-1)


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A, B, rcond=None, *, driver=None, out=None):
    """lstsq(A, B, rcond=None, *, driver=None, out=None) -> (Tensor solution, Tensor residuals, Tensor rank,
    Tensor singular_values)

    The least-squares solution X of A @ X = B, from the SVD of A (as LAPACK's gelsd): singular values at most
    rcond (default: eps * max(m, n)) times the largest count as zero. residuals (the squared norms of the
    columns of A @ X - B, when m > n and A has full rank), rank and singular_values are filled as PyTorch fills
    them for driver (default 'gelsy', which gives rank alone).
    """
    A = _tensor("linalg_lstsq", "A", 1, A)
    B = _tensor("linalg_lstsq", "B", 2, B)
    if driver is not None and driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    driver = driver or "gelsy"
    if A.dtype not in (_C.float32, _C.float64) or B.dtype not in (_C.float32, _C.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    _check_lapack("torch.linalg.lstsq", A, square=False)
    if A.dtype != B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
                           f"input's dtype {_scalar_type(A.dtype)} and other's dtype {_scalar_type(B.dtype)}")
    vector = B.dim() == A.dim() - 1
    matrix_b = B.unsqueeze(-1) if vector else B
    if matrix_b.dim() < 2 or matrix_b.shape[-2] != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = A.shape[-2], A.shape[-1]
    rcond = _eps(A.dtype) * max(m, n) if rcond is None else float(rcond)
    U, S, Vh = _svd("torch.linalg.lstsq", A, False, True)
    if S.shape[-1]:
        keep = S > S.narrow(-1, 0, 1) * rcond
        inverse = _C.where(keep, S.reciprocal(), _C.zeros_like(S))
        X = (Vh.transpose(-2, -1) * inverse.unsqueeze(-2)).matmul(U.transpose(-2, -1).matmul(matrix_b))
        rank = keep.sum(-1)
    else:
        X = _C.zeros([*broadcast_shapes(A.shape[:-2], matrix_b.shape[:-2]), n, matrix_b.shape[-1]], dtype=A.dtype)
        rank = _C.zeros(list(S.shape[:-1]), dtype=_C.int64)
    residuals = _C.zeros(0, dtype=A.dtype)
    if m > n and driver != "gelsy" and (driver == "gels" or bool((rank == n).all())):
        residuals = (A.matmul(X) - matrix_b).square().sum(-2)
    if driver == "gels":
        rank = _C.zeros(0, dtype=_C.int64)
    singular_values = S if driver in ("gelsd", "gelss") else _C.zeros(0, dtype=A.dtype)
    return _out_fields("linalg_lstsq", _lstsq_result(X.squeeze(-1) if vector else X, residuals, rank, singular_values),
                       out, (A, B), castable_in="torch.linalg.lstsq")
