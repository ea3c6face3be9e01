"""The manual (docs/ and the op reference the generator writes) builds with Sphinx, warnings as errors, and
the sessions its tour shows print what they say."""
import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import wick

ROOT = Path(__file__).resolve().parents[3]


def test_manual_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx")
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_docs.py"),
                          "--generated", str(ROOT / "generated"), "--out", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    html = tmp_path / "html"
    for page in ("index", "install", "quickstart", "autograd", "adding_an_op", "cpp_api", "reference/index"):
        assert (html / f"{page}.html").is_file(), page
    # The reference has an entry, with an anchor, for each binding: wick.add and wick.Tensor.add_.
    page = (html / "reference" / "pointwise.html").read_text(encoding="utf-8")
    assert 'id="wick.add"' in page and 'id="wick.Tensor.add_"' in page


@pytest.mark.parametrize("page", ["index.rst", "quickstart.rst", "autograd.rst"])
def test_page_prints_what_it_shows(page):
    """The `>>>` sessions of the pages that tour the API run as doctests, each page in one namespace."""
    result = doctest.testfile(str(ROOT / "docs" / page), module_relative=False, globs={"wick": wick},
                              report=True, verbose=False)
    assert result.attempted > 0 and result.failed == 0, f"docs/{page}: {result.failed} of {result.attempted} failed"
