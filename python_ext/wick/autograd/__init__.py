"""wick.autograd: gradients of tensor computations, as PyTorch's torch.autograd.

backward() and grad() run core's engine over the graph the ops record; the grad
modes (no_grad, enable_grad, set_grad_enabled, inference_mode) say whether they
record.
Function makes an op of Python code with a backward of its own; gradcheck and
gradgradcheck check gradients against finite differences.
"""
from wick.autograd.engine import backward, grad
from wick.autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                                     no_grad, set_grad_enabled)
from wick.autograd.function import Function, FunctionCtx
from wick.autograd.gradcheck import gradcheck, gradgradcheck
from wick.autograd import functional  # noqa: F401

__all__ = ["backward", "enable_grad", "grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
           "no_grad", "set_grad_enabled"]
__all__ += ["Function", "FunctionCtx", "gradcheck", "gradgradcheck"]
