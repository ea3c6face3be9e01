"""wick.distributions.dirichlet: the Dirichlet and beta distributions, as PyTorch's Dirichlet and Beta."""
from wick import _C
from wick.distributions import constraints
from wick.distributions._expand import Expandable
from wick.distributions.distribution import Distribution
from wick.distributions.gamma import standard_gamma
from wick.distributions.utils import broadcast_all
from wick.special import digamma, gammaln
from wick.type_info import finfo

__all__ = ["Dirichlet", "Beta"]


class Dirichlet(Expandable, Distribution):
    """Dirichlet(concentration): density prod x_i^(c_i - 1) / B(c) on the simplex of the last dimension's size.

    rsample normalises independent Gamma(c_i) draws; its gradient is theirs (Note [Gamma gradients]) through the
    normalisation, an exact pathwise gradient (not PyTorch's, which differentiates the marginal CDFs instead)."""
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        # The interior maximum; where every c_i < 1 the density peaks at a vertex, the one of the largest c_i - 1.
        shifted = (self.concentration - 1).clamp(min=0.0)
        interior = shifted / shifted.sum(-1, True)
        vertex = _C.arange(shifted.shape[-1], device=shifted.device) == interior.argmax(-1, keepdim=True)
        return _C.where((self.concentration < 1).all(-1, keepdim=True), vertex.to(interior.dtype), interior)

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        gammas = standard_gamma(self.concentration.expand(self._extended_shape(sample_shape)))
        draws = gammas / gammas.sum(-1, True)
        tiny = finfo(draws.dtype).tiny
        return draws.clamp(min=tiny, max=1 - tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (_C.xlogy(self.concentration - 1.0, value).sum(-1) + gammaln(self.concentration.sum(-1))
                - gammaln(self.concentration).sum(-1))

    def entropy(self):
        k = self.concentration.size(-1)
        total = self.concentration.sum(-1)
        return (gammaln(self.concentration).sum(-1) - gammaln(total) - (k - total) * digamma(total)
                - ((self.concentration - 1.0) * digamma(self.concentration)).sum(-1))


class Beta(Expandable, Distribution):
    """Beta(concentration1, concentration0): density x^(c1 - 1) (1 - x)^(c0 - 1) / B(c1, c0) on [0, 1], the first
    coordinate of Dirichlet([c1, c0])."""
    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        concentration1, concentration0 = broadcast_all(concentration1, concentration0)
        self._dirichlet = Dirichlet(_C.stack([concentration1, concentration0], -1), validate_args=validate_args)
        super().__init__(self._dirichlet.batch_shape, validate_args=validate_args)

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._dirichlet.log_prob(_C.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()
