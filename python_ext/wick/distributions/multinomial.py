"""wick.distributions.multinomial: the multinomial distribution, as PyTorch's Multinomial."""
import math

from wick import _C
from wick.distributions import constraints
from wick.distributions._expand import Expandable
from wick.distributions.binomial import Binomial
from wick.distributions.categorical import Categorical
from wick.distributions.distribution import Distribution
from wick.distributions.utils import broadcast_all
from wick.special import gammaln

__all__ = ["Multinomial"]


class _Counts(constraints.Constraint):
    """Non-negative integer counts over the last dimension that sum to at most upper_bound (PyTorch's
    constraints.multinomial)."""
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return (value >= 0).all(-1) & (value.sum(-1) <= self.upper_bound)

    def __repr__(self):
        return f"Multinomial(upper_bound={self.upper_bound})"


class Multinomial(Expandable, Distribution):
    """Multinomial(total_count=1, probs=None, logits=None): the counts of each of the last dimension's categories
    among total_count (an int) draws of Categorical(probs, logits)."""
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        batch_shape = tuple(batch_shape)
        probs = self.probs.expand(batch_shape + self._event_shape)
        return Multinomial(self.total_count, probs=probs, validate_args=False)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def support(self):
        return _Counts(self.total_count)

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        # total_count category draws, counted per category.
        draws = self._categorical.sample((self.total_count,) + tuple(sample_shape))
        categories = _C.arange(self._event_shape[0], device=draws.device)
        return (draws.unsqueeze(-1) == categories).sum(0).to(self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_factorial_n = gammaln(value.sum(-1) + 1)
        log_factorial_xs = gammaln(value + 1).sum(-1)
        # A category of probability 0 drawn 0 times adds 0 (not 0 * -inf).
        logits = _C.where((value == 0) & (logits == -math.inf), 0.0, logits)
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def entropy(self):
        # An int64 n, as PyTorch's: its lgamma is in the default dtype, and so is that term's rounding.
        n = _C.tensor(self.total_count, device=self.probs.device)
        term1 = n * self._categorical.entropy() - gammaln(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = _C.exp(self._binomial.log_prob(support))
        term2 = (binomial_probs * gammaln(support + 1)).sum(0).sum(-1)
        return term1 + term2
