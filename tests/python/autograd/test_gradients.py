"""The derivative formulas of every differentiable op, read from the declarations: for each sample of
its test plan (codegen/testplan.py) in float64, the gradient autograd computes against finite
differences (wick.autograd.gradcheck), the gradient of the gradient for the ops of GRADGRAD, and the
gradient against PyTorch's where PyTorch has the op and takes the call.
"""
import zlib

import numpy as np
import pytest
import torch

import declared
import opcheck
import wick
from wick.autograd import gradcheck, gradgradcheck


def _decls():
    return {d.name: d for d in declared.declarations()}


def _inputs(case, sample):
    """The differentiable inputs of the sample's signature: those its formulas give a gradient."""
    d = _decls()[case.name]
    return [f.input for f in d.derivatives.formulas[sample.signature]]


def _params():
    out = []
    for case in declared.cases():
        if "float64" not in case.dtypes:
            continue
        for i, sample in enumerate(case.samples):
            if _inputs(case, sample):
                out.append(pytest.param(case, i, id=f"{case.name}-{i}"))
    return out


PARAMS = _params()


def _finite(t, rng):
    """A copy of t, its special values (the samples' nan, inf, 0) replaced by values in every op's domain."""
    values = t.detach().numpy().copy()
    odd = ~np.isfinite(values) | (values == 0)
    values[odd] = rng.uniform(0.1, 0.9, size=int(odd.sum()))
    return wick.tensor(values)


class Call:
    """A sample realized in float64, with its differentiable inputs as leaves that require grad."""

    def __init__(self, case, index):
        self.case, self.sample = case, case.samples[index]
        rng = np.random.default_rng(zlib.crc32(f"{case.name}-{index}".encode()))
        self.call = opcheck.realize(case, self.sample, "float64", "contiguous", rng)
        self.slots = []  # (name, position in a list or None)
        self.leaves = []
        for name in _inputs(case, self.sample):
            value = self.call.given.get(name)
            items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
            for i, t in items:
                if isinstance(t, wick.Tensor) and t.dtype is wick.float64:
                    self.slots.append((name, i))
                    self.leaves.append(_finite(t, rng).requires_grad_())

    @property
    def writes(self):
        return self.case.mutates

    def given(self, leaves):
        given = {k: list(v) if isinstance(v, list) else v for k, v in self.call.given.items()}
        for (name, i), leaf in zip(self.slots, leaves):
            if i is None:
                given[name] = leaf
            else:
                given[name][i] = leaf
        if self.writes:  # the op writes self: a copy, which autograd lets it write
            given["self"] = given["self"].clone()
        return given

    def run(self, *leaves):
        """The op's float64 results, for these leaves (finite differences in a narrower dtype say little)."""
        call = opcheck.Call(self.call.sig, self.given(leaves), {})
        result = opcheck._invoke(self.case, call, "contiguous")
        parts = result if isinstance(result, (tuple, list)) else (result,)
        return tuple(p for p in parts if isinstance(p, wick.Tensor) and p.dtype is wick.float64)


def _call(case, index):
    c = Call(case, index)
    if not c.leaves or not c.run(*c.leaves):
        pytest.skip("nothing in float64 to differentiate")
    return c


@pytest.mark.parametrize("case, index", PARAMS)
def test_gradcheck(case, index):
    c = _call(case, index)
    assert gradcheck(c.run, tuple(c.leaves), eps=1e-6, atol=1e-5, rtol=1e-3)


# Ops whose gradients are checked again (create_graph): one of each kind of formula, the helpers included.
GRADGRAD = {"mul", "true_divide", "sin", "exp", "tanh", "sigmoid", "pow", "atan2", "sum", "mean", "prod", "var",
            "std", "norm", "logsumexp", "amax", "cumsum", "cumprod", "mm", "matmul", "bmm", "addmm", "select",
            "narrow", "transpose", "permute", "expand", "cat", "stack", "index_select", "gather", "where",
            "clamp", "max", "sort", "diagonal", "repeat", "lerp", "addcdiv", "gelu", "silu"}


@pytest.mark.parametrize("case, index", [p for p in PARAMS if p.values[0].name in GRADGRAD])
def test_gradgradcheck(case, index):
    c = _call(case, index)
    assert gradgradcheck(c.run, tuple(c.leaves), eps=1e-6, atol=1e-5, rtol=1e-3)


def _to_torch(value):
    if isinstance(value, wick.Tensor):
        return torch.from_numpy(value.detach().numpy().copy())
    if isinstance(value, wick.dtype):
        return getattr(torch, str(value).split(".")[-1])
    if isinstance(value, list):
        return [_to_torch(v) for v in value]
    return value


@pytest.mark.parametrize("case, index", PARAMS)
def test_gradient_matches_pytorch(case, index):
    c = _call(case, index)
    given = c.given(c.leaves)
    positional = [p for p in c.call.sig if p.name in given and p.default is opcheck.REQUIRED and not p.kw]
    keywords = {p.name: _to_torch(given[p.name]) for p in c.call.sig
                if p.name in given and (p.default is not opcheck.REQUIRED or p.kw)}
    t_given = {p.name: _to_torch(given[p.name]) for p in positional}
    t_leaves = []
    for (name, i), leaf in zip(c.slots, c.leaves):
        t = torch.from_numpy(leaf.detach().numpy().copy()).requires_grad_()
        t_leaves.append(t)
        if i is None:
            (keywords if name in keywords else t_given)[name] = t
        else:
            (keywords if name in keywords else t_given)[name][i] = t
    args = [t_given[p.name] for p in positional]
    if c.writes:
        args[0] = args[0].clone()
    try:
        if case.mutates:
            t_result = getattr(args[0], case.name)(*args[1:], **keywords)
        elif case.function and hasattr(torch, case.name):
            t_result = getattr(torch, case.name)(*args, **keywords)
        else:
            t_result = getattr(args[0], case.name)(*args[1:], **keywords)
    except (AttributeError, TypeError, RuntimeError) as e:
        pytest.skip(f"PyTorch does not take this call: {e}")
    t_parts = t_result if isinstance(t_result, (tuple, list)) else (t_result,)
    t_parts = [p for p in t_parts if isinstance(p, torch.Tensor) and p.dtype is torch.float64]
    parts = c.run(*c.leaves)
    assert len(parts) == len(t_parts)
    rng = np.random.default_rng(7)
    weights = [rng.standard_normal(tuple(p.shape)) for p in parts]
    grads = wick.autograd.grad(parts, c.leaves, [wick.tensor(w) for w in weights], allow_unused=True)
    try:
        t_grads = torch.autograd.grad(t_parts, t_leaves, [torch.from_numpy(w) for w in weights], allow_unused=True)
    except RuntimeError as e:  # "derivative for aten::floor_divide is not implemented", and torch 1.13's bugs
        pytest.skip(f"PyTorch cannot differentiate this call: {e}")
    for (name, i), g, tg in zip(c.slots, grads, t_grads):
        what = name if i is None else f"{name}[{i}]"
        if tg is None:
            assert g is None or not g.numpy().any(), what
            continue
        assert g is not None, f"no gradient for {what}"
        if tg._is_zerotensor():  # torch's symbolic zeros (torch.sgn's gradient): numpy() reads no memory of theirs
            tg = torch.zeros_like(tg)
        np.testing.assert_allclose(g.numpy(), tg.numpy(), rtol=1e-7, atol=1e-9, err_msg=what)
