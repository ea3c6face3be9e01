"""wick.nn.functional's gaussian_nll_loss, multilabel_soft_margin_loss, multi_margin_loss and
cosine_embedding_loss, and the modules of those and of the other margin and likelihood losses, against PyTorch
1.13's: values and gradients in float64, values in float32, and the same exceptions for bad arguments (the harness
is test_functional.py's)."""
import numpy as np
import pytest
import torch

import wick
from test_functional import Fixed, classes, compare, compare_float32, rand, same_error

# PyTorch's deprecation warnings (size_average, reduce) are tested where they matter, and silenced elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore")

REDUCTIONS = ["none", "mean", "sum"]


# gaussian_nll_loss ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("full", [False, True])
def test_gaussian_nll_loss(reduction, full):
    def program(lib, F, x, t, var):
        return F.gaussian_nll_loss(x, t, var, full=full, reduction=reduction)

    x, t = rand(3, 4), rand(3, 4, seed=1)
    compare(program, x, t, rand(3, 4, low=0.1, high=2.0, seed=2))  # one variance per element
    compare(program, x, t, rand(3, low=0.1, high=2.0, seed=2))  # one per row: a dim fewer
    compare(program, x, t, rand(3, 1, low=0.1, high=2.0, seed=2))  # or a last dim of 1
    compare(program, x, rand(4, seed=1), rand(3, 4, low=0.1, high=2.0, seed=2))  # target broadcast
    compare(program, rand(5), rand(5, seed=1), rand(1, low=0.1, high=2.0, seed=2))
    # Variances below eps (and 0) are clamped to it, with the gradient of the clamped variance.
    compare(program, x, t, np.array([[0.0, 1e-9, 1e-6, 0.5]] * 3))
    compare_float32(program, x, t, rand(3, 4, low=0.1, high=2.0, seed=2))


def test_gaussian_nll_loss_eps():
    compare(lambda lib, F, x, t, v: F.gaussian_nll_loss(x, t, v, eps=0.25), rand(6), rand(6, seed=1),
            rand(6, low=0.0, high=0.5, seed=2))


def test_gaussian_nll_loss_errors():
    def call(reduction="mean"):
        return lambda lib, F, x, t, v: F.gaussian_nll_loss(x, t, v, reduction=reduction)

    x, t = rand(3, 4), rand(3, 4, seed=1)
    same_error(call(), x, t, rand(4, low=0.1))  # var of an incorrect size
    same_error(call(), x, t, rand(3, 2, low=0.1))
    same_error(call(), x, t, rand(3, 4, low=-1.0, high=-0.5))  # a negative variance
    same_error(call("bad"), x, t, rand(3, 4, low=0.1))
    same_error(call(), x, rand(2, 4), rand(3, 4, low=0.1))
    same_error(call(), x.astype(np.int64), t.astype(np.int64), np.ones((3, 4), dtype=np.int64))


# multilabel_soft_margin_loss -----------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_soft_margin_loss(reduction):
    def program(lib, F, x, t, *weight):
        return F.multilabel_soft_margin_loss(x, t, *weight, reduction=reduction)

    labels = Fixed(classes(2, 3, 4).astype(np.float64))
    compare(program, rand(3, 4, low=-30, high=30), labels)
    compare(program, rand(3, 4), labels, Fixed(rand(4, low=0.5, high=2.0, seed=3)))
    compare(program, rand(3, 4), rand(3, 4, low=0.0, high=1.0, seed=1), rand(4, low=0.5, high=2.0, seed=3))
    compare(program, rand(5), Fixed(classes(2, 5).astype(np.float64)))
    compare(program, rand(2, 3, 4), labels)
    compare_float32(program, rand(3, 4), labels)


def test_multilabel_soft_margin_loss_legacy_reduction():
    program = lambda lib, F, x, t: F.multilabel_soft_margin_loss(x, t, size_average=False)  # noqa: E731
    compare(program, rand(3, 4), Fixed(classes(2, 3, 4).astype(np.float64)))
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        wick.nn.functional.multilabel_soft_margin_loss(wick.zeros([2, 3]), wick.zeros([2, 3]), reduce=False)


