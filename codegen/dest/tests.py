"""Differential tests against NumPy, one table row per pointwise op that names a `numpy:` reference."""
from __future__ import annotations

from typing import Dict, List

from codegen.dest.common import render
from codegen.model import Declaration, Pointwise


def emit(decls: List[Declaration]) -> Dict[str, str]:
    rows = []
    for d in decls:
        impl = d.impl
        if not isinstance(impl, Pointwise) or d.numpy is None:
            continue
        first = d.signatures[0]
        constants = {c: first.param(c).default for c in impl.constants}  # type: ignore[union-attr]
        rows.append(dict(
            name=d.name,
            operands=impl.operands,
            constants=constants,
            args=", ".join(impl.operands + impl.constants),
            dtypes=d.dtypes["cpu"],
            promote=impl.promote,
            output=impl.output,
            domain=d.domain,
            method="method" in d.variants,
            function="function" in d.variants,
            inplace=d.inplace,
            out=d.out,
            reference=d.numpy,
            # Whether the last operand may be a Python number (a Scalar overload).
            scalar_operand=any(sig.param(impl.operands[-1]).type.base == "Scalar"  # type: ignore[union-attr]
                               for sig in d.signatures) if impl.operands else False,
        ))
    return {"tests/test_generated_ops.py": render("test_generated_ops.py.j2", rows=rows)}
