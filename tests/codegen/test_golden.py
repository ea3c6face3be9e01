"""tests/codegen/test_golden.py: the output for golden/declarations is byte for byte golden/expected.

After an intended change to the generator or its templates, regenerate with

    WICK_UPDATE_GOLDEN=1 PYTHONPATH=. python3 -m pytest -q tests/codegen/test_golden.py

and review the diff of tests/codegen/golden/expected before committing it.
"""
from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path
from typing import List

import pytest

from codegen import reader
from codegen.model import Cpp, PythonGlue, Variant
from codegen.schema import BaseTy, base_of

GOLDEN = Path(__file__).parent / "golden"
DECLARATIONS = GOLDEN / "declarations"
EXPECTED = GOLDEN / "expected"
UPDATE = os.environ.get("WICK_UPDATE_GOLDEN") == "1"
# A layout made small for the golden files: one shard, and kernel units for an integer and a 16-bit float
# dtype alone (Note [Shards]), so that a change of the generator shows in a few dozen files.
LAYOUT = ("--shards", "1", "--kernel-dtypes", "int64,float16")
HOW_TO_UPDATE = ("if the change is intended, regenerate with WICK_UPDATE_GOLDEN=1 "
                 "(see tests/codegen/test_golden.py) and review the diff")


def _files(root: Path) -> List[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _diff(relpath: str, expected: bytes, actual: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode("utf-8").splitlines(keepends=True),
        actual.decode("utf-8").splitlines(keepends=True),
        fromfile=f"expected/{relpath}", tofile=f"generated/{relpath}")
    return "".join(lines)


def _update(generated: Path) -> None:
    shutil.rmtree(EXPECTED, ignore_errors=True)
    shutil.copytree(generated, EXPECTED)


def test_golden_declarations_cover_every_kind_of_op() -> None:
    """The golden input has pointwise (with in-place, out, Scalar overloads), cpp, method-only and python ops,
    list and string parameters, list returns, an alias, a C++-only op,
    and a cpp op returning a tuple, with out=; NumPy references for ops returning a tensor, a tuple and
    a list, and taking a Tensor[], a Tensor?[] and a str; derivative formulas (one for all signatures, one
    of a Tensor[] input, one calling a helper on a tuple's result), inputs without a gradient, and ops
    without any (Note [Derivatives])."""
    decls = {d.name: d for d in reader.load(sorted(str(p) for p in DECLARATIONS.glob("*.yaml")))}
    api = {name: d.api for name, d in decls.items()}
    add = api["add"]
    assert add.inplace and add.out and {BaseTy.Tensor, BaseTy.Scalar} <= {base_of(s.params[1].type)
                                                                           for s in add.signatures}
    assert api["mm"].out and isinstance(decls["mm"].impl, Cpp)
    assert api["contiguous"].variants == {Variant.method} and isinstance(decls["contiguous"].impl, Cpp)
    assert isinstance(decls["tensor"].impl, PythonGlue)
    assert str(api["cat"].signatures[0].params[0].type) == "Tensor[]" and api["cat"].out
    assert decls["concat"].impl == decls["cat"].impl  # an alias: one C++ function
    assert {s.returns_text() for s in api["split"].signatures} == {"Tensor[]"}
    assert str(api["index_put_"].signatures[0].params[1].type) == "Tensor?[]"
    assert str(api["div"].signatures[0].params[2].type) == "str?"
    assert api["div_trunc"].variants == frozenset() and api["div_trunc"].inplace and api["div_trunc"].out
    assert api["sort"].out and [f.name for f in api["sort"].signatures[0].fields] == ["values", "indices"]
    assert all(decls[op].tests for op in ("mm", "sort", "split", "cat", "index_put_", "div"))
    formulas = {op: {f.input: f.expr for f in decls[op].derivatives.formulas[0]} for op in decls}
    assert formulas["add"] == {"self": "grad", "other": "grad * alpha"} and formulas["cat"].keys() == {"tensors"}
    assert "results[1]" in formulas["sort"]["self"]
    assert decls["index_put_"].derivatives.not_differentiable == {"indices", "values"}
    assert not decls["lt"].derivatives.differentiable and not decls["tensor"].derivatives.differentiable


def test_output_matches_golden_files(run_codegen, tmp_path: Path) -> None:
    """Every generated file equals its golden copy byte for byte, and no file is missing or extra."""
    out = tmp_path / "generated"
    run = run_codegen("--declarations", str(DECLARATIONS), "--out", str(out), *LAYOUT)
    assert run.rc == 0, run.err
    if UPDATE:
        _update(out)
        return

    generated, expected = _files(out), _files(EXPECTED)
    problems = []
    for relpath in sorted(set(expected) - set(generated)):
        problems.append(f"expected/{relpath} is no longer generated")
    for relpath in sorted(set(generated) - set(expected)):
        problems.append(f"generated/{relpath} has no golden copy")
    for relpath in sorted(set(generated) & set(expected)):
        want, got = (EXPECTED / relpath).read_bytes(), (out / relpath).read_bytes()
        if want != got:
            problems.append(_diff(relpath, want, got) or f"{relpath}: differs only in bytes a diff cannot show")
    if problems:
        pytest.fail("generated output differs from tests/codegen/golden/expected; " + HOW_TO_UPDATE
                    + ":\n\n" + "\n".join(problems), pytrace=False)
