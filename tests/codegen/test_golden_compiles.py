"""The generated CPU kernel units of the golden declarations compile: the model only
accepts expressions that mean something in C++ for every dtype they list."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
UNITS = sorted((HERE / "golden" / "expected" / "kernels").glob("*/cpu_*.cpp"))


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("unit", UNITS, ids=[f"{u.parent.name}/{u.stem}" for u in UNITS])
def test_cpu_kernel_unit_compiles(unit: Path) -> None:
    run = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", f"-I{ROOT / 'core' / 'include'}",
                          str(unit)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
