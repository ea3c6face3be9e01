"""wick.optim: SGD, Adam and AdamW against torch.optim 1.13, run the same way in float64 from the same weights and
data; parameter groups; state_dict()/load_state_dict() in PyTorch's format, torch's own included; zero_grad; the
argument checks. The losses are written with tensor ops, so that these tests need no wick.nn.functional."""
import copy

import numpy as np
import pytest
import torch

import wick

STEPS = 6


def problem(lib, seed=0):
    """Parameters (w, b) and a loss function over them: a least-squares fit with a quartic term, the same
    numbers in either library."""
    rng = np.random.default_rng(seed)
    w = lib.nn.Parameter(lib.from_numpy(rng.standard_normal((3, 4))))
    b = lib.nn.Parameter(lib.from_numpy(rng.standard_normal(3)))
    x, y = lib.from_numpy(rng.standard_normal((8, 4))), lib.from_numpy(rng.standard_normal((8, 3)))

    def loss():
        residual = x.matmul(w.t()) + b - y
        return (residual * residual).mean() + (w * w * w * w).sum() * 0.01
    return [w, b], loss


def train(lib, make_optimizer, steps=STEPS, set_to_none=True):
    params, loss = problem(lib)
    optimizer = make_optimizer(lib.optim, params)
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=set_to_none)
        loss().backward()
        optimizer.step()
    return params, optimizer


def assert_params_match(wick_params, torch_params):
    for w, t in zip(wick_params, torch_params):
        np.testing.assert_allclose(w.detach().numpy(), t.detach().numpy(), rtol=1e-6, atol=1e-10)


CONFIGS = {
    "sgd": lambda optim, params: optim.SGD(params, lr=0.1),
    "sgd-momentum": lambda optim, params: optim.SGD(params, lr=0.1, momentum=0.9),
    "sgd-dampening-decay": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.8, dampening=0.3,
                                                           weight_decay=0.1),
    "sgd-nesterov": lambda optim, params: optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    "sgd-maximize": lambda optim, params: optim.SGD(params, lr=0.01, momentum=0.5, maximize=True, weight_decay=0.1),
    "adam": lambda optim, params: optim.Adam(params, lr=0.05),
    "adam-decay-amsgrad": lambda optim, params: optim.Adam(params, lr=0.05, betas=(0.8, 0.99), eps=1e-6,
                                                           weight_decay=0.1, amsgrad=True),
    "adam-maximize": lambda optim, params: optim.Adam(params, lr=0.01, maximize=True, weight_decay=0.05),
    "adamw": lambda optim, params: optim.AdamW(params, lr=0.05),
    "adamw-decay-amsgrad": lambda optim, params: optim.AdamW(params, lr=0.05, weight_decay=0.3, amsgrad=True),
    "adamw-maximize": lambda optim, params: optim.AdamW(params, lr=0.01, maximize=True),
    "groups": lambda optim, params: optim.SGD([{"params": [params[0]]}, {"params": params[1], "lr": 0.3,
                                                                         "momentum": 0.5}], lr=0.1),
    "adam-groups": lambda optim, params: optim.Adam([{"params": [params[0]], "amsgrad": True},
                                                     {"params": [params[1]], "betas": (0.5, 0.6)}], lr=0.02),
}


@pytest.mark.parametrize("set_to_none", [True, False])
@pytest.mark.parametrize("config", CONFIGS)
def test_steps_match_torch(config, set_to_none):
    wick_params, _ = train(wick, CONFIGS[config], set_to_none=set_to_none)
    torch_params, _ = train(torch, CONFIGS[config], set_to_none=set_to_none)
    assert_params_match(wick_params, torch_params)


def test_parameters_of_a_module():
    def run(lib):
        rng = np.random.default_rng(3)
        model = lib.nn.Sequential(lib.nn.Linear(4, 3)).double()
        model.load_state_dict({k: lib.from_numpy(rng.standard_normal(tuple(v.shape)))
                               for k, v in model.state_dict().items()})
        optimizer = lib.optim.Adam(model.parameters(), lr=0.1)
        x = lib.from_numpy(rng.standard_normal((5, 4)))
        for _ in range(3):
            optimizer.zero_grad()
            out = x.matmul(model[0].weight.t()) + model[0].bias  # not through functional: see the docstring
            (out * out).sum().backward()
            optimizer.step()
        return list(model.parameters())
    assert_params_match(run(wick), run(torch))


