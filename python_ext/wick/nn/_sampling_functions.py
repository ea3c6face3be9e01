"""wick.nn._sampling_functions: torch.nn.functional's (1.13) resampling, 1-d pooling, transposed convolutions and
group and instance norms: interpolate, affine_grid, grid_sample, max_pool1d, avg_pool1d, pixel_shuffle,
pixel_unshuffle, conv_transpose1d, conv_transpose2d, group_norm and instance_norm. Re-exported by
wick.nn.functional, which this module imports from (see its last lines).

interpolate resamples one spatial dim at a time with index_select (linear: two of them, mixed by the weights of
PyTorch's kernels); grid_sample gathers each point's neighbouring pixels and mixes them with weights that are
differentiable functions of the grid (the floor of a position detached), so that autograd gives PyTorch's gradients
for input and grid; a transposed convolution is the adjoint of conv: one matmul to columns, then col2im (fold).
"""
import itertools
import math
import warnings

from wick import _C
from wick._arguments import _bool, _int_list, _not_implemented, _scalar_type
from wick.autograd import is_grad_enabled, no_grad
from wick.nn._checks import check_tensors
from wick.nn.functional import (_affine, _batched, _constant_pad, _ints, _shape, adaptive_avg_pool1d,
                                adaptive_avg_pool2d, avg_pool2d, batch_norm, max_pool2d)

__all__ = ["interpolate", "affine_grid", "grid_sample", "max_pool1d", "avg_pool1d", "pixel_shuffle",
           "pixel_unshuffle", "conv_transpose1d", "conv_transpose2d", "group_norm", "instance_norm"]

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


# Grid sampling -------------------------------------------------------------------------------------------------

_ALIGN_CORNERS_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                          "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                          "documentation of grid_sample for details.")


def _default_align_corners(align_corners):
    """align_corners, False (with PyTorch's UserWarning) when not given."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING)
        return False
    return align_corners


def _base_coordinates(size, align_corners, theta):
    """affine_grid's normalized coordinates of `size` pixels along a dim: -1 to 1 at the corner pixels' centres
    with align_corners, else at the pixels' centres of a span from -1 to 1; 0 for a single pixel."""
    if size <= 1:
        return _C.zeros([size], dtype=theta.dtype, device=theta.device)
    points = _C.linspace(-1, 1, size, dtype=theta.dtype, device=theta.device)
    return points if align_corners else points * (size - 1) / size


def affine_grid(theta, size, align_corners=None):
    """affine_grid(theta, size, align_corners=None) -> Tensor

    The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of grid_sample that maps each output pixel of size
    (N, C, H, W) (or (N, C, D, H, W)) through the affine matrices theta (N, 2, 3) (or (N, 3, 4)).
    """
    check_tensors("affine_grid", ("theta", theta))
    align_corners = _default_align_corners(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    dims = len(size) - 2
    if theta.dim() != 3 or tuple(theta.shape[1:]) != (dims, dims + 1):
        raise ValueError(f"Expected a batch of {dims}D affine matrices of shape Nx{dims}x{dims + 1} for size "
                         f"{size}. Got {theta.shape}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    n, _, *spatial = _int_list("affine_grid_generator", "size", 2, size)
    align_corners = _bool("affine_grid_generator", "align_corners", 3, align_corners)
    if theta.shape[0] != n:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {dims + 1}] but "
                           f"got: [{theta.shape[0]}, {dims + 1}].")
    # The homogeneous coordinates (x, y[, z], 1) of each output pixel, x along the last dim, times theta^T.
    axes = [_base_coordinates(s, align_corners, theta) for s in reversed(spatial)]
    ones = _C.ones(spatial, dtype=theta.dtype, device=theta.device)
    base = _C.stack([a.reshape([-1] + [1] * i).expand(spatial) for i, a in enumerate(axes)] + [ones], -1)
    base = base.reshape([1, -1, dims + 1])
    return _C.matmul(base, theta.transpose(1, 2)).reshape([n, *spatial, dims])


def _check_grid_sample(input, grid, mode):
    """torch.grid_sampler's checks, in its order."""
    if input.dim() == 0 or grid.dim() == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if input.device != grid.device:
        raise RuntimeError(f"grid_sampler(): expected input and grid to be on same device, but input is on "
                           f"{input.device} and grid is on {grid.device}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {_shape(input)} and grid with sizes {_shape(grid)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but "
                           f"got grid with sizes {_shape(grid)}")
    for dim in range(2, input.dim()):
        if input.shape[dim] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                               f"has sizes {_shape(input)} with dimension {dim} being empty")
    dims = 2 if input.dim() == 4 else 3
    if input.dim() != dims + 2 or grid.dim() != dims + 2:
        raise RuntimeError(f"grid_sampler(): expected {dims + 2}D input and grid with same number of dimensions, "
                           f"but got input with sizes {_shape(input)} and grid with sizes {_shape(grid)}")
    if dims == 3 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    cuda = input.device.type == "cuda"
    if input.dtype not in (_C.float32, _C.float64) and not (cuda and input.dtype == _C.float16):
        if cuda:
            raise _not_implemented(f"grid_sampler_{dims}d_cuda", input.dtype)
        if dims == 3:
            raise _not_implemented("grid_sampler3d_cpu", input.dtype)
        raise RuntimeError(f"grid_sampler_2d_cpu not implemented for {_scalar_type(input.dtype)}")
    if grid.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_type(input.dtype)} but found {_scalar_type(grid.dtype)}")


def _clip(x, size):
    """x clamped into the pixels [0, size - 1]; as PyTorch's clip_coordinates, the gradient is 0 at and beyond
    the borders."""
    inside = (x > 0) & (x < size - 1)
    return _C.where(inside, x, x.detach().clamp(0, size - 1))


