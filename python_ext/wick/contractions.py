"""wick.contractions: tensor contractions composed of declared ops: einsum, tensordot, kron, inner, trace, cdist and
chained products, as PyTorch's functions of the same names. Two operands meet in one matrix product (bmm or mm) of
permuted and reshaped views, so autograd sees through each of them. Also the linear algebra PyTorch has outside
torch.linalg: svd and matrix_power."""
import functools
import math
import string
import warnings

from wick import _C, linalg
from wick._arguments import (_argument_error, _bool, _float, _int, _int_list, _scalar_type, _tensor, _tensor_list,
                             _wrap_dim, _written_fields)
from wick.functional import broadcast_shapes
from wick.linalg import _check_product
from wick.return_types import named_tuple

__all__ = ["einsum", "tensordot", "kron", "inner", "trace", "cdist", "chain_matmul", "cross", "svd", "matrix_power"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS: tuple = ("kron", "inner", "trace", "cross", "svd", "matrix_power")


@functools.lru_cache(maxsize=None)
def _warn_once(message):
    """A UserWarning at the caller's caller, once per process, as PyTorch's TORCH_WARN_ONCE."""
    warnings.warn(message, UserWarning, stacklevel=3)


# einsum.
#
# Note [einsum as PyTorch computes it]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The labels are numbered A-Z as 0-25 and a-z as 26-51 (the numbers of the sublist form); an implicit output is the
# ellipsis dims, then the labels that appear once, in that order. Every operand becomes a view with one dim per
# "position": the output's dims, then the ellipsis dims if the output lacks them, then the other labels, each of
# size 1 where the operand lacks it; a label repeated in one operand is its diagonal. The operands are then folded
# left to right: a dim that no later operand has is summed out of one operand at once, or out of the product of
# two, which is one bmm (PyTorch's sumproduct_pair). Following PyTorch step by step gives its result dtypes (a sum
# of integers is int64) and its errors (two dtypes in one bmm).

_LABELS = string.ascii_uppercase + string.ascii_lowercase
_ELLIPSIS = len(_LABELS)


def _sublist_subscripts(sublist):
    """One operand's subscripts of the sublist form (ints in [0, 52) and Ellipsis) as equation text."""
    def letter(n):
        if n is Ellipsis:
            return "..."
        if not 0 <= n < _ELLIPSIS:
            raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return _LABELS[n]
    return "".join(letter(n) for n in sublist)


def _tokens(side, offset, separators):
    """(index, token) for the subscripts of one side of an equation, spaces skipped: a label's number, _ELLIPSIS
    for '...', None for a '.' that starts no ellipsis, or a separator."""
    i = 0
    while i < len(side):
        char = side[i]
        if char == ".":
            whole = side.startswith("...", i)
            yield i, _ELLIPSIS if whole else None
            i += 2 if whole else 0
        elif char in separators:
            yield i, char
        elif char != " ":
            if char not in _LABELS:
                raise RuntimeError(f"einsum(): invalid subscript given at index {offset + i} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
            yield i, _LABELS.index(char)
        i += 1


def _operand_labels(lhs, count):
    """The labels of each operand's dims (_ELLIPSIS for its ellipsis), from the left side of the equation."""
    labels = [[]]
    for _, token in _tokens(lhs, 0, ","):
        if token == ",":
            if len(labels) == count:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            labels.append([])
        elif token is None or token == _ELLIPSIS:
            if _ELLIPSIS in labels[-1]:
                raise RuntimeError(f"einsum(): found '.' for operand {len(labels) - 1} for which an ellipsis was "
                                   "already found")
            if token is None:
                raise RuntimeError(f"einsum(): found '.' for operand {len(labels) - 1} that is not part of any "
                                   "ellipsis")
            labels[-1].append(_ELLIPSIS)
        else:
            labels[-1].append(token)
    if len(labels) != count:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return labels


def _label_counts(operands, labels):
    """How many operands have each label, and the most dims that an ellipsis covers; checks each operand's dims
    against its labels."""
    counts = [0] * _ELLIPSIS
    ellipsis_dims = 0
    for i, (operand, own) in enumerate(zip(operands, labels)):
        named = len(own) - own.count(_ELLIPSIS)
        for label in own:
            if label != _ELLIPSIS:
                counts[label] += 1
        if _ELLIPSIS in own and named <= operand.dim():
            ellipsis_dims = max(ellipsis_dims, operand.dim() - named)
        elif _ELLIPSIS in own or named != operand.dim():
            how = "is more than" if _ELLIPSIS in own else "does not match"
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) {how} the number of "
                               f"dimensions ({operand.dim()}) for operand {i}"
                               + ("" if _ELLIPSIS in own else " and no ellipsis was given"))
    return counts, ellipsis_dims


