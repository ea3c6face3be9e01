"""wick.nn._activation_functions: the activations of torch.nn.functional (1.13) beyond those in functional.py:
mish, hardswish, hardsigmoid, relu6, glu, logsigmoid, softsign, tanhshrink, selu, celu, softshrink, hardshrink,
threshold and prelu. Re-exported by wick.nn.functional, which this module imports from (see its last lines).

Each is a composition of differentiable ops; where PyTorch's backward differs from the composition's at a kink,
the composition is chosen (with where or masked_fill) so that its gradient there is PyTorch's.
"""
from wick import _C
from wick.nn._checks import check_tensors
from wick.nn.functional import _elu_composed, _hardtanh_composed, _in_place, softplus

__all__ = ["mish", "hardswish", "hardsigmoid", "relu6", "glu", "logsigmoid", "softsign", "tanhshrink", "selu",
           "celu", "softshrink", "hardshrink", "threshold", "prelu"]

# SELU's constants, as PyTorch's (Klambauer et al., 2017).
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _maybe_in_place(fn, input, inplace, *args):
    return _in_place(fn, input, *args) if inplace else fn(input, *args)


def _mish(input):
    return input * softplus(input).tanh()


def mish(input, inplace=False):
    """mish(input, inplace=False) -> Tensor: x * tanh(softplus(x))."""
    check_tensors("mish", ("input", input))
    return _maybe_in_place(_mish, input, inplace)


def _hardswish(input):
    # Three pieces, not x * hardsigmoid(x): PyTorch's gradient is x / 3 + 1/2 on [-3, 3), -3 included.
    middle = input * (input + 3) / 6
    return _C.where(input < -3, _C.zeros_like(input), _C.where(input < 3, middle, input))


def hardswish(input, inplace=False):
    """hardswish(input, inplace=False) -> Tensor: x * relu6(x + 3) / 6."""
    check_tensors("hardswish", ("input", input))
    return _maybe_in_place(_hardswish, input, inplace)


def _hardsigmoid(input):
    return _hardtanh_composed(input + 3, 0.0, 6.0) / 6  # zero gradient at -3 and 3, as PyTorch's


def hardsigmoid(input, inplace=False):
    """hardsigmoid(input, inplace=False) -> Tensor: relu6(x + 3) / 6."""
    check_tensors("hardsigmoid", ("input", input))
    return _maybe_in_place(_hardsigmoid, input, inplace)


def relu6(input, inplace=False):
    """relu6(input, inplace=False) -> Tensor: min(max(0, x), 6)."""
    check_tensors("relu6", ("input", input))
    return _maybe_in_place(_hardtanh_composed, input, inplace, 0.0, 6.0)


def glu(input, dim=-1):
    """glu(input, dim=-1) -> Tensor: a * sigmoid(b), where a and b are the halves of input along dim."""
    check_tensors("glu", ("input", input))
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.dim()} is size {size}")
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


def logsigmoid(input):
    """logsigmoid(input) -> Tensor: log(1 / (1 + exp(-x))), computed without overflow."""
    check_tensors("logsigmoid", ("input", input))
    # -log(1 + exp(-x)) as a logsumexp of (0, -x): stable, with the gradient sigmoid(-x) everywhere.
    return -_C.stack([_C.zeros_like(input), -input], -1).logsumexp([-1])


def softsign(input):
    """softsign(input) -> Tensor: x / (1 + |x|)."""
    check_tensors("softsign", ("input", input))
    return input / (input.abs() + 1)


def tanhshrink(input):
    """tanhshrink(input) -> Tensor: x - tanh(x)."""
    check_tensors("tanhshrink", ("input", input))
    return input - input.tanh()


def selu(input, inplace=False):
    """selu(input, inplace=False) -> Tensor: scale * elu(x, alpha), with SELU's fixed alpha and scale."""
    check_tensors("selu", ("input", input))
    def _selu(x):
        return _elu_composed(x, _SELU_ALPHA) * _SELU_SCALE
    return _maybe_in_place(_selu, input, inplace)


def celu(input, alpha=1.0, inplace=False):
    """celu(input, alpha=1., inplace=False) -> Tensor: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    check_tensors("celu", ("input", input))
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")

    def _celu(x):
        # expm1 sees no positive input: its overflow would make the gradient NaN where `where` discards it.
        return _C.where(x > 0, x, (x.clamp_max(0) / alpha).expm1() * alpha)
    return _maybe_in_place(_celu, input, inplace)


def softshrink(input, lambd=0.5):
    """softshrink(input, lambd=0.5) -> Tensor: x - lambd above lambd, x + lambd below -lambd, else 0."""
    check_tensors("softshrink", ("input", input))
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {float(lambd)}.")
    return _C.where(input > lambd, input - lambd, _C.where(input < -lambd, input + lambd, _C.zeros_like(input)))


def hardshrink(input, lambd=0.5):
    """hardshrink(input, lambd=0.5) -> Tensor: x where |x| > lambd, else 0."""
    check_tensors("hardshrink", ("input", input))
    return input.masked_fill((input >= -lambd) & (input <= lambd), 0)


def threshold(input, threshold, value, inplace=False):
    """threshold(input, threshold, value, inplace=False) -> Tensor: x where x > threshold, else value."""
    check_tensors("threshold", ("input", input))
    def _threshold(x):
        return x.masked_fill(x <= threshold, value)
    return _maybe_in_place(_threshold, input, inplace)


def prelu(input, weight):
    """prelu(input, weight) -> Tensor: x where positive, else weight * x; weight has one element, or one per
    channel (dim 1 of input, dim 0 when it has one dim)."""
    check_tensors("prelu", ("input", input), ("weight", weight))
    channels = input.shape[1] if input.dim() >= 2 else 1
    if weight.numel() != 1:
        if input.dim() == 0 or weight.dim() != 1 or weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
        if input.dim() >= 2:
            weight = weight.reshape([channels] + [1] * (input.dim() - 2))
    elif input.dim() >= 1:
        weight = weight.reshape([1])
    else:
        weight = weight.reshape([])
    return _C.where(input > 0, input, weight * input)
