"""wick.nn.functional's resampling, 1-d pooling, pixel shuffle, transposed convolutions, group and instance norms,
distances, further losses and activations against PyTorch 1.13's: values and gradients in float64, values in
float32, and the same exceptions for bad arguments (the harness is test_functional.py's)."""
import warnings

import numpy as np
import pytest

import wick
import wick.nn.functional as F
from test_functional import EDGES, Fixed, compare, compare_float32, rand, same_error

# PyTorch's deprecation warnings are tested where they matter, and silenced elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore")


# Activations ---------------------------------------------------------------------------------------------------

ACTIVATIONS = [
    ("mish", {}), ("hardswish", {}), ("hardsigmoid", {}), ("relu6", {}), ("logsigmoid", {}), ("softsign", {}),
    ("tanhshrink", {}), ("selu", {}), ("celu", {}), ("celu", {"alpha": 0.5}), ("softshrink", {}),
    ("softshrink", {"lambd": 1.0}), ("hardshrink", {}), ("hardshrink", {"lambd": 2.5}),
    ("threshold", {"threshold": 1.0, "value": -3.0}),
]
# The kinks of the activations above, where PyTorch's gradient is a convention that ours must follow.
KINKS = np.array([-3.0, 3.0, 6.0, 0.5, -0.5, 1.0, -1.0, 0.0, -2.5, 2.5, 40.0, -40.0])


@pytest.mark.parametrize("name, kwargs", ACTIVATIONS)
def test_activation(name, kwargs):
    def program(lib, F, x):
        return getattr(F, name)(x, **kwargs)
    compare(program, rand(4, 5))
    compare(program, KINKS)
    compare(program, EDGES[np.abs(EDGES) < 100])
    compare_float32(program, rand(3, 4))


@pytest.mark.parametrize("name", ["mish", "hardswish", "hardsigmoid", "relu6", "selu", "celu", "threshold"])
def test_activation_in_place(name):
    kwargs = {"threshold": 0.5, "value": 2.0} if name == "threshold" else {}

    def program(lib, F, x):
        y = x * 1.0
        out = getattr(F, name)(y, inplace=True, **kwargs)
        assert out is y
        return y
    compare(program, rand(3, 4))


def test_glu():
    compare(lambda lib, F, x: F.glu(x), rand(3, 4))
    compare(lambda lib, F, x: F.glu(x, 0), rand(6, 3))
    same_error(lambda lib, F, x: F.glu(x), rand(3, 5))
    same_error(lambda lib, F, x: F.glu(x[0, 0]), rand(3, 4))


def test_prelu():
    compare(lambda lib, F, x, w: F.prelu(x, w), rand(2, 3, 4), rand(3))
    compare(lambda lib, F, x, w: F.prelu(x, w), rand(2, 3, 4), rand(1))
    compare(lambda lib, F, x, w: F.prelu(x, w), rand(5), rand(1))
    same_error(lambda lib, F, x, w: F.prelu(x, w), rand(2, 3, 4), rand(4))


def test_activation_errors():
    same_error(lambda lib, F, x: F.softshrink(x, -1.0), rand(3))
    same_error(lambda lib, F, x: F.celu(x, 0.0), rand(3))


# Distances and losses ------------------------------------------------------------------------------------------

def test_distances():
    compare(lambda lib, F, a, b: F.pairwise_distance(a, b), rand(4, 5), rand(4, 5, seed=1))
    compare(lambda lib, F, a, b: F.pairwise_distance(a, b, p=1.0, keepdim=True), rand(4, 5), rand(5, seed=1))
    compare(lambda lib, F, a, b: F.pairwise_distance(a, b, 3.0, 0.1), rand(2, 3, 5), rand(2, 3, 5, seed=1))
    compare(lambda lib, F, a, b: F.cosine_similarity(a, b), rand(4, 5), rand(4, 5, seed=1))
    compare(lambda lib, F, a, b: F.cosine_similarity(a, b, dim=-1), rand(2, 3, 5), rand(3, 5, seed=1))
    compare_float32(lambda lib, F, a, b: F.cosine_similarity(a, b, 0), rand(4, 5), rand(4, 5, seed=1))


REDUCTIONS = ["none", "mean", "sum"]


