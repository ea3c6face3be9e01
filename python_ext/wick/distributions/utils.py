"""wick.distributions.utils: broadcasting parameters and converting between probabilities and logits, as PyTorch's
torch.distributions.utils."""
import numbers

from wick import _C
from wick.functional import broadcast_tensors
from wick.type_info import finfo, get_default_dtype

__all__ = ["broadcast_all", "clamp_probs", "logits_to_probs", "probs_to_logits"]


def broadcast_all(*values):
    """values (tensors or numbers) as tensors of one broadcast shape; numbers take the first tensor's dtype and
    device, or the default dtype."""
    tensors = [v for v in values if isinstance(v, _C.TensorBase)]
    for v in values:
        if not isinstance(v, (_C.TensorBase, numbers.Number)):
            raise ValueError("Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
                             "implementing __torch_function__.")
    like = dict(dtype=tensors[0].dtype, device=tensors[0].device) if tensors else dict(dtype=get_default_dtype())
    return broadcast_tensors(*(v if isinstance(v, _C.TensorBase) else _C.tensor(v, **like) for v in values))


def clamp_probs(probs):
    """probs kept eps (the dtype's) away from 0 and 1, so their logarithms are finite."""
    eps = finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def logits_to_probs(logits, is_binary=False):
    """sigmoid(logits) for binary events, else softmax over the last dimension."""
    return _C.sigmoid(logits) if is_binary else _C.softmax(logits, -1)


def probs_to_logits(probs, is_binary=False):
    """log(p) - log1p(-p) for binary events, else log(p), of the clamped probabilities."""
    clamped = clamp_probs(probs)
    return _C.log(clamped) - _C.log1p(-clamped) if is_binary else _C.log(clamped)
