"""Pointwise kernels: functors.h (shared by both backends) and one unit per dtype per backend."""
from __future__ import annotations

from typing import Dict, List

from codegen.api import expr
from codegen.dest.common import CPP_TYPE, render
from codegen.model import DTYPES, Declaration, Pointwise

BACKEND_UNIT = {"cpu": "kernels/cpu_{dtype}.cpp", "cuda": "kernels/cuda_{dtype}.cu"}


def outputs() -> List[str]:
    return ["kernels/functors.h"] + [BACKEND_UNIT[b].format(dtype=t) for b in BACKEND_UNIT for t in DTYPES]


def _functor(d: Declaration) -> Dict[str, object]:
    impl = d.impl
    assert isinstance(impl, Pointwise)
    return dict(
        name=f"{d.name}_op",
        decl=d,
        expr=impl.expr,
        cpp=expr.to_cpp(impl.expr),
        operands=impl.operands,
        constants=impl.constants,
        result="bool" if impl.output == "bool" else "T",
    )


def emit(decls: List[Declaration]) -> Dict[str, str]:
    pointwise = [d for d in decls if isinstance(d.impl, Pointwise)]
    files = {"kernels/functors.h": render("functors.h.j2", functors=[_functor(d) for d in pointwise])}
    for backend, pattern in BACKEND_UNIT.items():
        for t in DTYPES:
            names = [f"{d.name}_op" for d in pointwise if t in d.dtypes[backend]]
            files[pattern.format(dtype=t)] = render(
                f"kernels_{backend}.j2", dtype=t, cpp_type=CPP_TYPE[t], functors=names)
    return files
