"""wick.nn._sampling_functions: torch.nn.functional's (1.13) resampling, 1-d pooling, transposed convolutions and
group and instance norms: interpolate, max_pool1d, avg_pool1d, pixel_shuffle, pixel_unshuffle, conv_transpose1d,
conv_transpose2d, group_norm and instance_norm. Re-exported by wick.nn.functional, which this module imports from
(see its last lines).

interpolate resamples one spatial dim at a time with index_select (linear: two of them, mixed by the weights of
PyTorch's kernels); a transposed convolution is the adjoint of conv: one matmul to columns, then col2im (fold).
"""
import math

from wick import _C
from wick.autograd import no_grad
from wick.nn._checks import check_tensors
from wick.nn.functional import (_affine, _batched, _constant_pad, _ints, _shape, adaptive_avg_pool1d,
                                adaptive_avg_pool2d, avg_pool2d, batch_norm, max_pool2d)

__all__ = ["interpolate", "max_pool1d", "avg_pool1d", "pixel_shuffle", "pixel_unshuffle", "conv_transpose1d",
           "conv_transpose2d", "group_norm", "instance_norm"]

_LINEAR_MODES = ("linear", "bilinear", "bicubic", "trilinear")


# Interpolation -------------------------------------------------------------------------------------------------

def _nearest_index(size, out, scale, exact, device):
    """The source of each output element along a dim, as PyTorch's nearest kernels: floor((i [+ 0.5]) * ratio),
    in float32 arithmetic, where ratio is 1 / scale_factor if given, else size / out."""
    ratio = _C.tensor(1.0 / scale if scale else size / out, dtype=_C.float32)  # rounded to float32, as PyTorch's
    positions = (_C.arange(out, dtype=_C.float32, device=device) + (0.5 if exact else 0.0)) * ratio.item()
    return positions.floor().long().clamp_max(size - 1)


def _linear_weights(size, out, scale, align_corners, device):
    """(i0, i1, w1) of the output elements along a dim, as PyTorch's linear kernels: output i is
    x[i0[i]] * (1 - w1[i]) + x[i1[i]] * w1[i]."""
    positions = _C.arange(out, dtype=_C.float64, device=device)
    if align_corners:
        sources = positions * ((size - 1) / (out - 1) if out > 1 else 0.0)
    else:
        sources = ((positions + 0.5) * (1.0 / scale if scale else size / out) - 0.5).clamp_min(0.0)
    i0 = sources.long()  # floor: each source >= 0
    i1 = i0 + (i0 < size - 1).long()
    return i0, i1, (sources - i0).clamp(0.0, 1.0)