def _positions(equation, arrow, counts, ellipsis_dims):
    """The position of each label (-1 where unused), where the ellipsis dims start, the number of the output's
    dims and that of all positions."""
    position = [-1] * _ELLIPSIS
    ellipsis_at = None
    size = 0
    if arrow < 0:
        ellipsis_at, size = 0, ellipsis_dims
        for label in range(_ELLIPSIS):
            if counts[label] == 1:
                position[label], size = size, size + 1
    else:
        for i, token in _tokens(equation[arrow + 2:], arrow + 2, ()):
            if token is None or token == _ELLIPSIS:
                if ellipsis_at is not None:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if token is None:
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                ellipsis_at, size = size, size + ellipsis_dims
            elif counts[token] == 0 or position[token] >= 0:
                why = "appears more than once in the output" if position[token] >= 0 else \
                    "does not appear in the equation for any input operand"
                raise RuntimeError(f"einsum(): output subscript {_LABELS[token]} {why}")
            else:
                position[token], size = size, size + 1
    out_size, total = size, size
    if ellipsis_at is None:
        ellipsis_at, total = total, total + ellipsis_dims
    for label in range(_ELLIPSIS):
        if counts[label] and position[label] < 0:
            position[label], total = total, total + 1
    return position, ellipsis_at, out_size, total


def _aligned(index, operand, labels, place, sizes, counts):
    """The operand as a view with a dim per position (see Note [einsum as PyTorch computes it]); place gives the
    positions of a label or of the ellipsis. Checks the sizes against those seen before (sizes, by position) and
    counts the operands in which each position has a size other than 1."""
    order = [-1] * len(sizes)
    covered = operand.dim() - len(labels) + 1  # dims under the ellipsis, if there is one
    dim = 0
    for label in labels:
        if label != _ELLIPSIS and order[place[label]] >= 0:
            first = order[place[label]]
            if operand.shape[dim] != operand.shape[first]:
                raise RuntimeError(f"einsum(): subscript {_LABELS[label]} is repeated for operand {index} but the "
                                   f"sizes don't match, {operand.shape[dim]} != {operand.shape[first]}")
            operand = operand.diagonal(0, first, dim).movedim(-1, first)
            continue
        # The ellipsis dims of an operand with fewer of them than another are the last ones (they broadcast).
        targets = place[label][len(place[label]) - covered:] if label == _ELLIPSIS else [place[label]]
        for p in targets:
            size = operand.shape[dim]
            if size != 1:
                if sizes[p] not in (1, size):
                    raise RuntimeError(
                        f"einsum(): dimension {dim} covered by ellipsis in operand {index}has size {size} which does "
                        f"not broadcast with previously seen ellipsis with size {sizes[p]} for the respective dimension"
                        if label == _ELLIPSIS else
                        f"einsum(): subscript {_LABELS[label]} has size {size} for operand {index} which does not "
                        f"broadcast with previously seen size {sizes[p]}")
                sizes[p] = size
                counts[p] += 1
            order[p] = dim
            dim += 1
    for p, d in enumerate(order):
        if d < 0:
            operand = operand.unsqueeze(dim)
            order[p], dim = dim, dim + 1
    return operand.permute(order)


