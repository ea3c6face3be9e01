"""wick.distributions.constraints: the sets a distribution's parameters and values must lie in, as PyTorch's
torch.distributions.constraints. Each check(value) gives a boolean tensor, one element per event (an event of a
constraint with event_dim > 0 spans that many rightmost dimensions)."""
from wick import _C, linalg

__all__ = ["Constraint", "boolean", "real", "positive", "nonnegative", "unit_interval", "simplex", "real_vector",
           "lower_cholesky", "positive_definite", "integer_interval", "interval", "half_open_interval",
           "independent"]


class Constraint:
    """A region of the reals: is_discrete when it holds integers only, event_dim the dimensions one event spans."""
    is_discrete = False
    event_dim = 0

    def check(self, value):
        """A boolean tensor: whether each event of value lies in the region."""
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + "()"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _Real(Constraint):
    def check(self, value):
        return value == value  # False only for NaN


class _GreaterThan(Constraint):
    def __init__(self, lower_bound, strict=True):
        self.lower_bound, self.strict = lower_bound, strict

    def check(self, value):
        return value > self.lower_bound if self.strict else value >= self.lower_bound

    def __repr__(self):
        return f"{'GreaterThan' if self.strict else 'GreaterThanEq'}(lower_bound={self.lower_bound})"


class _Interval(Constraint):
    """lower_bound <= value <= upper_bound, or < upper_bound when half_open."""
    def __init__(self, lower_bound, upper_bound, half_open=False):
        self.lower_bound, self.upper_bound, self.half_open = lower_bound, upper_bound, half_open

    def check(self, value):
        below = value < self.upper_bound if self.half_open else value <= self.upper_bound
        return (self.lower_bound <= value) & below

    def __repr__(self):
        name = "HalfOpenInterval" if self.half_open else "Interval"
        return f"{name}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & super().check(value)

    def __repr__(self):
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Independent(Constraint):
    """base_constraint with its events spanning reinterpreted_batch_ndims more dimensions: all must hold."""
    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint, self.reinterpreted_batch_ndims = base_constraint, reinterpreted_batch_ndims
        self.is_discrete = base_constraint.is_discrete
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        for _ in range(self.reinterpreted_batch_ndims):
            result = result.all(-1)
        return result

    def __repr__(self):
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return _C.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _LowerCholesky(Constraint):
    """Lower-triangular with a positive diagonal."""
    event_dim = 2

    def check(self, value):
        lower = (value.tril() == value).all(-1).all(-1)
        return lower & (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)


class _PositiveDefinite(Constraint):
    """Symmetric with positive eigenvalues."""
    event_dim = 2

    def check(self, value):
        symmetric = ((value - value.transpose(-2, -1)).abs() <= 1e-6).all(-1).all(-1)
        return symmetric & (linalg.eigvalsh(value) > 0).all(-1)


boolean = _Boolean()
real = _Real()
real_vector = _Independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThan(0.0, strict=False)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
interval = _Interval
integer_interval = _IntegerInterval
independent = _Independent


def half_open_interval(lower_bound, upper_bound):
    """lower_bound <= value < upper_bound."""
    return _Interval(lower_bound, upper_bound, half_open=True)
