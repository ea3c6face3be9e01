"""wick.distributions.half_normal: the half-normal distribution, as PyTorch's HalfNormal."""
import math

from wick import _C
from wick.distributions import constraints
from wick.distributions.distribution import Distribution
from wick.distributions.normal import Normal
from wick.distributions.utils import broadcast_all

__all__ = ["HalfNormal"]


class HalfNormal(Distribution):
    """HalfNormal(scale): |X| for X of Normal(0, scale); base_dist is that normal."""
    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        self.scale, = broadcast_all(scale)
        self.base_dist = Normal(_C.zeros_like(self.scale), self.scale, validate_args=False)
        super().__init__(self.scale.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return HalfNormal(self.scale.expand(tuple(batch_shape)), validate_args=False)

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self):
        return _C.zeros_like(self.scale)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape).abs()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return _C.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
