"""pip builds a wheel of wick through setup.py, and a fresh virtual environment installs it and
imports wick from outside the source tree: the module, the Python files, the stubs and the version.

setup.py builds in the tree the tests run against (WICK_BUILD_DIR), so the wheel costs no second
build; a fresh clone's `pip install .` configures a tree of its own, the same way.
"""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
BUILD_DIR = os.environ.get("WICK_BUILD_DIR")

pytestmark = [
    pytest.mark.skipif(not BUILD_DIR, reason="needs WICK_BUILD_DIR, the tree ctest runs against"),
    # Packaging runs pip and CMake, nothing instrumented; scripts/test runs it.
    pytest.mark.skipif(bool(os.environ.get("WICK_SANITIZE")), reason="packaging: no instrumented code to check"),
]


def run(*args, cwd, env=None):
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{args} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["WICK_BUILD_DIR"] = BUILD_DIR
    run(sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", out, ROOT,
        cwd=out, env=env)
    (path,) = out.glob("wick-*.whl")
    return path


def test_wheel_holds_the_package(wheel):
    version = (ROOT / "version.txt").read_text().strip()
    assert wheel.name.startswith(f"wick-{version}-cp3")  # a platform wheel, not py3-none-any
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("wick/__init__.py", "wick/_tensor.py", "wick/_names.py", "wick/py.typed",
                 "wick/__init__.pyi", "wick/_C.pyi"):
        assert name in names
    assert any(n.startswith("wick/_C.") and n.endswith(".so") for n in names)


def test_venv_installs_and_imports_it_from_anywhere(wheel, tmp_path):
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--system-site-packages", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "WICK_BUILD_DIR")}
    run(python, "-m", "pip", "install", "--no-deps", "--no-index", wheel, cwd=tmp_path, env=env)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = run(python, "-c", "import wick; x = wick.arange(4.0); print(wick.__version__, wick.__file__, "
              "(x * x).sum().item(), wick.get_num_threads() > 0)", cwd=elsewhere, env=env)
    version, location, total, threads = out.split()
    assert version == (ROOT / "version.txt").read_text().strip()
    assert Path(location).is_relative_to(venv)
    assert float(total) == 14.0 and threads == "True"
