"""wick.nn.modules.normalization: LayerNorm, normalising over the trailing dims, and GroupNorm, over groups of
channels; each with a learned affine map."""
import numbers

import wick
from wick.nn import functional as F
from wick.nn import init
from wick.nn.modules.module import Module
from wick.nn.parameter import Parameter

__all__ = ["LayerNorm", "GroupNorm"]


class LayerNorm(Module):
    """LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True, device=None, dtype=None)

    (x - mean) / sqrt(var + eps) over the last len(normalized_shape) dims, then times weight (ones at first)
    plus bias (zeros at first) if elementwise_affine.
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(wick.empty(self.normalized_shape, device=device, dtype=dtype))
            self.bias = Parameter(wick.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class GroupNorm(Module):
    """GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None)

    (x - mean) / sqrt(var + eps) over each group of num_channels / num_groups channels (and their other dims),
    then times weight (ones at first) plus bias (zeros at first), one per channel, if affine.
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(wick.empty(num_channels, device=device, dtype=dtype))
            self.bias = Parameter(wick.empty(num_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"
