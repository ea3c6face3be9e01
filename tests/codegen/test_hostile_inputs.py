"""tests/codegen/test_hostile_inputs.py: inputs too big, too deep or too strange to commit to bad/.

Each must stop the generator with one located line, as the bad/ corpus does
(Note [Hostile YAML] in codegen/yaml_loader.py): never a signal, a traceback, a
hang or an output that does not mean what the file reads as.
"""
from __future__ import annotations

import math
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Tuple

import pytest

from codegen import reader, yaml_loader
from codegen.expressions import MAX_LENGTH

REPO = Path(__file__).resolve().parents[2]
OP = """- name: foo
  signatures:
    - (Tensor self) -> Tensor
  variants: [method]
  {impl}
  differentiable: false
  doc: {doc}
"""


def _only_error(rc: int, err: str, path: Path, where: str, text: str) -> None:
    """The generator stopped with exit code 1 and the single line `<path>:<where>: ...<text>...`."""
    message = err.rstrip("\n")
    assert rc == 1, f"exit code {rc}; stderr: {err[-2000:]!r}"
    assert "\n" not in message and "Traceback" not in message, message[-2000:]
    assert message.startswith(f"{path}:{where}: "), message[:500]
    assert text in message, message[:500]
    assert len(message) < 500, f"a message of {len(message)} characters"


def _generate(run_codegen, decl_dir: Path) -> Tuple[int, str]:
    """(exit code, stderr) of the generator run on `decl_dir`, writing beside it."""
    run = run_codegen("--declarations", str(decl_dir), "--out", str(decl_dir.parent / "out"))
    return run.rc, run.err


def _write(tmp_path: Path, text: str) -> Path:
    decl_dir = tmp_path / "declarations"
    decl_dir.mkdir(exist_ok=True)
    (decl_dir / "ops.yaml").write_text(text, encoding="utf-8")
    return decl_dir


# The C composer of PyYAML recursed once per level, and 100,000 levels overflowed the C stack:
# these run in a child process, so that a regression shows as a signal rather than ending the suite.
@pytest.mark.parametrize("text, where", [
    ("[" * 100_000, "1:17"),
    ("{a: " * 100_000, "1:62"),
    ("- " * 100_000 + "x\n", "1:33"),
    ("".join("  " * i + "-\n" for i in range(700)), "17:33"),
], ids=["flow_sequences", "flow_mappings", "block_sequences_on_one_line", "block_sequences_indented"])
def test_deep_nesting_is_refused_before_anything_recurses(tmp_path: Path, text: str, where: str) -> None:
    """However YAML nests thousands of levels, the generator names the place where level 17 begins."""
    decl_dir = _write(tmp_path, text)
    proc = subprocess.run([sys.executable, "-m", "codegen", "--declarations", str(decl_dir), "--out",
                           str(tmp_path / "out")], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}"
    _only_error(proc.returncode, proc.stderr, decl_dir / "ops.yaml", where,
                f"values nested deeper than {yaml_loader.MAX_DEPTH} levels")


