"""tests/codegen/test_vector_path.py: the generated functors of every op with a bool result take the CPU
loops' vector path (loops::Vectorises in wick/cpu/loops.h) for every dtype they support.

Values alone cannot tell the vector path from operator()'s plain loop: an expression that quietly
stops substituting on vectors (Note [Vectorised functors] in wick/cpu/vec.h) only gets slower. So a
translation unit of static_asserts over the functors generated from declarations/ pins it: comparisons
and logical ops of every dtype, integers and bools included (Note [Integer vectors]), and, as the
counterpart, integer arithmetic left to operator().
"""
from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

from codegen import reader
from codegen.model import Backend, Output, Pointwise
from codegen.schema import DType

REPO = Path(__file__).resolve().parents[2]
CPP_TYPES = {"bool": "bool", "uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t",
             "int64": "int64_t", "float16": "Half", "bfloat16": "BFloat16", "float32": "float", "float64": "double"}


def _expected_on_vectors(dtype: str) -> List[str]:
    """The functors with a bool result that must vectorise for `dtype`: all of them for the floating
    dtypes; for integers and bools those that call no function (math.h's isnan and kin take scalars)."""
    decls = reader.load([str(p) for p in sorted((REPO / "declarations").glob("*.yaml"))])
    names = []
    for d in decls:
        if not d.owns_kernels or not isinstance(d.impl, Pointwise) or d.impl.output != Output.bool \
                or DType(dtype) not in d.impl.dtypes[Backend.cpu]:
            continue
        calls = any(isinstance(n, ast.Call) for n in ast.walk(ast.parse(d.impl.expr, mode="eval")))
        if dtype in ("float16", "bfloat16", "float32", "float64") or not calls:
            names.append(f"{d.name}_op")
    return names


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("dtype", sorted(CPP_TYPES))
def test_bool_results_take_the_vector_path(run_codegen, tmp_path: Path, dtype: str) -> None:
    out = tmp_path / "generated"
    run = run_codegen("--declarations", str(REPO / "declarations"), "--out", str(out))
    assert run.rc == 0, run.err
    names = _expected_on_vectors(dtype)
    assert {"eq_op", "lt_op", "logical_and_op", "logical_not_op"} <= set(names)
    t = CPP_TYPES[dtype]
    lines = [f'#include "{h.relative_to(out)}"' for h in sorted(out.glob(f"kernels/shard*/functors_{dtype}.h"))]
    lines += ['#include "wick/cpu/loops.h"', "using namespace wick;"]
    lines += [f'static_assert(loops::Vectorises<kernels::{n}<{t}>>::value, "{n} on {dtype}");' for n in names]
    if dtype == "int32":
        lines.append('static_assert(!loops::Vectorises<kernels::add_op<int32_t>>::value, "int arithmetic");')
    unit = tmp_path / "vector_path.cpp"
    unit.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # As core/CMakeLists.txt compiles the units of the default CPU level (Note [CPU levels]).
    level = ["-DWICK_CPU_DISPATCH=1", "-DWICK_CPU_LEVEL=cpu_default"]
    compile_run = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", *level, f"-I{REPO / 'core' / 'include'}",
                                  f"-I{out / 'include'}", f"-I{out}", str(unit)], capture_output=True, text=True)
    assert compile_run.returncode == 0, compile_run.stderr