def test_multilabel_soft_margin_loss_errors():
    call = lambda lib, F, x, t: F.multilabel_soft_margin_loss(x, t, reduction="bad")  # noqa: E731
    same_error(call, rand(3, 4), rand(3, 4))
    same_error(lambda lib, F, x, t: F.multilabel_soft_margin_loss(x, t), np.array(1.0), np.array(1.0))
    same_error(lambda lib, F, x, t, w: F.multilabel_soft_margin_loss(x, t, w), rand(3, 4), rand(3, 4), rand(3))


# multi_margin_loss ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin_loss(reduction, p):
    def program(lib, F, x, t, *weight, margin=1.0):
        return F.multi_margin_loss(x, t, p, margin, *weight, reduction=reduction)

    target = classes(5, 4)
    compare(program, rand(4, 5), target)
    compare(program, rand(4, 5), target, Fixed(rand(5, low=0.5, high=2.0, seed=3)))
    compare(lambda lib, F, x, t: program(lib, F, x, t, margin=0.3), rand(4, 5), target)
    compare(program, rand(5), np.array(2))  # unbatched, with a 0-d target
    compare(program, rand(5), np.array([2]))  # or a target of one
    compare(program, np.array(0.5), np.array(0))  # one class
    if reduction == "none":  # PyTorch's mean over an empty batch reads junk
        compare(program, rand(0, 5), classes(5, 0))
    # margin - input[target] + input[i] exactly 0 (no term, and no gradient) and just above it.
    compare(program, np.array([[1.0, 0.0, 0.5, 1e-12], [0.25, 1.25, 2.0, 0.0]]), np.array([0, 1]))
    compare_float32(program, rand(4, 5), target)


def test_multi_margin_loss_errors():
    def call(p=1, reduction="mean"):
        return lambda lib, F, x, t, *w: F.multi_margin_loss(x, t, p, weight=w[0] if w else None, reduction=reduction)

    x, t = rand(3, 4), classes(4, 3)
    same_error(call(p=3), x, t)
    same_error(call(reduction="bad"), x, t)
    same_error(call(), x, t, rand(1, 4))  # weight must be 1-d
    same_error(call(), x, t, rand(4))  # and needs no gradient
    same_error(call(), x[:, :0], t)  # no classes
    same_error(call(), x[None], t)
    same_error(call(), x, t[:2])  # inconsistent target size
    same_error(call(), x, t[None])
    same_error(call(), x, t.astype(np.int32))
    same_error(call(), x, t + 4)  # target out of range
    same_error(call(), x, t - 4)
    same_error(call(), x.astype(np.int64), t)
    same_error(lambda lib, F, x, t, w: F.multi_margin_loss(x, t, weight=w.float()), x, t, Fixed(rand(4)))  # dtype


def test_multi_margin_loss_with_a_short_weight_raises():
    """PyTorch 1.13 reads past a weight of fewer elements than classes; ours refuses it."""
    with pytest.raises(RuntimeError, match="inconsistent weight size"):
        wick.nn.functional.multi_margin_loss(wick.zeros([2, 4]), wick.tensor([0, 3]), weight=wick.ones([3]))


# cosine_embedding_loss -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cosine_embedding_loss(reduction):
    def program(lib, F, a, b, t, margin=0.0):
        return F.cosine_embedding_loss(a, b, t, margin, reduction=reduction)

    signs = np.array([1, -1, 0, -1, 1, -1])  # 0: neither term
    compare(program, rand(6, 4), rand(6, 4, seed=1), signs)
    compare(lambda lib, F, a, b, t: program(lib, F, a, b, t, margin=-0.5), rand(6, 4), rand(6, 4, seed=1), signs)
    compare(program, rand(6, 4), rand(6, 4, seed=1), Fixed(signs.astype(np.float64)))
    compare(program, rand(4), rand(4, seed=1), np.array(-1))  # unbatched
    compare(program, np.zeros((2, 3)), rand(2, 3, seed=1), np.array([1, -1]))  # a zero vector: cosine 0
    compare(program, rand(6, 4), rand(1, 4, seed=1), signs)  # broadcast
    compare_float32(program, rand(6, 4), rand(6, 4, seed=1), signs)


def test_cosine_embedding_loss_dtypes():
    compare(lambda lib, F, a, b, t: F.cosine_embedding_loss(a.float(), b, t), rand(3, 4), rand(3, 4, seed=1),
            np.array([1, -1, 1]))
    compare(lambda lib, F, a, b, t: F.cosine_embedding_loss(a, b, t), classes(5, 3, 4), classes(5, 3, 4, seed=2),
            np.array([1, -1, 1]), grad=False)


