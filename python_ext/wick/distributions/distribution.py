"""wick.distributions.distribution: Distribution, the base of every distribution, as PyTorch's."""
from wick import _C
from wick.autograd import no_grad

__all__ = ["Distribution"]


def _shape_repr(shape):
    return f"({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})"


class Distribution:
    """A batch of probability distributions of batch_shape, each over events of event_shape.

    Subclasses give arg_constraints (the constraint each parameter must meet), support (where values lie) and
    whichever of sample/rsample, log_prob, entropy, mean and variance they have. validate_args (default True, as
    PyTorch's default outside python -O) checks the parameters on construction and the values given to log_prob."""
    has_rsample = False
    _validate_default = True
    arg_constraints = {}
    support = None

    @staticmethod
    def set_default_validate_args(value):
        """Whether distributions validate their arguments when not told (validate_args=None)."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_default = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self._batch_shape, self._event_shape = tuple(batch_shape), tuple(event_shape)
        self._validate_args = Distribution._validate_default if validate_args is None else validate_args
        if self._validate_args:
            for name, constraint in self.arg_constraints.items():
                if name not in self.__dict__ and isinstance(getattr(type(self), name, None), property):
                    continue  # a parameter computed from the one given (probs from logits): not checked
                value = getattr(self, name)
                if not bool(constraint.check(value).all()):
                    raise ValueError(f"Expected parameter {name} (Tensor of shape {_shape_repr(value.shape)}) of "
                                     f"distribution {self!r} to satisfy the constraint {constraint!r}, but found "
                                     f"invalid values:\n{value}")

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=()):
        """Draws of shape sample_shape + batch_shape + event_shape, outside the autograd graph."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        """Reparameterised draws: differentiable with respect to the parameters."""
        raise NotImplementedError

    def sample_n(self, n):
        return self.sample((n,))

    def log_prob(self, value):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def perplexity(self):
        return _C.exp(self.entropy())

    def _extended_shape(self, sample_shape=()):
        if not isinstance(sample_shape, (tuple, list)):
            raise TypeError(f"sample_shape must be a tuple of ints, not {type(sample_shape).__name__}")
        return tuple(sample_shape) + self._batch_shape + self._event_shape

    def _validate_sample(self, value):
        """value is a tensor whose shape broadcasts with batch_shape + event_shape and that lies in support."""
        if not isinstance(value, _C.TensorBase):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim = len(self._event_shape)
        if value.shape[len(value.shape) - event_dim:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.shape} vs "
                             f"{self._event_shape}.")
        actual, expected = value.shape[:len(value.shape) - event_dim], self._batch_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {value.shape} vs "
                                 f"{actual + self._event_shape}.")
        if not bool(self.support.check(value).all()):
            raise ValueError(f"Expected value argument (Tensor of shape {_shape_repr(value.shape)}) to be within "
                             f"the support ({self.support!r}) of the distribution {self!r}, but found invalid "
                             f"values:\n{value}")

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].shape}"
                         for k in names)
        return f"{type(self).__name__}({args})"
