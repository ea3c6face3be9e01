"""wick.nn.functional.grid_sample and affine_grid against PyTorch 1.13's: values and the gradients for input, grid
and theta in float64, values in float32, PyTorch's warning for a default align_corners, and the same exceptions for
bad arguments (the harness is test_functional.py's)."""
import itertools
import warnings

import numpy as np
import pytest
import torch

import wick
import wick.nn.functional as F
from test_functional import Fixed, compare, compare_float32, rand, same_error

# PyTorch's warning for a default align_corners is tested where it matters, and silenced elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore")

MODES = ["bilinear", "nearest", "bicubic"]
PADDINGS = ["zeros", "border", "reflection"]

# Grid coordinates that land on pixel centres and borders of a 4-pixel dim (-1, 1, +-0.75, +-0.25 with and without
# align_corners), on the reflections' folds, and far outside (reflected more than once): where PyTorch's gradients
# are conventions that ours must follow.
EDGES = np.array([-1.0, 1.0, 0.0, -0.75, 0.75, -0.25, 0.25, 1.0 / 3.0, -1.5, 1.5, 1.25, -1.25, -3.0, 3.2, -5.1])


def edge_grid(dims=2):
    """(1, 15, ..., 15, dims): every pair (or triple) of EDGES."""
    points = np.array(list(itertools.product(EDGES, repeat=dims)))
    return points.reshape(1, *[len(EDGES)] * dims, dims)


