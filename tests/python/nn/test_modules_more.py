"""The modules of wick.nn over test_functional_more.py's functions against torch.nn 1.13, in float64 from the same
weights (the harness is test_modules.py's): values, the gradients of inputs and parameters, and reprs."""
import numpy as np
import pytest
import torch

import wick
import test_modules
from test_modules import both, case, normal, seeded


def signs(shape):
    return lambda lib, rng: lib.from_numpy(np.sign(rng.standard_normal(shape)))


def positive(shape):
    return lambda lib, rng: lib.from_numpy(rng.uniform(0.1, 3.0, shape)).requires_grad_()


LAYERS = [
    case(lambda nn: nn.ReLU6(), [normal((4, 5))], "ReLU6"),
    case(lambda nn: nn.Mish(), [normal((4, 5))], "Mish"),
    case(lambda nn: nn.Hardswish(), [normal((4, 5))], "Hardswish"),
    case(lambda nn: nn.Hardsigmoid(), [normal((4, 5))], "Hardsigmoid"),
    case(lambda nn: nn.SELU(), [normal((4, 5))], "SELU"),
    case(lambda nn: nn.CELU(0.5), [normal((4, 5))], "CELU"),
    case(lambda nn: nn.GLU(0), [normal((4, 5))], "GLU"),
    case(lambda nn: nn.LogSigmoid(), [normal((4, 5))], "LogSigmoid"),
    case(lambda nn: nn.Softsign(), [normal((4, 5))], "Softsign"),
    case(lambda nn: nn.Tanhshrink(), [normal((4, 5))], "Tanhshrink"),
    case(lambda nn: nn.Softshrink(0.3), [normal((4, 5))], "Softshrink"),
    case(lambda nn: nn.Hardshrink(0.3), [normal((4, 5))], "Hardshrink"),
    case(lambda nn: nn.Threshold(0.2, -1.0), [normal((4, 5))], "Threshold"),
    case(lambda nn: nn.PReLU(3), [normal((2, 3, 4))], "PReLU"),
    case(lambda nn: nn.PReLU(), [normal((2, 3, 4))], "PReLU-shared"),
    case(lambda nn: nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
         [normal((2, 4, 5))], "ConvTranspose1d"),
    case(lambda nn: nn.ConvTranspose2d(3, 2, (3, 2), stride=(2, 1), dilation=2, bias=False),
         [normal((2, 3, 4, 5))], "ConvTranspose2d"),
    case(lambda nn: nn.MaxPool1d(3, 2, 1), [normal((2, 3, 8))], "MaxPool1d"),
    case(lambda nn: nn.AvgPool1d(3, 2, 1, count_include_pad=False), [normal((2, 3, 8))], "AvgPool1d"),
    case(lambda nn: nn.Upsample(scale_factor=2), [normal((2, 3, 4, 5))], "Upsample"),
    case(lambda nn: nn.Upsample(size=(5, 7), mode="bilinear"), [normal((2, 3, 4, 5))], "Upsample-bilinear"),
    case(lambda nn: nn.UpsamplingBilinear2d(scale_factor=2), [normal((2, 3, 4, 5))], "UpsamplingBilinear2d"),
    case(lambda nn: nn.UpsamplingNearest2d(size=7), [normal((2, 3, 4, 5))], "UpsamplingNearest2d"),
    case(lambda nn: nn.PixelShuffle(2), [normal((2, 8, 3, 4))], "PixelShuffle"),
    case(lambda nn: nn.PixelUnshuffle(2), [normal((2, 2, 4, 6))], "PixelUnshuffle"),
    case(lambda nn: nn.GroupNorm(2, 6), [normal((3, 6, 4))], "GroupNorm"),
    case(lambda nn: nn.GroupNorm(3, 6, affine=False), [normal((3, 6, 2, 2))], "GroupNorm-noaffine"),
    case(lambda nn: nn.InstanceNorm1d(3), [normal((2, 3, 6))], "InstanceNorm1d"),
    case(lambda nn: nn.InstanceNorm2d(3, affine=True), [normal((2, 3, 4, 5))], "InstanceNorm2d-affine"),
    case(lambda nn: nn.InstanceNorm2d(3, track_running_stats=True), [normal((3, 4, 5))], "InstanceNorm2d-unbatched"),
    case(lambda nn: nn.CosineSimilarity(), [normal((4, 5)), normal((4, 5))], "CosineSimilarity"),
    case(lambda nn: nn.PairwiseDistance(1.0, keepdim=True), [normal((4, 5)), normal((4, 5))], "PairwiseDistance"),
    case(lambda nn: nn.SmoothL1Loss(beta=0.5), [normal((4, 3)), normal((4, 3), False)], "SmoothL1Loss"),
    case(lambda nn: nn.HuberLoss(reduction="sum", delta=0.5), [normal((4, 3)), normal((4, 3))], "HuberLoss"),
    case(lambda nn: nn.KLDivLoss(reduction="batchmean", log_target=True), [normal((4, 3)), normal((4, 3))],
         "KLDivLoss"),
    case(lambda nn: nn.MarginRankingLoss(0.5), [normal((6,)), normal((6,)), signs((6,))], "MarginRankingLoss"),
    case(lambda nn: nn.SoftMarginLoss(), [normal((6,)), signs((6,))], "SoftMarginLoss"),
    case(lambda nn: nn.HingeEmbeddingLoss(0.5), [normal((6,)), signs((6,))], "HingeEmbeddingLoss"),
    case(lambda nn: nn.TripletMarginLoss(swap=True), [normal((4, 5)), normal((4, 5)), normal((4, 5))],
         "TripletMarginLoss"),
    case(lambda nn: nn.PoissonNLLLoss(log_input=False, full=True), [positive((4, 3)), positive((4, 3))],
         "PoissonNLLLoss"),
]


