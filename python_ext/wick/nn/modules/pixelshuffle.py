"""wick.nn.modules.pixelshuffle: PixelShuffle and PixelUnshuffle, moving channels into space and back."""
from wick.nn import functional as F
from wick.nn.modules.module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """PixelShuffle(upscale_factor): (*, C * r ** 2, H, W) rearranged to (*, C, H * r, W * r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """PixelUnshuffle(downscale_factor): (*, C, H * r, W * r) rearranged to (*, C * r ** 2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"
