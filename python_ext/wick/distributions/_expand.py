"""wick.distributions._expand: Expandable, the expand method of the distributions whose parameters are tensors of
batch_shape (+ their own event dimensions), as PyTorch's Distribution.expand."""
import copy

from wick import _C

__all__ = ["Expandable"]


class Expandable:
    """Gives expand(batch_shape): a copy whose tensors of the batch (the parameters, and those computed from them)
    are views expanded to batch_shape. Nothing is checked again: an expanded parameter is valid where it was."""

    def expand(self, batch_shape, _instance=None):
        batch_shape = tuple(batch_shape)
        new = copy.copy(self) if _instance is None else _instance
        batch_dims = len(self._batch_shape)
        for name, value in self.__dict__.items():
            if isinstance(value, _C.TensorBase) and value.shape[:batch_dims] == self._batch_shape:
                new.__dict__[name] = value.expand(batch_shape + value.shape[batch_dims:])
            elif isinstance(value, Expandable):  # an inner distribution (Beta's Dirichlet)
                new.__dict__[name] = value.expand(batch_shape)
        new._batch_shape = batch_shape
        return new