@pytest.mark.parametrize("build, inputs", LAYERS)
def test_more_layers_match_torch(build, inputs):
    test_modules.test_layer_matches_torch(build, inputs)


def test_instance_norm_running_stats():
    def program(lib):
        module = lib.nn.InstanceNorm1d(3, momentum=0.3, track_running_stats=True).double()
        x = lib.from_numpy(np.random.default_rng(0).standard_normal((2, 3, 5)))
        module(x)
        out = module.eval()(x)
        return [t.detach().numpy() for t in (out, module.running_mean, module.running_var)]
    for w, t in zip(*both(program)):
        np.testing.assert_allclose(w, t, rtol=1e-7, atol=1e-10)


def test_conv_transpose_output_size():
    def program(lib):
        module = seeded(lib.nn.ConvTranspose2d(2, 3, 3, stride=3), lib)
        x = lib.from_numpy(np.random.default_rng(0).standard_normal((1, 2, 4, 4)))
        return [module(x, output_size=size).detach().numpy() for size in ([12, 14], [1, 3, 13, 12])]
    for w, t in zip(*both(program)):
        np.testing.assert_allclose(w, t, rtol=1e-7, atol=1e-10)
    module = wick.nn.ConvTranspose2d(2, 3, 3, stride=3)
    with pytest.raises(ValueError):
        module(wick.zeros(1, 2, 4, 4), output_size=[15, 12])
    with pytest.raises(ValueError):
        wick.nn.ConvTranspose1d(2, 3, 3, padding_mode="reflect")


REPRS = [
    lambda nn: nn.ReLU6(True), lambda nn: nn.Hardswish(True), lambda nn: nn.Mish(True), lambda nn: nn.CELU(0.5),
    lambda nn: nn.Threshold(1, 2, True), lambda nn: nn.Softshrink(), lambda nn: nn.GLU(), lambda nn: nn.PReLU(3),
    lambda nn: nn.ConvTranspose1d(2, 4, 3, stride=2, output_padding=1),
    lambda nn: nn.ConvTranspose2d(4, 6, 3, groups=2, bias=False), lambda nn: nn.MaxPool1d(2),
    lambda nn: nn.Upsample(scale_factor=2), lambda nn: nn.UpsamplingBilinear2d(size=3), lambda nn: nn.PixelShuffle(2),
    lambda nn: nn.GroupNorm(2, 4), lambda nn: nn.InstanceNorm2d(3), lambda nn: nn.CosineSimilarity(),
    lambda nn: nn.SmoothL1Loss(), lambda nn: nn.TripletMarginLoss(),
]


@pytest.mark.parametrize("build", REPRS)
def test_repr_matches_torch(build):
    assert repr(build(wick.nn)) == repr(build(torch.nn))


def test_module_errors_match_torch():
    for build in (lambda nn: nn.GroupNorm(3, 4), lambda nn: nn.ConvTranspose2d(3, 4, 3, groups=2)):
        with pytest.raises(ValueError):
            build(torch.nn)
        with pytest.raises(ValueError):
            build(wick.nn)
    for lib in (wick, torch):
        with pytest.raises(ValueError):
            lib.nn.InstanceNorm2d(3)(lib.zeros(2, 3))
