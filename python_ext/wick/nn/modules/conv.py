"""wick.nn.modules.conv: Conv1d and Conv2d, with PyTorch's initialisation and padding modes, and their transposes
ConvTranspose1d and ConvTranspose2d."""
import wick
from wick.nn import functional as F
from wick.nn.modules.linear import reset_fan_in_uniform
from wick.nn.modules.module import Module
from wick.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value, n):
    """`value` as a tuple of n: an int repeated, or a sequence as it is."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """A convolution over the last N dims; subclasses set N (_dims) and the functional op (_conv)."""

    _dims: int

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {list(_PADDING_MODES)}, "
                             f"but got padding_mode='{padding_mode}'")
        n = self._dims
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.dilation = _ntuple(dilation, n)
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding = padding
        else:
            self.padding = _ntuple(padding, n)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.groups = groups
        self.padding_mode = padding_mode
        self.output_padding = (0,) * n
        self._reversed_padding_repeated_twice = self._explicit_padding()
        self.weight = Parameter(wick.empty(self._weight_shape(), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(wick.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _weight_shape(self):
        return (self.out_channels, self.in_channels // self.groups, *self.kernel_size)

    def _explicit_padding(self):
        """F.pad's form of the padding (last dim first, each side): what the non-zero padding modes pad by."""
        if self.padding == "valid":
            return [0, 0] * self._dims
        if self.padding == "same":
            pads = []
            for d, k in zip(reversed(self.dilation), reversed(self.kernel_size)):
                total = d * (k - 1)
                pads += [total // 2, total - total // 2]
            return pads
        return [p for p in reversed(self.padding) for _ in range(2)]

    def reset_parameters(self):
        reset_fan_in_uniform(self.weight, self.bias)

    def forward(self, input):
        if self.padding_mode == "zeros":
            return self._conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
        return self._conv(padded, self.weight, self.bias, self.stride, (0,) * self._dims, self.dilation, self.groups)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
    padding_mode='zeros', device=None, dtype=None)

    Over input (N, in_channels, L); weight (out_channels, in_channels / groups, kernel_size) and bias drawn
    from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels / groups * kernel_size.
    """

    _dims = 1

    def _conv(self, *args):
        return F.conv1d(*args)


class Conv2d(_ConvNd):
    """Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
    padding_mode='zeros', device=None, dtype=None)

    Over input (N, in_channels, H, W); weight (out_channels, in_channels / groups, kH, kW) and bias drawn
    from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels / groups * kH * kW.
    """

    _dims = 2

    def _conv(self, *args):
        return F.conv2d(*args)


class _ConvTransposeNd(_ConvNd):
    """A transposed convolution over the last N dims: the adjoint of _ConvNd's, with weight (in_channels,
    out_channels / groups, *kernel_size); output_padding (or forward's output_size) picks among the output sizes
    that a strided convolution maps to the same input size."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.output_padding = _ntuple(output_padding, self._dims)

    def _weight_shape(self):
        return (self.in_channels, self.out_channels // self.groups, *self.kernel_size)

    def _output_padding(self, input, output_size):
        """The output_padding that gives output_size (its spatial sizes, or all of them), as PyTorch's."""
        if output_size is None:
            return self.output_padding
        n = self._dims
        leading = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size)
        if len(output_size) == leading + n:
            output_size = output_size[leading:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or "
                             f"{leading + n} elements (got {len(output_size)})")
        smallest = [(input.shape[leading + d] - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        largest = [size + s - 1 for size, s in zip(smallest, self.stride)]
        if any(not lo <= size <= hi for size, lo, hi in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} to "
                             f"{largest} (for an input of {input.shape[leading:]})")
        return tuple(size - lo for size, lo in zip(output_size, smallest))

    def forward(self, input, output_size=None):
        return self._conv(input, self.weight, self.bias, self.stride, self.padding,
                          self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """ConvTranspose1d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
    bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None)

    Over input (N, in_channels, L); weight (in_channels, out_channels / groups, kernel_size) and bias drawn from
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = out_channels / groups * kernel_size.
    """

    _dims = 1

    def _conv(self, *args):
        return F.conv_transpose1d(*args)


class ConvTranspose2d(_ConvTransposeNd):
    """ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
    bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None)

    Over input (N, in_channels, H, W); weight (in_channels, out_channels / groups, kH, kW) and bias drawn from
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = out_channels / groups * kH * kW.
    """

    _dims = 2

    def _conv(self, *args):
        return F.conv_transpose2d(*args)
