"""Custom autograd Functions that the tests of this folder share."""


def exp_function(lib, factor=1.0, detached=False):
    """Exp as a `lib.autograd.Function`, whose backward is off by `factor` unless it is 1; differentiable twice
    (its saved output keeps its history), unless `detached`: then backward reads its result without its history,
    and the second derivative is wrong."""
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * (result.detach() if detached else result) * factor
    return Exp
