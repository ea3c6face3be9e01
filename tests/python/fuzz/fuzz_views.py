"""tests/python/fuzz/fuzz_views.py: tensors laid out as views, each beside the NumPy array it should equal.

A view recipe (fuzz_strategies.view_recipes) is ("view", dtype, base shape, seed, ops):
random values of the dtype in a contiguous base, then the ops (permute, slice with a
step, expand, select, unsqueeze) applied to the tensor and to its NumPy twin alike.
"""
import numpy as np

from reference import make, random_values, to_numpy


def apply_view_ops(t, a, ops):
    """The ops of a view recipe applied to tensor `t` and array `a` alike."""
    for op in ops:
        if op[0] == "permute":
            t, a = t.permute(*op[1]), np.transpose(a, op[1])
        elif op[0] == "slice":
            _, d, start, stop, step = op
            key = (slice(None),) * d + (slice(start, stop, step),)
            t, a = t[key], a[key]
        elif op[0] == "expand":
            t, a = t.expand(*op[1]), np.broadcast_to(a, op[1])
        elif op[0] == "select":
            t, a = t.select(op[1], op[2]), np.take(a, op[2], axis=op[1])
        elif op[0] == "unsqueeze":
            t, a = t.unsqueeze(op[1]), np.expand_dims(a, op[1])
        else:
            raise ValueError(op)
    return t, a


def build_view(recipe, domain="any"):
    """(tensor, its values as NumPy computes with them); checks that the view holds what NumPy's does."""
    _, dtype, shape, seed, ops = recipe
    base = make(random_values(dtype, shape, np.random.default_rng(seed), domain), dtype)
    t, a = apply_view_ops(base, to_numpy(base), ops)
    assert tuple(t.shape) == a.shape, f"the view {ops} has shape {tuple(t.shape)}, NumPy's {a.shape}"
    got = to_numpy(t)
    assert np.array_equal(got, a, equal_nan=True), f"the view {ops} holds {got.tolist()}, NumPy's {a.tolist()}"
    return t, np.array(a)
