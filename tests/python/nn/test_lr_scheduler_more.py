"""wick.optim.lr_scheduler's MultiplicativeLR, ConstantLR, LinearLR, PolynomialLR, CosineAnnealingWarmRestarts,
CyclicLR, OneCycleLR, SequentialLR, ChainedScheduler and ReduceLROnPlateau against PyTorch 1.13's: the lr (and
momentum or beta1, where cycled) of every parameter group step by step, and by the closed form (step(epoch));
state_dict() round trips; the argument errors."""
import numpy as np
import pytest
import torch

import wick

# SequentialLR restarts its schedulers by step(0), which warns of the deprecated epoch argument, in torch as in wick.
pytestmark = pytest.mark.filterwarnings("ignore:The epoch parameter:UserWarning")

EPOCHS = 25


def sgd(lib):
    """SGD over two parameter groups of different lrs."""
    a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))
    return lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1, momentum=0.9)


def adam(lib):
    a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))
    return lib.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.3, "betas": (0.5, 0.99)}], lr=0.1)


SCHEDULERS = {  # each (lr_scheduler, optimizer) -> scheduler
    "MultiplicativeLR": lambda s, o: s.MultiplicativeLR(o, lambda epoch: 0.95),
    "MultiplicativeLR-per-group": lambda s, o: s.MultiplicativeLR(o, [lambda e: 0.9, lambda e: 1 - 0.01 * e]),
    "ConstantLR": lambda s, o: s.ConstantLR(o),
    "ConstantLR-factor": lambda s, o: s.ConstantLR(o, factor=0.5, total_iters=7),
    "LinearLR": lambda s, o: s.LinearLR(o),
    "LinearLR-down": lambda s, o: s.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=12),
    "PolynomialLR": lambda s, o: s.PolynomialLR(o),
    "PolynomialLR-power": lambda s, o: s.PolynomialLR(o, total_iters=15, power=2.5),
    "CosineAnnealingWarmRestarts": lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=5),
    "CosineAnnealingWarmRestarts-mult": lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2,
                                                                                   eta_min=0.01),
    "CyclicLR": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4),
    "CyclicLR-triangular2": lambda s, o: s.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=[0.1, 0.5], step_size_up=3,
                                                    step_size_down=5, mode="triangular2", base_momentum=0.7,
                                                    max_momentum=[0.95, 0.9]),
    "CyclicLR-exp_range": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="exp_range",
                                                  gamma=0.9, cycle_momentum=False),
    "CyclicLR-scale_fn": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                                 scale_fn=lambda x: 1 / (x + 1), scale_mode="iterations"),
    "OneCycleLR": lambda s, o: s.OneCycleLR(o, max_lr=0.5, total_steps=EPOCHS + 1),
    "OneCycleLR-linear": lambda s, o: s.OneCycleLR(o, max_lr=[0.5, 1.0], epochs=13, steps_per_epoch=2,
                                                   anneal_strategy="linear", pct_start=0.4, div_factor=10.0,
                                                   final_div_factor=100.0),
    "OneCycleLR-three_phase": lambda s, o: s.OneCycleLR(o, max_lr=0.5, total_steps=EPOCHS + 1, three_phase=True,
                                                        base_momentum=0.8, max_momentum=[0.9, 0.99]),
    "OneCycleLR-no-momentum": lambda s, o: s.OneCycleLR(o, max_lr=0.5, total_steps=EPOCHS + 1,
                                                        cycle_momentum=False),
    "SequentialLR": lambda s, o: s.SequentialLR(o, [s.LinearLR(o, start_factor=0.2, total_iters=4),
                                                    s.ExponentialLR(o, gamma=0.9)], milestones=[6]),
    "SequentialLR-three": lambda s, o: s.SequentialLR(o, [s.ConstantLR(o, factor=0.5, total_iters=3),
                                                          s.CosineAnnealingLR(o, T_max=5),
                                                          s.StepLR(o, step_size=3)], milestones=[4, 12]),
    "ChainedScheduler": lambda s, o: s.ChainedScheduler([s.ConstantLR(o, factor=0.1, total_iters=2),
                                                         s.ExponentialLR(o, gamma=0.9)]),
    "ChainedScheduler-three": lambda s, o: s.ChainedScheduler([s.LinearLR(o, total_iters=6),
                                                               s.StepLR(o, step_size=4, gamma=0.5),
                                                               s.MultiplicativeLR(o, lambda e: 0.98)]),
}
ADAM_SCHEDULERS = ["OneCycleLR", "OneCycleLR-three_phase", "LinearLR", "SequentialLR"]
CLOSED_FORMS = ["ConstantLR", "ConstantLR-factor", "LinearLR", "LinearLR-down", "PolynomialLR",
                "PolynomialLR-power"]


def snapshot(opt, scheduler):
    """Each group's lr and momentum (SGD's, or Adam's beta1), and get_last_lr()."""
    groups = [(group["lr"], group.get("momentum"), group.get("betas", (None,))[0]) for group in opt.param_groups]
    return groups, list(scheduler.get_last_lr())


