"""logit's eps, against PyTorch: the input clamped to [eps, 1 - eps] first (eps None: not clamped),
in every form, every float dtype, with NaN, infinities and the ends of the interval, and its
gradient, which is zero where eps clamped.
"""
import math

import numpy as np
import pytest
import torch

import wick
from reference import to_numpy

VALUES = [-0.5, 0.0, 1e-4, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1.5, math.nan, math.inf, -math.inf]
EPS = [None, 0.0, 1e-6, 0.1, 0.25, -0.5, math.nan]
DTYPES = ["float16", "bfloat16", "float32", "float64"]


def as_torch(x):
    a = to_numpy(x.float() if x.dtype == wick.bfloat16 else x)
    t = torch.from_numpy(np.array(a))
    return t.to(torch.bfloat16) if x.dtype == wick.bfloat16 else t


def check(got, expected):
    torch.testing.assert_close(as_torch(got), expected, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("eps", EPS)
def test_logit_eps_matches_pytorch(eps, dtype):
    # 16-bit floats compute in float32, as every pointwise op of wick does; PyTorch 1.13 has no float16
    # logit on the CPU, and clamps bfloat16 to 1 - eps rounded to bfloat16.
    compute = "float32" if dtype in ("float16", "bfloat16") else dtype
    expected = torch.logit(torch.tensor(VALUES, dtype=getattr(torch, compute)), eps).to(getattr(torch, dtype))
    x = wick.tensor(VALUES, dtype=getattr(wick, dtype))
    check(wick.logit(x, eps), expected)
    check(x.logit(eps=eps), expected)
    out = wick.empty(0, dtype=x.dtype)
    assert wick.logit(x, eps, out=out) is out
    check(out, expected)
    y = x.clone()
    assert y.logit_(eps) is y
    check(y, expected)


def test_logit_eps_on_integers_is_float():
    expected = torch.logit(torch.tensor([0, 1, 2]), 0.2)
    check(wick.logit(wick.tensor([0, 1, 2]), 0.2), expected)


@pytest.mark.parametrize("eps", [None, 0.2])
def test_logit_eps_gradient(eps):
    values = [0.05, 0.2, 0.5, 0.8, 0.95]
    theirs = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    torch.logit(theirs, eps).sum().backward()
    ours = wick.tensor(values, dtype=wick.float64, requires_grad=True)
    wick.logit(ours, eps).sum().backward()
    check(ours.grad, theirs.grad)


def test_logit_eps_refuses_a_string():
    with pytest.raises(TypeError):
        wick.logit(wick.tensor([0.5]), "0.1")
