"""wick.nn.modules.instancenorm: InstanceNorm1d and InstanceNorm2d, normalising each channel of each sample by its
own statistics (or, in evaluation with track_running_stats, by running averages of them), as PyTorch's."""
import warnings

from wick.nn import functional as F
from wick.nn.modules.batchnorm import _BatchNorm

__all__ = ["InstanceNorm1d", "InstanceNorm2d"]


class _InstanceNorm(_BatchNorm):
    """An instance normalisation over `_spatial` trailing dims, of a batched or an unbatched input; its
    parameters and buffers are batch norm's, with other defaults."""

    _spatial: int

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def _check_input_dim(self, input):
        if input.dim() not in (self._spatial + 1, self._spatial + 2):
            raise ValueError(f"expected {self._spatial + 1}D or {self._spatial + 2}D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        channel_dim = input.dim() - self._spatial - 1
        if input.shape[channel_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={channel_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.shape[channel_dim]}.")
            warnings.warn(f"input's size at dim={channel_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False")
        batched = input if channel_dim == 1 else input.unsqueeze(0)
        out = F.instance_norm(batched, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats, self.momentum, self.eps)
        return out if channel_dim == 1 else out.squeeze(0)


class InstanceNorm1d(_InstanceNorm):
    """InstanceNorm1d(num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None,
    dtype=None): over input (N, C, L) or (C, L)."""

    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """InstanceNorm2d(num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None,
    dtype=None): over input (N, C, H, W) or (C, H, W)."""

    _spatial = 2
