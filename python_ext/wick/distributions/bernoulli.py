"""wick.distributions.bernoulli: the Bernoulli distribution, as PyTorch's Bernoulli."""
from wick import _C
from wick.autograd import no_grad
from wick.sampling import bernoulli
from wick.distributions import constraints
from wick.distributions.distribution import Distribution
from wick.distributions.utils import broadcast_all, logits_to_probs, probs_to_logits

__all__ = ["Bernoulli"]


def _probs_or_logits(probs, logits):
    """The one of probs and logits given, with which it is."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    return ("probs", probs) if probs is not None else ("logits", logits)


class _ProbsOrLogits(Distribution):
    """A distribution given by probs or logits (either), which computes the other when asked.

    Note [probs and logits]
    ~~~~~~~~~~~~~~~~~~~~~~~
    The parameter given is kept in the instance's __dict__ under its own name; the properties probs and logits
    return it, or compute (and keep) it from the other. Distribution's validation checks only the one given."""
    _is_binary = False

    @property
    def probs(self):
        if "probs" not in self.__dict__:
            self.__dict__["probs"] = logits_to_probs(self.__dict__["logits"], is_binary=self._is_binary)
        return self.__dict__["probs"]

    @property
    def logits(self):
        if "logits" not in self.__dict__:
            self.__dict__["logits"] = probs_to_logits(self.__dict__["probs"], is_binary=self._is_binary)
        return self.__dict__["logits"]

    @property
    def _param(self):
        return self.__dict__["probs"] if "probs" in self.__dict__ else self.__dict__["logits"]


class Bernoulli(_ProbsOrLogits):
    """Bernoulli(probs=None, logits=None): 1 with probability probs (or sigmoid(logits)), else 0."""
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    _is_binary = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        name, value = _probs_or_logits(probs, logits)
        self.__dict__[name], = broadcast_all(value)
        super().__init__(self._param.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_binary_cross_entropy_with_logits(logits, value)

    def entropy(self):
        return _binary_cross_entropy_with_logits(self.logits, self.probs)


def _binary_cross_entropy_with_logits(logits, target):
    """-(target log sigmoid(logits) + (1 - target) log sigmoid(-logits)), elementwise, computed stably as
    max(logits, 0) - logits * target + log1p(exp(-|logits|))."""
    return logits.clamp(min=0) - logits * target + _C.log1p(_C.exp(-logits.abs()))
