"""wick.integration_functions: the trapezoidal rule, as PyTorch's trapezoid, trapz and cumulative_trapezoid.

    >>> wick.trapezoid(wick.tensor([1, 2, 4]))
    tensor(4.5000)
    >>> wick.cumulative_trapezoid(wick.tensor([1.0, 2.0, 4.0]), wick.tensor([0.0, 1.0, 3.0]))
    tensor([1.5000, 7.5000])

The samples y are taken along dim, spaced either by the number dx or by the differences of the sample points x
(one x per sample when x is 1-D, else x broadcasts against y). Each is made of declared ops, so autograd sees
through it.
"""
from wick import _C
from wick._arguments import _float, _int, _tensor, _wrap_dim
from wick.reduction_functions import diff

__all__ = ["trapezoid", "trapz", "cumulative_trapezoid"]


def _spacing(function, y, x, dx, dim):
    """(dim wrapped, the spacing between neighbouring samples: a number or a tensor broadcasting against the
    n - 1 pair sums of y along dim)."""
    y = _tensor(function, "y", 1, y)
    if y.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    dim = _wrap_dim(_int(function, "dim", None, dim), y.dim())
    if x is None:
        return dim, 1.0 if dx is None else _float(function, "dx", None, dx)
    if dx is not None:
        raise TypeError(f"{function}() received an invalid combination of arguments: got both x and dx")
    x = _tensor(function, "x", 2, x)
    if x.dim() == 1:
        if x.size(0) != y.size(dim):
            raise RuntimeError(f"{function}: There must be one `x` value for each sample point")
        return dim, diff(x).view([-1] + [1] * (y.dim() - 1 - dim))
    return dim, diff(x, dim=dim - y.dim() if x.dim() < y.dim() else dim)


def _pair_sums(y, dim):
    """y[i] + y[i + 1] along dim, the n - 1 sums of neighbouring samples."""
    n = y.size(dim)
    return y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor

    The integral of y along dim by the trapezoidal rule: sum_i (x[i+1] - x[i]) (y[i] + y[i+1]) / 2, with x[i+1] - x[i]
    dx (default 1) when x is not given. No samples integrate to 0."""
    dim, spacing = _spacing("trapezoid", y, x, dx, dim)
    if y.size(dim) == 0:
        return _C.zeros([s for d, s in enumerate(y.shape) if d != dim], dtype=y.dtype, device=y.device)
    if isinstance(spacing, float):
        # sum y - (first + last) / 2, one pass over y.
        ends = y.select(dim, 0) + y.select(dim, -1)
        return (y.sum(dim) - ends * 0.5) * spacing
    return (spacing * _pair_sums(y, dim)).sum(dim) / 2


def trapz(y, x=None, *, dx=None, dim=-1):
    """trapz(y, x=None, *, dx=None, dim=-1) -> Tensor: trapezoid under its older name."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """cumulative_trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor

    The running integrals of trapezoid: n - 1 values along dim, the k-th the integral over the first k + 1 steps."""
    dim, spacing = _spacing("cumulative_trapezoid", y, x, dx, dim)
    if y.size(dim) == 0:
        return _C.zeros(list(y.shape), dtype=y.dtype if y.is_floating_point() else _C.float32, device=y.device)
    return _C.cumsum(spacing * _pair_sums(y, dim) / 2, dim)
