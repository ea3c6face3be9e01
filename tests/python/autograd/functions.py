"""Custom autograd Functions that the tests of this folder share."""


def exp_function(lib, factor=1.0):
    """Exp as a `lib.autograd.Function`, whose backward is off by `factor` unless it is 1; differentiable twice
    (its saved output keeps its history)."""
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result * factor
    return Exp