@pytest.mark.parametrize("reduction", [*REDUCTIONS, "batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target):
    target = rand(3, 4, low=-3, high=0, seed=1) if log_target else rand(3, 4, low=0, high=1, seed=1)
    target[0, 0] = -np.inf if log_target else 0.0  # a zero probability: its term is zero, not NaN

    def program(lib, F, x, t):
        return F.kl_div(x, t, reduction=reduction, log_target=log_target)
    compare(program, rand(3, 4, low=-3, high=0), target)


def test_kl_div_warns_on_mean():
    with pytest.warns(UserWarning, match="batchmean"):
        F.kl_div(wick.zeros(2, 3), wick.zeros(2, 3))
    with pytest.raises(ValueError):
        F.kl_div(wick.zeros(2, 3), wick.zeros(2, 3), reduction="bad")


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_regression_losses(reduction):
    x, t = rand(4, 5), rand(4, 5, seed=1)
    t[0, :3] = x[0, :3] + np.array([0.0, 1.0, -0.5])  # differences at the kinks
    compare(lambda lib, F, x, t: F.smooth_l1_loss(x, t, reduction=reduction), x, t)
    compare(lambda lib, F, x, t: F.smooth_l1_loss(x, t, reduction=reduction, beta=0.5), x, t)
    compare(lambda lib, F, x, t: F.smooth_l1_loss(x, t, reduction=reduction, beta=0.0), x, t)
    compare(lambda lib, F, x, t: F.huber_loss(x, t, reduction=reduction), x, t)
    compare(lambda lib, F, x, t: F.huber_loss(x, t, reduction=reduction, delta=0.5), x, t)
    compare(lambda lib, F, x, t: F.soft_margin_loss(x, t, reduction=reduction), x, Fixed(np.sign(t)))
    compare(lambda lib, F, x, t: F.poisson_nll_loss(x, t, reduction=reduction), x, np.abs(t) * 2)
    compare(lambda lib, F, x, t: F.poisson_nll_loss(x, t, log_input=False, full=True, reduction=reduction),
            np.abs(x) + 0.1, np.abs(t) * 2)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_margin_losses(reduction):
    signs = np.sign(rand(6, seed=3))
    compare(lambda lib, F, a, b, t: F.margin_ranking_loss(a, b, t, reduction=reduction), rand(6), rand(6, seed=1),
            signs)
    compare(lambda lib, F, a, b, t: F.margin_ranking_loss(a, b, t, 0.5, reduction=reduction), rand(6),
            rand(6, seed=1), signs)
    compare(lambda lib, F, x, t: F.hinge_embedding_loss(x, t, reduction=reduction), rand(6), signs)
    compare(lambda lib, F, x, t: F.hinge_embedding_loss(x, t, 0.5, reduction=reduction), rand(6), signs)
    for kwargs in ({}, {"margin": 2.0, "p": 1}, {"swap": True}):
        compare(lambda lib, F, a, p, n: F.triplet_margin_loss(a, p, n, reduction=reduction, **kwargs),
                rand(4, 5), rand(4, 5, seed=1), rand(4, 5, seed=2))


def test_loss_errors():
    same_error(lambda lib, F, x, t: F.smooth_l1_loss(x, t, beta=-1.0), rand(3), rand(3))
    same_error(lambda lib, F, x, t: F.huber_loss(x, t, delta=0.0), rand(3), rand(3))
    same_error(lambda lib, F, x, t: F.soft_margin_loss(x, t), rand(3), rand(3))
    same_error(lambda lib, F, x, t: F.huber_loss(x, t, reduction="bad"), rand(3), rand(3))
    same_error(lambda lib, F, a, b, t: F.margin_ranking_loss(a, b, t), rand(3), rand(3), rand(1, 3))
    same_error(lambda lib, F, a, p, n: F.triplet_margin_loss(a, p, n), rand(3, 4), rand(4), rand(3, 4))


# Interpolation -------------------------------------------------------------------------------------------------

INTERPOLATIONS = [
    ({"size": 7}, 3), ({"size": 3}, 3), ({"scale_factor": 2}, 3), ({"scale_factor": 1.7}, 3),
    ({"size": (7, 5)}, 4), ({"size": (2, 9)}, 4), ({"scale_factor": 2}, 4), ({"scale_factor": (0.5, 1.5)}, 4),
    ({"scale_factor": 1.3, "recompute_scale_factor": True}, 4),
]


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "linear", "linear-align", "area"])
@pytest.mark.parametrize("kwargs, dims", INTERPOLATIONS)
def test_interpolate(mode, kwargs, dims):
    extra = {"align_corners": True} if mode == "linear-align" else {}
    mode = mode.split("-align")[0]
    if mode == "linear" and dims == 4:
        mode = "bilinear"

    def program(lib, F, x):
        return F.interpolate(x, mode=mode, **kwargs, **extra)
    shape = (2, 3, 5) if dims == 3 else (2, 3, 4, 6)
    compare(program, rand(*shape))
    compare_float32(program, rand(*shape))


