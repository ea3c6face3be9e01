"""wick.distributions.one_hot_categorical: the one-hot categorical distribution, as PyTorch's OneHotCategorical."""
from wick import _C
from wick.distributions import constraints
from wick.distributions._expand import Expandable
from wick.distributions.categorical import Categorical
from wick.distributions.distribution import Distribution

__all__ = ["OneHotCategorical"]


class _OneHot(constraints.Constraint):
    """Vectors of zeros with a single one (PyTorch's constraints.one_hot)."""
    is_discrete = True
    event_dim = 1

    def check(self, value):
        return ((value == 0) | (value == 1)).all(-1) & (value.sum(-1) == 1)


def _one_hot(indices, classes, dtype):
    return (indices.unsqueeze(-1) == _C.arange(classes, device=indices.device)).to(dtype)


class OneHotCategorical(Expandable, Distribution):
    """OneHotCategorical(probs=None, logits=None): Categorical(probs, logits)'s draws as one-hot vectors."""
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    support = _OneHot()
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return OneHotCategorical(probs=self.probs.expand(tuple(batch_shape) + self._event_shape),
                                 validate_args=False)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        return _one_hot(self.probs.argmax(-1), self._event_shape[0], self.probs.dtype)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        return _one_hot(self._categorical.sample(sample_shape), self._event_shape[0], self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.argmax(-1))

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self._event_shape[0]
        values = _C.eye(n, dtype=self.probs.dtype, device=self.probs.device)
        values = values.view((n,) + (1,) * len(self._batch_shape) + (n,))
        return values.expand((n,) + self._batch_shape + (n,)) if expand else values
