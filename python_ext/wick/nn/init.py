"""wick.nn.init: PyTorch's initialisations of weights, in place and under no_grad (so that they may fill
parameters): uniform_, normal_, trunc_normal_, zeros_, ones_, constant_, eye_, dirac_, xavier_uniform_,
xavier_normal_, kaiming_uniform_, kaiming_normal_, orthogonal_, sparse_, and calculate_gain; and PyTorch's deprecated
names without the underscore (uniform, normal, ...), which warn."""
import math
import warnings

import wick

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "zeros_", "ones_", "constant_", "eye_", "dirac_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_",
           "uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
           "kaiming_normal", "orthogonal", "sparse"]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
           "sigmoid")


def calculate_gain(nonlinearity, param=None):
    """calculate_gain(nonlinearity, param=None) -> float

    The gain PyTorch recommends for a nonlinearity; `param` is leaky_relu's negative slope (0.01 if None).
    """
    if nonlinearity in _LINEAR:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor, a=0.0, b=1.0):
    """uniform_(tensor, a=0.0, b=1.0) -> Tensor: fills `tensor` with values drawn from U(a, b)."""
    with wick.no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0):
    """normal_(tensor, mean=0.0, std=1.0) -> Tensor: fills `tensor` with values drawn from N(mean, std²)."""
    with wick.no_grad():
        return tensor.normal_(mean, std)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    """trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0) -> Tensor

    Fills `tensor` with values drawn from N(mean, std²) truncated to [a, b]: by the inverse of the normal's CDF
    applied to values drawn uniformly between the CDF's values at a and b.
    """
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", stacklevel=2)
    with wick.no_grad():
        low, high = norm_cdf((a - mean) / std), norm_cdf((b - mean) / std)
        # erfinv of U(2 low - 1, 2 high - 1), times sqrt(2), is the standard normal truncated; clamp_ keeps the
        # rounding of erfinv near ±1 within [a, b].
        tensor.uniform_(2 * low - 1, 2 * high - 1)
        tensor.erfinv_()
        tensor.mul_(std * math.sqrt(2.0))
        tensor.add_(mean)
        return tensor.clamp_(min=a, max=b)


def constant_(tensor, val):
    """constant_(tensor, val) -> Tensor: fills `tensor` with `val`."""
    with wick.no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    """zeros_(tensor) -> Tensor: fills `tensor` with 0."""
    return constant_(tensor, 0.0)


def ones_(tensor):
    """ones_(tensor) -> Tensor: fills `tensor` with 1."""
    return constant_(tensor, 1.0)


def eye_(tensor):
    """eye_(tensor) -> Tensor: fills the 2-D `tensor` with the identity (ones on the diagonal, zeros elsewhere)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with wick.no_grad():
        return tensor.copy_(wick.eye(*tensor.shape, dtype=tensor.dtype, device=tensor.device))


def dirac_(tensor, groups=1):
    """dirac_(tensor, groups=1) -> Tensor

    Fills the 3-, 4- or 5-D `tensor` (a convolution's weight) with the Dirac delta: a 1 at the centre of the kernel
    of each output channel d and input channel d (in each of `groups`), zeros elsewhere, so that the convolution
    passes its input through.
    """
    if tensor.dim() not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    centre = tuple(size // 2 for size in sizes[2:])
    with wick.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(out_chans_per_grp, sizes[1])):
                tensor[(g * out_chans_per_grp + d, d) + centre] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor):
    # (out_features, in_features) for a linear weight, (out_channels, in_channels / groups, *kernel) for a conv.
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _xavier_std(tensor, gain):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return gain * math.sqrt(2.0 / float(fan_in + fan_out))


def xavier_uniform_(tensor, gain=1.0):
    """xavier_uniform_(tensor, gain=1.0) -> Tensor

    Glorot's initialisation: U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)).
    """
    bound = math.sqrt(3.0) * _xavier_std(tensor, gain)
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    """xavier_normal_(tensor, gain=1.0) -> Tensor

    Glorot's initialisation: N(0, std²) with std = gain * sqrt(2 / (fan_in + fan_out)).
    """
    return normal_(tensor, 0.0, _xavier_std(tensor, gain))


def _kaiming_std(tensor, a, mode, nonlinearity):
    """He's standard deviation, or None (after PyTorch's warning) for a tensor without elements."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return None
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu') -> Tensor

    He's initialisation: U(-bound, bound) with bound = gain * sqrt(3 / fan), `a` being leaky_relu's slope.
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu') -> Tensor

    He's initialisation: N(0, std²) with std = gain / sqrt(fan), `a` being leaky_relu's slope.
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    return tensor if std is None else normal_(tensor, 0.0, std)


def orthogonal_(tensor, gain=1):
    """orthogonal_(tensor, gain=1) -> Tensor

    Fills `tensor` (2 or more dimensions, the trailing ones flattened) with a random (semi-)orthogonal matrix
    times gain: the Q of the QR decomposition of a standard normal matrix, its columns' signs made those of R's
    diagonal so that Q is drawn uniformly.
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = wick.empty(rows, cols, dtype=tensor.dtype, device=tensor.device).normal_(0, 1)
    if rows < cols:
        flattened = flattened.t()
    q, r = wick.linalg.qr(flattened)
    q = q * wick.diag(r, 0).sign()
    if rows < cols:
        q = q.t()
    with wick.no_grad():
        tensor.view_as(q).copy_(q)
        return tensor.mul_(gain)


def sparse_(tensor, sparsity, std=0.01):
    """sparse_(tensor, sparsity, std=0.01) -> Tensor

    Fills the 2-D `tensor` with values drawn from N(0, std²), then zeroes ceil(sparsity * rows) of them, at random
    rows, in each column.
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with wick.no_grad():
        tensor.normal_(0, std)
        for col in range(cols):
            tensor[wick.randperm(rows)[:num_zeros], col] = 0
    return tensor


def _deprecated(init):
    """PyTorch's old name of `init` (without the trailing underscore), which warns and calls it."""
    old_name, new_name = init.__name__[:-1], init.__name__

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"nn.init.{old_name} is now deprecated in favor of nn.init.{new_name}.", stacklevel=2)
        return init(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"{old_name}(...)\n\nDeprecated: see nn.init.{new_name}."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
