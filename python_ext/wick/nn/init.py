"""wick.nn.init: PyTorch's initialisations of weights, in place and under no_grad (so that they may fill
parameters): uniform_, normal_, zeros_, ones_, constant_, xavier_uniform_, xavier_normal_, kaiming_uniform_,
kaiming_normal_, and calculate_gain."""
import math
import warnings

import wick

__all__ = ["calculate_gain", "uniform_", "normal_", "zeros_", "ones_", "constant_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_"]

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