def schedule(lib, name, make_optimizer=sgd, epochs=EPOCHS):
    opt = make_optimizer(lib)
    scheduler = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
    values = [snapshot(opt, scheduler)]
    for _ in range(epochs):
        opt.step()
        scheduler.step()
        values.append(snapshot(opt, scheduler))
    return values, scheduler, opt


def assert_same_values(wick_values, torch_values):
    assert len(wick_values) == len(torch_values)
    for epoch, (w, t) in enumerate(zip(wick_values, torch_values)):
        assert [[m is None for m in g] for g in w[0]] == [[m is None for m in g] for g in t[0]], epoch
        flat = [[x for g in v[0] for x in g if x is not None] + v[1] for v in (w, t)]
        np.testing.assert_allclose(flat[0], flat[1], rtol=1e-13, atol=0, err_msg=f"epoch {epoch}")


@pytest.mark.parametrize("name", SCHEDULERS)
def test_schedule_matches_torch(name):
    assert_same_values(schedule(wick, name)[0], schedule(torch, name)[0])


@pytest.mark.parametrize("name", ADAM_SCHEDULERS)
def test_schedule_of_adam_matches_torch(name):
    assert_same_values(schedule(wick, name, adam)[0], schedule(torch, name, adam)[0])


@pytest.mark.parametrize("name", CLOSED_FORMS + ["CosineAnnealingWarmRestarts",
                                                 "CosineAnnealingWarmRestarts-mult"])
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_closed_form_matches_torch(name):
    epochs = [3, 0, 7.5 if name.startswith("Cosine") else 7, 20, 1, 13, 2.25 if name.startswith("Cosine") else 2]
    results = []
    for lib in (wick, torch):
        opt = sgd(lib)
        scheduler = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
        lrs = []
        for epoch in epochs:
            opt.step()
            scheduler.step(epoch)
            lrs.append([group["lr"] for group in opt.param_groups])
        results.append(lrs)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-13, atol=0)


def comparable(state):
    """A scheduler's state_dict without what cannot be compared across libraries: functions and torch's weak
    reference to CyclicLR's scale function; the state of nested schedulers likewise."""
    skip = ("anneal_func", "_scale_fn_ref", "_scale_fn_custom", "lr_lambdas")
    result = {key: value for key, value in state.items() if key not in skip}
    if "_schedulers" in result:
        result["_schedulers"] = [comparable(s) for s in result["_schedulers"]]
    return result


@pytest.mark.parametrize("name", [n for n in SCHEDULERS if "scale_fn" not in n and "Multiplicative" not in n])
def test_state_dict_matches_torch_and_resumes(name):
    wick_values, wick_scheduler, _ = schedule(wick, name, epochs=9)
    torch_values, torch_scheduler, _ = schedule(torch, name, epochs=9)
    assert comparable(wick_scheduler.state_dict()) == comparable(torch_scheduler.state_dict())
    # A fresh scheduler that loads the state after 9 epochs goes on as the first would have.
    all_values, _, _ = schedule(wick, name, epochs=15)
    _, scheduler, opt = schedule(wick, name, epochs=0)
    scheduler.load_state_dict(wick_scheduler.state_dict())
    for group, saved in zip(opt.param_groups, wick_scheduler.optimizer.param_groups):
        group.update({k: v for k, v in saved.items() if k != "params"})
    resumed = [snapshot(opt, scheduler)]
    for _ in range(6):
        opt.step()
        scheduler.step()
        resumed.append(snapshot(opt, scheduler))
    assert_same_values(resumed, all_values[9:])


def test_one_cycle_raises_past_total_steps():
    for lib in (wick, torch):
        opt = sgd(lib)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=3)
        for _ in range(3):
            opt.step()
            scheduler.step()
        with pytest.raises(ValueError, match="Tried to step 5 times. The specified number of total steps is 3"):
            scheduler.step()


PLATEAU = {
    "default": dict(),
    "max-abs": dict(mode="max", threshold=0.05, threshold_mode="abs", patience=2),
    "min-abs-cooldown": dict(threshold=0.01, threshold_mode="abs", patience=1, cooldown=2, factor=0.5),
    "max-rel": dict(mode="max", patience=0, factor=0.7, min_lr=[0.02, 0.05]),
    "min_lr-eps": dict(patience=1, factor=0.5, min_lr=0.04, eps=0.005),
}
METRICS = [1.0, 0.9, 0.95, 0.95, 0.9, 0.89, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.85, 0.86, 0.4, 0.41, 0.42,
           0.43, 0.44, 0.45, 0.46, 0.47, 0.48, 0.49, 0.5, 0.51, 0.52, 0.53, 0.54]


@pytest.mark.parametrize("name", PLATEAU)
def test_reduce_lr_on_plateau_matches_torch(name):
    results = []
    for lib in (wick, torch):
        opt = sgd(lib)
        scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **PLATEAU[name])
        lrs = []
        for i, metric in enumerate(METRICS):
            scheduler.step(lib.tensor(metric) if i % 2 else metric)
            lrs.append([group["lr"] for group in opt.param_groups] + scheduler._last_lr
                       + [scheduler.num_bad_epochs, scheduler.cooldown_counter, scheduler.best])
        results.append(lrs)
        state = scheduler.state_dict()
        assert "optimizer" not in state
        results.append(state)
    np.testing.assert_allclose(results[0], results[2], rtol=1e-13, atol=0)
    assert results[1] == results[3]


