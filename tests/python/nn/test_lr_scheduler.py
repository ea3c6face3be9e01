"""wick.optim.lr_scheduler against PyTorch 1.13's torch.optim.lr_scheduler: the lr of every parameter group over
20 epochs, step by step and by the closed form (step(epoch)); state_dict(), load_state_dict() and resuming with
last_epoch; initial_lr; the warnings, the printing of verbose, and the argument errors."""
import warnings

import numpy as np
import pytest
import torch

import wick

EPOCHS = 20


class Warmup:
    """A callable object as lr_lambda: its attributes, unlike a function's, are in the scheduler's state_dict."""

    def __init__(self, epochs):
        self.epochs = epochs

    def __call__(self, epoch):
        return min(1.0, (epoch + 1) / self.epochs)


SCHEDULERS = {  # each (lr_scheduler, optimizer, **more arguments) -> scheduler
    "LambdaLR": lambda s, o, **kw: s.LambdaLR(o, lambda epoch: 0.9 ** epoch, **kw),
    "LambdaLR-per-group": lambda s, o, **kw: s.LambdaLR(o, [Warmup(5), lambda epoch: 1 / (epoch + 1)], **kw),
    "StepLR": lambda s, o, **kw: s.StepLR(o, step_size=3, **kw),
    "StepLR-gamma": lambda s, o, **kw: s.StepLR(o, 4, gamma=0.5, **kw),
    "MultiStepLR": lambda s, o, **kw: s.MultiStepLR(o, milestones=[2, 5, 5, 11], gamma=0.3, **kw),
    "ExponentialLR": lambda s, o, **kw: s.ExponentialLR(o, gamma=0.8, **kw),
    "CosineAnnealingLR": lambda s, o, **kw: s.CosineAnnealingLR(o, T_max=6, **kw),
    "CosineAnnealingLR-eta_min": lambda s, o, **kw: s.CosineAnnealingLR(o, T_max=7, eta_min=0.01, **kw),
}
CLOSED_FORMS = [name for name in SCHEDULERS if not name.startswith("LambdaLR")]


def optimizer(lib):
    """SGD over two parameter groups of different lrs."""
    a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))
    return lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1, momentum=0.9)


def schedule(lib, name, epochs=EPOCHS):
    """The groups' lrs and get_last_lr() after construction and after each of `epochs` steps."""
    opt = optimizer(lib)
    scheduler = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
    lrs = [[group["lr"] for group in opt.param_groups] + scheduler.get_last_lr()]
    for _ in range(epochs):
        opt.step()
        scheduler.step()
        lrs.append([group["lr"] for group in opt.param_groups] + scheduler.get_last_lr())
    return lrs, scheduler, opt


def comparable(state):
    """A scheduler's state_dict with torch's Counter of milestones as a plain dict."""
    return {key: dict(value) if key == "milestones" else value for key, value in state.items()}


@pytest.mark.parametrize("name", SCHEDULERS)
def test_lrs_match_torch(name):
    (ours, scheduler, opt), (theirs, torch_scheduler, torch_opt) = schedule(wick, name), schedule(torch, name)
    assert ours == theirs  # the same arithmetic: equal, not close
    assert comparable(scheduler.state_dict()) == comparable(torch_scheduler.state_dict())
    assert [g["initial_lr"] for g in opt.param_groups] == [g["initial_lr"] for g in torch_opt.param_groups]


@pytest.mark.parametrize("name", CLOSED_FORMS)
def test_step_with_an_epoch_takes_the_closed_form_and_warns(name):
    def run(lib):
        opt = optimizer(lib)
        scheduler = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
        lrs = []
        for epoch in (3, 7, 8, 15, 2):
            with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
                scheduler.step(epoch)
            lrs.append(scheduler.get_last_lr())
        return lrs, scheduler.last_epoch
    assert run(wick) == run(torch)


@pytest.mark.parametrize("name", SCHEDULERS)
def test_state_dict_round_trip_resumes_the_schedule(name):
    uninterrupted, _, _ = schedule(wick, name)
    _, scheduler, opt = schedule(wick, name, epochs=8)
    saved_state, saved_groups = scheduler.state_dict(), opt.state_dict()["param_groups"]

    resumed_opt = optimizer(wick)
    resumed_opt.load_state_dict({"state": {}, "param_groups": saved_groups})
    resumed = SCHEDULERS[name](wick.optim.lr_scheduler, resumed_opt)
    resumed.load_state_dict(saved_state)
    lrs = []
    for _ in range(EPOCHS - 8):
        resumed_opt.step()
        resumed.step()
        lrs.append([group["lr"] for group in resumed_opt.param_groups] + resumed.get_last_lr())
    assert lrs == uninterrupted[9:]


