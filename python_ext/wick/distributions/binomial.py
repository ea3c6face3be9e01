"""wick.distributions.binomial: the binomial distribution, as PyTorch's Binomial."""
from wick import _C
from wick.autograd import no_grad
from wick.distributions import constraints
from wick.distributions.bernoulli import _ProbsOrLogits, _probs_or_logits
from wick.distributions._expand import Expandable
from wick.distributions.poisson import nonnegative_integer
from wick.distributions.utils import broadcast_all
from wick.special import gammaln

__all__ = ["Binomial"]

# Trials drawn per step of Binomial.sample: a step holds (elements, _TRIALS_PER_STEP) uniforms.
_TRIALS_PER_STEP = 1024


def _clamp_by_zero(x):
    """max(x, 0), with the gradient 1/2 at 0 (PyTorch's, for the same gradients of log_prob)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(Expandable, _ProbsOrLogits):
    """Binomial(total_count=1, probs=None, logits=None): the number of successes in total_count Bernoulli trials
    of success probability probs (or sigmoid(logits))."""
    arg_constraints = {"total_count": nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    has_enumerate_support = True
    _is_binary = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        name, value = _probs_or_logits(probs, logits)
        self.total_count, self.__dict__[name] = broadcast_all(total_count, value)
        self.total_count = self.total_count.type_as(self._param)
        super().__init__(self._param.shape, validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        # Exact: the successes among total_count uniforms below probs, counted _TRIALS_PER_STEP trials at a time,
        # so the time is linear in the largest total_count.
        shape = self._extended_shape(sample_shape)
        with no_grad():
            count, probs = self.total_count.expand(shape).reshape(-1, 1), self.probs.expand(shape).reshape(-1, 1)
            successes = _C.zeros(count.shape, dtype=probs.dtype, device=probs.device)
            largest = int(count.max()) if count.numel() else 0
            for start in range(0, largest, _TRIALS_PER_STEP):
                trials = min(_TRIALS_PER_STEP, largest - start)
                u = _C.rand((count.shape[0], trials), dtype=probs.dtype, device=probs.device)
                trial = _C.arange(start, start + trials, dtype=probs.dtype, device=probs.device)
                successes += ((u < probs) & (trial < count)).sum(-1, keepdim=True).to(probs.dtype)
            return successes.reshape(shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = gammaln(self.total_count + 1)
        log_factorial_k = gammaln(value + 1)
        log_factorial_nmk = gammaln(self.total_count - value + 1)
        # total_count * log(1 + exp(logits)), computed stably.
        normaliser = (self.total_count * _clamp_by_zero(self.logits)
                      + self.total_count * _C.log1p(_C.exp(-_C.abs(self.logits))) - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normaliser

    def entropy(self):
        total_count = int(self.total_count.max())
        if not bool(self.total_count.min() == total_count):
            raise NotImplementedError("Inhomogeneous total count not supported by `entropy`.")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(_C.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total_count = int(self.total_count.max())
        if not bool(self.total_count.min() == total_count):
            raise NotImplementedError("Inhomogeneous total count not supported by `enumerate_support`.")
        values = _C.arange(1 + total_count, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
