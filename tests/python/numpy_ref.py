"""NumPy references with PyTorch's semantics, for the ops whose `numpy:` line names a function here.

Each function takes the op's parameters by name (tensors as NumPy arrays, the half types
in float32; dtype= as a NumPy dtype) and returns the expected result. Where NumPy is more
lenient than PyTorch (a dim out of range, a matrix product of 0-d tensors), it raises, so
that the generated test expects wick to raise too; where PyTorch is more lenient (the dims
0 and -1 of a 0-d tensor), it follows PyTorch.
"""
import builtins
import contextlib
import contextvars
import math
import numbers

import numpy as np


class Tagged(np.ndarray):
    """An array whose wick dtype is not the one NumPy computes in (float32 standing for bfloat16)."""
    wick_dtype: str


def tagged(a, wick_dtype):
    a = np.asarray(a).view(Tagged)
    a.wick_dtype = wick_dtype
    return a


# --- the half types -----------------------------------------------------------------------------------

# The wick dtype of the tensors of the call a reference judges (opcheck sets it around each call), for
# the few references that round as the half types do: float16 and bfloat16 values come as float32.
_tensor_dtype = contextvars.ContextVar("tensor_dtype", default=None)


@contextlib.contextmanager
def tensors_of(dtype_name):
    """References called inside hold tensors of wick's `dtype_name` (float32 arrays for the half types)."""
    token = _tensor_dtype.set(dtype_name)
    try:
        yield
    finally:
        _tensor_dtype.reset(token)


def _half_dtype():
    """"float16" or "bfloat16" where the float32 arrays a reference is given stand for one, else None."""
    name = _tensor_dtype.get()
    return name if name in ("float16", "bfloat16") else None