def test_an_alias_bomb_is_refused_before_it_expands(tmp_path: Path, run_codegen) -> None:
    """Nine levels of nine aliases stand for 9**9 values; the loader stops counting at MAX_VALUES."""
    lines = ["- name: foo", "  doc: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"  k{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    decl_dir = _write(tmp_path, "\n".join(lines) + "\n")
    _only_error(*_generate(run_codegen, decl_dir),  decl_dir / "ops.yaml", "7:12", f"more than {yaml_loader.MAX_VALUES} values in one file")


@pytest.mark.parametrize("expr", ["-" * 5_000 + "self", "self" + " + self" * 5_000, "(" * 5_000 + "self" + ")" * 5_000],
                         ids=["unary", "binary", "parentheses"])
def test_a_5000_deep_expression_is_refused_by_its_length(tmp_path: Path, run_codegen, expr: str) -> None:
    """Python's parser recurses per level, so the length is checked before it runs."""
    decl_dir = _write(tmp_path, OP.format(impl=f"pointwise: '{expr}'\n  dtypes: all", doc="Deep."))
    _only_error(*_generate(run_codegen, decl_dir),  decl_dir / "ops.yaml", "5:14", f"an expression is at most {MAX_LENGTH} characters")


@pytest.mark.parametrize("expr", ["-" * 5_000 + "x", "x" + " + x" * 5_000, "(" * 5_000 + "x" + ")" * 5_000],
                         ids=["unary", "binary", "parentheses"])
def test_a_5000_deep_example_is_refused_by_its_length(tmp_path: Path, run_codegen, expr: str) -> None:
    """An example is compiled to check it is Python, so its length is checked before the parser runs."""
    examples = f"\n  examples:\n    - '>>> wick.foo({expr})'"
    decl_dir = _write(tmp_path, OP.format(impl="cpp: foo", doc="Deep.") + examples + "\n")
    _only_error(*_generate(run_codegen, decl_dir), decl_dir / "ops.yaml", "10:7", f"more than {MAX_LENGTH}")


def test_an_integer_of_5000_digits_is_out_of_range(tmp_path: Path, run_codegen) -> None:
    """Python converts at most 4,300 digits to an int; the loader never tries."""
    decl_dir = _write(tmp_path, OP.format(impl="cpp: foo", doc="An integer.") + "  dtypes: " + "9" * 5_000 + "\n")
    _only_error(*_generate(run_codegen, decl_dir),  decl_dir / "ops.yaml", "8:11", "is out of the int64 range")


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path, run_codegen) -> None:
    decl_dir = _write(tmp_path, "#" * yaml_loader.MAX_FILE_BYTES + "\n")
    _only_error(*_generate(run_codegen, decl_dir),  decl_dir / "ops.yaml", "1:1", "a declaration file is at most 1 MiB")


def _not_a_file(kind: str, path: Path) -> None:
    """Makes `path` a `kind` of thing that is not a readable regular file."""
    if kind == "directory":
        path.mkdir()
    elif kind == "symlink_loop":
        path.symlink_to(path.name)
    elif kind == "dangling_symlink":
        path.symlink_to("missing.yaml")
    elif kind == "fifo":  # opening it for reading would wait for a writer
        os.mkfifo(path)
    elif kind == "socket":
        socket.socket(socket.AF_UNIX).bind(str(path))


@pytest.mark.parametrize("kind, text", [
    ("directory", "cannot read declarations: Is a directory"),
    ("symlink_loop", "cannot read declarations: Too many levels of symbolic links"),
    ("dangling_symlink", "cannot read declarations: No such file or directory"),
    ("fifo", "cannot read declarations: not a regular file"),
    ("socket", "cannot read declarations: No such device or address"),
])
def test_what_is_not_a_readable_file_is_named(tmp_path: Path, run_codegen, kind: str, text: str) -> None:
    decl_dir = tmp_path / "declarations"
    decl_dir.mkdir()
    _not_a_file(kind, decl_dir / "x.yaml")
    _only_error(*_generate(run_codegen, decl_dir),  decl_dir / "x.yaml", "1:1", text)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_is_named(tmp_path: Path, run_codegen) -> None:
    decl_dir = _write(tmp_path, OP.format(impl="cpp: foo", doc="Unreadable."))
    (decl_dir / "ops.yaml").chmod(0)
    _only_error(*_generate(run_codegen, decl_dir),  decl_dir / "ops.yaml", "1:1", "cannot read declarations: Permission denied")


def test_a_declarations_directory_named_like_a_pattern_is_read(tmp_path: Path, run_codegen) -> None:
    """glob reads `[x]` as a pattern; the generator reads it as a name."""
    decl_dir = tmp_path / "[x]"
    decl_dir.mkdir()
    (decl_dir / "ops.yaml").write_text(OP.format(impl="cpp: foo", doc="Found."), encoding="utf-8")
    run = run_codegen("--declarations", str(decl_dir), "--out", str(tmp_path / "out"))
    assert run.rc == 0, run.err


def test_an_output_that_cannot_be_written_is_named(tmp_path: Path, run_codegen) -> None:
    decl_dir = _write(tmp_path, OP.format(impl="cpp: foo", doc="Fine."))
    (tmp_path / "out").write_text("a file where the output directory should be", encoding="utf-8")
    run = run_codegen("--declarations", str(decl_dir), "--out", str(tmp_path / "out"))
    assert run.rc == 2
    assert run.err.startswith("codegen: cannot write the outputs: ") and str(tmp_path / "out") in run.err
    assert "\n" not in run.err.rstrip("\n")


def test_nonfinite_samples_are_read_as_floats(tmp_path: Path) -> None:
    """`.nan` and `.inf` are meaningful samples: the test plan holds them as the floats they are."""
    entries = "".join(f"\n    - {{p: {value}}}" for value in (".nan", ".inf", "-.inf"))
    decl_dir = _write(tmp_path, """- name: norm
  signatures:
    - (Tensor self, Scalar p=2) -> Tensor
  variants: [method]
  cpp: norm
  differentiable: false
  doc: A norm.
  numpy: np.linalg.norm(self.ravel(), p)
  dtypes: [float32]
  samples:""" + entries + "\n")
    (decl,) = reader.load([str(decl_dir / "ops.yaml")])
    assert decl.tests is not None
    values = [dict(s.args)["p"] for s in decl.tests.samples]
    assert math.isnan(values[0]) and values[1:] == [math.inf, -math.inf]
