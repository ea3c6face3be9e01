"""wick.nn.functional's adaptive_avg_pool1d, adaptive_avg_pool2d and adaptive_max_pool2d, and their modules, against
PyTorch 1.13's: values, indices and gradients in float64 (values in float32 too) for windows that divide the input
evenly, that overlap, that are wider than the input, and for output sizes given as an int, a pair or with None; the
errors."""
import numpy as np
import pytest
import torch

import wick
from test_functional import compare, compare_float32, rand, same_error

# (input's plane, output_size): even windows, uneven and overlapping ones, an output larger than the input, a
# global pooling, None keeping a size.
SIZES = [((6, 8), (3, 4)), ((7, 5), (3, 2)), ((5, 7), 4), ((4, 3), (6, 5)), ((7, 6), 1), ((7, 6), (None, 4)),
         ((6, 5), (2, None)), ((5, 5), (5, 5)), ((9, 10), [4, 3])]


@pytest.mark.parametrize("plane, output_size", SIZES, ids=str)
@pytest.mark.parametrize("batched", [True, False])
def test_adaptive_avg_pool2d(plane, output_size, batched):
    x = rand(2, 3, *plane) if batched else rand(3, *plane)
    compare(lambda lib, f, x: f.adaptive_avg_pool2d(x, output_size), x)
    compare_float32(lambda lib, f, x: f.adaptive_avg_pool2d(x, output_size), x)


@pytest.mark.parametrize("plane, output_size", SIZES, ids=str)
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("ties", [False, True])
def test_adaptive_max_pool2d(plane, output_size, batched, ties):
    x = rand(2, 3, *plane) if batched else rand(3, *plane)
    if ties:  # few distinct values: the index, and the gradient, go to the first maximum, as in PyTorch
        x = np.round(x)
    compare(lambda lib, f, x: f.adaptive_max_pool2d(x, output_size), x)
    compare(lambda lib, f, x: f.adaptive_max_pool2d(x, output_size, return_indices=True), x)
    compare_float32(lambda lib, f, x: f.adaptive_max_pool2d(x, output_size, True), x)


@pytest.mark.parametrize("length, output_size", [(8, 4), (7, 3), (3, 5), (6, 1), (5, (2,))])
@pytest.mark.parametrize("batched", [True, False])
def test_adaptive_avg_pool1d(length, output_size, batched):
    x = rand(2, 3, length) if batched else rand(3, length)
    compare(lambda lib, f, x: f.adaptive_avg_pool1d(x, output_size), x)
    compare_float32(lambda lib, f, x: f.adaptive_avg_pool1d(x, output_size), x)


def test_empty_batch_channels_or_output():
    # Values only where the output is empty: PyTorch's backward refuses an empty gradient there.
    compare(lambda lib, f, x: f.adaptive_avg_pool2d(x, 2), rand(0, 3, 4, 5))
    compare(lambda lib, f, x: f.adaptive_avg_pool2d(x, 2), rand(2, 0, 4, 5), grad=False)
    compare(lambda lib, f, x: f.adaptive_max_pool2d(x, 2, True), rand(0, 3, 4, 5))
    for output_size in [(0, 2), (3, 0), 0]:
        compare(lambda lib, f, x: f.adaptive_avg_pool2d(x, output_size), rand(2, 3, 6, 4), grad=False)
        compare(lambda lib, f, x: f.adaptive_max_pool2d(x, output_size, True), rand(3, 6, 4), grad=False)


ERRORS = [
    ("adaptive_avg_pool2d", (2, 3, 7, 5), (2, 2, 2), "output_size must be 2"),
    ("adaptive_avg_pool2d", (2, 3, 7, 5), (2, -1), "elements of output_size must be greater than or equal to 0"),
    ("adaptive_avg_pool2d", (7, 5), 2, r"Expected 3D or 4D tensor, but got \[7, 5\]"),
    ("adaptive_avg_pool2d", (2, 3, 4, 5, 6), 2, "Expected 3D or 4D tensor"),
    ("adaptive_avg_pool2d", (7, 5), (2, 2), "Input dimension should be at least 3"),
    ("adaptive_avg_pool2d", (2, 3, 0, 5), 2, "non-zero size for non-batch dimensions.*dimension 2 being empty"),
    ("adaptive_avg_pool2d", (3, 0, 5), 2, "dimension 1 being empty"),
    ("adaptive_max_pool2d", (2, 3, 7, 5), (2, 2, 2), "output_size.size.. must be 2"),
    ("adaptive_max_pool2d", (2, 3, 7, 5), (2, -1), "negative dimension -1"),
    ("adaptive_max_pool2d", (7, 5), 2, r"Expected 3D or 4D tensor, but got: \[7, 5\]"),
    ("adaptive_max_pool2d", (3, 4, 0), 2, "dimension 2 being empty"),
    ("adaptive_max_pool2d", (7, 5), (None, 2), "Input dimension should be at least 3"),
    ("adaptive_avg_pool1d", (7,), 2, "Expected 2 to 3 dimensions, but got 1-dimensional tensor"),
    ("adaptive_avg_pool1d", (2, 3, 7), (3, 2), "should contain one int .got 2."),
    ("adaptive_avg_pool1d", (3, 0), 2, "dimension 2 being empty"),
    ("adaptive_avg_pool1d", (3, 4), -1, "greater than or equal to 0 but received {1, -1}"),
]


@pytest.mark.parametrize("name, shape, output_size, match", ERRORS)
def test_errors(name, shape, output_size, match):
    same_error(lambda lib, f, x: getattr(f, name)(x, output_size), rand(*shape), match=match)


def test_adaptive_avg_pool2d_refuses_integers():
    same_error(lambda lib, f, x: f.adaptive_avg_pool2d(x.long(), 2), rand(2, 3, 4, 4), match="not implemented for")


MODULES = [
    (lambda nn: nn.AdaptiveAvgPool2d((3, None)), (2, 3, 7, 5)),
    (lambda nn: nn.AdaptiveAvgPool2d(1), (3, 7, 5)),
    (lambda nn: nn.AdaptiveMaxPool2d((2, 3)), (2, 3, 7, 5)),
    (lambda nn: nn.AdaptiveMaxPool2d(4, return_indices=True), (2, 3, 7, 5)),
    (lambda nn: nn.AdaptiveAvgPool1d(3), (2, 3, 7)),
]


@pytest.mark.parametrize("build, shape", MODULES)
def test_modules_match_torch(build, shape):
    def program(lib, f, x):
        module = build(lib.nn)
        return module(x)

    compare(program, rand(*shape))
    assert repr(build(wick.nn)) == repr(build(torch.nn))
