"""wick.optim: RMSprop, Adagrad, Adamax, Adadelta, NAdam, RAdam and ASGD against torch.optim 1.13, run the same way
in float64 from the same weights and data (the problem and training loop of test_optim.py); their state_dict()s
against torch's; the argument checks."""
import copy

import numpy as np
import pytest
import torch

import wick
from nn.test_optim import assert_params_match, problem, train

STEPS = 8

CONFIGS = {
    "rmsprop": lambda optim, params: optim.RMSprop(params, lr=0.01),
    "rmsprop-centered-momentum": lambda optim, params: optim.RMSprop(params, lr=0.01, alpha=0.9, eps=1e-6,
                                                                     weight_decay=0.1, momentum=0.8, centered=True),
    "rmsprop-momentum-maximize": lambda optim, params: optim.RMSprop(params, lr=0.001, momentum=0.5, maximize=True),
    "adagrad": lambda optim, params: optim.Adagrad(params, lr=0.1),
    "adagrad-decay": lambda optim, params: optim.Adagrad(params, lr=0.1, lr_decay=0.05, weight_decay=0.1,
                                                         initial_accumulator_value=0.3, eps=1e-6),
    "adagrad-maximize": lambda optim, params: optim.Adagrad(params, lr=0.01, maximize=True),
    "adamax": lambda optim, params: optim.Adamax(params),
    "adamax-decay": lambda optim, params: optim.Adamax(params, lr=0.05, betas=(0.8, 0.9), eps=1e-4, weight_decay=0.1),
    "adamax-maximize": lambda optim, params: optim.Adamax(params, lr=0.01, maximize=True),
    "adadelta": lambda optim, params: optim.Adadelta(params),
    "adadelta-decay": lambda optim, params: optim.Adadelta(params, lr=0.5, rho=0.7, eps=1e-4, weight_decay=0.1),
    "adadelta-maximize": lambda optim, params: optim.Adadelta(params, maximize=True),
    "nadam": lambda optim, params: optim.NAdam(params, lr=0.05),
    "nadam-decay": lambda optim, params: optim.NAdam(params, lr=0.05, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1,
                                                     momentum_decay=0.01),
    # beta2 small enough that rho_t passes 5 within the steps: both of RAdam's branches run.
    "radam": lambda optim, params: optim.RAdam(params, lr=0.05, betas=(0.9, 0.9)),
    "radam-default": lambda optim, params: optim.RAdam(params, lr=0.05),
    "radam-decay": lambda optim, params: optim.RAdam(params, lr=0.05, betas=(0.8, 0.85), eps=1e-6, weight_decay=0.1),
    "asgd": lambda optim, params: optim.ASGD(params, lr=0.05),
    # t0 within the steps: the averaging of ax starts.
    "asgd-averaging": lambda optim, params: optim.ASGD(params, lr=0.05, lambd=0.1, alpha=0.5, t0=3,
                                                       weight_decay=0.1),
    "asgd-maximize": lambda optim, params: optim.ASGD(params, lr=0.01, maximize=True),
    "groups": lambda optim, params: optim.RMSprop([{"params": [params[0]], "centered": True},
                                                   {"params": [params[1]], "lr": 0.05, "momentum": 0.3}], lr=0.01),
}


# torch's options that wick's optimizers do not take (differentiating through the update; CUDA graphs).
UNSUPPORTED = ("differentiable", "capturable")


def without_unsupported(group):
    return {k: v for k, v in group.items() if k not in UNSUPPORTED}


def as_numpy(value):
    return value.detach().numpy() if isinstance(value, (wick.Tensor, torch.Tensor)) else value


@pytest.mark.parametrize("name", CONFIGS)
def test_trajectory_matches_torch(name):
    wick_params, wick_optimizer = train(wick, CONFIGS[name], steps=STEPS)
    torch_params, torch_optimizer = train(torch, CONFIGS[name], steps=STEPS)
    assert_params_match(wick_params, torch_params)
    wick_state, torch_state = wick_optimizer.state_dict(), torch_optimizer.state_dict()
    assert wick_state["param_groups"] == [without_unsupported(group) for group in torch_state["param_groups"]]
    assert wick_state["state"].keys() == torch_state["state"].keys()
    for index, torch_entry in torch_state["state"].items():
        wick_entry = wick_state["state"][index]
        assert wick_entry.keys() == torch_entry.keys()
        for key, value in torch_entry.items():
            assert type(wick_entry[key]).__name__ == type(value).__name__
            np.testing.assert_allclose(as_numpy(wick_entry[key]), as_numpy(value), rtol=1e-6, atol=1e-10)


@pytest.mark.parametrize("name", ["rmsprop-centered-momentum", "adagrad-decay", "adamax", "adadelta", "nadam",
                                  "radam", "asgd-averaging"])
def test_resumes_from_state_dict(name):
    """Training 4 steps, saving, loading into a fresh optimizer and training 4 more is training 8."""
    trained, optimizer = train(wick, CONFIGS[name], steps=4)
    params, _ = resume(name, optimizer.state_dict(), trained, steps=4)
    expected, _ = train(wick, CONFIGS[name], steps=8)
    assert_params_match(params, expected)


