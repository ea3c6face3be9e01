"""The generator is typed throughout: mypy --strict accepts codegen/ as it is."""
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_mypy_strict_accepts_the_generator() -> None:
    pytest.importorskip("mypy")
    try:
        importlib.metadata.distribution("types-PyYAML")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("needs the stubs of PyYAML (Debian's python3-typeshed)")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                           "codegen"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