def _sumproduct_pair(left, right, summed):
    """left * right summed over the dims summed (kept as size 1), which both have with sizes other than 1: one bmm
    whose batch is the dims both have, its rows those only left has and its columns those only right has."""
    if not summed:
        return _C.mul(left, right)
    _check_product("bmm", left, right)
    both, left_only, right_only = [], [], []
    for d in range(left.dim()):
        if d not in summed:
            in_left, in_right = left.shape[d] != 1, right.shape[d] != 1
            (both if in_left and in_right else left_only if in_left else right_only).append(d)

    def extent(tensor, dims):
        return math.prod(tensor.shape[d] for d in dims)
    batch, rows, inner, columns = extent(left, both), extent(left, left_only), extent(left, summed), \
        extent(right, right_only)
    product = _C.bmm(left.permute(both + left_only + summed + right_only).reshape([batch, rows, inner]),
                     right.permute(both + summed + right_only + left_only).reshape([batch, inner, columns]))
    order = both + left_only + summed + right_only
    shape = [left.shape[d] for d in both + left_only] + [1] * len(summed) + [right.shape[d] for d in right_only]
    return product.reshape(shape).permute(sorted(range(len(order)), key=order.__getitem__))


def _contract(operands, out_size, counts):
    """The aligned operands multiplied left to right, each position beyond the output summed out as soon as no
    later operand has it, and then dropped."""
    result = operands[0]
    for operand in operands[1:]:
        summed, own = [], ([], [])
        for p in range(out_size, len(counts)):
            if result.shape[p] != 1 and operand.shape[p] != 1:
                counts[p] -= 1
                if counts[p] == 1:
                    summed.append(p)
                    counts[p] = 0
            elif counts[p] == 1 and (result.shape[p] != 1 or operand.shape[p] != 1):
                own[result.shape[p] == 1].append(p)
                counts[p] = 0
        result, operand = (t.sum(dims, keepdim=True) if dims else t for t, dims in zip((result, operand), own))
        result = _sumproduct_pair(result, operand, summed)
    if len(counts) == out_size:
        return result
    if len(operands) == 1:
        return result.sum(list(range(out_size, len(counts))))
    return result.reshape(result.shape[:out_size])


