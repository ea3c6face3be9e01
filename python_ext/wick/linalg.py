"""wick.linalg: PyTorch's torch.linalg namespace, composed of declared ops: vector and matrix norms, cross and dot
products of batches of vectors, matrix powers and chained matrix products.

Norms that need singular values (matrix_norm's ord 2, -2 and 'nuc') and negative matrix powers (which need the
inverse) raise NotImplementedError: wick has no SVD or inverse yet.
"""
import ctypes
import math
import operator

from wick import _C
from wick._arguments import (_bool, _dtype, _int, _int_list, _is_int, _number, _scalar_type, _tensor, _tensor_sequence,
                             _wrap_dim)
from wick.functional import broadcast_shapes
from wick.type_info import promote_types

__all__ = ["vector_norm", "matrix_norm", "norm", "cross", "vecdot", "matrix_power", "multi_dot"]

# The C++ names of the dtypes, which multi_dot's message uses.
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


# Checks that PyTorch's linear algebra functions share.

def _check_floating(function, tensor, low_precision=True):
    if not tensor.dtype.is_floating_point:
        raise RuntimeError(f"{function}: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_type(tensor.dtype)}")
    if not low_precision and tensor.dtype in (_C.float16, _C.bfloat16):
        raise RuntimeError(f"{function}: Low precision dtypes not supported. Got {_scalar_type(tensor.dtype)}")


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

def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None):
    """vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None) -> Tensor

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
    return _C.norm(x, ctypes.c_float(float(ord)).value, dims, keepdim)


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


def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """matrix_norm(input, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None) -> Tensor

    The matrix norm of the matrices in dims dim of input: 'fro' (the square root of the sum of squares), 1 or -1
    (the largest or smallest column sum of magnitudes), inf or -inf (the same of rows). 'nuc', 2 and -2 are
    functions of the singular values, which wick cannot compute yet: they raise NotImplementedError.
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
    if ord == "fro":
        return vector_norm(input, 2, (first, second), keepdim, dtype=dtype)
    if needs_svd:
        raise NotImplementedError(f"linalg.matrix_norm: ord={ord!r} needs the singular values (an SVD), which wick "
                                  "cannot compute yet")
    # The 1-norm is the largest column sum of magnitudes, the inf-norm that of the transpose.
    if ord in (math.inf, -math.inf):
        first, second = second, first
    sums = vector_norm(input, 1, first, keepdim, dtype=dtype)
    second -= 1 if not keepdim and first < second else 0
    return sums.amax(second, keepdim) if ord > 0 else sums.amin(second, keepdim)


def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None):
    """norm(input, ord=None, dim=None, keepdim=False, *, dtype=None) -> Tensor

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
        return matrix_norm(input, ord, dims if dims is not None else [0, 1], keepdim, dtype=dtype)
    return vector_norm(input, 2 if ord is None else ord, dims, keepdim, dtype=dtype)


# Products.

def cross(input, other, *, dim=-1):
    """cross(input, other, *, dim=-1) -> Tensor

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
    return next_a * last_b - last_a * next_b


def vecdot(x, y, *, dim=-1):
    """vecdot(x, y, *, dim=-1) -> Tensor

    The dot products of the vectors along dim of x and y (broadcast together): (x * y).sum(dim). Floating inputs of
    one dtype only, as PyTorch 1.13.
    """
    x = _tensor("linalg_vecdot", "x", 1, x)
    y = _tensor("linalg_vecdot", "y", 2, y)
    dim = _int("linalg_vecdot", "dim", None, dim)
    _check_floating("linalg.vecdot", x)
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{_scalar_type(x.dtype)} and y of type {_scalar_type(y.dtype)} instead")
    return (x * y).sum(dim)


def matrix_power(input, n):
    """matrix_power(input, n) -> Tensor

    The n-th power of the square matrix (or batch of them) input, for n >= 0: the identity for 0, else products of
    repeated squares. A negative n needs the inverse, which wick cannot compute yet: NotImplementedError.
    """
    input = _tensor("linalg_matrix_power", "input", 1, input)
    n = _int("linalg_matrix_power", "n", 2, n)
    _check_square("linalg.matrix_power", input)
    if n < 0:
        _check_floating("linalg.inv", input)
        raise NotImplementedError("linalg.matrix_power: a negative power needs the matrix inverse (linalg.inv), "
                                  "which wick cannot compute yet")
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


def multi_dot(tensors):
    """multi_dot(tensors) -> Tensor

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
    return _chain_product(matrices, split, 0, len(matrices) - 1).reshape(out_shape)
