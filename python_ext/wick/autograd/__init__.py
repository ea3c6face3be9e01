"""wick.autograd: the grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode), as PyTorch's."""
from wick.autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                                     no_grad, set_grad_enabled)

__all__ = ["enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled", "no_grad",
           "set_grad_enabled"]