def test_reduce_lr_on_plateau_loads_state():
    opt = sgd(wick)
    scheduler = wick.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", patience=1)
    for metric in METRICS[:5]:
        scheduler.step(metric)
    fresh = wick.optim.lr_scheduler.ReduceLROnPlateau(sgd(wick))
    fresh.load_state_dict(scheduler.state_dict())
    assert fresh.mode == "max" and fresh.mode_worse == -float("inf") and fresh.best == scheduler.best


BAD = [
    ("ConstantLR", lambda s, o: s.ConstantLR(o, factor=1.5), ValueError),
    ("LinearLR-start", lambda s, o: s.LinearLR(o, start_factor=-0.1), ValueError),
    ("LinearLR-end", lambda s, o: s.LinearLR(o, end_factor=2.0), ValueError),
    ("MultiplicativeLR", lambda s, o: s.MultiplicativeLR(o, [lambda e: 1.0]), ValueError),
    ("WarmRestarts-T_0", lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=0), ValueError),
    ("WarmRestarts-T_0-float", lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=2.0), ValueError),
    ("WarmRestarts-T_mult", lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0), ValueError),
    ("WarmRestarts-epoch", lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=2).step(-1), ValueError),
    ("CyclicLR-mode", lambda s, o: s.CyclicLR(o, 0.1, 1.0, mode="square"), ValueError),
    ("CyclicLR-groups", lambda s, o: s.CyclicLR(o, [0.1, 0.2, 0.3], 1.0), ValueError),
    ("CyclicLR-not-optimizer", lambda s, o: s.CyclicLR(object(), 0.1, 1.0), TypeError),
    ("OneCycleLR-nothing", lambda s, o: s.OneCycleLR(o, 0.1), ValueError),
    ("OneCycleLR-total", lambda s, o: s.OneCycleLR(o, 0.1, total_steps=0), ValueError),
    ("OneCycleLR-epochs", lambda s, o: s.OneCycleLR(o, 0.1, epochs=2.0, steps_per_epoch=3), ValueError),
    ("OneCycleLR-steps", lambda s, o: s.OneCycleLR(o, 0.1, epochs=2, steps_per_epoch=-3), ValueError),
    ("OneCycleLR-pct", lambda s, o: s.OneCycleLR(o, 0.1, total_steps=5, pct_start=1.5), ValueError),
    ("OneCycleLR-pct-int", lambda s, o: s.OneCycleLR(o, 0.1, total_steps=5, pct_start=0), ValueError),
    ("OneCycleLR-anneal", lambda s, o: s.OneCycleLR(o, 0.1, total_steps=5, anneal_strategy="exp"), ValueError),
    ("OneCycleLR-max_lr", lambda s, o: s.OneCycleLR(o, [0.1], total_steps=5), ValueError),
    ("SequentialLR-milestones", lambda s, o: s.SequentialLR(o, [s.ConstantLR(o)], milestones=[3]), ValueError),
    ("SequentialLR-optimizer", lambda s, o: s.SequentialLR(sgd(torch if s is torch.optim.lr_scheduler else wick),
                                                           [s.ConstantLR(o)], milestones=[]), ValueError),
    ("ChainedScheduler-optimizer", lambda s, o: s.ChainedScheduler(
        [s.ConstantLR(o), s.ConstantLR(sgd(torch if s is torch.optim.lr_scheduler else wick))]), ValueError),
    ("Plateau-factor", lambda s, o: s.ReduceLROnPlateau(o, factor=1.0), ValueError),
    ("Plateau-mode", lambda s, o: s.ReduceLROnPlateau(o, mode="avg"), ValueError),
    ("Plateau-threshold_mode", lambda s, o: s.ReduceLROnPlateau(o, threshold_mode="pct"), ValueError),
    ("Plateau-min_lr", lambda s, o: s.ReduceLROnPlateau(o, min_lr=[0.1]), ValueError),
    ("Plateau-not-optimizer", lambda s, o: s.ReduceLROnPlateau(None), TypeError),
]


@pytest.mark.parametrize("make,error", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_invalid_arguments_raise_as_torch(make, error):
    with pytest.raises(error) as torch_error:
        make(torch.optim.lr_scheduler, sgd(torch))
    with pytest.raises(error) as wick_error:
        make(wick.optim.lr_scheduler, sgd(wick))
    assert str(wick_error.value) == str(torch_error.value)


def test_cyclic_lr_needs_momentum_as_torch():
    for lib in (wick, torch):
        with pytest.raises(ValueError, match="optimizer must support momentum"):
            lib.optim.lr_scheduler.CyclicLR(adam(lib), 0.01, 0.1)
        with pytest.raises(ValueError, match="optimizer must support momentum"):
            lib.optim.lr_scheduler.OneCycleLR(lib.optim.Adagrad([lib.ones(1, requires_grad=True)]), 0.1,
                                              total_steps=4)