def test_closure_and_step_result():
    def run(lib):
        params, loss = problem(lib)
        optimizer = lib.optim.SGD(params, lr=0.1)

        def closure():
            optimizer.zero_grad()
            value = loss()
            value.backward()
            return value
        return [optimizer.step(closure).item() for _ in range(3)], params
    (wick_losses, wick_params), (torch_losses, torch_params) = run(wick), run(torch)
    np.testing.assert_allclose(wick_losses, torch_losses, rtol=1e-12)
    assert_params_match(wick_params, torch_params)
    params, _ = problem(wick)
    assert wick.optim.SGD(params, lr=0.1).step() is None


def test_parameters_without_gradient_are_left_alone():
    def run(lib):
        params, loss = problem(lib)
        frozen = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
        optimizer = lib.optim.Adam(params + [frozen], lr=0.1)
        loss().backward()
        optimizer.step()
        return frozen.tolist(), sorted(len(s) for s in optimizer.state.values())
    assert run(wick) == run(torch)


@pytest.mark.parametrize("config", ["sgd-momentum", "adam-decay-amsgrad", "adamw", "groups", "adam-groups"])
def test_state_dict_format_matches_torch(config):
    _, wick_optimizer = train(wick, CONFIGS[config], steps=2)
    _, torch_optimizer = train(torch, CONFIGS[config], steps=2)
    wick_state, torch_state = wick_optimizer.state_dict(), torch_optimizer.state_dict()
    torch_only = {"foreach", "capturable", "differentiable", "fused"}  # torch's implementation switches
    # torch 1.13's SGD keeps a momentum_buffer of None without momentum; PyTorch 2 keeps no state, as wick.
    torch_state["state"] = {i: s for i, s in torch_state["state"].items() if s != {"momentum_buffer": None}}
    assert [{k: v for k, v in g.items() if k not in torch_only} for g in torch_state["param_groups"]] \
        == wick_state["param_groups"]
    assert list(wick_state["state"]) == list(torch_state["state"])
    for index, torch_entry in torch_state["state"].items():
        entry = wick_state["state"][index]
        assert list(entry) == list(torch_entry)
        for key, value in torch_entry.items():
            np.testing.assert_allclose(entry[key].numpy(), value.numpy(), rtol=1e-6)
            assert str(entry[key].dtype).split(".")[1] == str(value.dtype).split(".")[1]


@pytest.mark.parametrize("config", ["sgd-nesterov", "adam-decay-amsgrad", "adamw-maximize", "adam-groups"])
def test_state_dict_round_trip_resumes_exactly(config):
    params, optimizer = train(wick, CONFIGS[config], steps=3)
    saved = optimizer.state_dict()
    saved_params = [p.detach().clone() for p in params]
    copy_of_saved = copy.deepcopy(saved)
    uninterrupted, _ = train(wick, CONFIGS[config], steps=6)

    resumed_params, loss = problem(wick)
    with wick.no_grad():
        for p, value in zip(resumed_params, saved_params):
            p.copy_(value)
    resumed = CONFIGS[config](wick.optim, resumed_params)
    resumed.load_state_dict(saved)
    for _ in range(3):
        resumed.zero_grad()
        loss().backward()
        resumed.step()
    for p, q in zip(resumed_params, uninterrupted):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    # load_state_dict took a copy: the saved state is as it was.
    for index, entry in copy_of_saved["state"].items():
        for key, value in entry.items():
            np.testing.assert_array_equal(saved["state"][index][key].numpy(), value.numpy())


@pytest.mark.parametrize("config", ["sgd-momentum", "groups", "adam-decay-amsgrad", "adamw", "adam-groups"])
def test_load_a_torch_state_dict(config):
    torch_params, torch_optimizer = train(torch, CONFIGS[config], steps=3)
    converted = copy.deepcopy(torch_optimizer.state_dict())
    for entry in converted["state"].values():
        entry.update((key, wick.from_numpy(value.numpy())) for key, value in entry.items() if value is not None)
    params, loss = problem(wick)
    with wick.no_grad():
        for p, value in zip(params, torch_params):
            p.copy_(wick.from_numpy(value.detach().numpy()))
    optimizer = CONFIGS[config](wick.optim, params)
    optimizer.load_state_dict(converted)
    for _ in range(3):
        optimizer.zero_grad()
        loss().backward()
        optimizer.step()
    torch_uninterrupted, _ = train(torch, CONFIGS[config], steps=6)
    assert_params_match(params, torch_uninterrupted)