def einsum(*args):
    """einsum(equation, *operands) -> Tensor

    Sums the products of the operands' elements over the labels that the equation leaves out of the output, as
    PyTorch's einsum: 'ij,jk->ik' is a matrix product, 'ii' a trace, '...' stands for dims not named, and without
    '->' the output is the labels that appear once, in alphabetical order (upper case first). The operands may be
    one list, and the sublist form einsum(a, [0, 1], b, [1, 2], [0, 2]) numbers labels 0-51 (Ellipsis for '...').
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    if isinstance(args[0], _C.TensorBase):
        equation = ",".join(_sublist_subscripts(sublist) for sublist in args[1::2])
        if len(args) % 2:
            equation += "->" + _sublist_subscripts(args[-1])
        operands = args[:-1:2] if len(args) % 2 else args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):  # PyTorch's older form: one list
        operands = tuple(operands[0])
        if not operands:
            return einsum(equation)  # PyTorch's message for no operands
    if not isinstance(equation, str):
        raise _argument_error("einsum", "equation", 1, "str", equation)
    operands = _tensor_list(1, operands)
    equation = equation.encode().decode("latin-1")  # PyTorch counts the indices in its messages in bytes
    arrow = equation.find("->")
    labels = _operand_labels(equation if arrow < 0 else equation[:arrow], len(operands))

    counts, ellipsis_dims = _label_counts(operands, labels)
    position, ellipsis_at, out_size, total = _positions(equation, arrow, counts, ellipsis_dims)
    place = position + [list(range(ellipsis_at, ellipsis_at + ellipsis_dims))]
    sizes, present = [1] * total, [0] * total
    aligned = [_aligned(i, op, own, place, sizes, present) for i, (op, own) in enumerate(zip(operands, labels))]
    return _contract(aligned, out_size, present)


# Products of pairs.

def _tensordot_dims(dims):
    """The dims of tensordot as two lists, from an int n (the last n of a and the first n of b), a pair of lists,
    or a tensor holding either."""
    if not isinstance(dims, (tuple, list, _C.TensorBase, int)):
        raise RuntimeError("tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] "
                           f"containing two lists, but got dims={dims}")
    if isinstance(dims, _C.TensorBase) and dims.numel() > 1:
        if dims.shape[0] != 2:
            raise RuntimeError(f"tensordot expects a tensor of dims of two rows, but got shape {list(dims.shape)}")
        dims = (dims[0].tolist(), dims[1].tolist())
    elif isinstance(dims, _C.TensorBase):
        dims = int(dims.item())
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        return range(-dims, 0), range(dims)  # ranges: a huge n fails at its first dim, allocating nothing
    dims_a, dims_b = dims
    return _int_list("tensordot", "dims_self", 3, dims_a), _int_list("tensordot", "dims_other", 4, dims_b)


def _unique_dims(dims, ndim):
    wrapped = [_wrap_dim(d, ndim) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return wrapped


def tensordot(a, b, dims=2):
    """tensordot(a, b, dims=2) -> Tensor

    The sum of products of a and b over pairs of their dims: the last dims of a with the first of b (dims an int),
    or dims[0] of a with dims[1] of b. The dims of a left over come first in the result, then those of b. A
    contracted dim of size 1 broadcasts against the other's.
    """
    a = _tensor("tensordot", "input", 1, a)
    b = _tensor("tensordot", "other", 2, b)
    dims_a, dims_b = _tensordot_dims(dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    contracted = 1
    left, right = a, b
    for da, db in zip(dims_a, dims_b):
        sa, sb = a.shape[_wrap_dim(da, a.dim())], b.shape[_wrap_dim(db, b.dim())]
        if sb == 1:
            left = left.sum(da, keepdim=True)
        elif sa == 1:
            right = right.sum(db, keepdim=True)
        elif sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} in dim {da} and second "
                               f"has size {sb} in dim {db}")
        else:
            contracted *= sa
    dims_a, dims_b = _unique_dims(dims_a, a.dim()), _unique_dims(dims_b, b.dim())
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    left = left.permute(free_a + dims_a).reshape([math.prod(shape[:len(free_a)]), contracted])
    right = right.permute(dims_b + free_b).reshape([contracted, math.prod(shape[len(free_a):])])
    _check_product("addmm_impl_cpu_", left, right)
    return _C.mm(left, right).reshape(shape)


def kron(input, other):
    """kron(input, other) -> Tensor

    The Kronecker product: the blocks input[i] * other, laid out as input's elements (the one with fewer dims
    takes leading dims of size 1). Its dtype is the promoted one of both, as their product.
    """
    input = _tensor("kron", "input", 1, input)
    other = _tensor("kron", "other", 2, other)
    ndim = max(input.dim(), other.dim())
    a_shape = [1] * (ndim - input.dim()) + list(input.shape)
    b_shape = [1] * (ndim - other.dim()) + list(other.shape)
    spread_a = input.reshape([s for size in a_shape for s in (size, 1)])
    spread_b = other.reshape([s for size in b_shape for s in (1, size)])
    return _C.mul(spread_a, spread_b).reshape([m * n for m, n in zip(a_shape, b_shape)])


def inner(input, other):
    """inner(input, other) -> Tensor

    The dot products of the last dims of input and other, over every pair of their other indices (the dims of
    input's come first); a 0-d operand multiplies the other.
    """
    input = _tensor("inner", "input", 1, input)
    other = _tensor("inner", "other", 2, other)
    if input.dim() == 0 or other.dim() == 0:
        return _C.mul(input, other)
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]))


def trace(input):
    """trace(input) -> Tensor

    The sum of the main diagonal of a 2-d tensor; integer and bool sums are int64, as sum's.
    """
    input = _tensor("trace", "input", 1, input)
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    return input.diagonal().sum()


# Distances and chains.

# compute_mode of cdist: whether a p=2 distance goes through a matrix product (None: only past 25 rows).
_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": True,
                "donot_use_mm_for_euclid_dist": False}


def _euclidean_dist(x1, x2):
    """The 2-norm distances as PyTorch's _euclidean_dist: |x1|^2 - 2 x1.x2 + |x2|^2 in one matmul (fast, but
    cancellation makes near distances inexact), clamped at 0."""
    x1_norm = x1.pow(2).sum(-1, keepdim=True)
    x2_norm = x2.pow(2).sum(-1, keepdim=True)
    x1_ = _C.cat([x1.mul(-2), x1_norm, _C.ones_like(x1_norm)], -1)
    x2_ = _C.cat([x2, _C.ones_like(x2_norm), x2_norm], -1)
    return x1_.matmul(x2_.mT).clamp_min(0).sqrt()


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor

    The p-norm distances between each row of x1 (..., r1, c) and each row of x2 (..., r2, c): a (..., r1, r2)
    tensor, the batch dims broadcast. For p=2 the matrix-product expansion is used where compute_mode says (by
    default past 25 rows), else the norms of the differences. Floating inputs of one dtype; p >= 0.
    """
    if not isinstance(compute_mode, str) or compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    x1 = _tensor("cdist", "x1", 1, x1)
    x2 = _tensor("cdist", "x2", 2, x2)
    p = _float("cdist", "p", 3, p)
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_scalar_type(x.dtype)}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    if x1.numel() and x2.numel():
        _check_product("cdist", x1, x2)
    else:  # nothing to compute: PyTorch checks no dtypes and gives x1's
        x2 = x2.to(x1.dtype)
    use_mm = _CDIST_MODES[compute_mode]
    if use_mm is None:
        use_mm = max(x1.shape[-2], x2.shape[-2]) > 25
    if p == 2 and use_mm and x1.numel() and x2.numel():
        return _euclidean_dist(x1, x2)
    return _C.norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, [-1])


