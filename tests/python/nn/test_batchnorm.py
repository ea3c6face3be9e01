"""wick.nn.functional.batch_norm and wick.nn.BatchNorm1d / BatchNorm2d against PyTorch 1.13's: values and
gradients in float64 (float32 values too), the running statistics they update, the errors; the modules' buffers,
state_dict, modes and momentum=None; a few steps of training a small convolutional network with both libraries
from the same weights, then a state_dict round trip and the evaluation output."""
import copy

import numpy as np
import pytest
import torch

import wick
from test_functional import Fixed, compare, compare_float32, rand, same_error

SHAPES = [(6, 3), (4, 3, 5), (2, 3, 4, 5), (1, 3, 2, 2)]


def running(channels, seed=5):
    """Running statistics (mean, var) to start from: not the defaults, so that the update is seen."""
    return Fixed(rand(channels, seed=seed)), Fixed(rand(channels, low=0.5, high=2.0, seed=seed + 1))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("affine", ["both", "weight", "bias", "none"])
@pytest.mark.parametrize("momentum", [0.1, 0.75])
def test_batch_norm_training_uses_and_tracks_the_batch_statistics(shape, affine, momentum):
    def program(lib, f, x, mean, var, w, b):
        out = f.batch_norm(x, mean, var, w if affine in ("both", "weight") else None,
                           b if affine in ("both", "bias") else None, training=True, momentum=momentum, eps=1e-3)
        return out, mean, var  # the running statistics, updated in place

    args = rand(*shape), *running(shape[1]), rand(shape[1], seed=1), rand(shape[1], seed=2)
    compare(program, *args)
    compare_float32(program, *args)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_batch_norm_evaluation_uses_the_running_statistics(shape):
    def program(lib, f, x, mean, var, w, b):
        return f.batch_norm(x, mean, var, w, b), mean, var

    args = rand(*shape), *running(shape[1]), rand(shape[1], seed=1), rand(shape[1], seed=2)
    compare(program, *args)
    compare_float32(program, *args)


def test_batch_norm_without_running_statistics():
    compare(lambda lib, f, x, w: f.batch_norm(x, None, None, w, training=True), rand(4, 3, 5), rand(3, seed=1))
    compare(lambda lib, f, x, m: (f.batch_norm(x, m, None, training=True), m), rand(4, 3), Fixed(rand(3, seed=1)))


def test_batch_norm_of_an_empty_batch_updates_nothing():
    def program(lib, f, x, mean, var, w, b):
        return f.batch_norm(x, mean, var, w, b, training=True), mean, var

    compare(program, rand(0, 3, 4), *running(3), rand(3, seed=1), rand(3, seed=2))


BATCH_NORM_ERRORS = [
    ((1, 3), {"training": True}, "Expected more than 1 value per channel when training"),
    ((1, 3, 1, 1), {"training": True}, "Expected more than 1 value per channel when training"),
    ((4, 3), {"running_mean": None}, "running_mean must be defined in evaluation mode"),
    ((4, 3), {"running_var": None}, "running_var must be defined in evaluation mode"),
    ((4, 3, 2), {"running_mean": 4, "training": True}, "running_mean should contain 3 elements not 4"),
    ((4, 3, 2), {"running_var": 2}, "running_var should contain 3 elements not 2"),
    ((4, 3, 2), {"weight": 4}, "weight should contain 3 elements not 4"),
    ((4, 3, 2), {"bias": 1}, "bias should contain 3 elements not 1"),
]


@pytest.mark.parametrize("shape, kwargs, match", BATCH_NORM_ERRORS)
def test_batch_norm_errors(shape, kwargs, match):
    def program(lib, f, x):
        def tensor(name, default):  # None, a tensor of that many elements, or the right one
            value = kwargs.get(name, default)
            return value if value is None else lib.ones(value, dtype=lib.float64)
        return f.batch_norm(x, tensor("running_mean", 3), tensor("running_var", 3), tensor("weight", None),
                            tensor("bias", None), training=kwargs.get("training", False))

    same_error(program, rand(*shape), match=match)


# --- the modules ---

def both(program):
    return program(wick), program(torch)


def arrays(tensors):
    return [None if t is None else t.detach().numpy() for t in tensors]


def assert_same(ours, theirs, rtol=1e-10, atol=1e-12):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if b is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name, shapes", [("BatchNorm1d", [(6, 4), (3, 4, 5)]), ("BatchNorm2d", [(3, 4, 5, 2)])])
@pytest.mark.parametrize("settings", [{}, {"momentum": None}, {"momentum": 0.5, "eps": 1e-2}, {"affine": False},
                                      {"track_running_stats": False}], ids=str)