def test_interpolate_errors():
    same_error(lambda lib, F, x: F.interpolate(x, size=3, scale_factor=2), rand(1, 2, 4))
    same_error(lambda lib, F, x: F.interpolate(x), rand(1, 2, 4))
    same_error(lambda lib, F, x: F.interpolate(x, size=(3, 3)), rand(1, 2, 4))
    same_error(lambda lib, F, x: F.interpolate(x, size=3, align_corners=True), rand(1, 2, 4))
    same_error(lambda lib, F, x: F.interpolate(x, size=3, mode="bilinear"), rand(1, 2, 4))
    same_error(lambda lib, F, x: F.interpolate(x, size=3, mode="linear"), rand(1, 2, 4, 4))
    same_error(lambda lib, F, x: F.interpolate(x, size=3, mode="bogus"), rand(1, 2, 4))
    same_error(lambda lib, F, x: F.interpolate(x, size=3), rand(4))
    same_error(lambda lib, F, x: F.interpolate(x, size=0), rand(1, 2, 4))
    with pytest.raises(NotImplementedError):
        F.interpolate(wick.zeros(1, 1, 4, 4), size=3, mode="bicubic")


# Pooling, pixel shuffle, transposed convolution ----------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
                                    {"kernel_size": 3, "stride": 2, "ceil_mode": True}, {"kernel_size": [2]}])
def test_pool1d(kwargs):
    compare(lambda lib, F, x: F.avg_pool1d(x, **kwargs), rand(2, 3, 8))
    compare(lambda lib, F, x: F.avg_pool1d(x, count_include_pad=False, **kwargs), rand(3, 7))
    compare(lambda lib, F, x: F.max_pool1d(x, **kwargs), rand(2, 3, 8))
    compare(lambda lib, F, x: F.max_pool1d(x, dilation=2, return_indices=True, **kwargs), rand(3, 9))


def test_pool1d_errors():
    same_error(lambda lib, F, x: F.max_pool1d(x, 2), rand(1, 2, 3, 4))
    same_error(lambda lib, F, x: F.max_pool1d(x, (2, 2)), rand(2, 4))
    same_error(lambda lib, F, x: F.avg_pool1d(x, 2), rand(4))


def test_pixel_shuffle():
    compare(lambda lib, F, x: F.pixel_shuffle(x, 2), rand(2, 8, 3, 4))
    compare(lambda lib, F, x: F.pixel_shuffle(x, 3), rand(5, 2, 9, 2, 3))
    compare(lambda lib, F, x: F.pixel_unshuffle(x, 2), rand(2, 2, 4, 6))
    compare(lambda lib, F, x: F.pixel_unshuffle(x, 3), rand(1, 2, 3, 6, 9))
    same_error(lambda lib, F, x: F.pixel_shuffle(x, 2), rand(2, 6, 3, 4))
    same_error(lambda lib, F, x: F.pixel_shuffle(x, 2), rand(4, 3))
    same_error(lambda lib, F, x: F.pixel_shuffle(x, 0), rand(4, 3, 3))
    same_error(lambda lib, F, x: F.pixel_unshuffle(x, 2), rand(2, 3, 4))


CONV_TRANSPOSE = [
    {}, {"stride": 2}, {"stride": 2, "padding": 1, "output_padding": 1}, {"dilation": 2, "padding": 2},
    {"stride": 3, "padding": 1, "output_padding": 2, "dilation": 2}, {"groups": 2},
    {"stride": 1, "output_padding": 1, "dilation": 2},  # output_padding past the input's reach: zeros
]


@pytest.mark.parametrize("kwargs", CONV_TRANSPOSE)
def test_conv_transpose(kwargs):
    compare(lambda lib, F, x, w, b: F.conv_transpose1d(x, w, b, **kwargs), rand(2, 4, 5), rand(4, 3, 3, seed=1),
            rand(3 * kwargs.get("groups", 1), seed=2))
    compare(lambda lib, F, x, w: F.conv_transpose2d(x, w, **kwargs), rand(2, 4, 5, 4), rand(4, 3, 3, 2, seed=1))
    compare(lambda lib, F, x, w, b: F.conv_transpose2d(x, w, b, **kwargs), rand(4, 3, 4), rand(4, 1, 2, 3, seed=1),
            rand(kwargs.get("groups", 1), seed=2))
    compare_float32(lambda lib, F, x, w: F.conv_transpose2d(x, w, **kwargs), rand(2, 4, 5, 4),
                    rand(4, 3, 3, 2, seed=1))


