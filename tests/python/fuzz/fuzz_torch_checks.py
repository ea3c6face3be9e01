"""tests/python/fuzz/fuzz_torch_checks.py: calls of view and shape ops judged against PyTorch, in the child.

Run by test_fuzz_shapes.py through fuzz_child.py. PyTorch is the reference; where its own
arithmetic overflows at the edges of int64 (tril(t, 2**63 - 1), chunk(t, 2**63 - 1)), the
op's NumPy reference from its declaration has the last word.
"""
import math
import re
import warnings

import numpy as np

import wick
from reference import to_numpy


def warm_up():
    """Imports PyTorch and builds the table of references once in the zygote (fuzz_child.Child)."""
    import torch  # noqa: F401
    from fuzz_strategies import reference_cases
    reference_cases()


def _outcome(lib, recipe):
    """What a call gives with `lib` (wick or torch): ("raised", type) or ("returned", [results])."""
    from fuzz_child import EXPECTED
    from fuzz_recipes import build, target
    spec, args, kwargs = recipe
    try:
        fn = target(spec, lib)
        result = fn(*[build(a, lib=lib) for a in args], **{k: build(v, lib=lib) for k, v in kwargs})
    except EXPECTED as e:
        return "raised", e
    return "returned", list(result) if isinstance(result, (tuple, list)) else [result]


def _summary(value):
    """(shape, values) of a tensor, the values only where there are few; a number as itself."""
    if not hasattr(value, "shape"):
        return value
    shape = tuple(value.shape)
    n = math.prod(shape)
    values = np.array(value.float().tolist() if "bfloat16" in str(value.dtype) else value.tolist()) \
        if n <= 4096 and max(shape, default=0) <= 4096 else None  # (2**62, 0) has 2**62 rows
    return shape, str(value.dtype).split(".")[-1], values


def _ints(recipe):
    if isinstance(recipe, tuple) and len(recipe) == 2 and recipe[0] == "lit" and isinstance(recipe[1], int):
        return {recipe[1]}
    return set().union(*(_ints(r) for r in recipe)) if isinstance(recipe, tuple) else set()


def _has_empty(recipe):
    if isinstance(recipe, tuple) and recipe and recipe[0] == "tensor":
        return math.prod(recipe[2]) == 0
    return isinstance(recipe, tuple) and any(_has_empty(r) for r in recipe)


def _equal(a, b):
    return np.array_equal(a, b, equal_nan=a.dtype.kind == "f" and b.dtype.kind == "f")


def _same(g, w):
    g, w = _summary(g), _summary(w)
    if not isinstance(w, tuple):
        return g == w
    return g[:2] == w[:2] and (g[2] is None) == (w[2] is None) and (w[2] is None or _equal(g[2], w[2]))


def _sampled(case, name):
    return [dict(s.args)[name] for s in case.samples if name in s.args]


def _numpy_agrees(recipe, got):
    """Whether the op's NumPy reference (from its declaration) gives what wick gave, None where it has
    no opinion: the second opinion where PyTorch's own arithmetic overflows (tril(t, 2**63 - 1))."""
    from fuzz_recipes import build
    from fuzz_strategies import reference_cases
    spec, args, kwargs = recipe
    case = reference_cases().get(spec[1]) or reference_cases().get(spec[1].rstrip("_"))
    if case is None:
        return None
    given = ([spec[2]] if spec[0] == "method" else []) + list(args)
    kwargs = [(k, v) for k, v in kwargs if not (k == "out" and v == ("lit", None))]
    sig = next((sig for sig in case.signatures if len(sig) >= len(given)
                and {k for k, _ in kwargs} <= {p.name for p in sig}), None)
    if sig is None:
        return None

    def to_reference(value, p):
        if isinstance(value, int) and any(isinstance(v, tuple) for v in _sampled(case, p)):
            return (value,)  # an int given for an int[]
        if isinstance(value, wick.Tensor):
            return to_numpy(value)
        if isinstance(value, (list, tuple)) and any(isinstance(v, wick.Tensor) for v in value):
            return [to_reference(v, None) for v in value]
        return tuple(value) if isinstance(value, list) else value

    named = {p.name: to_reference(build(v), p.name) for p, v in zip(sig, given)}
    named.update({k: to_reference(build(v), k) for k, v in kwargs})
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = case.reference(**named)
    except OverflowError:
        return None  # NumPy's C ints are narrower than int64 (np.diag(a, 2**62)): no opinion
    except (ValueError, IndexError, TypeError, RuntimeError, MemoryError):
        return got[0] == "raised"
    if got[0] == "raised":
        return False
    refs = list(ref) if isinstance(ref, (list, tuple)) else [ref]
    return len(refs) == len(got[1]) and all(
        tuple(g.shape) == np.shape(r) and (math.prod(g.shape) > 4096 or _equal(to_numpy(g), np.asarray(r)))
        for g, r in zip(got[1], refs))


