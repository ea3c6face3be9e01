"""The generated C++ of the golden declarations compiles: the CPU kernel units (the model only
accepts expressions that mean something in C++ for every dtype they list), and the copy tables,
ops units and bindings units, whose static_asserts tie the generator's tables and limits to the
runtime's."""
from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
UNITS = sorted((HERE / "golden" / "expected" / "kernels").glob("*/cpu_*.cpp"))
# As core/CMakeLists.txt compiles core's units, and those of a CPU level (Note [CPU levels]).
CORE = ["-DWICK_CPU_DISPATCH=1"]
LEVEL = [*CORE, "-DWICK_CPU_LEVEL=cpu_default"]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("unit", UNITS, ids=[f"{u.parent.name}/{u.stem}" for u in UNITS])
def test_cpu_kernel_unit_compiles(unit: Path) -> None:
    run = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", *LEVEL,
                          f"-I{ROOT / 'core' / 'include'}", str(unit)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


GOLDEN = HERE / "golden" / "expected"
GLUE = [GOLDEN / "core" / "copy_kernels.cpp", *sorted(GOLDEN.glob("core/ops_shard*.cpp")),
        *sorted(GOLDEN.glob("python/bindings_shard*.cpp"))]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("unit", GLUE, ids=[f"{u.parent.name}/{u.stem}" for u in GLUE])
def test_tables_ops_and_bindings_units_compile(unit: Path) -> None:
    """Their static_asserts hold: the generator's DTYPES are in the order of wick::DType, and the
    limits it checks (MAX_OPERANDS, MAX_PARAMS, MAX_OVERLOADS) are those of core and of the
    argument parser."""
    run = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", *CORE,
                          f"-I{ROOT / 'core' / 'include'}", f"-I{GOLDEN / 'include'}", f"-I{GOLDEN / 'python'}",
                          f"-I{ROOT / 'python_ext'}",
                          f"-I{sysconfig.get_paths()['include']}", str(unit)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
