"""wick.nn.modules.linear: Identity, and Linear (y = x Wᵀ + b) with PyTorch's initialisation."""
import math

import wick
from wick.nn import functional as F
from wick.nn import init
from wick.nn.modules.module import Module
from wick.nn.parameter import Parameter

__all__ = ["Identity", "Linear"]


class Identity(Module):
    """Identity(*args, **kwargs): returns its input; the arguments are ignored."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


def reset_fan_in_uniform(weight, bias):
    """PyTorch's initialisation of linear and convolution layers: kaiming_uniform_ with a = sqrt(5), which
    is U(-1/sqrt(fan_in), 1/sqrt(fan_in)), and the bias from the same range."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = init._calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(bias, -bound, bound)


class Linear(Module):
    """Linear(in_features, out_features, bias=True, device=None, dtype=None)

    y = x Wᵀ + b, with W of shape (out_features, in_features) and b of shape (out_features,), both drawn
    from U(-1/sqrt(in_features), 1/sqrt(in_features)).
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(wick.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(wick.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        reset_fan_in_uniform(self.weight, self.bias)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