def _spatial(value, dims, input, what, example):
    """interpolate's size or scale_factor as a list of one per spatial dim."""
    if not isinstance(value, (list, tuple)):
        return [value] * dims
    if len(value) != dims:
        raise ValueError(f"Input and {what} must have the same number of spatial dimensions, but got input with "
                         f"spatial dimensions of {list(input.shape[2:])} and {what} of {list(value)}. Please "
                         f"provide input tensor in (N, C, d1, d2, ...,dK) format and {what} in {example} format.")
    return list(value)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None, antialias=False) -> Tensor

    input (N, C, L) or (N, C, H, W) resampled to size, or to its size times scale_factor: 'nearest',
    'nearest-exact', 'linear' (3-d), 'bilinear' (4-d) and 'area' (adaptive average pooling); the other modes
    of PyTorch (bicubic, trilinear, antialias) raise NotImplementedError.
    """
    check_tensors("interpolate", ("input", input))
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    dims = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None and recompute_scale_factor:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if size is not None:
        output_size, scales = _spatial(size, dims, input, "output size", "(o1, o2, ...,oK)"), [None] * dims
    else:
        scales = [float(s) for s in _spatial(scale_factor, dims, input, "scale_factor", "(s1, s2, ...,sK)")]
        output_size = [math.floor(n * s) for n, s in zip(input.shape[2:], scales)]
        if recompute_scale_factor or mode == "area":
            scales = [None] * dims
    if antialias and not (mode in ("bilinear", "bicubic") and input.dim() == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    expected = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}.get(mode)
    if mode not in ("nearest", "nearest-exact", "area", *_LINEAR_MODES) or input.dim() not in (3, 4, 5):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                                  "the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
                                  f"nearest-exact (got {mode})")
    if expected is not None and input.dim() != expected:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {expected}D input")
    if mode in ("bicubic", "trilinear") or antialias or input.dim() == 5:
        raise NotImplementedError(f"interpolate: mode '{mode}' with {input.dim()}D input"
                                  f"{' and antialias' if antialias else ''} is not implemented in wick")
    if not all(isinstance(n, int) for n in output_size):
        raise TypeError(f"interpolate(): size must be ints, but got {output_size}")
    if min(output_size) <= 0 or min(input.shape[2:]) <= 0:
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"{tuple(input.shape[2:])} and output {tuple(output_size)}")
    if mode == "area":
        pool = adaptive_avg_pool1d if dims == 1 else adaptive_avg_pool2d
        return pool(input, output_size[0] if dims == 1 else output_size)
    out = input
    for dim, (n, o, s) in enumerate(zip(input.shape[2:], output_size, scales), start=2):
        if mode in ("nearest", "nearest-exact"):
            out = out.index_select(dim, _nearest_index(n, o, s, mode == "nearest-exact", input.device))
            continue
        i0, i1, w1 = _linear_weights(n, o, s, bool(align_corners), input.device)
        w1 = w1.to(input.dtype).reshape([o] + [1] * (input.dim() - 1 - dim))  # the weights along dim
        out = _C.lerp(out.index_select(dim, i0), out.index_select(dim, i1), w1)
    return out


# 1-d pooling ---------------------------------------------------------------------------------------------------

def _one(value, name, what):
    """A 1-d pooling's setting: an int, or a sequence of one."""
    if isinstance(value, int):
        return value
    if len(value) != 1:
        raise RuntimeError(f"{name}() {what} must be an int or int list of size 1 but got size {len(value)}")
    return value[0]


def _pool1d_input(name, input):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"{name}() Expected 2D or 3D input tensor, but got {_shape(input)}")
    return input.unsqueeze(-2)  # as PyTorch: the 2-d pooling of planes of height 1


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)

    The maximum of each window of input (N, C, L) or (C, L); with return_indices, also where it is along L.
    """
    check_tensors("max_pool1d", ("input", input))
    settings = [_one(v, "max_pool1d", what) for v, what in ((kernel_size, "kernel_size"), (padding, "padding"),
                                                             (dilation, "dilation"))]
    kernel, padding, dilation = settings
    stride = kernel if stride is None or stride == [] or stride == () else _one(stride, "max_pool1d", "stride")
    out = max_pool2d(_pool1d_input("max_pool1d", input), (1, kernel), (1, stride), (0, padding), (1, dilation),
                     ceil_mode, return_indices)
    return tuple(t.squeeze(-2) for t in out) if return_indices else out.squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True) -> Tensor

    The mean of each window of input (N, C, L) or (C, L).
    """
    check_tensors("avg_pool1d", ("input", input))
    kernel, padding = _one(kernel_size, "avg_pool1d", "kernel_size"), _one(padding, "avg_pool1d", "padding")
    stride = kernel if stride is None or stride == [] or stride == () else _one(stride, "avg_pool1d", "stride")
    out = avg_pool2d(_pool1d_input("avg_pool1d", input), (1, kernel), (1, stride), (0, padding), ceil_mode,
                     count_include_pad)
    return out.squeeze(-2)


# Pixel shuffle -------------------------------------------------------------------------------------------------