def test_module_matches_torch_in_training_and_evaluation(name, shapes, settings):
    def program(lib):
        norm = getattr(lib.nn, name)(4, **settings).double()
        rng = np.random.default_rng(0)
        if norm.affine:
            norm.load_state_dict({"weight": lib.from_numpy(rng.standard_normal(4)),
                                  "bias": lib.from_numpy(rng.standard_normal(4))}, strict=False)
        seen = []
        for step in range(4):
            x = lib.from_numpy(rng.standard_normal(shapes[step % len(shapes)])).requires_grad_()
            out = norm(x)
            (out * lib.from_numpy(rng.standard_normal(out.shape))).sum().backward()
            seen += arrays([out, x.grad, norm.weight, norm.running_mean, norm.running_var])
            seen.append(None if norm.num_batches_tracked is None else norm.num_batches_tracked.item())
        norm.eval()
        x = lib.from_numpy(rng.standard_normal(shapes[0])).requires_grad_()
        out = norm(x)
        out.sum().backward()
        seen += arrays([out, x.grad, norm.running_mean, norm.running_var] + [p.grad for p in norm.parameters()])
        return seen

    assert_same(*both(program))


def test_buffers_and_state_dict_are_torchs():
    def program(lib):
        nn = lib.nn
        model = nn.Sequential(nn.LayerNorm(4), nn.BatchNorm1d(4), nn.BatchNorm2d(3, affine=False),
                              nn.BatchNorm1d(2, track_running_stats=False))
        state = model.state_dict()
        return ([n for n, _ in model.named_buffers()], [n for n, _ in model.named_parameters()], list(state),
                [(str(t.dtype).split(".")[-1], tuple(t.shape), t.tolist()) for t in state.values()])
    ours, theirs = both(program)
    assert ours == theirs


def test_reset_running_stats_and_conversions():
    norm = wick.nn.BatchNorm2d(3, momentum=None)
    norm(wick.randn(4, 3, 2, 2))
    assert norm.num_batches_tracked.item() == 1 and norm.running_var.tolist() != [1.0] * 3
    norm.double()
    assert norm.running_mean.dtype == wick.float64 and norm.running_var.dtype == wick.float64
    assert norm.num_batches_tracked.dtype == wick.int64 and norm.num_batches_tracked.dim() == 0
    norm.reset_running_stats()
    assert norm.running_mean.tolist() == [0.0] * 3 and norm.running_var.tolist() == [1.0] * 3
    assert norm.num_batches_tracked.item() == 0


def test_repr_matches_torch():
    def program(lib):
        nn = lib.nn
        return repr(nn.Sequential(nn.BatchNorm1d(4), nn.BatchNorm2d(3, eps=1e-3, momentum=None, affine=False,
                                                                    track_running_stats=False)))
    ours, theirs = both(program)
    assert ours == theirs


@pytest.mark.parametrize("name, shape", [("BatchNorm1d", (2, 3, 4, 5)), ("BatchNorm1d", (3,)),
                                         ("BatchNorm2d", (2, 3, 4)), ("BatchNorm2d", (1, 3, 1, 1))])
def test_module_errors_match_torch(name, shape):
    def program(lib):
        with pytest.raises(Exception) as info:
            getattr(lib.nn, name)(3)(lib.zeros(shape))
        return info.type, str(info.value).split(", got input size")[0]  # which is a torch.Size or a tuple
    ours, theirs = both(program)
    assert ours == theirs


# --- training ---

def network(lib):
    """conv -> BatchNorm2d -> relu -> flatten -> linear -> BatchNorm1d, in float64, with the same weights in either
    library."""
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(),
                          nn.Linear(4 * 5 * 5, 3), nn.BatchNorm1d(3, momentum=None)).double()
    rng = np.random.default_rng(0)
    model.load_state_dict({k: lib.from_numpy(rng.standard_normal(tuple(p.shape)) * 0.3)
                           for k, p in model.named_parameters()}, strict=False)
    return model


def train(lib, steps=4):
    """A few steps of SGD with momentum on a fixed dataset; what each step leaves in the state_dict."""
    model = network(lib)
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    rng = np.random.default_rng(1)
    x, y = lib.from_numpy(rng.standard_normal((8, 2, 5, 5))), lib.from_numpy(rng.integers(0, 3, 8))
    history = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        history.append([loss.item()] + [t.numpy().copy() for t in model.state_dict().values()])
    return model, history, x


def test_training_steps_match_torch_and_the_state_dict_round_trips():
    model, history, x = train(wick)
    torch_model, torch_history, torch_x = train(torch)
    for ours, theirs in zip(history, torch_history):
        assert_same(ours, theirs, rtol=1e-9, atol=1e-12)
    state, torch_state = model.state_dict(), torch_model.state_dict()
    assert list(state) == list(torch_state)
    assert state["1.num_batches_tracked"].item() == torch_state["1.num_batches_tracked"].item() == len(history)

    # Our state_dict into a fresh model, and torch's into another: both evaluate as torch's trained model.
    saved = {k: v.numpy().copy() for k, v in state.items()}
    expected = torch_model.eval()(torch_x).detach().numpy()
    restored = network(wick)
    restored.load_state_dict(copy.deepcopy(state))
    from_torch = network(wick)
    from_torch.load_state_dict({k: wick.from_numpy(v.numpy().copy()) for k, v in torch_state.items()})
    for trained in (model, restored, from_torch):
        np.testing.assert_allclose(trained.eval()(x).detach().numpy(), expected, rtol=1e-9, atol=1e-12)
        assert trained[5].num_batches_tracked.item() == len(history)
    for key, value in model.state_dict().items():  # evaluation changed no running statistic
        np.testing.assert_array_equal(value.numpy(), saved[key])