def test_lambda_state_dict_keeps_callable_objects_only():
    _, scheduler, _ = schedule(wick, "LambdaLR-per-group", epochs=3)
    _, torch_scheduler, _ = schedule(torch, "LambdaLR-per-group", epochs=3)
    state = scheduler.state_dict()
    assert state["lr_lambdas"] == torch_scheduler.state_dict()["lr_lambdas"] == [{"epochs": 5}, None]
    fresh = SCHEDULERS["LambdaLR-per-group"](wick.optim.lr_scheduler, optimizer(wick))
    fresh.lr_lambdas[0].epochs = 2
    fresh.load_state_dict(state)
    assert fresh.lr_lambdas[0].epochs == 5 and fresh.last_epoch == 3 and "lr_lambdas" in state


@pytest.mark.parametrize("name", SCHEDULERS)
def test_last_epoch_resumes_from_initial_lr(name):
    def run(lib):
        opt = optimizer(lib)
        for group in opt.param_groups:
            group["initial_lr"] = group["lr"] * 2
        scheduler = SCHEDULERS[name](lib.optim.lr_scheduler, opt, last_epoch=4)
        lrs = [scheduler.get_last_lr()]
        for _ in range(10):
            opt.step()
            scheduler.step()
            lrs.append(scheduler.get_last_lr())
        return lrs, scheduler.base_lrs, scheduler.last_epoch
    assert run(wick) == run(torch)


def test_resuming_without_initial_lr_raises_torchs_error():
    def run(lib):
        with pytest.raises(KeyError) as info:
            lib.optim.lr_scheduler.StepLR(optimizer(lib), 3, last_epoch=2)
        return str(info.value)
    assert run(wick) == run(torch)


def caught_warnings(program):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        program()
    return [str(w.message) for w in caught]


def test_warnings_match_torch():
    def run(lib):
        opt = optimizer(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(opt, 2)
        early = caught_warnings(scheduler.step)  # before any optimizer.step()
        opt.step()
        later = caught_warnings(scheduler.step)
        outside = caught_warnings(scheduler.get_lr)
        overridden = lib.optim.lr_scheduler.ExponentialLR(optimizer(lib), 0.5)
        overridden.optimizer.step = lambda: None
        return early, later, outside, caught_warnings(overridden.step)
    ours, theirs = run(wick), run(torch)
    assert ours == theirs
    assert all(len(found) == 1 for i, found in enumerate(ours) if i != 1) and ours[1] == []


def test_verbose_prints_as_torch(capsys):
    def run(lib):
        opt = optimizer(lib)
        scheduler = lib.optim.lr_scheduler.ExponentialLR(opt, 0.5, verbose=True)
        opt.step()
        scheduler.step()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scheduler.step(3)
            scheduler.step(4.5)
        return capsys.readouterr().out
    ours, theirs = run(wick), run(torch)
    assert ours == theirs and "Epoch 00003: adjusting learning rate of group 1" in ours


def test_argument_errors_match_torch():
    def run(lib):
        found = []
        for bad in (lambda: lib.optim.lr_scheduler.LambdaLR(optimizer(lib), [lambda e: 1.0] * 3),
                    lambda: lib.optim.lr_scheduler.StepLR(object(), 3)):
            with pytest.raises(Exception) as info:
                bad()
            found.append((info.type, str(info.value)))
        return found
    assert run(wick) == run(torch)


def test_schedulers_drive_training_as_torch():
    def run(lib):
        rng = np.random.default_rng(0)
        w = lib.nn.Parameter(lib.from_numpy(rng.standard_normal((3, 4))))
        x, y = lib.from_numpy(rng.standard_normal((8, 4))), lib.from_numpy(rng.standard_normal((8, 3)))
        opt = lib.optim.SGD([w], lr=0.2, momentum=0.5)
        scheduler = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.01)
        for _ in range(12):
            opt.zero_grad()
            residual = x.matmul(w.t()) - y
            (residual * residual).mean().backward()
            opt.step()
            scheduler.step()
        return w.detach().numpy()
    np.testing.assert_allclose(run(wick), run(torch), rtol=1e-12)