def _reflect(x, low, high):
    """x reflected off low and high until it lies between them, as PyTorch's reflect_coordinates: gradient -1
    where an odd number of reflections turned it round, else 1."""
    span = high - low
    x = x - low
    x = _C.where(x < 0, -x, x)  # not abs: its gradient at 0 is 0, PyTorch's here is 1
    flips = (x.detach() / span).floor()
    extra = x.fmod(span)
    return _C.where(flips.fmod(2) == 0, extra + low, span - extra + low)


def _padded(x, size, padding_mode, align_corners):
    """Position x (in pixels) moved into the input as padding_mode does: 'border' clamps it to the edge pixels,
    'reflection' reflects it off the edges (the corner pixels' centres with align_corners, else their outer
    sides) and then clamps; 'zeros' keeps it (what lies outside reads as 0)."""
    if padding_mode == "zeros":
        return x
    if padding_mode == "reflection":
        if align_corners and size == 1:  # nothing to reflect off; PyTorch's gradient here is 0
            return _C.where(_C.ones([], dtype=_C.bool, device=x.device), 0.0, x)
        x = _reflect(x, 0, size - 1) if align_corners else _reflect(x, -0.5, size - 0.5)
    return _clip(x, size)


def _cubic_weights(t):
    """The weights of the pixels at -1, 0, 1 and 2 of a point at t in [0, 1), as PyTorch's bicubic kernels
    (Keys' cubic convolution with A = -0.75)."""
    a = -0.75

    def near(d):  # |d| <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):  # 1 < |d| < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    return far(t + 1), near(t), near(1 - t), far(2 - t)


def _nearest(x, three_d, device):
    """The pixel nearest to each position x, as PyTorch 1.13's nearest sampling: ties go to the even pixel, except
    in its CPU kernel for 5-d input (std::round), where they go away from 0."""
    if not three_d or device.type == "cuda":
        return x.round()
    whole = x.trunc()
    return whole + _C.where((x - whole).abs() >= 0.5, x.sign(), 0.0)


def _pixels(flat, positions, spatial):
    """The pixels of flat input (N, C, S) at integral float positions (a tensor (N, 1, P) per spatial dim),
    (N, C, P); 0 where a position lies outside the input."""
    inside, index = None, None
    for x, size in zip(positions, spatial):
        valid = (x >= 0) & (x <= size - 1)  # False for NaN
        inside = valid if inside is None else inside & valid
        column = _C.where(valid, x, 0.0).long()
        index = column if index is None else index * size + column
    values = flat.gather(2, index.expand([flat.shape[0], flat.shape[1], index.shape[2]]))
    return _C.where(inside, values, 0.0)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None) -> Tensor

    input (N, C, H, W) (or (N, C, D, H, W)) sampled at the points of grid (N, Ho, Wo, 2) (or (N, Do, Ho, Wo, 3)),
    normalized to [-1, 1] and x first; 'bilinear' (trilinear for 5-d), 'nearest' or 'bicubic' (4-d only)
    interpolation, and points outside the input read as 0 ('zeros') or as the border or reflected pixels.
    """
    check_tensors("grid_sample", ("input", input), ("grid", grid))
    if not isinstance(mode, str) or mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if not isinstance(padding_mode, str) or padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    align_corners = _bool("grid_sampler", "align_corners", 5, _default_align_corners(align_corners))
    _check_grid_sample(input, grid, mode)
    n, channels, *spatial = input.shape
    out_spatial = list(grid.shape[1:-1])
    points = math.prod(out_spatial)
    flat = input.reshape([n, channels, math.prod(spatial)])
    # grid's last dim holds x (along input's last dim) first; in pixels, as PyTorch's unnormalize.
    scales = [(s - 1) / 2 if align_corners else s / 2 for s in spatial]
    unnormalized = [(grid.select(-1, len(spatial) - 1 - d).reshape([n, 1, points]) + 1) * scale
                    - (0.0 if align_corners else 0.5) for d, scale in enumerate(scales)]
    if mode == "bicubic":  # 4x4 pixels around each point, each moved into the input by padding_mode
        y, x = unnormalized
        y0, x0 = y.detach().floor(), x.detach().floor()
        wy, wx = _cubic_weights(y - y0), _cubic_weights(x - x0)
        rows = [_padded(y0 + (i - 1), spatial[0], padding_mode, align_corners) for i in range(4)]
        columns = [_padded(x0 + (j - 1), spatial[1], padding_mode, align_corners) for j in range(4)]
        out = sum(wy[i] * sum(wx[j] * _pixels(flat, (rows[i], columns[j]), spatial) for j in range(4))
                  for i in range(4))
    else:
        sources = [_padded(c, s, padding_mode, align_corners) for c, s in zip(unnormalized, spatial)]
        if mode == "nearest":  # PyTorch's gradient for the grid is 0 (not None)
            out = _pixels(flat, [_nearest(c.detach(), len(spatial) == 3, input.device) for c in sources], spatial)
            if grid.requires_grad and is_grad_enabled():
                out = _C.where(_C.ones([], dtype=_C.bool, device=out.device), out, sum(sources))
        else:  # each point's 2 (or 3) neighbours along each dim, weighted by their nearness
            lows = [c.detach().floor() for c in sources]
            fractions = [c - low for c, low in zip(sources, lows)]
            out = 0
            for corner in itertools.product((0, 1), repeat=len(spatial)):
                weight = math.prod(f if high else 1 - f for f, high in zip(fractions, corner))
                out = out + weight * _pixels(flat, [low + high for low, high in zip(lows, corner)], spatial)
    return out.reshape([n, channels, *out_spatial])


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
