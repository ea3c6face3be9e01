"""wick.nn's recurrent layers and cells (RNN, LSTM, GRU, RNNCell, LSTMCell, GRUCell) against torch.nn 1.13: the
same parameter names and shapes, then the same outputs, states and gradients from the same weights and inputs."""
import numpy as np
import pytest
import torch

import wick

DTYPES = [(wick.float32, torch.float32, 1e-5), (wick.float64, torch.float64, 1e-12)]


def to_wick(t):
    return wick.from_numpy(t.detach().numpy().copy())


def close(w, t, tol):
    assert tuple(w.shape) == tuple(t.shape)
    np.testing.assert_allclose(w.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


def pair(name, *args, wdtype=wick.float64, tdtype=torch.float64, **kwargs):
    """The torch module and the wick module of class `name`, the wick one holding a copy of torch's weights."""
    t = getattr(torch.nn, name)(*args, **kwargs).to(tdtype)
    w = getattr(wick.nn, name)(*args, **kwargs).to(wdtype)
    assert [(n, tuple(p.shape)) for n, p in w.named_parameters()] == \
           [(n, tuple(p.shape)) for n, p in t.named_parameters()]
    w.load_state_dict({k: to_wick(v) for k, v in t.state_dict().items()})
    return t, w


def states_of(result):
    """The output and the flat list of final states of an RNN / LSTM / GRU call."""
    output, h = result
    return [output, *(h if isinstance(h, tuple) else (h,))]


@pytest.mark.parametrize("wdtype,tdtype,tol", DTYPES)
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("config", [{}, {"num_layers": 2}, {"bidirectional": True}, {"batch_first": True},
                                    {"num_layers": 2, "bidirectional": True, "batch_first": True, "bias": False}])
def test_layers_match_torch(name, config, wdtype, tdtype, tol):
    torch.manual_seed(0)
    t, w = pair(name, 3, 5, wdtype=wdtype, tdtype=tdtype, **config)
    x = torch.randn(4, 6, 3, dtype=tdtype)
    for tr, wr in zip(states_of(t(x)), states_of(w(to_wick(x)))):
        close(wr, tr, tol)


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_layers_with_initial_state_unbatched_and_relu(name):
    torch.manual_seed(1)
    kwargs = {"nonlinearity": "relu"} if name == "RNN" else {}
    t, w = pair(name, 3, 4, num_layers=2, bidirectional=True, **kwargs)
    count = 2 if name == "LSTM" else 1
    x = torch.randn(5, 2, 3, dtype=torch.float64)
    h = tuple(torch.randn(4, 2, 4, dtype=torch.float64) for _ in range(count))
    hx, whx = (h, tuple(map(to_wick, h))) if count == 2 else (h[0], to_wick(h[0]))
    for tr, wr in zip(states_of(t(x, hx)), states_of(w(to_wick(x), whx))):
        close(wr, tr, 1e-12)
    # Unbatched: (L, H_in) input and (D * layers, hidden) states.
    hx1, whx1 = (tuple(s[:, 0] for s in h), tuple(to_wick(s[:, 0]) for s in h)) if count == 2 else \
        (h[0][:, 0], to_wick(h[0][:, 0]))
    for tr, wr in zip(states_of(t(x[:, 0], hx1)), states_of(w(to_wick(x[:, 0]), whx1))):
        close(wr, tr, 1e-12)


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_layer_gradients_match_torch(name):
    torch.manual_seed(2)
    t, w = pair(name, 3, 4, num_layers=2, bidirectional=True, batch_first=True)
    x = torch.randn(2, 5, 3, dtype=torch.float64, requires_grad=True)
    wx = to_wick(x).requires_grad_()
    loss = lambda outs: sum((o * o).sum() for o in outs)  # noqa: E731
    loss(states_of(t(x))).backward()
    loss(states_of(w(wx))).backward()
    close(wx.grad, x.grad, 1e-10)
    wparams = dict(w.named_parameters())
    for n, p in t.named_parameters():
        close(wparams[n].grad, p.grad, 1e-10)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("wdtype,tdtype,tol", DTYPES)
def test_cells_match_torch(name, wdtype, tdtype, tol):
    torch.manual_seed(3)
    t, w = pair(name, 3, 4, wdtype=wdtype, tdtype=tdtype)
    x = torch.randn(2, 3, dtype=tdtype)
    as_list = lambda r: list(r) if isinstance(r, tuple) else [r]  # noqa: E731
    for tr, wr in zip(as_list(t(x)), as_list(w(to_wick(x)))):  # zero state
        close(wr, tr, tol)
    h = torch.randn(2, 4, dtype=tdtype)
    hx, whx = ((h, 2 * h), (to_wick(h), to_wick(2 * h))) if name == "LSTMCell" else (h, to_wick(h))
    for tr, wr in zip(as_list(t(x, hx)), as_list(w(to_wick(x), whx))):
        close(wr, tr, tol)
    hx1 = tuple(s[0] for s in hx) if name == "LSTMCell" else hx[0]
    whx1 = tuple(s[0] for s in whx) if name == "LSTMCell" else whx[0]
    for tr, wr in zip(as_list(t(x[0], hx1)), as_list(w(to_wick(x[0]), whx1))):  # unbatched
        close(wr, tr, tol)


def test_cell_gradients_and_relu_cell():
    torch.manual_seed(4)
    t, w = pair("RNNCell", 3, 4, nonlinearity="relu", bias=False)
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    wx = to_wick(x).requires_grad_()
    t(x).pow(2).sum().backward()
    w(wx).pow(2).sum().backward()
    close(wx.grad, x.grad, 1e-12)
    close(w.weight_ih.grad, t.weight_ih.grad, 1e-12)
    close(w.weight_hh.grad, t.weight_hh.grad, 1e-12)


def test_initialisation_is_uniform_in_one_over_sqrt_hidden():
    w = wick.nn.LSTM(3, 16, num_layers=2, bidirectional=True)
    for p in w.parameters():
        values = p.detach().numpy()
        assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.2
    cell = wick.nn.GRUCell(3, 4)
    assert np.abs(cell.weight_hh.detach().numpy()).max() <= 0.5


def test_dropout_between_layers_only_in_training():
    wick.manual_seed(0)
    w = wick.nn.GRU(3, 4, num_layers=2, dropout=0.5)
    x = wick.randn(5, 2, 3)
    first = w(x)[0]
    assert not wick.equal(first, w(x)[0])  # training: a fresh dropout mask each call
    w.eval()
    assert wick.equal(w(x)[0], w(x)[0])
    with pytest.warns(UserWarning):
        wick.nn.RNN(3, 4, dropout=0.5)


def errors(*calls):
    """The type name of the exception each call raises (each must raise)."""
    names = []
    for call in calls:
        with pytest.raises(Exception) as info:
            call()
        names.append(info.type.__name__)
    return names


@pytest.mark.parametrize("lib", [wick, torch])
def test_errors_match_torch(lib):
    x = lib.zeros(5, 2, 3)
    rnn = lib.nn.RNN(3, 4)
    lstm = lib.nn.LSTM(3, 4)
    got = errors(lambda: lib.nn.RNN(3, 0), lambda: lib.nn.RNN(3, 4, dropout=2),
                 lambda: lib.nn.RNN(3, 4, nonlinearity="gelu"), lambda: rnn(lib.zeros(5, 2, 4)),
                 lambda: rnn(lib.zeros(2, 5, 2, 3)), lambda: rnn(x, lib.zeros(1, 3, 4)),
                 lambda: rnn(x, lib.zeros(2, 4)), lambda: lstm(x, (lib.zeros(1, 2, 4), lib.zeros(2, 4))),
                 lambda: rnn(x.double()), lambda: rnn(lib.zeros(0, 2, 3)),
                 lambda: lib.nn.RNNCell(3, 4)(lib.zeros(2, 5)), lambda: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 2, 3)))
    assert got == ["ValueError", "ValueError", "ValueError", "RuntimeError", "RuntimeError", "RuntimeError",
                   "RuntimeError", "RuntimeError", "RuntimeError", "RuntimeError", "RuntimeError", "AssertionError"]
    cell = lib.nn.LSTMCell(3, 4)
    got = errors(lambda: cell(lib.zeros(2, 3), (lib.zeros(3, 4), lib.zeros(2, 4))),
                 lambda: cell(lib.zeros(2, 3), (lib.zeros(2, 4), lib.zeros(2, 5))))
    assert got == ["RuntimeError", "RuntimeError"]


def test_zero_layers_is_a_value_error():
    # torch 1.13 fails here with an IndexError from inside its constructor; wick says why, as later PyTorch does.
    with pytest.raises(ValueError, match="num_layers must be greater than zero"):
        wick.nn.LSTM(3, 4, num_layers=0)


def test_proj_size_is_refused():
    with pytest.raises(NotImplementedError):
        wick.nn.LSTM(3, 4, proj_size=2)
    with pytest.raises(ValueError):
        wick.nn.GRU(3, 4, proj_size=2)