BAD_ARGUMENTS = [
    ("RMSprop", dict(lr=-1.0)), ("RMSprop", dict(eps=-1.0)), ("RMSprop", dict(momentum=-0.1)),
    ("RMSprop", dict(weight_decay=-1.0)), ("RMSprop", dict(alpha=-0.5)),
    ("Adagrad", dict(lr=-1.0)), ("Adagrad", dict(lr_decay=-1.0)), ("Adagrad", dict(weight_decay=-1.0)),
    ("Adagrad", dict(initial_accumulator_value=-1.0)), ("Adagrad", dict(eps=-1.0)),
    ("Adamax", dict(lr=-1.0)), ("Adamax", dict(eps=-1.0)), ("Adamax", dict(betas=(1.0, 0.9))),
    ("Adamax", dict(betas=(0.9, -0.1))), ("Adamax", dict(weight_decay=-1.0)),
    ("Adadelta", dict(lr=-1.0)), ("Adadelta", dict(rho=1.5)), ("Adadelta", dict(eps=-1.0)),
    ("Adadelta", dict(weight_decay=-1.0)),
    ("NAdam", dict(lr=-1.0)), ("NAdam", dict(betas=(0.9, 1.0))), ("NAdam", dict(momentum_decay=-1.0)),
    ("RAdam", dict(eps=-1.0)), ("RAdam", dict(betas=(-0.1, 0.9))), ("RAdam", dict(weight_decay=-1.0)),
    ("ASGD", dict(lr=-1.0)), ("ASGD", dict(weight_decay=-1.0)),
]


@pytest.mark.parametrize("name,kwargs", BAD_ARGUMENTS)
def test_invalid_arguments_raise_as_torch(name, kwargs):
    with pytest.raises(ValueError) as torch_error:
        getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError) as wick_error:
        getattr(wick.optim, name)([wick.zeros(2, requires_grad=True)], **kwargs)
    assert str(wick_error.value) == str(torch_error.value)


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad", "Adamax", "Adadelta", "NAdam", "RAdam", "ASGD"])
def test_defaults_match_torch(name):
    torch_optimizer = getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)])
    wick_optimizer = getattr(wick.optim, name)([wick.zeros(2, requires_grad=True)])
    assert wick_optimizer.defaults == without_unsupported(torch_optimizer.defaults)


def test_parameters_without_grad_are_skipped():
    p, q = wick.ones(3, requires_grad=True), wick.ones(3, requires_grad=True)
    optimizer = wick.optim.NAdam([p, q], lr=0.1)
    (p * p).sum().backward()
    optimizer.step()
    assert not np.array_equal(p.detach().numpy(), np.ones(3))
    np.testing.assert_array_equal(q.detach().numpy(), np.ones(3))
    assert q not in optimizer.state


@pytest.mark.parametrize("name", ["rmsprop-centered-momentum", "adagrad-decay", "adamax-decay", "adadelta-decay",
                                  "nadam-decay", "radam", "asgd-averaging", "groups"])
def test_load_a_torch_state_dict(name):
    """torch's state after 3 steps (tensors converted), loaded into wick's optimizer, goes on as torch would."""
    torch_params, torch_optimizer = train(torch, CONFIGS[name], steps=3)
    converted = copy.deepcopy(torch_optimizer.state_dict())
    for entry in converted["state"].values():
        entry.update((key, wick.from_numpy(value.numpy())) for key, value in entry.items()
                     if isinstance(value, torch.Tensor))
    params, loss = problem(wick)
    with wick.no_grad():
        for p, value in zip(params, torch_params):
            p.copy_(wick.from_numpy(value.detach().numpy()))
    optimizer = CONFIGS[name](wick.optim, params)
    optimizer.load_state_dict(converted)
    for _ in range(3):
        optimizer.zero_grad()
        loss().backward()
        optimizer.step()
    torch_uninterrupted, _ = train(torch, CONFIGS[name], steps=6)
    assert_params_match(params, torch_uninterrupted)



def resume(name, state_dict, trained, steps):
    """A fresh optimizer of config `name` over copies of the `trained` parameters, loaded with state_dict and
    stepped `steps` times; its parameters."""
    params, loss = problem(wick)
    with wick.no_grad():
        for p, value in zip(params, trained):
            p.copy_(value)
    optimizer = CONFIGS[name](wick.optim, params)
    optimizer.load_state_dict(state_dict)
    for _ in range(steps):
        optimizer.zero_grad()
        loss().backward()
        optimizer.step()
    return params, optimizer


@pytest.mark.parametrize("name,keys", [("adagrad", ["step"]), ("adamax", ["step"]), ("nadam", ["step", "mu_product"]),
                                       ("radam", ["step"]), ("asgd-averaging", ["step", "eta", "mu"])])
def test_numbers_saved_before_torch_1_12_are_converted(name, keys):
    """A state whose step (and ASGD's eta and mu, NAdam's mu_product) are plain numbers, as PyTorch before 1.12
    saved them, loads as tensors and goes on as the uninterrupted run."""
    trained, optimizer = train(wick, CONFIGS[name], steps=4)
    state = optimizer.state_dict()
    for entry in state["state"].values():
        for key in keys:
            entry[key] = entry[key].item()
    params, resumed = resume(name, state, trained, steps=4)
    assert all(isinstance(entry[key], wick.Tensor) for entry in resumed.state.values() for key in keys)
    expected, _ = train(wick, CONFIGS[name], steps=8)
    assert_params_match(params, expected)
