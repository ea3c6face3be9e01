"""wick.distributions.poisson: the Poisson distribution, as PyTorch's Poisson."""
import math

from wick import _C
from wick.autograd import no_grad
from wick.distributions import constraints
from wick.distributions._expand import Expandable
from wick.distributions.distribution import Distribution
from wick.distributions.utils import broadcast_all
from wick.sampling import poisson
from wick.special import gammaln

__all__ = ["Poisson"]

# Counts 0, 1, 2, ...: PyTorch's nonnegative_integer.
nonnegative_integer = constraints.integer_interval(0, math.inf)


class Poisson(Expandable, Distribution):
    """Poisson(rate): count k with probability rate^k e^(-rate) / k! (rate >= 0)."""
    arg_constraints = {"rate": constraints.nonnegative}
    support = nonnegative_integer

    def __init__(self, rate, validate_args=None):
        self.rate, = broadcast_all(rate)
        super().__init__(self.rate.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=()):
        with no_grad():
            return poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return _C.xlogy(value, rate) - rate - gammaln(value + 1)
