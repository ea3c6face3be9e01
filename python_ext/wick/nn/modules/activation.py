"""wick.nn.modules.activation: the elementwise activations and softmaxes as modules: ReLU, GELU, SiLU, Sigmoid,
Tanh, LeakyReLU, ELU, Softplus, Hardtanh, Softmax, LogSoftmax, ReLU6, Mish, Hardswish, Hardsigmoid, SELU, CELU,
GLU, LogSigmoid, Softsign, Tanhshrink, Softshrink, Hardshrink, Threshold and PReLU. Each forward is
wick.nn.functional's, but for Sigmoid and Tanh, which call wick.sigmoid and wick.tanh as PyTorch's do (F.sigmoid
and F.tanh are deprecated)."""
import wick
from wick.nn import functional as F
from wick.nn.init import constant_
from wick.nn.modules.module import Module
from wick.nn.parameter import Parameter

__all__ = ["ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "ELU", "Softplus", "Hardtanh", "Softmax",
           "LogSoftmax", "ReLU6", "Mish", "Hardswish", "Hardsigmoid", "SELU", "CELU", "GLU", "LogSigmoid", "Softsign",
           "Tanhshrink", "Softshrink", "Hardshrink", "Threshold", "PReLU"]


def _settings(*settings, inplace=False):
    """extra_repr() of an activation: its settings, and inplace=True when it is."""
    return ", ".join(list(settings) + (["inplace=True"] if inplace else []))


class _InplaceActivation(Module):
    """An activation whose only setting is whether it writes into its input."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return _settings(inplace=self.inplace)


class ReLU(_InplaceActivation):
    """ReLU(inplace=False): max(0, x)."""

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)


class SiLU(_InplaceActivation):
    """SiLU(inplace=False): x * sigmoid(x)."""

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class GELU(Module):
    """GELU(approximate='none'): x * Φ(x), or its tanh approximation (approximate='tanh')."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Sigmoid(Module):
    """Sigmoid(): 1 / (1 + exp(-x))."""

    def forward(self, input):
        return wick.sigmoid(input)


class Tanh(Module):
    """Tanh(): tanh(x)."""

    def forward(self, input):
        return wick.tanh(input)


class LeakyReLU(_InplaceActivation):
    """LeakyReLU(negative_slope=0.01, inplace=False): x for x >= 0, negative_slope * x below."""

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__(inplace)
        self.negative_slope = negative_slope

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return _settings(f"negative_slope={self.negative_slope}", inplace=self.inplace)


class ELU(_InplaceActivation):
    """ELU(alpha=1.0, inplace=False): x for x > 0, alpha * (exp(x) - 1) below."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(inplace)
        self.alpha = alpha

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return _settings(f"alpha={self.alpha}", inplace=self.inplace)


class Softplus(Module):
    """Softplus(beta=1, threshold=20): log(1 + exp(beta * x)) / beta, and x where beta * x > threshold."""

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(_InplaceActivation):
    """Hardtanh(min_val=-1.0, max_val=1.0, inplace=False): x clamped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__(inplace)
        if min_val >= max_val:
            raise ValueError(f"Hardtanh: min_val ({min_val}) must be less than max_val ({max_val})")
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return _settings(f"min_val={self.min_val}", f"max_val={self.max_val}", inplace=self.inplace)


class _Softmax(Module):
    """A softmax along one dim."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_Softmax):
    """Softmax(dim=None): exp(x) / sum(exp(x)) along `dim`."""

    def forward(self, input):
        return F.softmax(input, self.dim)


class LogSoftmax(_Softmax):
    """LogSoftmax(dim=None): log(softmax(x)) along `dim`, computed stably."""

    def forward(self, input):
        return F.log_softmax(input, self.dim)


class ReLU6(Hardtanh):
    """ReLU6(inplace=False): min(max(0, x), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _settings(inplace=self.inplace)


class Mish(_InplaceActivation):
    """Mish(inplace=False): x * tanh(softplus(x))."""

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)


class Hardswish(_InplaceActivation):
    """Hardswish(inplace=False): x * relu6(x + 3) / 6."""

    def forward(self, input):
        return F.hardswish(input, self.inplace)

    def extra_repr(self):
        return ""  # PyTorch's shows no setting, not even inplace


class Hardsigmoid(_InplaceActivation):
    """Hardsigmoid(inplace=False): relu6(x + 3) / 6."""

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self):
        return ""  # PyTorch's shows no setting, not even inplace


class SELU(_InplaceActivation):
    """SELU(inplace=False): scale * elu(x, alpha), with SELU's fixed alpha and scale."""

    def forward(self, input):
        return F.selu(input, self.inplace)


class CELU(_InplaceActivation):
    """CELU(alpha=1.0, inplace=False): max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(inplace)
        self.alpha = alpha

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return _settings(f"alpha={self.alpha}", inplace=self.inplace)


class GLU(Module):
    """GLU(dim=-1): a * sigmoid(b), where a and b are the halves of the input along dim."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSigmoid(Module):
    """LogSigmoid(): log(1 / (1 + exp(-x)))."""

    def forward(self, input):
        return F.logsigmoid(input)


class Softsign(Module):
    """Softsign(): x / (1 + |x|)."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """Tanhshrink(): x - tanh(x)."""

    def forward(self, input):
        return F.tanhshrink(input)


class Softshrink(Module):
    """Softshrink(lambd=0.5): x - lambd above lambd, x + lambd below -lambd, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Softshrink):
    """Hardshrink(lambd=0.5): x where |x| > lambd, else 0."""

    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class Threshold(_InplaceActivation):
    """Threshold(threshold, value, inplace=False): x where x > threshold, else value."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__(inplace)
        self.threshold = threshold
        self.value = value

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return _settings(f"threshold={self.threshold}, value={self.value}", inplace=self.inplace)


class PReLU(Module):
    """PReLU(num_parameters=1, init=0.25, device=None, dtype=None): x where positive, else weight * x; weight,
    learned, has one element or one per channel, all init at first."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(wick.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"