def _check_shuffle(name, input, factor, what):
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(input, upscale_factor):
    """pixel_shuffle(input, upscale_factor) -> Tensor: (*, C * r ** 2, H, W) rearranged to (*, C, H * r, W * r)."""
    check_tensors("pixel_shuffle", ("input", input))
    r = upscale_factor
    _check_shuffle("pixel_shuffle", input, r, "upscale_factor")
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    n = len(batch)
    x = input.reshape([*batch, c // (r * r), r, r, h, w])
    x = x.permute([*range(n), n, n + 3, n + 1, n + 4, n + 2])
    return x.reshape([*batch, c // (r * r), h * r, w * r])


def pixel_unshuffle(input, downscale_factor):
    """pixel_unshuffle(input, downscale_factor) -> Tensor: (*, C, H * r, W * r) rearranged to
    (*, C * r ** 2, H, W), the inverse of pixel_shuffle."""
    check_tensors("pixel_unshuffle", ("input", input))
    r = downscale_factor
    _check_shuffle("pixel_unshuffle", input, r, "downscale_factor")
    *batch, c, h, w = input.shape
    for size, what, dim in ((h, "height", -2), (w, "width", -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                               f"input.size({dim})={size} is not divisible by {r}")
    n = len(batch)
    x = input.reshape([*batch, c, h // r, r, w // r, r])
    x = x.permute([*range(n), n, n + 2, n + 4, n + 1, n + 3])
    return x.reshape([*batch, c * r * r, h // r, w // r])


# Transposed convolution ----------------------------------------------------------------------------------------

def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, dims):
    """conv_transpose1d and conv_transpose2d (dims 1 or 2): the adjoint of conv with weight. Each input position
    spreads weight times its value over a window of the output: a matmul gives the windows' columns, col2im sums
    them into the uncropped plane, and cropping `padding` (or appending zeros, where output_padding is larger)
    gives the output."""
    name = f"conv_transpose{dims}d"
    check_tensors(name, ("input", input), ("weight", weight), ("bias", bias), optional=("bias",))
    x, batched = _batched(input, dims, name)

    def expect(value, what):
        if isinstance(value, str):
            raise TypeError(f"{name}(): argument '{what}' must be tuple of ints, not str")
        return _ints(value, dims, f"expected {what} to be a single integer value or a list of {dims} values to "
                                  f"match the convolution dimensions, but got {what}={value}")

    stride, padding = expect(stride, "stride"), expect(padding, "padding")
    output_padding, dilation = expect(output_padding, "output_padding"), expect(dilation, "dilation")
    if weight.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 2}-dimensional weight for {dims + 2}-dimensional input {_shape(x)}, "
                           f"but got {weight.dim()}-dimensional weight of size {_shape(weight)} instead")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding) or any(p < 0 for p in output_padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got "
                           f"output_padding={list(output_padding)} stride={list(stride)} dilation={list(dilation)}")
    in_channels = weight.shape[0]
    if in_channels % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size {_shape(weight)} instead")
    if x.shape[1] != in_channels:
        raise RuntimeError(f"Given transposed=1, weight of size {_shape(weight)}, expected input{_shape(x)} to have "
                           f"{in_channels} channels, but got {x.shape[1]} channels instead")
    out_channels, kernel = weight.shape[1] * groups, tuple(weight.shape[2:])
    if bias is not None and (bias.dim() != 1 or bias.numel() != out_channels):
        raise RuntimeError(f"Given transposed=1, weight of size {_shape(weight)}, expected bias to be 1-dimensional "
                           f"with {out_channels} elements, but got bias of size {_shape(bias)} instead")
    if x.dtype != weight.dtype:
        raise RuntimeError(f"Input type ({x.dtype}) and weight type ({weight.dtype}) should be the same")
    spatial = tuple(x.shape[2:])
    full = [(n - 1) * s + d * (k - 1) + 1 for n, s, d, k in zip(spatial, stride, dilation, kernel)]
    out = [f - 2 * p + op for f, p, op in zip(full, padding, output_padding)]
    if min(out) <= 0 or min(spatial) <= 0:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, spatial))}). Calculated output "
                           f"size per channel: ({' x '.join(map(str, out))}). Output size is too small")
    if dims == 1:  # planes of height 1
        x, weight = x.unsqueeze(2), weight.unsqueeze(2)
        kernel, stride, dilation, full = (1, *kernel), (1, *stride), (1, *dilation), [1, *full]
    n, length = x.shape[0], x.shape[2] * x.shape[3]
    per_group = weight.shape[1] * kernel[0] * kernel[1]
    # (G, C/G, O/G * K)^T @ (N, G, C/G, L): each group's input channels spread over its filters' windows.
    columns = _C.matmul(weight.reshape([groups, in_channels // groups, per_group]).transpose(1, 2),
                        x.reshape([n, groups, in_channels // groups, length]))
    y = _C.col2im(columns.reshape([n, groups * per_group, length]), full, list(kernel), list(dilation), [0, 0],
                  list(stride))
    if dims == 1:
        y = y.squeeze(2)
    y = _constant_pad(y, [(2 + i, -p, op - p) for i, (p, op) in enumerate(zip(padding, output_padding))], 0)
    if bias is not None:
        y = y + bias.reshape([out_channels] + [1] * dims)
    return y if batched else y.squeeze(0)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)

    The 1-d transposed convolution of input (N, C, L) or (C, L) with weight (C, O / groups, k): the adjoint of
    conv1d.
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)

    The 2-d transposed convolution of input (N, C, H, W) or (C, H, W) with weight (C, O / groups, kh, kw): the
    adjoint of conv2d.
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


# Group and instance norm ---------------------------------------------------------------------------------------

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """group_norm(input, num_groups, weight=None, bias=None, eps=1e-05) -> Tensor

    input (N, C, *) normalized over each group of C / num_groups channels (and all of their other dims), then
    scaled by weight and shifted by bias, one per channel.
    """
    check_tensors("group_norm", ("input", input), ("weight", weight), ("bias", bias), optional=("weight", "bias"))
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, channels = input.shape[:2]
    if num_groups <= 0 or channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {_shape(input)} and num_groups={num_groups}")
    for what, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != channels):
            raise RuntimeError(f"Expected {what} to be a vector of size equal to the number of channels in input, "
                               f"but got {what} of shape {_shape(t)} and input of shape {_shape(input)}")
    groups = input.reshape([n, num_groups, -1])
    mean, var = groups.mean([2], keepdim=True), groups.var([2], correction=0, keepdim=True)
    out = ((groups - mean) * (var + eps).rsqrt()).reshape(input.shape)
    shape = [channels] + [1] * (input.dim() - 2)  # a vector of the channels, along dim 1
    return _affine(out, *(None if t is None else t.reshape(shape) for t in (weight, bias)))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
    momentum=0.1, eps=1e-05) -> Tensor

    Each channel of each sample of input (N, C, *) normalized over its other dims (or by the running statistics
    without use_input_stats), then scaled by weight and shifted by bias. As PyTorch's: batch_norm of the input
    seen as one sample of N * C channels; the running statistics move towards the samples' mean statistics.
    """
    statistics = ("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)
    check_tensors("instance_norm", ("input", input), *statistics, optional=[name for name, _ in statistics])
    if input.dim() < 3:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    n, channels = input.shape[:2]

    def per_sample(t):
        return None if t is None else t.repeat([n])

    mean, var = per_sample(running_mean), per_sample(running_var)
    out = batch_norm(input.reshape([1, n * channels, *input.shape[2:]]), mean, var, per_sample(weight),
                     per_sample(bias), use_input_stats, momentum, eps)
    with no_grad():
        for running, moved in ((running_mean, mean), (running_var, var)):
            if running is not None and use_input_stats:
                running.copy_(moved.reshape([n, channels]).mean([0]))
    return out.reshape(input.shape)