def test_conv_transpose_errors():
    same_error(lambda lib, F, x, w: F.conv_transpose2d(x, w), rand(1, 3, 4, 4), rand(4, 2, 3, 3))
    same_error(lambda lib, F, x, w: F.conv_transpose2d(x, w, groups=3), rand(1, 4, 4, 4), rand(4, 2, 3, 3))
    same_error(lambda lib, F, x, w: F.conv_transpose2d(x, w, output_padding=1), rand(1, 4, 4, 4), rand(4, 2, 3, 3))
    same_error(lambda lib, F, x, w: F.conv_transpose1d(x, w, padding=-1), rand(1, 4, 4), rand(4, 2, 3))
    same_error(lambda lib, F, x, w: F.conv_transpose1d(x, w, stride=0), rand(1, 4, 4), rand(4, 2, 3))
    same_error(lambda lib, F, x, w, b: F.conv_transpose1d(x, w, b), rand(1, 4, 4), rand(4, 2, 3), rand(3))
    same_error(lambda lib, F, x, w: F.conv_transpose1d(x, w), rand(4, 4, 4, 4), rand(4, 2, 3))
    same_error(lambda lib, F, x, w: F.conv_transpose1d(x, w, padding=3), rand(1, 4, 1), rand(4, 2, 3))


# Group and instance norm ---------------------------------------------------------------------------------------

def test_group_norm():
    compare(lambda lib, F, x: F.group_norm(x, 2), rand(3, 4, 5))
    compare(lambda lib, F, x, w, b: F.group_norm(x, 3, w, b, eps=1e-3), rand(2, 6, 3, 2), rand(6, seed=1),
            rand(6, seed=2))
    compare(lambda lib, F, x, w: F.group_norm(x, 1, w), rand(4, 3), rand(3, seed=1))
    compare_float32(lambda lib, F, x: F.group_norm(x, 4), rand(2, 8, 5))
    same_error(lambda lib, F, x: F.group_norm(x, 3), rand(2, 4, 5))
    same_error(lambda lib, F, x, w: F.group_norm(x, 2, w), rand(2, 4, 5), rand(3))


def test_instance_norm():
    compare(lambda lib, F, x: F.instance_norm(x), rand(3, 4, 5))
    compare(lambda lib, F, x, w, b: F.instance_norm(x, weight=w, bias=b), rand(2, 3, 4, 5), rand(3, seed=1),
            rand(3, seed=2))

    def running(lib, F, x):
        mean, var = lib.zeros(3, dtype=x.dtype), lib.ones(3, dtype=x.dtype)
        out = F.instance_norm(x, mean, var, momentum=0.3)
        evaluated = F.instance_norm(x, mean, var, use_input_stats=False)
        return out, evaluated, mean, var
    compare(running, rand(2, 3, 6))


def test_functional_all():
    for name in ["interpolate", "max_pool1d", "avg_pool1d", "cosine_similarity", "pairwise_distance", "kl_div",
                 "smooth_l1_loss", "huber_loss", "mish", "glu", "pixel_shuffle", "conv_transpose2d", "group_norm"]:
        assert name in F.__all__
        assert getattr(F, name).__doc__.startswith(name + "(")


def test_no_warning_from_quiet_functions():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.interpolate(wick.zeros(1, 1, 3), scale_factor=2)
        F.smooth_l1_loss(wick.zeros(3), wick.zeros(3))
        F.kl_div(wick.zeros(2, 3), wick.zeros(2, 3), reduction="batchmean")


@pytest.mark.parametrize("call", [
    lambda lib, F, x: F.kl_div(x, [1.0]), lambda lib, F, x: F.pairwise_distance(x, 1),
    lambda lib, F, x: F.conv_transpose1d(x, 3), lambda lib, F, x: F.group_norm(x, 1, weight=[1.0]),
    lambda lib, F, x: F.prelu(x, 0.25), lambda lib, F, x: F.triplet_margin_loss(x, x, 2.0),
    lambda lib, F, x: F.mish([1.0]),
])
def test_non_tensor_arguments_raise_type_error(call):
    same_error(call, rand(1, 2, 3), match="must be Tensor")
