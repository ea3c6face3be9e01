# docs/conf.py: Sphinx's configuration of the Wick manual.
#
# The manual is two sets of pages built as one: the hand-written pages of docs/ and the op
# reference that the generator writes from the declarations (generated/docs/reference).
# scripts/build_docs.py assembles them into one source directory in the build tree and
# builds it with warnings as errors; `cmake --build build --target docs` runs it.
import re
from pathlib import Path

_cmake = Path(__file__).resolve().parent.parent / "CMakeLists.txt"
_version = re.search(r"project\(wick VERSION ([0-9.]+)", _cmake.read_text(encoding="utf-8")) \
    if _cmake.is_file() else None

project = "Wick"
author = "the Wick authors"
copyright = "the Wick authors"
version = release = _version.group(1) if _version else ""

extensions: list = []  # built-in features alone: the manual builds offline
root_doc = "index"
exclude_patterns = ["_build"]
highlight_language = "python3"
pygments_style = "sphinx"
default_role = "literal"

html_theme = "alabaster"
html_theme_options = {"description": "tensors with a PyTorch-shaped API and generated bindings",
                      "fixed_sidebar": True}
html_static_path: list = []
html_show_sourcelink = False
