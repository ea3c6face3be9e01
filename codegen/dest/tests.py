"""Differential tests against NumPy: one table row per op that names a `numpy:` reference.

A row holds the op's signatures (each parameter with its role, codegen/testplan.py, and
what it returns), the calls to make (its samples), the dtypes it takes and its forms;
a pointwise row also says how its result dtype follows from its inputs.
tests/python/opcheck.py runs every row in every layout.
"""
from __future__ import annotations

import json
import math
from typing import Dict, List, Tuple

from codegen import testplan
from codegen.dest.common import render
from codegen.model import Declaration, Pointwise, Variant
from codegen.schema import BaseTy, Signature, base_of, is_list


def _signature(sig: Signature) -> List[str]:
    """The P(...) entries of a signature's parameters."""
    entries = []
    for p in sig.params:
        extra = "" if p.default is None else f", {p.default}"
        extra += ", kw=True" if p.kwarg_only else ""
        entries.append(f'P("{p.name}", "{testplan.role(p)}"{extra})')
    return entries


def _returns(sig: Signature) -> str:
    """What a signature returns, as the checker reads it: "Tensor", "Tensor[]" (a tuple of tensors)
    or the names of the fields of a named tuple."""
    if sig.is_tuple:
        return _literal(tuple(f.name for f in sig.fields))
    return _literal("Tensor[]" if is_list(sig.returns[0].type) else "Tensor")


def reference(d: Declaration) -> str:
    """A Python expression for the reference: a function of tests/python/numpy_ref.py, or a
    lambda that takes every parameter of every signature by name."""
    assert d.tests is not None
    function = d.tests.reference_function(d.api.signatures)
    if function:
        return f"numpy_ref.{function}"
    params = dict.fromkeys(p.name for s in d.api.signatures for p in s.params)
    return "lambda " + ", ".join(f"{p}=None" for p in params) + f": {d.tests.reference}"


def _row(d: Declaration) -> Dict[str, object]:
    impl, api, plan = d.impl, d.api, d.tests
    assert plan is not None
    row: Dict[str, object] = dict(
        name=d.name,
        dtypes=plan.dtypes,
        domain=plan.domain,
        method=api.has(Variant.method),
        function=api.has(Variant.function),
        inplace=api.inplace,
        out=api.out,
        mutates=api.mutates_self,
        reference=reference(d),
        pointwise=None,
    )
    sigs: Tuple[Signature, ...]
    tested: Tuple[testplan.Sample, ...]
    if isinstance(impl, Pointwise):
        first = api.signatures[0]
        # Pointwise operands all take one shape, and a second signature only turns the last into a Scalar.
        sigs, sample = (first,), testplan.derive(api.signatures, 0, d.loc)
        assert sample is not None, "a pointwise op has Tensor and Scalar parameters, which are derived"
        tested = (sample,)
        # A constant without default takes its derived value (fill_'s value).
        derived = dict(sample.args)
        defaults = {p.name: p.default for p in first.params}
        constants = {c: defaults[c] or derived[c] for c in impl.constants}
        row["pointwise"] = dict(
            promote=impl.promote,
            output=impl.output,
            constants=", ".join(f'"{k}": {v}' for k, v in constants.items()),
            # Whether the last operand may be a Python number (a Scalar overload).
            scalar_operand=any(_is_scalar(sig, impl.operands[-1]) for sig in api.signatures) if impl.operands else False,
            broadcasts=len(impl.operands) > 1,
        )
    else:
        sigs, tested = api.signatures, plan.samples
    row["signatures"] = [_signature(s) for s in sigs]
    row["returns"] = [_returns(s) for s in sigs]
    row["samples"] = [(s.signature, ", ".join(f'"{k}": {_literal(v)}' for k, v in s.args)) for s in tested]
    return row


def _is_scalar(sig: Signature, name: str) -> bool:
    p = sig.param(name)
    return p is not None and base_of(p.type) == BaseTy.Scalar


def _literal(value: object) -> str:
    """`value` as Python source, strings in double quotes; NaN and infinities (`.nan`, `.inf` in YAML) through math."""
    if isinstance(value, float) and not math.isfinite(value):
        return "math.nan" if math.isnan(value) else "math.inf" if value > 0 else "-math.inf"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple):
        items = [_literal(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return repr(value)


def emit(decls: List[Declaration]) -> Dict[str, str]:
    rows = [_row(d) for d in decls if d.tests is not None]
    return {"tests/test_generated_ops.py": render("test_generated_ops.py.j2", rows=rows)}
