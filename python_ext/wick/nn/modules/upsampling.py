"""wick.nn.modules.upsampling: Upsample, and its fixed-mode forms UpsamplingNearest2d and UpsamplingBilinear2d;
each forward is wick.nn.functional.interpolate."""
from wick.nn import functional as F
from wick.nn.modules.module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Upsample(Module):
    """Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None)

    The input resampled to size, or to its size times scale_factor, by F.interpolate's mode.
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        setting = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return f"{setting}, mode={self.mode}"


class UpsamplingNearest2d(Upsample):
    """UpsamplingNearest2d(size=None, scale_factor=None): Upsample with mode 'nearest'."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """UpsamplingBilinear2d(size=None, scale_factor=None): Upsample with mode 'bilinear' and align_corners."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
