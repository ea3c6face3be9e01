"""wick.distributions.geometric: the geometric distribution, as PyTorch's Geometric."""
from wick import _C
from wick.autograd import no_grad
from wick.distributions import constraints
from wick.distributions.bernoulli import _ProbsOrLogits, _binary_cross_entropy_with_logits, _probs_or_logits
from wick.distributions._expand import Expandable
from wick.distributions.poisson import nonnegative_integer
from wick.distributions.utils import broadcast_all
from wick.type_info import finfo

__all__ = ["Geometric"]


class Geometric(Expandable, _ProbsOrLogits):
    """Geometric(probs=None, logits=None): the number k of failures before the first success of Bernoulli trials
    of success probability probs (or sigmoid(logits)): (1 - p)^k p."""
    arg_constraints = {"probs": constraints.interval(0.0, 1.0), "logits": constraints.real}
    support = nonnegative_integer
    _is_binary = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        name, value = _probs_or_logits(probs, logits)
        self.__dict__[name], = broadcast_all(value)
        super().__init__(self._param.shape, validate_args=validate_args)
        if self._validate_args and probs is not None and not bool((self.probs > 0).all()):
            raise ValueError(f"Expected parameter probs (Tensor of shape {tuple(probs.shape)}) of distribution "
                             f"{self!r} to be positive but found invalid values:\n{probs}")

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return _C.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()):
        # floor(log(u) / log(1 - p)): inverting the survival function (1 - p)^k at a uniform kept above 0.
        shape = self._extended_shape(sample_shape)
        with no_grad():
            u = _C.rand(shape, dtype=self.probs.dtype, device=self.probs.device).clamp(min=finfo(self.probs.dtype).tiny)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        # p = 1 with k = 0 has probability 1: 0 * log(0) counts 0.
        failure = _C.where((probs == 1) & (value == 0), 0.0, value * (-probs).log1p())
        return failure + self.probs.log()

    def entropy(self):
        return _binary_cross_entropy_with_logits(self.logits, self.probs) / self.probs
