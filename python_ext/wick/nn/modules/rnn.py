"""wick.nn.modules.rnn: the recurrent layers RNN, LSTM and GRU, and their single-step cells, composed of wick ops
with PyTorch's parameter names, shapes, initialisation and results."""
import math
import numbers
import warnings

import wick
from wick.nn import functional as F
from wick.nn import init
from wick.nn.modules.module import Module
from wick.nn.parameter import Parameter

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU"]

# How many gate blocks each mode stacks in its weights: the rows of weight_ih are the gates' rows one after another.
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# Note [One recurrent step]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# Every layer and cell goes through _step(mode, gi, h, w_hh, b_hh), where gi = x W_ihᵀ + b_ih is the input's part
# of the gates (computed for the whole sequence at once in the layers, as it does not depend on the state) and h
# is the state: a Tensor, or the pair (h, c) for LSTM. The formulas are PyTorch's:
#   RNN:  h' = act(gi + h W_hhᵀ + b_hh)
#   LSTM: i, f, g, o = chunks of gi + h W_hhᵀ + b_hh;  c' = σ(f) c + σ(i) tanh(g);  h' = σ(o) tanh(c')
#   GRU:  r, z, n from gi and gh = h W_hhᵀ + b_hh;  r = σ(gi_r + gh_r),  z = σ(gi_z + gh_z),
#         n = tanh(gi_n + r gh_n),  h' = (1 - z) n + z h

def _step(mode, gi, state, w_hh, b_hh):
    """One recurrent step: the new state. See Note [One recurrent step]."""
    if mode == "LSTM":
        h, c = state
        i, f, g, o = (gi + F.linear(h, w_hh, b_hh)).chunk(4, -1)
        c = wick.sigmoid(f) * c + wick.sigmoid(i) * wick.tanh(g)
        return wick.sigmoid(o) * wick.tanh(c), c
    gh = F.linear(state, w_hh, b_hh)
    if mode == "GRU":
        i_r, i_z, i_n = gi.chunk(3, -1)
        h_r, h_z, h_n = gh.chunk(3, -1)
        r = wick.sigmoid(i_r + h_r)
        z = wick.sigmoid(i_z + h_z)
        n = wick.tanh(i_n + r * h_n)
        return n + z * (state - n)
    return (wick.tanh if mode == "RNN_TANH" else wick.relu)(gi + gh)


def _reset_uniform(module):
    """PyTorch's initialisation of recurrent layers: every parameter from U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


# --- cells ---

class RNNCellBase(Module):
    """The parameters shared by the cells: weight_ih (gates * hidden_size, input_size), weight_hh (gates *
    hidden_size, hidden_size), and if bias, bias_ih and bias_hh (gates * hidden_size,)."""

    _mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gates = num_chunks * hidden_size
        self.weight_ih = Parameter(wick.empty((gates, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(wick.empty((gates, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(wick.empty(gates, device=device, dtype=dtype))
            self.bias_hh = Parameter(wick.empty(gates, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        _reset_uniform(self)

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            text += f", nonlinearity={nonlinearity}"
        return text

    def _cell_forward(self, input, states):
        """The new states from `input` (1-d or 2-d) and `states` (a tuple of Tensors, or None for zeros), with
        PyTorch's checks; unbatched input gives unbatched states."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise AssertionError(f"{name}: Expected input to be 1-D or 2-D but received {input.dim()}-D tensor")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        count = 2 if self._mode == "LSTM" else 1
        if states is None:
            zeros = wick.zeros((input.shape[0], self.hidden_size), dtype=input.dtype, device=input.device)
            states = (zeros,) * count
        elif not batched:
            states = tuple(s.unsqueeze(0) for s in states)
        if input.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected {self.input_size}")
        for index, s in enumerate(states):
            if s.dim() != 2:
                raise RuntimeError(f"{name}: Expected hidden state to be 2-D but received {s.dim()}-D tensor")
            if s.shape[0] != input.shape[0]:
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{index} batch size "
                                   f"{s.shape[0]}")
            if s.shape[1] != self.hidden_size:
                raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got {s.shape[1]}, expected "
                                   f"{self.hidden_size}")
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        new = _step(self._mode, gi, states if count == 2 else states[0], self.weight_hh, self.bias_hh)
        new = new if count == 2 else (new,)
        return new if batched else tuple(s.squeeze(0) for s in new)


class RNNCell(RNNCellBase):
    """RNNCell(input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None)

    h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh) (or relu); forward(input, hx=None) -> h'.
    """

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    @property
    def _mode(self):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"

    def forward(self, input, hx=None):
        return self._cell_forward(input, None if hx is None else (hx,))[0]


class LSTMCell(RNNCellBase):
    """LSTMCell(input_size, hidden_size, bias=True, device=None, dtype=None)

    One LSTM step; forward(input, hx=None) -> (h', c'), hx being (h, c) or None for zeros.
    """

    _mode = "LSTM"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return self._cell_forward(input, None if hx is None else tuple(hx))


class GRUCell(RNNCellBase):
    """GRUCell(input_size, hidden_size, bias=True, device=None, dtype=None)

    One GRU step; forward(input, hx=None) -> h'.
    """

    _mode = "GRU"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return self._cell_forward(input, None if hx is None else (hx,))[0]


# --- layers ---

