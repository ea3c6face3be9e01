"""wick.distributions.laplace: the Laplace distribution, as PyTorch's Laplace."""
from wick import _C
from wick.distributions import constraints
from wick.distributions.distribution import Distribution
from wick.distributions.utils import broadcast_all
from wick.type_info import finfo

__all__ = ["Laplace"]


class Laplace(Distribution):
    """Laplace(loc, scale): density exp(-|x - loc| / scale) / (2 scale)."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    def rsample(self, sample_shape=()):
        # Inverse transform of u uniform on (eps - 1, 1): the open end keeps log1p(-|u|) finite.
        eps = finfo(self.loc.dtype).eps
        u = _C.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        u = u * (2 - eps) + (eps - 1)
        return self.loc - self.scale * u.sign() * _C.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -_C.log(2 * self.scale) - _C.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * _C.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * _C.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + _C.log(2 * self.scale)