def chain_matmul(*matrices):
    """chain_matmul(*matrices) -> Tensor

    The product of one or more 2-d tensors, as linalg.multi_dot (in the order that costs least); one is copied.
    Deprecated in PyTorch in favour of linalg.multi_dot, with a warning once per process.
    """
    matrices = _tensor_list(0, matrices)
    _warn_once("wick.chain_matmul is deprecated and will be removed in a future release. Use wick.linalg.multi_dot "
               "instead, which accepts a list of two or more tensors rather than multiple parameters.")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    return matrices[0].clone() if len(matrices) == 1 else linalg.multi_dot(matrices)


def cross(input, other, dim=None):
    """cross(input, other, dim=None) -> Tensor

    The cross product of the 3-vectors along dim of input and other, as linalg.cross; when dim is None it is the
    first dim of input whose size is 3 (PyTorch 1.13's default, which linalg.cross's dim=-1 will replace).
    """
    input = _tensor("cross", "input", 1, input)
    other = _tensor("cross", "other", 2, other)
    if dim is None:
        dim = next((d for d, size in enumerate(input.shape) if size == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    dim = _int("cross", "dim", 3, dim)
    return linalg.cross(input, other, dim=dim)


_svd = named_tuple("svd", ("U", "S", "V"))


def svd(input, some=True, compute_uv=True, *, out=None):
    """svd(input, some=True, compute_uv=True, *, out=None) -> (Tensor U, Tensor S, Tensor V)

    torch.svd: U @ diag(S) @ V.mT == input for each matrix of input, S descending, with V rather than its
    transpose (prefer linalg.svd); U and V square unless some; without compute_uv, square matrices of zeros."""
    input = _tensor("svd", "input", 1, input)
    some, compute_uv = _bool("svd", "some", 2, some), _bool("svd", "compute_uv", 3, compute_uv)
    return _written_fields("svd", _svd(*_C._svd(input, some, compute_uv)), out, input)


def matrix_power(input, n):
    """matrix_power(input, n) -> Tensor: linalg.matrix_power."""
    return linalg.matrix_power(input, n)