def test_cosine_embedding_loss_errors():
    call = lambda lib, F, a, b, t: F.cosine_embedding_loss(a, b, t)  # noqa: E731
    a, b, t = rand(3, 4), rand(3, 4, seed=1), np.array([1, -1, 1])
    same_error(call, a[0], b[0], t)  # a 1-d target wants 2-d inputs
    same_error(call, a, b, t[0])  # a 0-d target wants 1-d inputs
    same_error(call, a, b, t[None])
    same_error(call, a, b[:2], t)
    same_error(call, a, b, t[:2])
    same_error(lambda lib, F, a, b, t: F.cosine_embedding_loss(a, b, t, reduction="bad"), a, b, t)


# Modules -------------------------------------------------------------------------------------------------------

LOSS_MODULES = [
    ("GaussianNLLLoss", {"full": True, "eps": 1e-3}, lambda: (rand(3, 4), rand(3, 4, seed=1), rand(3, low=0, high=1))),
    ("GaussianNLLLoss", {"reduction": "sum"}, lambda: (rand(3, 4), rand(3, 4, seed=1), rand(3, 4, low=0, high=1))),
    ("PoissonNLLLoss", {"log_input": False, "full": True}, lambda: (rand(3, 4, low=0.1), rand(3, 4, low=0, high=3))),
    ("MultiLabelSoftMarginLoss", {}, lambda: (rand(3, 4), Fixed(classes(2, 3, 4).astype(np.float64)))),
    ("MultiMarginLoss", {"p": 2, "margin": 0.5}, lambda: (rand(3, 4), classes(4, 3))),
    ("MultiMarginLoss", {"reduction": "none"}, lambda: (rand(3, 4), classes(4, 3))),
    ("SoftMarginLoss", {"reduction": "sum"}, lambda: (rand(3, 4), Fixed(np.sign(rand(3, 4, seed=1))))),
    ("CosineEmbeddingLoss", {"margin": 0.2}, lambda: (rand(3, 4), rand(3, 4, seed=1), np.array([1, -1, -1]))),
    ("HingeEmbeddingLoss", {"margin": 0.5}, lambda: (rand(6), Fixed(np.array([1.0, -1, 1, -1, -1, 1])))),
    ("MarginRankingLoss", {"margin": 0.1, "reduction": "none"},
     lambda: (rand(5), rand(5, seed=1), Fixed(np.array([1.0, -1, 1, -1, 1])))),
]


@pytest.mark.parametrize("name, kwargs, arrays", LOSS_MODULES, ids=[f"{n}-{k}" for n, k, _ in LOSS_MODULES])
def test_loss_module(name, kwargs, arrays):
    def program(lib, F, *inputs):
        return getattr(lib.nn, name)(**kwargs)(*inputs)
    compare(program, *arrays())


def test_loss_module_with_weight():
    def program(lib, F, x, t, w):
        module = getattr(lib.nn, "MultiMarginLoss")(weight=w)
        assert "weight" in dict(module.named_buffers())
        return module(x, t)
    compare(program, rand(3, 4), classes(4, 3), Fixed(rand(4, low=0.5, high=2)))
    compare(lambda lib, F, x, t, w: lib.nn.MultiLabelSoftMarginLoss(w)(x, t), rand(3, 4),
            Fixed(classes(2, 3, 4).astype(np.float64)), Fixed(rand(4, low=0.5, high=2)))


def test_loss_module_errors():
    for lib in (torch, wick):
        with pytest.raises(ValueError):
            lib.nn.MultiMarginLoss(p=3)
        with pytest.raises(AssertionError):
            lib.nn.MultiMarginLoss(weight=lib.ones([2, 2]))
        with pytest.raises(TypeError):
            lib.nn.GaussianNLLLoss(True)  # its arguments are keyword-only


def test_exported():
    for name in ["gaussian_nll_loss", "multilabel_soft_margin_loss", "multi_margin_loss", "cosine_embedding_loss"]:
        assert name in wick.nn.functional.__all__
    for name in ["GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "CosineEmbeddingLoss"]:
        assert name in wick.nn.__all__ and name in wick.nn.modules.__all__
