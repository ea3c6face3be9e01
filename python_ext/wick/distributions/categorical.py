"""wick.distributions.categorical: the categorical distribution, as PyTorch's Categorical."""
import math

from wick import _C
from wick.autograd import no_grad
from wick.distributions import constraints
from wick.distributions.bernoulli import _ProbsOrLogits, _probs_or_logits
from wick.functional import broadcast_tensors
from wick.sampling import multinomial
from wick.type_info import finfo

__all__ = ["Categorical"]


class Categorical(_ProbsOrLogits):
    """Categorical(probs=None, logits=None): category i of the last dimension's n with probability probs[..., i]
    (normalised to sum 1) or softmax(logits)[..., i]."""
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        name, value = _probs_or_logits(probs, logits)
        if value.dim() < 1:
            raise ValueError(f"`{name}` parameter must be at least one-dimensional.")
        if name == "probs":
            self.__dict__["probs"] = value / value.sum(-1, keepdim=True)
        else:
            self.__dict__["logits"] = value - value.logsumexp(dim=-1, keepdim=True)
        self._num_events = value.size(-1)
        super().__init__(value.shape[:-1], validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self):
        return self._param.shape

    @property
    def mean(self):
        return _C.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    @property
    def variance(self):
        return _C.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        count = math.prod(sample_shape)
        with no_grad():
            probs_2d = self.probs.reshape(-1, self._num_events)
            samples_2d = multinomial(probs_2d, count, True).t()
        return samples_2d.reshape(shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        # -sum p log p, with -inf logits (zero probabilities) clamped so 0 * log 0 counts 0.
        logits = self.logits.clamp(min=finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = _C.arange(self._num_events, dtype=_C.int64, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
