"""wick.nn.utils.clip_grad: clip_grad_norm_ and clip_grad_value_, as PyTorch's (and clip_grad_norm, deprecated)."""
import math
import warnings

import wick


def _grads(parameters):
    if isinstance(parameters, wick.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None) -> Tensor

    Scales the gradients of `parameters` in place so that their norm, taken over all of them as one
    vector, is at most max_norm; returns that norm as it was. foreach (PyTorch 2's choice of its
    multi-tensor kernels) is accepted and changes nothing: the result is the same either way.
    """
    grads = _grads(parameters)
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return wick.tensor(0.0)
    with wick.no_grad():
        if norm_type == math.inf:
            norms = [g.abs().amax() for g in grads]
            total = norms[0] if len(norms) == 1 else wick.stack(norms).amax()
        else:
            total = wick.stack([wick.norm(g, norm_type) for g in grads]).norm(norm_type)
        if error_if_nonfinite and not bool(wick.isfinite(total)):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                               "so it cannot be clipped. To disable this error and scale the gradients by the "
                               "non-finite norm anyway, set `error_if_nonfinite=False`")
        scale = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(scale.to(g.dtype))
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False) -> Tensor

    Deprecated: warns and calls clip_grad_norm_.
    """
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_.",
                  stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    """clip_grad_value_(parameters, clip_value) -> None: clamps every gradient to [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    with wick.no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
