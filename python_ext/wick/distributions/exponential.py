"""wick.distributions.exponential: the exponential distribution, as PyTorch's Exponential."""
from wick import _C
from wick.distributions import constraints
from wick.distributions.distribution import Distribution
from wick.distributions.utils import broadcast_all

__all__ = ["Exponential"]


class Exponential(Distribution):
    """Exponential(rate): density rate * exp(-rate x) on x >= 0."""
    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        self.rate, = broadcast_all(rate)
        super().__init__(self.rate.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        # -log(1 - u) of u uniform on [0, 1) is standard exponential (and finite).
        u = _C.rand(self._extended_shape(sample_shape), dtype=self.rate.dtype, device=self.rate.device)
        return -_C.log1p(-u) / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _C.log(self.rate) - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - _C.exp(-self.rate * value)

    def icdf(self, value):
        return -_C.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - _C.log(self.rate)
