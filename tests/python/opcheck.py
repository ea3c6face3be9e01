"""The checks behind generated/tests/test_generated_ops.py: one pointwise op against NumPy.

Each case is a table row the generator writes from a declaration; `check_pointwise`
runs it in one layout: contiguous, broadcast, non-contiguous, 0-d, empty, one
element, a Scalar operand, in place (also on a view), out=, or an unsupported dtype.
"""
import zlib
from dataclasses import dataclass
from typing import Callable, Dict, Tuple

import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, NUMPY_DTYPE, assert_close, make, random_values, to_numpy, wdtype


@dataclass(frozen=True)
class PointwiseCase:
    name: str
    operands: Tuple[str, ...]
    constants: Dict[str, object]
    dtypes: Tuple[str, ...]
    promote: str
    output: str
    domain: str
    method: bool
    function: bool
    inplace: bool
    out: bool
    scalar_operand: bool  # the last operand may be a Python number
    reference: Callable


def compute_dtype(case, dtype):
    if case.promote == "int_to_float" and dtype not in FLOATS:
        return "float32"
    return dtype


def result_dtype(case, dtype):
    return "bool" if case.output == "bool" else compute_dtype(case, dtype)


def pointwise_params(cases):
    params = []
    for case in cases:
        for dtype in DTYPES:
            if compute_dtype(case, dtype) not in case.dtypes:
                layouts = ["unsupported"]
            else:
                layouts = ["contiguous", "noncontiguous", "zero_dim", "empty", "one"]
                if len(case.operands) > 1:
                    layouts.append("broadcast")
                    if case.scalar_operand and dtype != "bool":  # a Python int promotes bool
                        layouts.append("scalar_operand")
                if case.method:
                    layouts.append("method")
                if case.inplace:
                    layouts += ["inplace", "inplace_view"]
                if case.out:
                    layouts.append("out")
            params += [pytest.param(case, dtype, layout, id=f"{case.name}-{dtype}-{layout}") for layout in layouts]
    return params


def _constants(case, dtype):
    """Non-default constants where the dtype allows, so that they are known to reach the kernel."""
    out = {}
    for name, default in case.constants.items():
        out[name] = default if dtype == "bool" or isinstance(default, bool) else default + 1
    return out


def _reference(case, dtype, arrays, constants):
    """NumPy's answer, computed from `arrays`: the exact values the wick inputs hold."""
    compute = compute_dtype(case, dtype)
    ref_dtype = np.float32 if compute in ("float16", "bfloat16") else NUMPY_DTYPE[compute]
    inputs = [np.asarray(a).astype(ref_dtype) for a in arrays]
    with np.errstate(all="ignore"):
        ref = case.reference(*inputs, **constants)
    return np.asarray(ref)


def _shapes(case, layout):
    n = len(case.operands)
    return {
        "contiguous": [(3, 4)] * n,
        "method": [(3, 4)] * n,
        "out": [(3, 4)] * n,
        "inplace": [(3, 4)] * n,
        "zero_dim": [()] * n,
        "empty": [(0, 3)] * n,
        "one": [(1,)] * n,
        "broadcast": [(3, 1), (4,), (1, 4), (4,), (3, 1)][:n],
        "scalar_operand": [(3, 4)] * n,
    }[layout]


def check_pointwise(case, dtype, layout):
    rng = np.random.default_rng(zlib.crc32(f"{case.name}-{dtype}-{layout}".encode()))
    fn = getattr(wick, case.name)
    constants = _constants(case, dtype)
    if layout == "unsupported":
        x = make(random_values(dtype, (2,), rng), dtype)
        others = [make(random_values(dtype, (2,), rng), dtype) for _ in case.operands[1:]]
        with pytest.raises(TypeError, match=case.name):
            fn(x, *others, **constants)
        return
    expected_dtype = result_dtype(case, dtype)

    if layout == "noncontiguous":
        # A transposed operand and a sliced-with-step operand, alternately.
        tensors = [make(random_values(dtype, (4, 3), rng, case.domain), dtype).t() if i % 2 == 0
                   else make(random_values(dtype, (3, 8), rng, case.domain), dtype)[:, ::2]
                   for i in range(len(case.operands))]
        assert not tensors[0].is_contiguous()
    elif layout == "inplace_view":
        base = make(random_values(dtype, (3, 8), rng, case.domain), dtype)
        base_values = to_numpy(base)
        view = base[:, 1::2]
        others = [make(random_values(dtype, (3, 4), rng, case.domain), dtype) for _ in case.operands[1:]]
        ref = _reference(case, dtype, [base_values[:, 1::2]] + [to_numpy(o) for o in others], constants)
        if expected_dtype != dtype:
            with pytest.raises(RuntimeError, match="can't be cast"):
                getattr(view, case.name + "_")(*others, **constants)
            return
        result = getattr(view, case.name + "_")(*others, **constants)
        assert result is view
        assert_close(base[:, 1::2], ref, dtype)
        assert_close(base[:, 0::2], base_values[:, 0::2], dtype)  # untouched
        return
    else:
        tensors = [make(random_values(dtype, s, rng, case.domain), dtype) for s in _shapes(case, layout)]
    arrays = [to_numpy(t) for t in tensors]

    if layout == "scalar_operand":
        # The last operand as a Python number: a wrapped number, which keeps the tensor's dtype.
        number = 2 if dtype not in FLOATS else 1.5
        args = tensors[:-1] + [number]
        ref = _reference(case, dtype, arrays[:-1] + [np.full(arrays[-1].shape, number)], constants)
    else:
        args = tensors
        ref = _reference(case, dtype, arrays, constants)

    if layout == "method":
        result = getattr(args[0], case.name)(*args[1:], **constants)
    elif layout == "out":
        out = wick.empty(0, dtype=wdtype(expected_dtype))
        result = fn(*args, **constants, out=out)
        assert result is out
    elif layout == "inplace":
        x = args[0]
        if expected_dtype != dtype:
            with pytest.raises(RuntimeError, match="can't be cast"):
                getattr(x, case.name + "_")(*args[1:], **constants)
            return
        result = getattr(x, case.name + "_")(*args[1:], **constants)
        assert result is x
    else:
        result = fn(*args, **constants)

    assert result.dtype is wdtype(expected_dtype), f"{result.dtype} != {expected_dtype}"
    assert tuple(result.shape) == ref.shape
    assert_close(result, ref, expected_dtype)
