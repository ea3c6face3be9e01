"""tests/codegen/test_bad_declarations.py: each bad/*.yaml stops the generator with one located message.

Each bad/*.yaml starts with `# expect: <line>:<col>: <substring of the message>`.
Run alone, it must make the generator exit with 1 after printing exactly one line,
`<file>:<line>:<col>: <message>`, that contains the substring: no traceback, and
no file written. Inputs too big or too strange to commit (100,000 nested brackets,
a directory or a FIFO named x.yaml) are made by test_hostile_inputs.py.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import List, Tuple

import pytest

BAD = Path(__file__).parent / "bad"
CASES = sorted(BAD.glob("*.yaml"))
_EXPECT = re.compile(r"# expect: (?P<line>\d+):(?P<col>\d+): (?P<text>.+)")


def _expectation(case: Path) -> Tuple[int, int, str]:
    # The first line is ASCII even where the rest of the file is deliberately not UTF-8.
    first = case.read_bytes().split(b"\n", 1)[0].decode("ascii").rstrip()
    m = _EXPECT.fullmatch(first)
    assert m, f"{case.name}: the first line must be '# expect: <line>:<col>: <message substring>'"
    return int(m["line"]), int(m["col"]), m["text"]


def _files(root: Path) -> List[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_corpus_covers_enough_mistakes() -> None:
    """The corpus holds at least 12 files, each with a well-formed expectation."""
    assert len(CASES) >= 12
    for case in CASES:
        _expectation(case)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_bad_declaration_is_reported_at_its_place(case: Path, tmp_path: Path, run_codegen) -> None:
    """The generator exits with 1 and one `file:line:col: message` line, writing nothing."""
    line, col, text = _expectation(case)
    decl_dir = tmp_path / "declarations"
    decl_dir.mkdir()
    shutil.copyfile(case, decl_dir / case.name)
    out_dir = tmp_path / "out"

    try:
        run = run_codegen("--declarations", str(decl_dir), "--out", str(out_dir))
    except Exception as e:  # noqa: BLE001 - whatever escapes main() reaches the user as a traceback
        pytest.fail(f"{case.name}: the generator crashed with {type(e).__name__}: {e} "
                    "instead of reporting a DeclarationError", pytrace=False)

    message = run.err.rstrip("\n")
    assert run.rc == 1, f"{case.name}: exit code {run.rc} (the declaration was accepted?); stderr: {run.err!r}"
    assert "\n" not in message and "Traceback" not in message, f"not one line:\n{run.err}"
    where = f"{decl_dir / case.name}:{line}:{col}: "
    assert message.startswith(where), f"expected the message at {line}:{col}, got: {message}"
    assert text in message, f"expected {text!r} in: {message}"
    assert run.out == ""
    assert _files(out_dir) == [], "a bad declaration must not write any output"


def test_op_declared_in_two_files_names_both(write_declarations, tmp_path: Path, run_codegen) -> None:
    """An op declared in two files is reported at the second, naming where the first is."""
    entry = ("- name: foo\n  signatures:\n    - (Tensor self) -> Tensor\n"
             "  variants: [function]\n  cpp: foo\n  differentiable: false\n  doc: {doc}\n")
    decl_dir = write_declarations(a=entry.format(doc="The first."), b="# b\n" + entry.format(doc="The second."))
    run = run_codegen("--declarations", str(decl_dir), "--out", str(tmp_path / "out"))
    assert run.rc == 1
    assert run.err.rstrip("\n") == (f"{decl_dir / 'b.yaml'}:2:3: in 'foo': 'foo' is declared twice "
                                    f"(first at {decl_dir / 'a.yaml'}:1:3)")
    assert _files(tmp_path / "out") == []