def sample(mode, padding_mode, align_corners):
    def program(lib, F, x, grid):
        return F.grid_sample(x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    return program


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("padding_mode", PADDINGS)
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_2d(mode, padding_mode, align_corners):
    program = sample(mode, padding_mode, align_corners)
    compare(program, rand(2, 3, 4, 5), rand(2, 6, 7, 2, low=-1.3, high=1.3, seed=1))
    compare(program, rand(1, 2, 4, 4), edge_grid())
    compare(program, rand(2, 1, 3, 5), rand(2, 4, 3, 2, low=-4.0, high=4.0, seed=2))
    compare(program, rand(1, 2, 1, 4), rand(1, 3, 3, 2, seed=3))  # a 1-pixel dim
    compare(program, rand(1, 2, 1, 1), rand(1, 3, 3, 2, seed=3))
    compare(program, Fixed(rand(2, 3, 4, 5)), rand(2, 5, 2, 2, seed=4))  # only the grid needs a gradient
    compare_float32(program, rand(2, 3, 4, 5), rand(2, 6, 7, 2, low=-1.3, high=1.3, seed=1))


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", PADDINGS)
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_3d(mode, padding_mode, align_corners):
    program = sample(mode, padding_mode, align_corners)
    compare(program, rand(2, 2, 3, 4, 5), rand(2, 3, 2, 4, 3, low=-1.3, high=1.3, seed=1))
    compare(program, rand(1, 1, 4, 4, 4), edge_grid(3))
    compare(program, rand(1, 2, 1, 3, 2), rand(1, 2, 2, 2, 3, low=-3.0, high=3.0, seed=2))
    compare_float32(program, rand(2, 2, 3, 4, 5), rand(2, 3, 2, 4, 3, low=-1.3, high=1.3, seed=1))


def test_grid_sample_empty():
    program = sample("bilinear", "zeros", False)
    compare(program, rand(0, 3, 4, 5), rand(0, 2, 2, 2))
    compare(program, rand(2, 0, 4, 5), rand(2, 2, 2, 2))
    compare(program, rand(2, 3, 4, 5), rand(2, 0, 2, 2))


def test_nearest_gives_the_grid_a_zero_gradient():
    x = wick.tensor(rand(1, 2, 3, 3))
    grid = wick.tensor(rand(1, 2, 2, 2, low=-1, high=1), requires_grad=True)
    out = F.grid_sample(x, grid, mode="nearest", align_corners=False)
    assert out.requires_grad
    (gradient,) = wick.autograd.grad([out.sum()], [grid])
    np.testing.assert_array_equal(gradient.numpy(), np.zeros((1, 2, 2, 2)))


def test_default_align_corners_warns():
    x, grid, theta = wick.tensor(rand(1, 1, 2, 2)), wick.tensor(rand(1, 2, 2, 2)), wick.tensor(rand(1, 2, 3))
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior has changed"):
        default = F.grid_sample(x, grid)
    np.testing.assert_array_equal(default.numpy(), F.grid_sample(x, grid, align_corners=False).numpy())
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior has changed"):
        default = F.affine_grid(theta, [1, 1, 2, 2])
    np.testing.assert_array_equal(default.numpy(), F.affine_grid(theta, [1, 1, 2, 2], False).numpy())
    with pytest.warns(UserWarning, match="unit-size grids"):
        F.affine_grid(theta, [1, 1, 1, 2], align_corners=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.grid_sample(x, grid, align_corners=True)
        F.affine_grid(theta, [1, 1, 1, 2], align_corners=False)


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid(align_corners):
    def program(lib, F, theta, size):
        return F.affine_grid(theta, size, align_corners=align_corners)

    compare(program, rand(2, 2, 3), [2, 3, 4, 5])
    compare(program, rand(1, 2, 3), (1, 1, 1, 3))
    compare(program, rand(2, 3, 4), [2, 1, 3, 4, 5])
    compare(program, rand(1, 3, 4), [1, 2, 1, 1, 2])
    compare_float32(program, rand(2, 2, 3), [2, 3, 4, 5])
    compare_float32(program, rand(2, 3, 4), [2, 1, 3, 4, 5])


def test_spatial_transformer():
    """affine_grid into grid_sample, differentiated for theta and the image, as a spatial transformer network."""
    def program(lib, F, image, theta):
        grid = F.affine_grid(theta, list(image.shape), align_corners=False)
        return F.grid_sample(image, grid, align_corners=False)
    compare(program, rand(2, 3, 5, 6), rand(2, 2, 3, low=-1, high=1))


def test_affine_grid_errors():
    def call(size, align_corners=False):
        return lambda lib, F, theta: F.affine_grid(theta, size, align_corners)

    same_error(call([1, 1, 2, 2]), np.ones((1, 2, 3), dtype=np.int64))
    same_error(call([1, 1, 2]), rand(1, 2, 3))
    same_error(call([1, 1, 2, 2, 2, 2]), rand(1, 2, 3))
    same_error(call([1, 1, 2, 2]), rand(1, 3, 4))
    same_error(call([1, 1, 2, 2]), rand(2, 3))
    same_error(call([1, 1, 2, 2, 2]), rand(1, 2, 3))
    same_error(call([1, 1, 0, 2]), rand(1, 2, 3))
    same_error(call([0, 1, 2, 2]), rand(0, 2, 3))
    same_error(call([2, 1, 2, 2]), rand(3, 2, 3))
    same_error(call([1, 1, 2.0, 2]), rand(1, 2, 3))
    same_error(call([1, 1, 2, 2], align_corners=1), rand(1, 2, 3))
    same_error(call(5), rand(1, 2, 3))


def test_grid_sample_errors():
    def call(mode="bilinear", padding_mode="zeros", align_corners=False):
        return lambda lib, F, x, grid: F.grid_sample(x, grid, mode, padding_mode, align_corners)

    x, grid = rand(2, 3, 4, 5), rand(2, 6, 7, 2)
    same_error(call(mode="linear"), x, grid)
    same_error(call(mode=1), x, grid)
    same_error(call(padding_mode="bad"), x, grid)
    same_error(call(align_corners=1), x, grid)
    same_error(call(), x, grid[:1])  # batch sizes
    same_error(call(), x, grid[..., :1])  # the grid's last dim
    same_error(call(), x[0], grid[0])
    same_error(call(), x, grid[None])
    same_error(call(), x[:, :, :0], grid)  # an empty spatial dim
    same_error(call(), np.array(1.0), np.array(1.0))
    same_error(call(), x, np.array(1.0))
    same_error(call(mode="bicubic"), x[:, :, None], rand(2, 1, 6, 7, 3))
    same_error(call(), rand(1, 1, 2, 2, 2, 2), rand(1, 2, 6, 7, 4))
    same_error(call(), x.astype(np.int64), grid)
    same_error(call(), x, grid.astype(np.int64))
    same_error(call(), x[:, :, None].astype(np.int64), rand(2, 1, 6, 7, 3))
    same_error(lambda lib, F, x, grid: F.grid_sample(x, grid.float(), align_corners=False), x, grid)  # dtypes
    same_error(call(), x, None)
    for dtype in ["float16", "bfloat16"]:
        with pytest.raises(RuntimeError, match="not implemented"):
            torch.nn.functional.grid_sample(torch.zeros(1, 1, 2, 2, dtype=getattr(torch, dtype)),
                                            torch.zeros(1, 1, 1, 2, dtype=getattr(torch, dtype)),
                                            align_corners=False)
        with pytest.raises(RuntimeError, match="not implemented"):
            F.grid_sample(wick.zeros([1, 1, 2, 2], dtype=getattr(wick, dtype)),
                          wick.zeros([1, 1, 1, 2], dtype=getattr(wick, dtype)), align_corners=False)


def test_exported():
    assert "grid_sample" in F.__all__ and "affine_grid" in F.__all__
