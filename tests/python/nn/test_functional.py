"""wick.nn.functional against PyTorch 1.13's torch.nn.functional: each program runs with both libraries on the
same data; values and gradients (wick.autograd.grad against torch.autograd.grad, for a random cotangent) must
agree in float64, values in float32 with a looser tolerance, and bad arguments must raise the same exceptions."""
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import wick
import wick.nn.functional as F

FUNCTIONAL = {wick: F, torch: TF}


def rand(*shape, low=-2.0, high=2.0, seed=0):
    return np.random.default_rng(seed).uniform(low, high, size=shape)


def classes(high, *shape, seed=1):
    return np.random.default_rng(seed).integers(0, high, size=shape)


class Fixed:
    """A floating array passed as a tensor that does not require grad (PyTorch differentiates no class weight)."""

    def __init__(self, array):
        self.array = array


def run(program, arrays, lib, dtype):
    """program(lib, functional, *tensors) with the arrays as lib's tensors: the floating ones, in dtype, are
    leaves that require grad, unless Fixed."""
    tensors = []
    for a in arrays:
        if isinstance(a, Fixed):
            tensors.append(lib.tensor(a.array.astype(dtype)))
        elif isinstance(a, np.ndarray) and a.dtype.kind == "f":
            tensors.append(lib.tensor(a.astype(dtype), requires_grad=True))
        elif isinstance(a, np.ndarray):
            tensors.append(lib.tensor(a))
        else:
            tensors.append(a)
    out = program(lib, FUNCTIONAL[lib], *tensors)
    return tensors, out if isinstance(out, tuple) else (out,)


def numpy(t):
    return t.detach().numpy()