def test_load_state_dict_checks_the_groups():
    params, _ = problem(wick)
    saved = wick.optim.SGD([{"params": [params[0]]}, {"params": [params[1]]}], lr=0.1).state_dict()
    with pytest.raises(ValueError, match="different number of parameter groups"):
        wick.optim.SGD(params, lr=0.1).load_state_dict(saved)
    saved = wick.optim.SGD(params, lr=0.1).state_dict()
    with pytest.raises(ValueError, match="doesn't match the size"):
        wick.optim.SGD(params[:1], lr=0.1).load_state_dict(saved)


def test_step_saved_as_a_number_is_converted():
    params, loss = problem(wick)
    optimizer = wick.optim.Adam(params, lr=0.1)
    loss().backward()
    optimizer.step()
    state = optimizer.state_dict()
    for entry in state["state"].values():
        entry["step"] = 1  # as PyTorch before 1.12 saved it
    optimizer.load_state_dict(state)
    optimizer.step()
    assert all(entry["step"].item() == 2.0 for entry in optimizer.state.values())


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    params, loss = problem(wick)
    optimizer = wick.optim.SGD(params, lr=0.1)
    loss().backward()
    optimizer.zero_grad(set_to_none=set_to_none)
    for p in params:
        if set_to_none:
            assert p.grad is None
        else:
            assert not p.grad.requires_grad and not p.grad.numpy().any()


def test_add_param_group_and_defaults():
    def run(lib):
        params, _ = problem(lib)
        optimizer = lib.optim.AdamW([params[0]], lr=0.01)
        optimizer.add_param_group({"params": params[1], "weight_decay": 0.5})
        return [{k: v for k, v in g.items() if k in ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")}
                for g in optimizer.param_groups], [len(g["params"]) for g in optimizer.param_groups]
    assert run(wick) == run(torch)


def test_repr_matches_torch():
    def run(lib):
        params, _ = problem(lib)
        text = repr(lib.optim.SGD([{"params": [params[0]]}, {"params": [params[1]], "lr": 0.5}], lr=0.1,
                                  momentum=0.9))
        return [line for line in text.split("\n") if line.split(":")[0].strip() not in ("foreach", "differentiable")]
    assert run(wick) == run(torch)


@pytest.mark.parametrize("bad", [
    lambda optim, params: optim.SGD(params, lr=-0.1),
    lambda optim, params: optim.SGD(params, lr=0.1, momentum=-1),
    lambda optim, params: optim.SGD(params, lr=0.1, weight_decay=-1),
    lambda optim, params: optim.SGD(params, lr=0.1, nesterov=True),
    lambda optim, params: optim.SGD(params, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
    lambda optim, params: optim.SGD(params),
    lambda optim, params: optim.SGD([], lr=0.1),
    lambda optim, params: optim.SGD(params[0], lr=0.1),
    lambda optim, params: optim.SGD([{"params": set(params)}], lr=0.1),
    lambda optim, params: optim.SGD([params[0] * 2], lr=0.1),
    lambda optim, params: optim.SGD([{"params": [params[0]]}, {"params": [params[0]]}], lr=0.1),
    lambda optim, params: optim.Adam(params, lr=-1),
    lambda optim, params: optim.Adam(params, eps=-1),
    lambda optim, params: optim.Adam(params, betas=(1.0, 0.9)),
    lambda optim, params: optim.Adam(params, betas=(0.9, -0.1)),
    lambda optim, params: optim.AdamW(params, weight_decay=-1),
])
def test_argument_errors_match_torch(bad):
    def run(lib):
        params, _ = problem(lib)
        with pytest.raises(Exception) as info:
            bad(lib.optim, params)
        return info.type, str(info.value).replace("torch.", "").replace("Tensor", "")
    (wick_type, wick_message), (torch_type, torch_message) = run(wick), run(torch)
    assert wick_type == torch_type
    if wick_type is ValueError:
        assert wick_message == torch_message