class RNNBase(Module):
    """The stacked, optionally bidirectional, recurrent layer behind RNN, LSTM and GRU.

    Parameters per layer k and direction: weight_ih_l{k} (gates * hidden_size, layer input size), weight_hh_l{k}
    (gates * hidden_size, hidden_size), bias_ih_l{k} and bias_hh_l{k}, with the suffix _reverse for the backward
    direction; layer k > 0 reads the concatenated outputs of both directions of layer k - 1.
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
        if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size != 0:
            raise NotImplementedError("wick's LSTM does not support proj_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        gates = _GATES[mode] * hidden_size
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * num_directions
            for suffix in ("", "_reverse")[:num_directions]:
                shapes = [("weight_ih", (gates, layer_input)), ("weight_hh", (gates, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
                for name, shape in shapes:
                    setattr(self, f"{name}_l{layer}{suffix}",
                            Parameter(wick.empty(shape, device=device, dtype=dtype)))
        self.reset_parameters()

    def reset_parameters(self):
        _reset_uniform(self)

    def _layer_weights(self, layer, suffix):
        """(weight_ih, weight_hh, bias_ih, bias_hh) of one layer and direction; the biases None without bias."""
        return tuple(getattr(self, f"{name}_l{layer}{suffix}", None)
                     for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        for name, default in (("num_layers", 1), ("bias", True), ("batch_first", False), ("dropout", 0.0),
                              ("bidirectional", False)):
            if getattr(self, name) != default:
                text += f", {name}={getattr(self, name)}"
        return text

    def _check_forward(self, input, states, batch):
        """PyTorch's checks of the time-major 3-d input and of each (layers * directions, batch, hidden) state."""
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        weight_dtype = self.weight_ih_l0.dtype
        if input.dtype != weight_dtype:
            raise RuntimeError(f"input must have the type {weight_dtype}, got type {input.dtype}")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.shape[-1]}")
        if input.shape[0] == 0:
            raise RuntimeError(f"Expected sequence length to be larger than 0 in {type(self).__name__}")
        expected = [self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size]
        for index, s in enumerate(states):
            if list(s.shape) != expected:
                which = f"hidden[{index}]" if len(states) == 2 else "hidden"
                raise RuntimeError(f"Expected {which} size {tuple(expected)}, got {list(s.shape)}")

    def _run(self, input, states):
        """The output and the final states of the whole stack on a batched input; `states` is a tuple of
        (layers * directions, batch, hidden) Tensors (h, or h and c), or None for zeros."""
        # As PyTorch, any input but a 3-d one is taken as unbatched, so a 1-d or 4-d one fails the 3-d check.
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
            if states is not None:
                self._check_state_dims(states, 2, "unbatched 2-D")
                states = tuple(s.unsqueeze(1) for s in states)
        elif states is not None:
            self._check_state_dims(states, 3, "batched 3-D")
        if self.batch_first:
            input = input.transpose(0, 1)
        count = 2 if self.mode == "LSTM" else 1
        num_directions = 2 if self.bidirectional else 1
        batch = input.shape[1]
        if states is None:
            zeros = wick.zeros((self.num_layers * num_directions, batch, self.hidden_size), dtype=input.dtype,
                               device=input.device)
            states = (zeros,) * count
        self._check_forward(input, states, batch)
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction, suffix in enumerate(("", "_reverse")[:num_directions]):
                w_ih, w_hh, b_ih, b_hh = self._layer_weights(layer, suffix)
                index = layer * num_directions + direction
                state = tuple(s[index] for s in states)
                state = state if count == 2 else state[0]
                gates = F.linear(input, w_ih, b_ih)
                steps = range(input.shape[0] - 1, -1, -1) if direction else range(input.shape[0])
                out = [None] * input.shape[0]
                for t in steps:
                    state = _step(self.mode, gates[t], state, w_hh, b_hh)
                    out[t] = state[0] if count == 2 else state
                outputs.append(wick.stack(out))
                finals.append(state if count == 2 else (state,))
            input = outputs[0] if num_directions == 1 else wick.cat(outputs, -1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                input = F.dropout(input, self.dropout, True)
        output = input.transpose(0, 1) if self.batch_first else input
        finals = tuple(wick.stack([f[k] for f in finals]) for k in range(count))
        if not batched:
            output = output.squeeze(batch_dim)
            finals = tuple(f.squeeze(1) for f in finals)
        return output, finals

    def _check_state_dims(self, states, dims, kind):
        if all(s.dim() == dims for s in states):
            return
        if len(states) == 2:
            got = ", ".join(f"{s.dim()}-D" for s in states)
            raise RuntimeError(f"For {kind} input, hx and cx should also be {dims}-D but got ({got}) tensors")
        raise RuntimeError(f"For {kind} input, hx should also be {dims}-D but got {states[0].dim()}-D tensor")


class RNN(RNNBase):
    """RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, device=None, dtype=None)

    forward(input, hx=None) -> (output, h_n): input (L, N, H_in), (N, L, H_in) if batch_first, or (L, H_in)
    unbatched; output (L, N, D * hidden_size); h_n (D * num_layers, N, hidden_size).
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            kwargs["nonlinearity"] = args[3]
            args = args[:3] + args[4:]
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        output, (h_n,) = self._run(input, None if hx is None else (hx,))
        return output, h_n


class LSTM(RNNBase):
    """LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False,
    proj_size=0, device=None, dtype=None)

    forward(input, hx=None) -> (output, (h_n, c_n)), hx being (h_0, c_0) or None for zeros; proj_size other than
    0 raises NotImplementedError.
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._run(input, None if hx is None else tuple(hx))


class GRU(RNNBase):
    """GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False,
    device=None, dtype=None)

    forward(input, hx=None) -> (output, h_n), shaped as RNN's.
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        output, (h_n,) = self._run(input, None if hx is None else (hx,))
        return output, h_n
