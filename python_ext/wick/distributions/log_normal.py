"""wick.distributions.log_normal: the log-normal distribution, as PyTorch's LogNormal (a direct class here: wick has
no transforms, so it is exp of base_dist, a Normal, written out)."""
from wick.distributions import constraints
from wick.distributions.distribution import Distribution
from wick.distributions.normal import Normal
from wick.distributions.utils import broadcast_all

__all__ = ["LogNormal"]


class LogNormal(Distribution):
    """LogNormal(loc, scale): exp(X) for X of Normal(loc, scale); base_dist is that normal."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        self.base_dist = Normal(self.loc, self.scale, validate_args=False)
        super().__init__(self.loc.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        batch_shape = tuple(batch_shape)
        return LogNormal(self.loc.expand(batch_shape), self.scale.expand(batch_shape), validate_args=False)

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.pow(2)).exp()

    @property
    def variance(self):
        variance = self.scale.pow(2)
        return variance.expm1() * (2 * self.loc + variance).exp()

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape).exp()

    def log_prob(self, value):
        # The normal's density at log(value), times |d log(value) / d value| = 1 / value.
        if self._validate_args:
            self._validate_sample(value)
        log_value = value.log()
        return self.base_dist.log_prob(log_value) - log_value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.base_dist.cdf(value.log())

    def icdf(self, value):
        return self.base_dist.icdf(value).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc
