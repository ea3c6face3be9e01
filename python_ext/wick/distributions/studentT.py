"""wick.distributions.studentT: Student's t-distribution, as PyTorch's StudentT."""
import math

from wick import _C
from wick.distributions import constraints
from wick.distributions._expand import Expandable
from wick.distributions.distribution import Distribution
from wick.distributions.gamma import Chi2
from wick.distributions.utils import broadcast_all
from wick.special import digamma, gammaln

__all__ = ["StudentT"]


class StudentT(Expandable, Distribution):
    """StudentT(df, loc=0., scale=1.): loc + scale X / sqrt(Z / df) for X standard normal and Z of Chi2(df)."""
    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        super().__init__(self.df.shape, validate_args=validate_args)

    @property
    def mean(self):
        return _C.where(self.df > 1, self.loc, math.nan)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        finite = self.scale.pow(2) * self.df / (self.df - 2)
        return _C.where(self.df > 2, finite, _C.where(self.df > 1, math.inf, math.nan))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        x = _C.randn(shape, dtype=self.df.dtype, device=self.df.device)
        z = Chi2(self.df, validate_args=False).rsample(sample_shape)
        return self.loc + self.scale * x * (z / self.df).rsqrt()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        normaliser = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
                      + gammaln(0.5 * self.df) - gammaln(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * (y.pow(2) / self.df).log1p() - normaliser

    def entropy(self):
        log_beta = gammaln(0.5 * self.df) + math.lgamma(0.5) - gammaln(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (digamma(0.5 * (self.df + 1)) - digamma(0.5 * self.df))
                + 0.5 * self.df.log() + log_beta)