def check_against_torch(recipe):
    """A call of a view or shape op, with ints at the edges of int64, gives what PyTorch gives: a
    result of the same shape, dtype and values, or an error where PyTorch raises one."""
    import gc

    import torch
    gc.freeze()
    want = _outcome(torch, recipe)
    got = _outcome(wick, recipe)
    try:
        [_summary(r) for r in want[1]] if want[0] == "returned" else None
    except RuntimeError:
        return "PyTorch gave a tensor it cannot read"  # strides it computed wrapped (view(0, 2**63 - 2, 2**62))
    for outcome in (want, got):
        if outcome[0] == "raised" and isinstance(outcome[1], MemoryError):
            return "no memory"  # the answer exists, but not on this machine
    if want[0] == "raised":
        # PyTorch's parser takes no single int for an int[] and its CPU kernels skip some dtypes:
        # these say nothing of the values passed. A negative number in its message that is none of
        # the arguments is one PyTorch's own arithmetic wrapped to (chunk(t, 2**63 - 1)).
        if isinstance(want[1], TypeError) or "not implemented for" in str(want[1]):
            return "PyTorch refused the types"
        if any(int(n) not in _ints(recipe) for n in re.findall(r"-\d+", str(want[1]))):
            return "PyTorch overflowed"
        agrees = _numpy_agrees(recipe, got) if got[0] == "returned" else False
        if agrees:
            return "NumPy agrees with wick"
        if agrees is None and "overflow" in str(want[1]):
            return "PyTorch overflowed, NumPy has no opinion"
        assert got[0] == "raised", f"PyTorch raised {type(want[1]).__name__}({want[1]}); wick gave " \
                                   f"{[_summary(r)[:2] if hasattr(r, 'shape') else r for r in got[1]]}"
        return "both raised"
    if got[0] == "raised":
        if _has_empty(recipe):
            return "wick refused an empty tensor"  # PyTorch skips some checks for those (tril of 1-d, roll's dims)
        if "single memory location" in str(got[1]):
            return "wick refused to write an expanded tensor"  # as PyTorch does, in all but a few ops
        if any(s < 0 for r in want[1] if hasattr(r, "shape") for s in r.shape):
            return "PyTorch gave a negative size"
    if got[0] == "raised" and _numpy_agrees(recipe, got):
        return "NumPy agrees with wick"
    assert got[0] == "returned", f"wick raised {type(got[1]).__name__}({got[1]}); PyTorch gave " \
                                 f"{[_summary(r)[:2] if hasattr(r, 'shape') else r for r in want[1]]}"
    assert len(got[1]) == len(want[1]), f"{len(got[1])} results, PyTorch {len(want[1])}"
    if not all(_same(g, w) for g, w in zip(got[1], want[1])) and _numpy_agrees(recipe, got):
        return "NumPy agrees with wick"
    for g, w in zip(got[1], want[1]):
        g, w = _summary(g), _summary(w)
        if isinstance(w, tuple):
            assert g[:2] == w[:2], f"shape and dtype {g[:2]}, PyTorch's {w[:2]}"
            assert (g[2] is None) == (w[2] is None) and (w[2] is None or _equal(g[2], w[2])), \
                f"{g[2]} != PyTorch's {w[2]}"
        else:
            assert g == w, f"{g!r} != PyTorch's {w!r}"
    return "both returned"
