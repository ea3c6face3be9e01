"""wick.nn.utils: what training loops use besides modules (gradient clipping), as torch.nn.utils."""
from wick.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_"]
