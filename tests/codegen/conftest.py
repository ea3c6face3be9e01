"""tests/codegen/conftest.py: paths and a way to run the generator in-process for the codegen tests."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # so the suite also runs without PYTHONPATH=<repo>
    sys.path.insert(0, str(REPO))

from codegen import gen  # noqa: E402  (needs the path above)

# golden/expected holds generated files, tests/test_generated_ops.py among them, and
# bad/ holds YAML: neither is a test module of this suite.
collect_ignore_glob = ["golden/*", "bad/*"]


@dataclass(frozen=True)
class Run:
    """What one in-process run of `python3 -m codegen` returned and printed."""

    rc: int
    out: str
    err: str


@pytest.fixture
def run_codegen(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Runs codegen.gen.main(argv) and captures its exit code, stdout and stderr."""

    def run(*argv: str) -> Run:
        capsys.readouterr()  # drop anything printed before
        rc = gen.main(list(argv))
        captured = capsys.readouterr()
        return Run(rc, captured.out, captured.err)

    return run


@pytest.fixture
def write_declarations(tmp_path: Path) -> Callable[..., Path]:
    """Writes {file name: YAML text} into a fresh declarations directory and returns it."""

    def write(**files: str) -> Path:
        decl_dir = tmp_path / "declarations"
        decl_dir.mkdir(exist_ok=True)
        for name, text in files.items():
            (decl_dir / f"{name}.yaml").write_text(text, encoding="utf-8")
        return decl_dir

    return write
