"""wick.nn.modules.fold: Unfold, which lays out the sliding windows of a batch of images as columns (im2col),
and Fold, which sums such columns back into images (col2im)."""
from wick.nn import functional as F
from wick.nn.modules.module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Fold(output_size, kernel_size, dilation=1, padding=0, stride=1)

    The columns (N, C * kh * kw, L) of input summed into the windows of planes of output_size that they came from:
    F.fold.
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """Unfold(kernel_size, dilation=1, padding=0, stride=1)

    The sliding windows of input (N, C, H, W) as columns (N, C * kh * kw, L), one per window: F.unfold.
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")
