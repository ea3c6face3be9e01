"""tests/codegen/test_names.py: the tables of codegen/names.py hold what the sources and compilers define.

The generator refuses the names these tables hold; a table that misses one lets
a declaration through that the compiler then fails on, or that hides a name of
the package.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sysconfig
from pathlib import Path
from typing import Set

import pytest

from codegen import names

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = Path(__file__).parent / "golden" / "expected"
# A unit of each kind: the kernels, the ops and the bindings see every header the generated code includes.
UNITS = [EXPECTED / "kernels" / "shard0" / "cpu_float16.cpp", EXPECTED / "core" / "ops_shard0.cpp",
         EXPECTED / "python" / "bindings_shard0.cpp"]


def _macros(unit: Path) -> Set[str]:
    """The names the preprocessor defines when it compiles `unit` as the build does (gnu++17; the
    kernel units for a CPU level, Note [CPU levels])."""
    level = ["-DWICK_CPU_LEVEL=cpu_default"] if unit.parent.parent.name == "kernels" else []
    run = subprocess.run(["g++", "-std=gnu++17", "-dM", "-E", "-DWICK_CPU_DISPATCH=1", *level,
                          f"-I{ROOT / 'core' / 'include'}",
                          f"-I{EXPECTED / 'include'}", f"-I{EXPECTED / 'python'}", f"-I{ROOT / 'python_ext'}",
                          f"-I{sysconfig.get_paths()['include']}", str(unit)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return {m.group(1) for m in re.finditer(r"^#define (\w+)", run.stdout, re.M)}


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.parent.name + "/" + u.name)
def test_every_lowercase_macro_of_the_generated_units_is_refused(unit: Path) -> None:
    """A name the preprocessor would replace cannot become an op, a parameter or a C++ function.

    Those starting with '_' and a lowercase letter (x86 intrinsics such as _mm_add_ps) are left
    out: C++ leaves such names to the implementation, and declarations take one only for
    PyTorch's private ops (_unique2).
    """
    macros = {m for m in _macros(unit) if not re.match("_[a-z]", m)}
    assert sorted(m for m in macros if not names.cpp_problem(m)) == []


def test_every_namespace_inside_wick_is_refused() -> None:
    """A function wick::<name> cannot share its name with a namespace inside wick."""
    sources = [p for d in ("core", "python_ext") for p in (ROOT / d).rglob("*") if p.suffix in (".h", ".cpp", ".cuh", ".cu")]
    found = {m.group(1) for p in sources + list((ROOT / "codegen" / "templates").glob("*.j2"))
             for m in re.finditer(r"^\s*namespace (\w+) \{", p.read_text(encoding="utf-8"), re.M)}
    assert sorted(found - names.NAMESPACES - {"wick"}) == []


def test_the_package_names_are_read_from_its_sources() -> None:
    """wick's attributes (what __init__.py binds, its submodules, the modules it imports from wick) and
    wick.Tensor's, each with the file that defines it."""
    module, tensor = names.package_names()
    assert {"Tensor": "__init__.py", "_C": "__init__.py", "half": "__init__.py", "FloatTensor": "_legacy.py",
            "_names": "__init__.py", "cuda": "__init__.py", "return_types": "__init__.py"}.items() <= module.items()
    assert {"T": "_tensor.py", "numpy": "_tensor.py", "__repr__": "_tensor.py"}.items() <= tensor.items()
    assert "add" not in module and "add" not in tensor


@pytest.mark.parametrize("name, problem", [
    ("delete", "C++ keyword"), ("co_await", "C++ keyword"), ("errno", "macro"), ("linux", "macro"),
    ("INFINITY", "lowercase"), ("Tensor", "lowercase"), ("x__y", "double underscore"), ("size_t", "'_t'"),
    ("x" * 65, "at most 64"),
])
def test_cpp_names_are_refused_with_a_reason(name: str, problem: str) -> None:
    assert problem in (names.cpp_problem(name) or "")


def test_parameters_may_not_take_what_the_generated_code_names() -> None:
    assert "generated code uses" in (names.parameter_problem("a0", "foo") or "")
    assert "generated code of 'foo'" in (names.parameter_problem("foo_pointwise", "foo") or "")
    assert "Python keyword" in (names.parameter_problem("lambda", "foo") or "")
    assert names.parameter_problem("detail", "foo") is None, "a parameter does not hide a namespace in detail::"
    assert names.function_problem("detail") == "wick::detail is a namespace"
    assert names.function_problem("std") is None, "wick::std does not hide ::std"