def _round_half(a, half):
    """float32 values rounded to `half` (to nearest, ties to even, as a float32 result is stored in it
    by wick and PyTorch), as float32 again: how the tests hold half values."""
    a = np.asarray(a, dtype=np.float32)
    if half == "float16":
        with np.errstate(over="ignore"):
            return a.astype(np.float16).astype(np.float32)
    bits = a.view(np.uint32)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    rounded = ((bits + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(a), a, rounded).astype(np.float32)


# --- dims -------------------------------------------------------------------------------------------

def _dim(d, ndim):
    """A PyTorch dim as an index in [0, ndim); a 0-d tensor has the dims 0 and -1."""
    n = ndim or 1
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def _dims(dim, ndim):
    """The dims of an `int[]? dim` as a tuple for NumPy's axis; None (every dim) for None and []."""
    if dim is None:
        return None
    dims = [_dim(d, ndim) for d in ([dim] if isinstance(dim, int) else dim)]
    if len(set(dims)) != len(dims):
        raise ValueError("dim appears multiple times in the list of dims")
    return tuple(dims) if dims and ndim else None


def _wide(a, dtype=None):
    """What sum, prod and the scans accumulate in: dtype= (cast to first), else int64 for integers."""
    if dtype is not None:
        return a.astype(dtype)
    return a.astype(np.int64) if a.dtype.kind in "biu" else a


def _reduce(fn, a, dim, keepdim, **kw):
    return np.asarray(fn(a, axis=_dims(dim, a.ndim), keepdims=keepdim, **kw))


# --- reductions -------------------------------------------------------------------------------------

def sum(self, dim=None, keepdim=False, dtype=None):
    a = _wide(self, dtype)
    return _reduce(np.sum, a, dim, keepdim, dtype=a.dtype)


def prod(self, dim=None, keepdim=False, dtype=None):
    a = _wide(self, dtype)
    return _reduce(np.prod, a, dim, keepdim, dtype=a.dtype)


def mean(self, dim=None, keepdim=False, dtype=None):
    return _reduce(np.mean, _wide(self, dtype), dim, keepdim)


def _ddof(correction, unbiased):
    """NumPy's ddof for PyTorch's correction (default 1), or its older unbiased (True is 1)."""
    return int(unbiased) if unbiased is not None else 1 if correction is None else correction


def var(self, dim=None, correction=None, keepdim=False, unbiased=None):
    return _reduce(np.var, self, dim, keepdim, ddof=_ddof(correction, unbiased))


def std(self, dim=None, correction=None, keepdim=False, unbiased=None):
    return _reduce(np.std, self, dim, keepdim, ddof=_ddof(correction, unbiased))


def amax(self, dim=None, keepdim=False):
    return _reduce(np.amax, self, dim, keepdim)


def amin(self, dim=None, keepdim=False):
    return _reduce(np.amin, self, dim, keepdim)


def _arg(fn, a, dim, keepdim):
    if dim is None and a.size == 0:
        raise ValueError("Expected reduction dim to be specified for input.numel() == 0")
    if dim is None:
        index = np.int64(fn(a))
        return np.full((1,) * a.ndim if keepdim else (), index)
    d = _dim(dim, a.ndim)
    return np.asarray(fn(a, axis=d, keepdims=keepdim) if a.ndim else np.int64(0))


def argmax(self, dim=None, keepdim=False):
    return _arg(np.argmax, self, dim, keepdim)


def argmin(self, dim=None, keepdim=False):
    return _arg(np.argmin, self, dim, keepdim)


def _extreme(a, dim, keepdim, other, fn, arg, pairwise):
    """max and min: of every element; along dim, with the index of the first (NaN propagates, and
    NumPy's arg functions find the first NaN); or elementwise with `other`."""
    if other is not None:
        return pairwise(a, other)
    if dim is None:
        if a.size == 0:
            raise RuntimeError("Expected reduction dim to be specified for input.numel() == 0")
        return fn(a)
    return _reduce(fn, a, dim, keepdim), _arg(arg, a, dim, keepdim)


def max(self, dim=None, keepdim=False, other=None):
    return _extreme(self, dim, keepdim, other, np.amax, np.argmax, np.maximum)


def min(self, dim=None, keepdim=False, other=None):
    return _extreme(self, dim, keepdim, other, np.amin, np.argmin, np.minimum)


def _all_any(fn, a, dim, keepdim):
    r = _reduce(fn, a, dim, keepdim)
    return r.astype(np.uint8) if a.dtype == np.uint8 else r  # as PyTorch 1.13


def all(self, dim=None, keepdim=False):
    return _all_any(np.all, self, dim, keepdim)


def any(self, dim=None, keepdim=False):
    return _all_any(np.any, self, dim, keepdim)


def norm(self, p=2, dim=None, keepdim=False):
    m = np.abs(self.astype(np.float64))
    if p == math.inf:
        r = _reduce(np.amax, m, dim, keepdim, initial=0.0)
    elif p == -math.inf:  # 0 for no elements, as PyTorch gives it
        r = _reduce(np.amin, m, dim, keepdim, initial=math.inf) if m.size else _reduce(np.sum, m, dim, keepdim)
    elif p == 0:
        r = _reduce(np.sum, (m != 0).astype(np.float64), dim, keepdim)
    else:
        r = _reduce(np.sum, m ** p, dim, keepdim) ** (1.0 / p)
    return r.astype(self.dtype)


def logsumexp(self, dim, keepdim=False):
    r = np.log(_reduce(np.sum, np.exp(self.astype(np.float64)), dim, keepdim))  # -inf for no elements
    return r.astype(self.dtype if self.dtype.kind == "f" else np.float32)


def _scan(fn, a, dim, dtype):
    a = _wide(a, dtype)
    return fn(a, axis=_dim(dim, a.ndim)) if a.ndim else a


def cumsum(self, dim, dtype=None):
    return _scan(np.cumsum, self, dim, dtype)


def cumprod(self, dim, dtype=None):
    return _scan(np.cumprod, self, dim, dtype)


# --- sorting and selection (Note [Tied indices] in opcheck.py) --------------------------------------

def sort(self, dim=-1, descending=False, stable=False):
    """The stable order, NaN above every number: one of the orders an unstable sort may give."""
    if self.ndim == 0:
        _dim(dim, 0)
        return self, np.zeros((), np.int64)
    d = _dim(dim, self.ndim)
    if descending:  # the largest first, NaN above them; equal elements in their order
        key = np.moveaxis(self.astype(np.float64), d, -1)
        order = np.moveaxis(np.lexsort((-np.nan_to_num(key), ~np.isnan(key)), axis=-1), -1, d)
    else:
        order = np.argsort(self, axis=d, kind="stable")
    return np.take_along_axis(self, order, d), order


def argsort(self, dim=-1, descending=False, stable=False):
    return sort(self, dim, descending)[1]


def _line_size(a, dim):
    return a.shape[_dim(dim, a.ndim)] if a.ndim else 1


def topk(self, k, dim=-1, largest=True, sorted=True):
    """The first k of the stable order (PyTorch takes equal elements in their order); a 0-d
    self gives itself for k=0 too, as PyTorch does."""
    if not 0 <= k <= _line_size(self, dim):
        raise RuntimeError("topk(): selected index k out of range")
    values, indices = sort(self, dim, descending=largest)
    if self.ndim == 0:
        return values, indices
    first = np.arange(k)
    return np.take(values, first, _dim(dim, self.ndim)), np.take(indices, first, _dim(dim, self.ndim))


def _select(values, indices, dim, position, keepdim):
    """The element at `position` (an array broadcasting against each line) of sorted lines along dim, and its index."""
    if values.ndim == 0:
        return values, indices
    d = _dim(dim, values.ndim)
    position = np.broadcast_to(position, values.shape[:d] + (1,) + values.shape[d + 1:])
    picked = [np.take_along_axis(a, position, d) for a in (values, indices)]
    return tuple(a if keepdim else np.squeeze(a, d) for a in picked)


def kthvalue(self, k, dim=-1, keepdim=False):
    if not 1 <= k <= _line_size(self, dim):
        raise RuntimeError("kthvalue(): selected number k out of range")
    return _select(*sort(self, dim), dim, np.array(k - 1), keepdim)


def _median(a, dim, keepdim, skip_nan):
    """The lower median of each line along dim (of every element without dim) and its index. A line
    holding NaN gives its first NaN (nanmedian: only where it holds nothing else)."""
    if dim is None:
        if a.size == 0 and a.dtype.kind != "f":
            raise RuntimeError("median(): the median of no elements is NaN, which an integer dtype cannot hold")
        return _median(a.reshape(-1), 0, False, skip_nan)[0] if a.size else np.array(np.nan, a.dtype)
    if _line_size(a, dim) == 0:
        raise IndexError("median(): Expected reduction dim to have non-zero size")
    values, indices = sort(a, dim)  # NaN last, in their order
    d = _dim(dim, a.ndim)
    nans = np.isnan(values).sum(axis=d, keepdims=True) if a.ndim and a.dtype.kind == "f" else np.array(0)
    numbers = _line_size(a, dim) - nans
    position = np.maximum(numbers - 1, 0) // 2 if skip_nan else np.where(nans > 0, numbers, (numbers - 1) // 2)
    return _select(values, indices, dim, position, keepdim)


def median(self, dim=None, keepdim=False):
    return _median(self, dim, keepdim, skip_nan=False)


def nanmedian(self, dim=None, keepdim=False):
    return _median(self, dim, keepdim, skip_nan=True)


def _unique2(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Sorted distinct elements (slices along dim), each NaN distinct; what is not asked for is empty."""
    axis = None if dim is None else _dim(dim, self.ndim)
    if axis is not None and 0 in self.shape[:axis] + self.shape[axis + 1:]:
        raise RuntimeError("unique(): there are 0 sized dimensions, and they aren't selected")
    output, inverse, counts = np.unique(self, return_inverse=True, return_counts=True, axis=axis, equal_nan=False)
    nothing = np.zeros(0, np.int64)
    inverse = inverse.reshape(self.shape) if axis is None else inverse
    return output, inverse if return_inverse else nothing, counts if return_counts else nothing


# --- shapes -----------------------------------------------------------------------------------------

def _zero_dim_or(fn, a, *dims):
    """`fn(a)`, or `a` itself for a 0-d `a` whose dims are all 0 or -1."""
    if a.ndim == 0:
        for d in dims:
            _dim(d, 0)
        return a
    return fn(a)


def transpose(self, dim0, dim1):
    return _zero_dim_or(lambda a: np.swapaxes(a, _dim(dim0, a.ndim), _dim(dim1, a.ndim)), self, dim0, dim1)


def squeeze(self, dim=None):
    if dim is None:
        return np.squeeze(self)
    return _zero_dim_or(lambda a: np.squeeze(a, _dim(dim, a.ndim)) if a.shape[_dim(dim, a.ndim)] == 1 else a,
                        self, dim)


def unsqueeze(self, dim):
    return np.expand_dims(self, _dim(dim, self.ndim + 1))


def narrow(self, dim, start, length):
    if self.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = _dim(dim, self.ndim)
    size = self.shape[d]
    start = start + size if start < 0 else start
    if not (0 <= start <= size and 0 <= length <= size - start):
        raise IndexError("start or length out of range")
    return np.take(self, np.arange(start, start + length), axis=d)


def select(self, dim, index):
    if self.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    return np.take(self, index, axis=_dim(dim, self.ndim))


def expand(self, size):
    if len(size) < self.ndim:
        raise ValueError("the number of sizes provided must be at least the number of dims")
    lead = len(size) - self.ndim
    shape = [self.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(size)]
    return np.broadcast_to(self, shape)


def flatten(self, start_dim=0, end_dim=-1):
    if self.ndim == 0:
        return self.reshape(1)
    s, e = _dim(start_dim, self.ndim), _dim(end_dim, self.ndim)
    if s > e:
        raise ValueError("flatten() has invalid args: start_dim cannot come after end_dim")
    return self.reshape(self.shape[:s] + (int(np.prod(self.shape[s:e + 1])),) + self.shape[e + 1:])


def unflatten(self, dim, sizes):
    if self.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = _dim(dim, self.ndim)
    sizes = list(sizes)
    if -1 in sizes:  # NumPy cannot infer a size next to a 0
        known = int(np.prod([s for s in sizes if s != -1]))
        if known == 0:
            raise ValueError("cannot infer the size -1 next to a size 0")
        sizes[sizes.index(-1)] = self.shape[d] // known
    if int(np.prod(sizes)) != self.shape[d]:
        raise ValueError("the sizes do not multiply to the size of dim")
    return self.reshape(self.shape[:d] + tuple(sizes) + self.shape[d + 1:])


def movedim(self, source, destination):
    return _zero_dim_or(lambda a: np.moveaxis(a, source, destination), self, *source, *destination)


def repeat(self, repeats):
    if len(repeats) < self.ndim:
        raise ValueError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return np.tile(self, repeats)


def flip(self, dims):
    return _zero_dim_or(lambda a: np.flip(a, _dims(dims, a.ndim) or ()), self, *dims)


def roll(self, shifts, dims=None):
    if dims is None:  # over the flattened tensor, keeping its shape
        if len(shifts) != 1:
            raise ValueError("roll without dims takes one shift")
        return np.roll(self, shifts[0])
    if self.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return np.roll(self, shifts, axis=tuple(_dim(d, self.ndim) for d in dims))


def _matrices(a):
    if a.ndim < 2:
        raise IndexError("tril/triu: input tensor must have at least 2 dimensions")
    return a


def tril(self, diagonal=0):
    return np.tril(_matrices(self), diagonal)


def triu(self, diagonal=0):
    return np.triu(_matrices(self), diagonal)


# --- joining and splitting --------------------------------------------------------------------------

def cat(tensors, dim=0):
    """np.concatenate, leaving out 1-d tensors without elements (PyTorch's legacy rule)."""
    if 0 in [t.ndim for t in tensors]:
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    kept = [t for t in tensors if t.shape != (0,)]
    if not kept:
        return np.zeros(0, tensors[0].dtype)
    return np.concatenate(kept, axis=_dim(dim, kept[0].ndim))


def stack(tensors, dim=0):
    return np.stack(tensors, axis=_dim(dim, tensors[0].ndim + 1))


def hstack(tensors):
    return np.hstack(tensors)


def vstack(tensors):
    return np.vstack(tensors)


def _cut(a, dim, name):
    if a.ndim == 0:
        raise RuntimeError(f"{name}(): expects at least a 1-dimensional tensor")
    return _dim(dim, a.ndim)


def split_with_sizes(self, split_sizes, dim=0):
    d = _cut(self, dim, "split_with_sizes")
    sizes = np.array(split_sizes, dtype=np.int64)
    if (sizes < 0).any() or sizes.sum() != self.shape[d]:
        raise ValueError(f"split_with_sizes(): sizes {split_sizes} do not add up to {self.shape[d]}")
    return np.split(self, np.cumsum(sizes)[:-1], axis=d)


def split(self, split_size, dim=0):
    """Pieces of split_size (the last one shorter; one piece of a dim of size 0), or of the sizes listed."""
    if not isinstance(split_size, int):
        return split_with_sizes(self, split_size, dim)
    d = _cut(self, dim, "split")
    size = self.shape[d]
    if split_size < 0 or (split_size == 0 and size > 0):
        raise ValueError(f"split(): split_size {split_size} cannot cut a dim of size {size}")
    return np.split(self, np.arange(split_size, size, split_size) if split_size else [], axis=d)


def chunk(self, chunks, dim=0):
    """Pieces of ceil(size / chunks), so possibly fewer than chunks; `chunks` empty pieces of a dim of size 0."""
    d = _cut(self, dim, "chunk")
    if chunks <= 0:
        raise ValueError("chunk(): chunks must be greater than 0")
    size = self.shape[d]
    return split(self, -(-size // chunks), dim) if size else [self] * chunks


def unbind(self, dim=0):
    if self.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = _dim(dim, self.ndim)
    return [np.take(self, i, axis=d) for i in range(self.shape[d])]


# --- indexing ---------------------------------------------------------------------------------------

def _along(index, dim):
    """The index tuple that puts `index` along `dim` and counts through the other dims."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _check_fits(index, other, skip, what):
    """index is no larger than `other` in any dim but `skip`, and has as many dims (PyTorch
    checks no sizes for an empty index)."""
    if index.ndim != other.ndim:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {what} tensor")
    for d, (i, s) in enumerate(zip(index.shape, other.shape)):
        if d != skip and i > s and index.size:
            raise RuntimeError(f"Size does not match at dimension {d}: index {index.shape} and {what} {other.shape}")


def gather(self, dim, index, sparse_grad=False):
    d = _dim(dim, self.ndim)
    if self.ndim == 0:  # the index is 0-d too, and 0 the only valid one
        return self.reshape(1)[index.reshape(-1)].reshape(index.shape)
    _check_fits(index, self, d, "input")
    return self[_along(index, d)]


def _scattered(self, dim, index, src, value, op):
    """A copy of self with `op(out, where, values)` applied at `index` along dim."""
    d = _dim(dim, self.ndim)
    out = self.copy()
    if index.size == 0:
        return out
    if src is not None:
        _check_fits(index, src, None, "src")
        values = src[tuple(slice(0, s) for s in index.shape)]
    else:
        values = value
    if self.ndim == 0:
        op(out.reshape(1), index.reshape(-1), np.reshape(values, -1))
        return out
    _check_fits(index, self, d, "self")
    op(out, _along(index, d), values)
    return out


def _assign(out, where, values):
    out[where] = values


def scatter(self, dim, index, src=None, value=None):
    return _scattered(self, dim, index, src, value, _assign)


def scatter_add(self, dim, index, src):
    return _scattered(self, dim, index, src, None, np.add.at)


def index_add(self, dim, index, source, alpha=1):
    """Adds alpha * source in the order of `index`, rounding each add to the dtype as np.add.at does.
    The half types come as float32: for them, as PyTorch computes in the dtype itself, alpha and
    alpha * source are rounded to it, and the running value after each add, so that repeated
    indices are exact rather than summed in float32 and rounded once."""
    out = self.copy()
    d = _dim(dim, self.ndim)
    if index.ndim > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector")
    target = out.reshape(1) if self.ndim == 0 else out  # a view of out
    values = (alpha * source).astype(self.dtype)
    if self.ndim == 0:
        values = values.reshape(-1)
    where = (slice(None),) * d + (index.reshape(-1),)
    half = _half_dtype()
    if half is None:
        np.add.at(target, where, values)
        return out
    np.add.at(target.copy(), where, values)  # NumPy's checks of the indices and shapes, as for the others
    scaled = _round_half(_round_half(alpha, half) * source.astype(np.float32), half)
    scaled = np.broadcast_to(scaled.reshape(-1) if self.ndim == 0 else scaled, target[where].shape)
    for k, i in enumerate(index.reshape(-1)):
        at = (slice(None),) * d + (i,)
        target[at] = _round_half(target[at] + scaled[(slice(None),) * d + (k,)], half)
    return out


def index_select(self, dim, index):
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if self.ndim == 0:
        return self.reshape(1)[index.reshape(-1)].reshape(())
    return np.take(self, index.reshape(-1), axis=_dim(dim, self.ndim))


def masked_fill(self, mask, value):
    out = np.array(np.broadcast_to(self, np.broadcast_shapes(self.shape, mask.shape)))
    if np.ndim(value):
        raise ValueError("masked_fill only supports a 0-dimensional value tensor")
    out[np.broadcast_to(mask, out.shape)] = value
    return out


def masked_fill_(self, mask, value):
    if np.broadcast_shapes(self.shape, mask.shape) != self.shape:
        raise RuntimeError("the mask does not broadcast to self")
    return masked_fill(self, mask, value)


def masked_select(self, mask):
    shape = np.broadcast_shapes(self.shape, mask.shape)
    return np.broadcast_to(self, shape)[np.broadcast_to(mask, shape)]


def put(self, index, source, accumulate=False):
    if index.size != source.size:
        raise RuntimeError("put_(): Expected source and index to have the same number of elements")
    out = self.copy()
    flat = out.reshape(-1)  # a view of `out`
    if accumulate:
        np.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)
    return out


def index_put(self, indices, values, accumulate=False):
    """A copy of self with self[indices] = values (None indexing a whole dim), or += where
    accumulate, repeated positions accumulating."""
    if len(indices) > self.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self.ndim}")
    where = tuple(slice(None) if i is None else i for i in indices)
    out = self.copy()
    values = np.broadcast_to(values, out[where].shape)
    if accumulate:
        np.add.at(out, where, values)
    else:
        out[where] = values
    return out


# --- linear algebra ---------------------------------------------------------------------------------

def _rank(a, ndim, name):
    if a.ndim != ndim:
        raise RuntimeError(f"{name}: expected a {ndim}-d tensor, got {a.ndim}-d")
    return a


def dot(self, tensor):
    return np.dot(_rank(self, 1, "dot"), _rank(tensor, 1, "dot"))


def outer(self, vec2):
    return np.multiply.outer(_rank(self, 1, "outer"), _rank(vec2, 1, "outer"))


def _add_scaled(self, product, beta, alpha):
    """`beta * self + alpha * product`, in the product's dtype; self, which must broadcast to
    the product, is ignored when beta is 0."""
    if np.broadcast_shapes(self.shape, product.shape) != product.shape:
        raise RuntimeError(f"self of shape {self.shape} does not broadcast to {product.shape}")
    r = alpha * product
    if beta != 0:
        r = r + beta * self
    return np.asarray(r).astype(product.dtype)


def addmm(self, mat1, mat2, beta=1, alpha=1):
    return _add_scaled(self, _rank(mat1, 2, "addmm") @ _rank(mat2, 2, "addmm"), beta, alpha)


def addmv(self, mat, vec, beta=1, alpha=1):
    return _add_scaled(self, _rank(mat, 2, "addmv") @ _rank(vec, 1, "addmv"), beta, alpha)


def addbmm(self, batch1, batch2, beta=1, alpha=1):
    products = _rank(batch1, 3, "addbmm") @ _rank(batch2, 3, "addbmm")
    return _add_scaled(self, products.sum(axis=0, dtype=products.dtype), beta, alpha)


def baddbmm(self, batch1, batch2, beta=1, alpha=1):
    return _add_scaled(self, _rank(batch1, 3, "baddbmm") @ _rank(batch2, 3, "baddbmm"), beta, alpha)


# --- pointwise --------------------------------------------------------------------------------------

def _result_type(a, *others):
    """PyTorch's result dtype for a tensor with tensors of its dtype and Python numbers: a float
    makes an integer or bool tensor float32 (the default dtype), an int a bool tensor int64."""
    dtype = a.dtype
    for other in others:
        if isinstance(other, np.ndarray):
            dtype = np.promote_types(dtype, other.dtype)
        elif isinstance(other, numbers.Integral):
            dtype = np.dtype(np.int64) if dtype.kind == "b" and not isinstance(other, bool) else dtype
        elif dtype.kind in "biu":
            dtype = np.dtype(np.float32)
    return dtype


def div(self, other, rounding_mode=None):
    """True division in a float dtype (float32 for integers), or rounded toward zero ('trunc') or
    down ('floor') in the promoted dtype, computed in it."""
    dtype = _result_type(self, other)
    if rounding_mode is None:
        dtype = dtype if dtype.kind == "f" else np.dtype(np.float32)
    elif rounding_mode not in ("trunc", "floor"):
        raise ValueError(f"div(): rounding_mode must be 'trunc', 'floor' or None, not {rounding_mode!r}")
    a, b = self.astype(dtype), np.asarray(other).astype(dtype)
    if rounding_mode == "floor":
        return np.floor_divide(a, b)
    quotient = np.true_divide(a, b)
    return quotient if rounding_mode is None else np.trunc(quotient).astype(dtype)


def where(condition, self, other):
    """np.where in PyTorch's result dtype, in which the (bool) condition takes no part; with two numbers, that of
    the first as a tensor of its kind's dtype (bool, int64, the default float32) and the second."""
    first, second = (other, self) if isinstance(other, np.ndarray) and not isinstance(self, np.ndarray) \
        else (self, other)
    if not isinstance(first, np.ndarray):
        kind = np.bool_ if isinstance(first, bool) else np.int64 if isinstance(first, numbers.Integral) else np.float32
        first = np.asarray(first, dtype=kind)
    return np.where(condition, self, other).astype(_result_type(first, second))


def clamp(self, min=None, max=None):
    """At least min and at most max (max where min > max), in the promoted dtype; NaN, in self or
    a bound, stays NaN."""
    if min is None and max is None:
        raise ValueError("clamp(): at least one of 'min' or 'max' must not be None")
    dtype = _result_type(self, *(bound for bound in (min, max) if bound is not None))
    out = self.astype(dtype)
    if min is not None:
        out = np.maximum(out, np.asarray(min).astype(dtype))
    return out if max is None else np.minimum(out, np.asarray(max).astype(dtype))


def nan_to_num(self, nan=None, posinf=None, neginf=None):
    """NaN and the infinities replaced; the defaults are those of self's NumPy dtype (for float16
    and bfloat16, which compute in float32, samples give every value)."""
    if self.dtype.kind != "f":
        return self.copy()
    return np.nan_to_num(self, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)


# --- factories and conversions ----------------------------------------------------------------------

def arange(end, start=0, step=1, dtype=None, device=None):
    """PyTorch's: an integer dtype steps from start by step as int64 values (truncated), over a
    count taken from the numbers as given, or from those int64 values for int64."""
    if dtype is None or not np.issubdtype(dtype, np.integer):
        return np.arange(start, end, step).astype(dtype)
    first, by = int(start), int(step)
    if by == 0:
        raise ValueError("step must be nonzero")
    count = math.ceil((int(end) - first) / by if dtype == np.int64 else (end - start) / step)
    return (first + by * np.arange(count)).astype(dtype)  # empty for a negative count


def eye(n, m=None, dtype=None, device=None):
    return np.eye(n, m, dtype=dtype)


def to(self, dtype=None, other=None, non_blocking=False, copy=False, memory_format=None, device=None):
    target = other.dtype if other is not None else dtype
    return self if target is None else self.astype(target)


def float(self):
    return tagged(self.astype(np.float32), "float32")


def bfloat16(self):
    return tagged(self.astype(np.float32), "bfloat16")


def copy_(self, src):
    return np.broadcast_to(src, self.shape).astype(self.dtype)


def linear(input, weight, bias=None):
    out = np.matmul(input.astype(np.float64), weight.astype(np.float64).T)  # .T of a 1-d weight is itself
    return (out if bias is None else out + bias).astype(input.dtype)


# --- activations ---------------------------------------------------------------------------------------

def _shifted(self, dim, dtype):
    """self in dtype (the reference passes NumPy's), less its maximum over dim, in float64; and the dtype."""
    x = self.astype(dtype if dtype is not None else self.dtype)
    wide = x.astype(np.float64)
    if wide.size == 0:  # PyTorch gives an empty result, where NumPy's max() refuses
        return wide, x.dtype
    return wide - np.max(wide, axis=dim, keepdims=True), x.dtype


def softmax(self, dim, dtype=None):
    shifted, out = _shifted(self, dim, dtype)
    e = np.exp(shifted)
    return (e / np.sum(e, axis=dim, keepdims=True)).astype(out)


def log_softmax(self, dim, dtype=None):
    shifted, out = _shifted(self, dim, dtype)
    return (shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))).astype(out)


# --- sliding windows ---------------------------------------------------------------------------------

def _pair(values, one_ok=False):
    values = tuple(values)
    if len(values) == 2 or (one_ok and len(values) == 1):
        return values[0], values[-1]
    raise ValueError(f"expected a pair, got {values}")


def _window_counts(size, kernel, dilation, padding, stride, ceil_mode=False):
    """How many windows fit down and across a plane of `size` (Note [Window geometry] in sliding_windows.cpp)."""
    if builtins.min(kernel + dilation + stride) <= 0 or builtins.min(padding) < 0:
        raise ValueError("bad window geometry")
    counts = []
    for n, k, d, p, s in zip(size, kernel, dilation, padding, stride):
        span = n + 2 * p - d * (k - 1) - 1
        count = (span + (s - 1 if ceil_mode else 0)) // s + 1 if span >= 0 else 0
        if ceil_mode and count > 0 and (count - 1) * s >= n + p:  # the last window must start inside
            count -= 1
        counts.append(count)
    if 0 in counts:
        raise ValueError("no window fits")
    return counts


def _check_planes(self):
    """PyTorch's check of an input of planes: 3-d, or 4-d, non-empty but for a batch of 0."""
    if self.ndim not in (3, 4) or 0 in self.shape[-3:]:
        raise ValueError(f"expected a non-empty 3D or 4D tensor, got {self.shape}")


def _window_slice(k, d, s, count):
    """The positions, in the padded plane, of kernel element k of each of `count` windows."""
    return slice(k * d, k * d + s * (count - 1) + 1, s)


def im2col(self, kernel_size, dilation, padding, stride):
    _check_planes(self)
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    oh, ow = _window_counts(self.shape[-2:], k, d, p, s)
    padded = np.pad(self, [(0, 0)] * (self.ndim - 2) + [(p[0], p[0]), (p[1], p[1])])
    windows = np.stack([padded[..., _window_slice(ky, d[0], s[0], oh), _window_slice(kx, d[1], s[1], ow)]
                        for ky in range(k[0]) for kx in range(k[1])], axis=-3)  # (..., C, K, oh, ow)
    return windows.reshape(*self.shape[:-3], self.shape[-3] * k[0] * k[1], oh * ow)


def col2im(self, output_size, kernel_size, dilation, padding, stride):
    if self.ndim not in (2, 3) or 0 in self.shape[-2:]:
        raise ValueError(f"expected a non-empty 2D or 3D tensor, got {self.shape}")
    size, k, d, p, s = _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    if builtins.min(size) <= 0:
        raise ValueError("output_size must be positive")
    oh, ow = _window_counts(size, k, d, p, s)
    rows = self.shape[-2]
    if rows % (k[0] * k[1]) or self.shape[-1] != oh * ow:
        raise ValueError("the columns do not match the windows")
    batch = self.shape[:-2]
    cols = self.astype(np.float64).reshape(*batch, rows // (k[0] * k[1]), k[0], k[1], oh, ow)
    out = np.zeros((*batch, rows // (k[0] * k[1]), size[0] + 2 * p[0], size[1] + 2 * p[1]))
    for ky in range(k[0]):
        for kx in range(k[1]):
            out[..., _window_slice(ky, d[0], s[0], oh), _window_slice(kx, d[1], s[1], ow)] += cols[..., ky, kx, :, :]
    return out[..., p[0]:p[0] + size[0], p[1]:p[1] + size[1]].astype(self.dtype)


def max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode=False):
    _check_planes(self)
    k = _pair(kernel_size, True)
    s = _pair(stride, True) if len(stride) else k
    p, d = _pair(padding, True), _pair(dilation, True)
    oh, ow = _window_counts(self.shape[-2:], k, d, p, s, ceil_mode)
    if 2 * p[0] > k[0] or 2 * p[1] > k[1]:
        raise ValueError("padding above half the kernel")
    height, width = self.shape[-2:]
    planes = self.reshape(-1, height * width)
    values = np.empty((planes.shape[0], oh, ow), self.dtype)
    indices = np.empty((planes.shape[0], oh, ow), np.int64)
    for oy in range(oh):
        for ox in range(ow):
            ys = [y for y in range(oy * s[0] - p[0], oy * s[0] - p[0] + d[0] * k[0], d[0]) if 0 <= y < height]
            xs = [x for x in range(ox * s[1] - p[1], ox * s[1] - p[1] + d[1] * k[1], d[1]) if 0 <= x < width]
            at = np.array([y * width + x for y in ys for x in xs], np.int64)
            if at.size == 0:
                raise ValueError("a window lies entirely in the padding")
            window = planes[:, at]
            pick = np.argmax(window, axis=1)  # the first largest, and the last NaN where there is one
            if window.dtype.kind == "f":
                nan = np.isnan(window)
                pick = np.where(nan.any(1), at.size - 1 - np.argmax(nan[:, ::-1], axis=1), pick)
            values[:, oy, ox] = window[np.arange(window.shape[0]), pick]
            indices[:, oy, ox] = at[pick]
    shape = (*self.shape[:-2], oh, ow)
    return values.reshape(shape), indices.reshape(shape)


# --- special functions ------------------------------------------------------------------------------

def erfc(self):
    from scipy import special
    return special.erfc(self)


def erfinv(self):
    from scipy import special
    return special.erfinv(self)


# --- linear algebra through LAPACK --------------------------------------------------------------------

def _linalg_input(a):
    """a, or the RuntimeError of PyTorch's linear algebra for fewer than 2 dims (NumPy's LinAlgError is none)."""
    if a.ndim < 2:
        raise RuntimeError("linalg: The input tensor A must have at least 2 dimensions.")
    return a


def inverse(self):
    return np.linalg.inv(_linalg_input(self))


def det(self):
    return np.linalg.det(_linalg_input(self))


def slogdet(self):
    return np.linalg.slogdet(_linalg_input(self))


def logdet(self):
    """log(det): NaN for a negative determinant, as PyTorch."""
    sign, logabsdet = np.linalg.slogdet(_linalg_input(self))
    return np.where(sign < 0, np.nan, logabsdet).astype(self.dtype)


def unfold(self, dimension, size, step):
    """Tensor.unfold: NumPy's sliding windows along dimension, every step-th; a 0-d self is one element long."""
    a = np.atleast_1d(self)
    dimension = _dim(dimension, a.ndim)
    if not 0 <= size <= a.shape[dimension] or step <= 0:
        raise RuntimeError("size or step out of range")
    if np.ndim(self) == 0:
        return a[:size]
    windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=dimension)
    picked = [slice(None)] * a.ndim
    picked[dimension] = slice(None, None, step)
    return windows[tuple(picked)]