def compare(program, *arrays, grad=True, dtype=np.float64, rtol=1e-7, atol=1e-10):
    """program's results with wick and with torch: their values, and their gradients with respect to every
    floating input."""
    ours_in, ours = run(program, arrays, wick, dtype)
    theirs_in, theirs = run(program, arrays, torch, dtype)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.shape == tuple(b.shape)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_allclose(numpy(a), numpy(b), rtol=rtol, atol=atol)
    if not grad:
        return
    rng = np.random.default_rng(2)
    pairs = [(a, b) for a, b in zip(ours, theirs) if b.requires_grad]
    cotangents = [rng.standard_normal(b.shape).astype(numpy(b).dtype) for _, b in pairs]
    leaves = [i for i, t in enumerate(theirs_in) if isinstance(t, torch.Tensor) and t.requires_grad]
    ours_grad = wick.autograd.grad([a for a, _ in pairs], [ours_in[i] for i in leaves],
                                   [wick.tensor(c) for c in cotangents], allow_unused=True)
    theirs_grad = torch.autograd.grad([b for _, b in pairs], [theirs_in[i] for i in leaves],
                                      [torch.tensor(c) for c in cotangents], allow_unused=True)
    for i, a, b in zip(leaves, ours_grad, theirs_grad):
        zeros = np.zeros(theirs_in[i].shape)
        np.testing.assert_allclose(zeros if a is None else numpy(a), zeros if b is None else numpy(b),
                                   rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


def compare_float32(program, *arrays):
    compare(program, *arrays, grad=False, dtype=np.float32, rtol=1e-5, atol=1e-5)


def same_error(program, *arrays, match=None):
    """program raises with torch, and the same exception with wick (whose message matches `match` if given)."""
    with pytest.raises(Exception) as theirs:
        run(program, arrays, torch, np.float64)
    with pytest.raises(theirs.type, match=match):
        run(program, arrays, wick, np.float64)


@pytest.fixture(autouse=True)
def quiet():
    """PyTorch's deprecation warnings (size_average, F.tanh) are tested where they matter, and silenced elsewhere."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# Activations ---------------------------------------------------------------------------------------------------

# Values at the kinks (0, +-1, the thresholds) and past exp's overflow: gradients there must be PyTorch's, and
# finite.
EDGES = np.array([0.0, 1.0, -1.0, 2.5, -2.5, 10.0, 20.0, 25.0, -30.0, 800.0, -800.0, 0.5])

ACTIVATIONS = [
    ("relu", {}), ("gelu", {}), ("gelu", {"approximate": "tanh"}), ("silu", {}), ("sigmoid", {}), ("tanh", {}),
    ("leaky_relu", {}), ("leaky_relu", {"negative_slope": 0.2}), ("leaky_relu", {"negative_slope": 1.5}),
    ("elu", {}), ("elu", {"alpha": 0.5}), ("softplus", {}), ("softplus", {"beta": 2, "threshold": 5}),
    ("softplus", {"beta": 0.5, "threshold": 10}), ("hardtanh", {}), ("hardtanh", {"min_val": -2.5, "max_val": 0.5}),
]


@pytest.mark.parametrize("name, kwargs", ACTIVATIONS, ids=[f"{n}-{k}" for n, k in ACTIVATIONS])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5)])
def test_activation(name, kwargs, shape):
    def program(lib, f, x):
        return getattr(f, name)(x, **kwargs)

    compare(program, rand(*shape, low=-4, high=4))
    compare(program, EDGES)
    compare_float32(program, rand(*shape, low=-4, high=4))


@pytest.mark.parametrize("name", ["relu", "silu", "leaky_relu", "elu", "hardtanh"])
def test_activation_in_place_writes_its_input(name):
    def program(lib, f, x):
        y = x * 1
        out = getattr(f, name)(y, inplace=True)
        assert out is y
        return out

    compare(program, rand(3, 4))
    compare(program, EDGES)


def test_in_place_on_a_leaf_that_requires_grad_is_refused():
    for name in ["relu", "leaky_relu", "elu", "hardtanh"]:
        same_error(lambda lib, f, x: getattr(f, name)(x, inplace=True), rand(3))


def test_gelu_refuses_other_approximations():
    same_error(lambda lib, f, x: f.gelu(x, approximate="erf"), rand(3), match="must be either none or tanh")


def test_sigmoid_and_tanh_are_deprecated():
    for name in ["sigmoid", "tanh"]:
        with pytest.warns(UserWarning, match="deprecated"):
            getattr(F, name)(wick.zeros([2]))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape, dim", [((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), 1), ((5,), 0)])
def test_softmax(name, shape, dim):
    def program(lib, f, x):
        return getattr(f, name)(x, dim=dim)

    compare(program, rand(*shape, low=-5, high=5))
    compare(program, rand(*shape, low=-5, high=5) * 300)  # exp overflows without the shift
    compare_float32(program, rand(*shape, low=-5, high=5))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_converts_to_dtype_first(name):
    compare(lambda lib, f, x: getattr(f, name)(x, 1, dtype=lib.float64), rand(3, 4), dtype=np.float32, rtol=1e-12)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4), (2, 3, 4, 5)])
def test_softmax_implicit_dim_warns_and_picks_pytorchs(name, shape):
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with pytest.warns(UserWarning, match="Implicit dimension choice"):
            compare(lambda lib, f, x: getattr(f, name)(x), rand(*shape))


# The compositions used where this build of wick lacks the dedicated op.
COMPOSED = [
    ("_softmax_composed", lambda x: torch.softmax(x, 1), (1,)),
    ("_log_softmax_composed", lambda x: torch.log_softmax(x, 1), (1,)),
    ("_leaky_relu_composed", lambda x: TF.leaky_relu(x, 0.1), (0.1,)),
    ("_elu_composed", lambda x: TF.elu(x, 0.7), (0.7,)),
    ("_softplus_composed", lambda x: TF.softplus(x, 2, 5), (2, 5)),
    ("_hardtanh_composed", lambda x: TF.hardtanh(x, -1.0, 2.5), (-1.0, 2.5)),
    ("_gelu_tanh_composed", lambda x: TF.gelu(x, approximate="tanh"), ()),
]


@pytest.mark.parametrize("name, reference, args", COMPOSED, ids=[c[0] for c in COMPOSED])
def test_composed_fallbacks(name, reference, args):
    def program(lib, f, x):
        return getattr(F, name)(x, *args) if lib is wick else reference(x)

    compare(program, np.concatenate([EDGES, rand(12, low=-4, high=4)]).reshape(4, 6))


# Linear and dropout --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(64, 10), (2, 3, 10), (10,), (0, 10)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear(shape, bias):
    def program(lib, f, x, w, b):
        return f.linear(x, w, b if bias else None)

    compare(program, rand(*shape), rand(5, 10, seed=1), rand(5, seed=2))
    compare_float32(program, rand(*shape), rand(5, 10, seed=1), rand(5, seed=2))


def test_linear_with_a_vector_weight():
    compare(lambda lib, f, x, w: f.linear(x, w), rand(4, 10), rand(10, seed=1))
    compare(lambda lib, f, x, w, b: f.linear(x, w, b), rand(10), rand(10, seed=1), rand(seed=2))
    # As PyTorch's, which takes addmm's path there.
    same_error(lambda lib, f, x, w, b: f.linear(x, w, b), rand(4, 10), rand(10, seed=1), rand(seed=2),
               match="must be a matrix")


def test_linear_refuses_mismatched_shapes():
    same_error(lambda lib, f, x, w: f.linear(x, w), rand(4, 6), rand(5, 10), match="cannot be multiplied")


def test_dropout_outside_training_and_at_zero_returns_its_input():
    x = wick.ones([3, 4])
    assert F.dropout(x, training=False) is x
    assert F.dropout(x, 0.0) is x
    assert F.dropout(x, 0.9, False, True) is x


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_dropout_zeroes_with_probability_p_and_scales_the_rest(p):
    wick.manual_seed(0)
    x = wick.tensor(rand(100, 80, low=1, high=2), requires_grad=True)
    y = F.dropout(x, p)
    values, inputs = y.detach().numpy(), x.detach().numpy()
    kept = values != 0
    assert abs(1 - kept.mean() - p) < 0.03
    np.testing.assert_allclose(values[kept], inputs[kept] / (1 - p), rtol=1e-6)
    (grad,) = wick.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(grad.numpy(), kept / (1 - p), rtol=1e-6)


def test_dropout_in_place_and_at_one():
    x = wick.tensor(rand(50, 50, low=1, high=2))
    y = x.clone()
    assert F.dropout(y, 0.5, inplace=True) is y
    assert set(np.unique(y.numpy() / x.numpy())) <= {0.0, 2.0}
    assert (F.dropout(x, 1.0).numpy() == 0).all()


def test_dropout_refuses_a_probability_outside_0_1():
    for p in (-0.1, 1.5):
        same_error(lambda lib, f, x: f.dropout(x, p), rand(3), match="between 0 and 1")


# Losses --------------------------------------------------------------------------------------------------------

REDUCTIONS = ["mean", "sum", "none"]

# (input shape, target shape): batches, one sample of shape (C,), and the K-dimensional cases.
CLASS_SHAPES = [((5, 4), (5,)), ((4,), ()), ((2, 4, 3), (2, 3)), ((2, 4, 3, 2), (2, 3, 2)),
                ((2, 4, 2, 2, 3), (2, 2, 2, 3))]


def class_targets(target_shape, ignored=None):
    t = classes(4, *target_shape)
    if ignored is not None and t.ndim:
        t.reshape(-1)[::3] = ignored
    return t


@pytest.mark.parametrize("shape, target_shape", CLASS_SHAPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 2])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.15])
def test_cross_entropy_with_class_indices(shape, target_shape, reduction, weighted, ignore_index, label_smoothing):
    def program(lib, f, x, t, w):
        return f.cross_entropy(x, t, w if weighted else None, ignore_index=ignore_index, reduction=reduction,
                               label_smoothing=label_smoothing)

    target, weight = class_targets(target_shape, ignored=ignore_index), Fixed(rand(4, low=0.2, high=2, seed=3))
    compare(program, rand(*shape, low=-3, high=3), target, weight)
    compare_float32(program, rand(*shape, low=-3, high=3), target, weight)


@pytest.mark.parametrize("shape", [(5, 4), (4,), (2, 4, 3), (2, 4, 3, 2)])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.3])
def test_cross_entropy_with_class_probabilities(shape, reduction, weighted, label_smoothing):
    def program(lib, f, x, t, w):
        return f.cross_entropy(x, t, w if weighted else None, reduction=reduction, label_smoothing=label_smoothing)

    probabilities = np.exp(rand(*shape, seed=4))
    probabilities /= probabilities.sum(axis=0 if len(shape) == 1 else 1, keepdims=True)
    compare(program, rand(*shape, low=-3, high=3), probabilities, rand(4, low=0.2, high=2, seed=3))
    compare_float32(program, rand(*shape, low=-3, high=3), probabilities, rand(4, low=0.2, high=2, seed=3))


def test_cross_entropy_edge_cases():
    everything_ignored = np.full(5, -100)
    compare(lambda lib, f, x, t: f.cross_entropy(x, t), rand(5, 4), everything_ignored)
    compare(lambda lib, f, x, t: f.cross_entropy(x, t), rand(0, 4), np.zeros(0, dtype=np.int64))
    compare(lambda lib, f, x, t: f.cross_entropy(x, t), rand(0, 4), rand(0, 4))
    compare(lambda lib, f, x, t: f.cross_entropy(x, t, label_smoothing=1.0), rand(5, 4), classes(4, 5))
    compare(lambda lib, f, x, t: f.cross_entropy(x, t.to(lib.uint8)), rand(5, 4), classes(4, 5))
    compare(lambda lib, f, x, t: f.cross_entropy(x, t), rand(5, 4) * 500, classes(4, 5))


def test_cross_entropy_legacy_reduction_arguments():
    for size_average, reduce in [(False, None), (None, False), (True, True)]:
        def program(lib, f, x, t):
            return f.cross_entropy(x, t, size_average=size_average, reduce=reduce)

        compare(program, rand(5, 4), classes(4, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with pytest.warns(UserWarning, match="reduction='sum'"):
            F.cross_entropy(wick.zeros([2, 3]), wick.tensor([0, 1]), size_average=False)
        with pytest.warns(UserWarning, match="elementwise_mean"):
            F.cross_entropy(wick.zeros([2, 3]), wick.tensor([0, 1]), reduction="elementwise_mean")


CROSS_ENTROPY_ERRORS = [
    (rand(3, 4), classes(4, 3).astype(np.int32), {}, "expected scalar type Long"),
    (rand(3, 4), np.array([0, 1, 5]), {}, "Target 5 is out of bounds"),
    (rand(3, 4), np.array([0, -3, 1]), {}, "Target -3 is out of bounds"),
    (rand(3, 4), np.array([0, 5, 1]), {"ignore_index": 1}, "Target 5 is out of bounds"),
    (rand(3, 4), classes(4, 2), {}, "batch_size"),
    (rand(3, 4), classes(4, 3, 1), {}, "multi-target not supported"),
    (rand(4), classes(4, 1), {}, "size mismatch"),
    (rand(3, 4), classes(4, 3), {"weight": np.ones(3)}, "weight tensor should be defined"),
    (rand(3, 4), classes(4, 3), {"label_smoothing": 1.5}, "label_smoothing must be between"),
    (rand(3, 4), classes(4, 3), {"reduction": "average"}, "not a valid value for reduction"),
    (rand(2, 4, 3, 5), classes(4, 2, 3, 6), {}, "size mismatch"),
    (rand(2, 4, 3, 5), classes(4, 2, 3), {}, "only batches of spatial targets"),
    (rand(2, 4, 3), classes(4, 2, 5), {}, r"Expected target size \[2, 3\], got \[2, 5\]"),
    (rand(2, 4, 3, 5, 2), classes(4, 2, 3, 5), {}, "Expected target size"),
    (rand(3, 4), rand(3, 4), {"ignore_index": 1}, "ignore_index is not supported"),
    (rand(3, 4), classes(4, 3, 4), {}, "Expected floating point type"),
    (rand(3, 4), rand(3, 4), {"weight": np.ones(3)}, "weight tensor should be defined"),
]


@pytest.mark.parametrize("x, target, kwargs, match", CROSS_ENTROPY_ERRORS)
def test_cross_entropy_errors(x, target, kwargs, match):
    def program(lib, f, x, t, *weight):
        return f.cross_entropy(x, t.detach() if t.dtype.is_floating_point else t, *weight, **kwargs)

    if "weight" in kwargs:
        kwargs = dict(kwargs)
        weight = kwargs.pop("weight")
        same_error(program, x, target, weight, match=match)
    else:
        same_error(program, x, target, match=match)


@pytest.mark.parametrize("shape, target_shape", CLASS_SHAPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
def test_nll_loss(shape, target_shape, reduction, weighted, ignore_index):
    def program(lib, f, x, t, w):
        return f.nll_loss(x, t, w if weighted else None, ignore_index=ignore_index, reduction=reduction)

    compare(program, rand(*shape, low=-5, high=0), class_targets(target_shape, ignored=ignore_index),
            Fixed(rand(4, low=0.2, high=2, seed=3)))


def test_nll_loss_errors():
    same_error(lambda lib, f, x, t: f.nll_loss(x, t), rand(3, 4), np.array([0, 4, 1]), match="out of bounds")
    same_error(lambda lib, f, x, t: f.nll_loss(x, t), np.array(1.0), np.array(0), match="1 or more dimensions")


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)])
def test_regression_losses(name, reduction, shape):
    def program(lib, f, x, t):
        return getattr(f, name)(x, t, reduction=reduction)

    target = rand(*shape, seed=5)
    target.reshape(-1)[0] = rand(*shape).reshape(-1)[0]  # a zero difference: l1's kink
    compare(program, rand(*shape), target)
    compare_float32(program, rand(*shape), target)


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
def test_regression_losses_broadcast_with_a_warning(name):
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with pytest.warns(UserWarning, match="different to the input size"):
            compare(lambda lib, f, x, t: getattr(f, name)(x, t), rand(3, 4), rand(4, seed=5))
    same_error(lambda lib, f, x, t: getattr(f, name)(x, t, reduction="all"), rand(3), rand(3))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(reduction, weighted):
    def program(lib, f, x, t, w):
        return f.binary_cross_entropy(x, t, w if weighted else None, reduction=reduction)

    # Probabilities of exactly 0 and 1 (saturated sigmoids): the logs clamp at -100, the gradients stay finite.
    x = np.concatenate([rand(10, low=0.01, high=0.99), [0.0, 1.0, 0.0, 1.0, 1e-50, 1 - 1e-12]])
    t = np.concatenate([rand(10, low=0, high=1, seed=5), [0.0, 1.0, 1.0, 0.0, 0.5, 0.3]])
    weight = Fixed(rand(16, low=0.5, high=2, seed=6))
    compare(program, x, t, weight)
    compare(program, x[:10].reshape(2, 5), t[:10].reshape(2, 5), Fixed(rand(5, low=0.5, high=2, seed=6)))
    compare_float32(program, x, t, weight)


def test_binary_cross_entropy_errors():
    bce = lambda lib, f, x, t: f.binary_cross_entropy(x, t)  # noqa: E731
    same_error(bce, rand(3, low=0, high=1), rand(3, 1, low=0, high=1), match="different to the input size")
    same_error(bce, np.array([0.5, 1.5]), np.array([0.0, 1.0]), match="between 0 and 1")
    same_error(bce, np.array([0.5, np.nan]), np.array([0.0, 1.0]), match="between 0 and 1")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos_weighted", [False, True])
def test_binary_cross_entropy_with_logits(reduction, weighted, pos_weighted):
    def program(lib, f, x, t, w, p):
        return f.binary_cross_entropy_with_logits(x, t, w if weighted else None, reduction=reduction,
                                                  pos_weight=p if pos_weighted else None)

    # Logits of 0 (the kink of max(-x, 0) + log1p(exp(-|x|))) and far past exp's overflow.
    x = np.concatenate([rand(8, low=-5, high=5), [0.0, 0.0, 100.0, -100.0]]).reshape(3, 4)
    t = rand(3, 4, low=0, high=1, seed=5)
    weights, pos_weights = Fixed(rand(4, low=0.5, high=2, seed=6)), Fixed(rand(4, low=0.5, high=3, seed=7))
    compare(program, x, t, weights, pos_weights)
    compare(program, x * 1000, t, weights, pos_weights)
    compare_float32(program, x, t, weights, pos_weights)


def test_binary_cross_entropy_with_logits_refuses_other_shapes():
    same_error(lambda lib, f, x, t: f.binary_cross_entropy_with_logits(x, t), rand(3), rand(3, 1),
               match="must be the same as input size")


# Normalization, embeddings, one_hot, pad -----------------------------------------------------------------------

@pytest.mark.parametrize("shape, normalized", [((4, 6), (6,)), ((2, 3, 4), (3, 4)), ((2, 3, 4), (4,)), ((5,), (5,))])
@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
def test_layer_norm(shape, normalized, affine):
    def program(lib, f, x, w, b):
        return f.layer_norm(x, normalized, w if affine in ("weight", "both") else None,
                            b if affine in ("bias", "both") else None, eps=1e-5)

    args = rand(*shape) * 3 + 1, rand(*normalized, seed=1), rand(*normalized, seed=2)
    compare(program, *args, rtol=1e-6, atol=1e-9)
    compare_float32(program, *args)


def test_layer_norm_errors():
    same_error(lambda lib, f, x: f.layer_norm(x, (5,)), rand(3, 4), match="expected input with shape")
    same_error(lambda lib, f, x: f.layer_norm(x, (2, 3, 4)), rand(3, 4), match="expected input with shape")
    same_error(lambda lib, f, x, w: f.layer_norm(x, (4,), w), rand(3, 4), rand(3), match="weight to be of same shape")
    same_error(lambda lib, f, x: f.layer_norm(x, 4), rand(3, 4), match="must be tuple of ints")


@pytest.mark.parametrize("p, dim", [(2.0, 1), (1.0, 1), (2.0, 0), (3.0, -1), (2.0, (0, 1))])
def test_normalize(p, dim):
    x = rand(4, 5)
    x[1] = 0  # a zero vector: the norm clamps at eps
    compare(lambda lib, f, x: f.normalize(x, p=p, dim=dim), x)
    compare_float32(lambda lib, f, x: f.normalize(x, p=p, dim=dim), x)


@pytest.mark.parametrize("shape", [(5,), (2, 3), (2, 2, 2)])
@pytest.mark.parametrize("padding_idx", [None, 2, -1])
def test_embedding(shape, padding_idx):
    def program(lib, f, i, w):
        return f.embedding(i, w, padding_idx=padding_idx)

    indices = classes(6, *shape)
    indices.reshape(-1)[:2] = [2, 5]  # the padding rows occur
    compare(program, indices, rand(6, 3))
    compare(lambda lib, f, i, w: f.embedding(i.int(), w, padding_idx=padding_idx), indices, rand(6, 3))


@pytest.mark.parametrize("norm_type", [2.0, 1.0])
def test_embedding_max_norm_renormalizes_the_rows_looked_up(norm_type):
    weights, indices = rand(6, 3) * 3, np.array([[0, 2], [2, 5]])
    results = {}
    for lib in (wick, torch):
        w = lib.tensor(weights.copy(), requires_grad=True)
        out = FUNCTIONAL[lib].embedding(lib.tensor(indices), w, max_norm=1.5, norm_type=norm_type)
        results[lib] = numpy(out), numpy(w)
    for ours, theirs in zip(results[wick], results[torch]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_embedding_errors():
    same_error(lambda lib, f, i, w: f.embedding(i, w), rand(2), rand(4, 3), match="scalar types: Long, Int")
    same_error(lambda lib, f, i, w: f.embedding(i, w), np.array([1, 5]), rand(4, 3))
    same_error(lambda lib, f, i, w: f.embedding(i, w, padding_idx=4), np.array([1]), rand(4, 3), match="Padding_idx")
    same_error(lambda lib, f, i, w: f.embedding(i, w, padding_idx=-5), np.array([1]), rand(4, 3), match="Padding_idx")
    same_error(lambda lib, f, i, w: f.embedding(i, w), np.array([1]), rand(12), match="must be 2-D")


@pytest.mark.parametrize("shape", [(5,), (2, 3), (0,)])
@pytest.mark.parametrize("num_classes", [-1, 7])
def test_one_hot(shape, num_classes):
    def program(lib, f, t):
        return f.one_hot(t, num_classes)

    if shape == (0,) and num_classes == -1:
        same_error(program, np.zeros(0, dtype=np.int64), match="empty tensor")
    else:
        compare(program, classes(5, *shape), grad=False)


def test_one_hot_errors():
    same_error(lambda lib, f, t: f.one_hot(t.int()), np.array([1, 2]), match="index tensor")
    same_error(lambda lib, f, t: f.one_hot(t), np.array([1, -2]), match="non-negative")
    same_error(lambda lib, f, t: f.one_hot(t, 2), np.array([1, 2]), match="smaller than num_classes")


@pytest.mark.parametrize("shape, pads", [((3, 4), (1, 2)), ((2, 3, 4), (2, 0, 1, 3)), ((2, 3, 4), (-1, 2, 0, -2)),
                                         ((2, 2, 3, 4), (1, 1, 1, 1, 1, 1)), ((3, 4), (0, 0, 2, 1))])
@pytest.mark.parametrize("value", [None, 0.0, -1.5])
def test_constant_pad(shape, pads, value):
    compare(lambda lib, f, x: f.pad(x, pads, value=value), rand(*shape))
    compare_float32(lambda lib, f, x: f.pad(x, pads, value=value), rand(*shape))


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("shape, pads", [((2, 5), (2, 3)), ((2, 3, 5), (3, 1)), ((2, 4, 5), (1, 2, 3, 0)),
                                         ((1, 2, 4, 5), (2, 1, 0, 3)), ((2, 3, 5), (-1, 2)), ((2, 3, 5), (2, -1)),
                                         ((2, 3, 4, 5), (-2, 3, 1, -1))])
def test_non_constant_pad(mode, shape, pads):
    def program(lib, f, x):
        return f.pad(x, pads, mode=mode)

    if mode == "circular" and len(shape) != len(pads) // 2 + 2:  # PyTorch 1.13 pads only batches circularly
        same_error(program, rand(*shape), match="Invalid padding size")
    else:
        compare(program, rand(*shape))


def test_pad_errors():
    same_error(lambda lib, f, x: f.pad(x, (1, 2, 3)), rand(2, 3), match="divisible by 2")
    same_error(lambda lib, f, x: f.pad(x, (1, 1), mode="mirror"), rand(2, 3), match="Unrecognised padding mode")
    same_error(lambda lib, f, x: f.pad(x, (1, 1), mode="reflect", value=1.0), rand(2, 3), match="value argument")
    same_error(lambda lib, f, x: f.pad(x, (3, 1), mode="reflect"), rand(2, 3), match="Padding size should be less")
    same_error(lambda lib, f, x: f.pad(x, (4, 1), mode="circular"), rand(1, 2, 3), match="more than once")
    same_error(lambda lib, f, x: f.pad(x, (1, 1), mode="replicate"), rand(3), match="Only 2D, 3D, 4D, 5D")


# Convolution and pooling ---------------------------------------------------------------------------------------

CONV2D = [
    {}, {"stride": 2}, {"padding": 1}, {"padding": (2, 1)}, {"dilation": 2}, {"stride": (2, 1), "dilation": (1, 2)},
    {"groups": 2}, {"groups": 4, "padding": 1}, {"padding": "same"}, {"padding": "same", "dilation": 2},
    {"padding": "valid", "stride": 3}, {"stride": 2, "padding": 1, "dilation": 2, "groups": 2},
]


@pytest.mark.parametrize("kwargs", CONV2D, ids=[str(k) for k in CONV2D])
@pytest.mark.parametrize("kernel", [(3, 3), (2, 3), (1, 1)])
@pytest.mark.parametrize("bias", [True, False])
def test_conv2d(kwargs, kernel, bias):
    groups = kwargs.get("groups", 1)

    def program(lib, f, x, w, b):
        return f.conv2d(x, w, b if bias else None, **kwargs)

    out_channels = 8 if groups == 4 else 6
    args = rand(2, 4, 7, 6), rand(out_channels, 4 // groups, *kernel, seed=1), rand(out_channels, seed=2)
    compare(program, *args)
    compare_float32(program, *args)


def test_conv2d_unbatched():
    compare(lambda lib, f, x, w: f.conv2d(x, w, padding=1), rand(3, 5, 5), rand(2, 3, 3, 3, seed=1))


@pytest.mark.parametrize("kwargs", [{}, {"stride": 2}, {"padding": 2}, {"dilation": 3}, {"groups": 2},
                                    {"padding": "same"}, {"padding": "same", "dilation": 2}, {"padding": (1,)}])
@pytest.mark.parametrize("kernel", [1, 3, 4])
def test_conv1d(kwargs, kernel):
    def program(lib, f, x, w, b):
        return f.conv1d(x, w, b, **kwargs)

    groups = kwargs.get("groups", 1)
    args = rand(2, 4, 11), rand(6, 4 // groups, kernel, seed=1), rand(6, seed=2)
    compare(program, *args)
    compare_float32(program, *args)
    compare(lambda lib, f, x, w, b: f.conv1d(x[0], w, b, **kwargs), *args)  # unbatched


CONV_ERRORS = [
    ({"padding": "same", "stride": 2}, "not supported for strided convolutions"),
    ({"padding": "full"}, "Invalid padding string"),
    ({"padding": -1}, "negative padding"),
    ({"stride": 0}, "non-positive stride"),
    ({"dilation": 0}, "non-positive dilation"),
    ({"groups": 0}, "non-positive groups"),
    ({"groups": 4}, "expected weight to be divisible by 4"),
    ({"groups": 3}, "to have 12 channels, but got 4 channels"),
    ({"stride": (1, 2, 3)}, "expected stride to be a single integer value or a list of 2 values"),
    ({"dilation": 4}, "Kernel size can't be greater than actual input size"),
]


@pytest.mark.parametrize("kwargs, match", CONV_ERRORS)
def test_conv2d_errors(kwargs, match):
    same_error(lambda lib, f, x, w: f.conv2d(x, w, **kwargs), rand(2, 4, 6, 6), rand(6, 4, 3, 3), match=match)


def test_conv2d_shape_errors():
    conv = lambda lib, f, x, w, *b: f.conv2d(x, w, *b)  # noqa: E731
    same_error(conv, rand(6, 6), rand(6, 4, 3, 3), match="Expected 3D .unbatched. or 4D .batched. input to conv2d")
    same_error(conv, rand(2, 4, 6, 6), rand(6, 3, 3, 3), match="to have 3 channels, but got 4 channels")
    same_error(conv, rand(2, 4, 6, 6), rand(6, 4, 3, 3), rand(5), match="expected bias to be 1-dimensional")


def test_conv2d_refuses_a_weight_of_another_dtype():
    x, w = wick.zeros([1, 2, 4, 4]), wick.zeros([3, 2, 3, 3], dtype=wick.float64)
    with pytest.raises(RuntimeError, match="should be the same"):
        F.conv2d(x, w)


WINDOWS = [{}, {"stride": 2}, {"padding": 1}, {"dilation": 2, "padding": (2, 0)},
           {"stride": (2, 3), "padding": (1, 2), "dilation": (2, 1)}]


@pytest.mark.parametrize("kwargs", WINDOWS, ids=str)
@pytest.mark.parametrize("kernel", [2, (3, 2), 1])
def test_unfold_and_fold(kwargs, kernel):
    x = rand(2, 3, 7, 6)
    compare(lambda lib, f, x: f.unfold(x, kernel, **kwargs), x)
    compare_float32(lambda lib, f, x: f.unfold(x, kernel, **kwargs), x)
    columns = TF.unfold(torch.tensor(x), kernel, **kwargs).numpy()
    compare(lambda lib, f, c: f.fold(c, (7, 6), kernel, **kwargs), rand(*columns.shape, seed=1))
    compare_float32(lambda lib, f, c: f.fold(c, (7, 6), kernel, **kwargs), rand(*columns.shape, seed=1))


def test_unfold_and_fold_unbatched():
    # PyTorch 1.13 takes only batches; later versions, and wick, also a single input.
    x = wick.tensor(rand(3, 5, 6))
    assert np.array_equal(F.unfold(x, 2, padding=1).numpy(), TF.unfold(torch.tensor(rand(1, 3, 5, 6)), 2,
                                                                        padding=1)[0].numpy())
    c = wick.tensor(rand(12, 20))
    assert np.allclose(F.fold(c, (5, 6), 2).numpy(), TF.fold(torch.tensor(rand(1, 12, 20)), (5, 6), 2)[0].numpy())


def test_unfold_and_fold_errors():
    same_error(lambda lib, f, x: f.unfold(x, 8), rand(1, 2, 5, 5), match="must be at least one")
    same_error(lambda lib, f, x: f.unfold(x, 2, stride=0), rand(1, 2, 5, 5), match="stride should be greater")
    same_error(lambda lib, f, c: f.fold(c, (5, 6), 2), rand(1, 12, 19), match="sliding blocks")
    same_error(lambda lib, f, c: f.fold(c, (5, 6), 2), rand(1, 13, 20), match="divisible by the product")


POOLS = [
    {"kernel_size": 2}, {"kernel_size": 3, "stride": 1}, {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": (2, 3), "stride": (1, 2), "padding": (1, 0)}, {"kernel_size": 3, "stride": 2, "ceil_mode": True},
    {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
    {"kernel_size": 2, "stride": 3, "ceil_mode": True}, {"kernel_size": 1}, {"kernel_size": 4, "stride": []},
]
DILATED_POOLS = [{"kernel_size": 2, "dilation": 2},
                 {"kernel_size": 3, "dilation": (2, 1), "padding": 1, "ceil_mode": True}]


@pytest.mark.parametrize("kwargs", POOLS + DILATED_POOLS, ids=str)
@pytest.mark.parametrize("ties", [False, True])
def test_max_pool2d(kwargs, ties):
    x = rand(2, 3, 7, 8)
    if ties:  # few distinct values: windows with ties, whose gradient goes to the first maximum as in PyTorch
        x = np.round(x)
    compare(lambda lib, f, x: f.max_pool2d(x, **kwargs), x)
    compare(lambda lib, f, x: f.max_pool2d(x, **kwargs, return_indices=True), x)
    compare(lambda lib, f, x: f.max_pool2d(x[0], **kwargs, return_indices=True), x)  # unbatched
    compare_float32(lambda lib, f, x: f.max_pool2d(x, **kwargs), x)


def test_max_pool2d_reads_no_padding():
    # Windows of -inf only: the maximum is -inf and its index that of an element of the input, as in PyTorch.
    x = np.full((1, 1, 4, 5), -np.inf)
    x[0, 0, 3, 4] = 1.0
    compare(lambda lib, f, x: f.max_pool2d(x.detach(), 3, stride=2, padding=1, dilation=(1, 2), ceil_mode=True,
                                           return_indices=True), x, grad=False)


@pytest.mark.parametrize("kwargs", POOLS, ids=str)
@pytest.mark.parametrize("count_include_pad", [True, False])
@pytest.mark.parametrize("divisor_override", [None, 5])
def test_avg_pool2d(kwargs, count_include_pad, divisor_override):
    def program(lib, f, x):
        return f.avg_pool2d(x, **kwargs, count_include_pad=count_include_pad, divisor_override=divisor_override)

    compare(program, rand(2, 3, 7, 8))
    compare(lambda lib, f, x: program(lib, f, x[0]), rand(2, 3, 7, 8))  # unbatched
    compare_float32(program, rand(2, 3, 7, 8))


POOL_ERRORS = [
    ({"kernel_size": 3, "padding": 2}, "pad should be at most half of kernel size"),
    ({"kernel_size": 9}, "Output size is too small"),
    ({"kernel_size": 0}, "stride should not be zero"),
    ({"kernel_size": 2, "stride": 0}, "stride should not be zero"),
    ({"kernel_size": (2, 2, 2)}, "kernel_size must either be a single int, or a tuple of two ints"),
]


@pytest.mark.parametrize("name", ["max_pool2d", "avg_pool2d"])
@pytest.mark.parametrize("kwargs, match", POOL_ERRORS)
def test_pool_errors(name, kwargs, match):
    same_error(lambda lib, f, x: getattr(f, name)(x, **kwargs), rand(2, 4, 6, 6), match=match)


def test_pool_input_errors():
    same_error(lambda lib, f, x: f.max_pool2d(x, 2), rand(6, 6), match="3D or 4D")
    same_error(lambda lib, f, x: f.max_pool2d(x, 2, dilation=0), rand(1, 6, 6), match="dilation should be greater")
    same_error(lambda lib, f, x: f.avg_pool2d(x, 2, divisor_override=0), rand(1, 6, 6), match="must be not zero")
