"""tests/codegen/test_docs.py: the op reference (codegen/dest/docs.py) has an entry for every binding, and the
examples of each op as they are declared."""
from __future__ import annotations

import re
from pathlib import Path

from codegen import reader
from codegen.api.python import bindings
from codegen.dest import docs
from codegen.dest.common import DEFAULT_LAYOUT

REPO = Path(__file__).resolve().parents[2]
DECLS = reader.load(sorted(str(p) for p in (REPO / "declarations").glob("*.yaml")))
PAGES = docs.emit(DECLS, DEFAULT_LAYOUT)
_ENTRY = re.compile(r"^\.\. py:(function|method):: (?:Tensor\.)?(\w+)\(", re.MULTILINE)


def test_a_page_per_declaration_file_and_an_index_of_them() -> None:
    files = sorted(p.stem for p in (REPO / "declarations").glob("*.yaml"))
    assert sorted(PAGES) == sorted(docs.outputs(DECLS))
    assert sorted(PAGES) == sorted([f"{docs.REFERENCE}/index.rst"] + [f"{docs.REFERENCE}/{f}.rst" for f in files])
    index = PAGES[f"{docs.REFERENCE}/index.rst"]
    assert all(f" <{f}>\n" in index for f in files)


def test_every_public_binding_has_one_entry_on_its_ops_page() -> None:
    methods, functions = bindings(DECLS)
    entries = {(kind, name, path) for path, text in PAGES.items() for kind, name in _ENTRY.findall(text)}
    expected = {("method" if b.method else "function", b.name, f"{docs.REFERENCE}/{docs.page(b.decl)}.rst")
                for b in methods + functions if not b.decl.name.startswith("_")}
    assert entries == expected
    count = sum(len(_ENTRY.findall(text)) for text in PAGES.values())
    assert count == len(expected), "a binding has two entries: Sphinx would call it a duplicate"


def test_each_example_is_shown_on_its_ops_entry() -> None:
    for d in [d for d in DECLS if d.api.examples]:
        page = PAGES[f"{docs.REFERENCE}/{docs.page(d)}.rst"]
        section = page[page.index(f"\n``{d.name}``\n"):]
        for example in d.api.examples:
            shown = "\n".join("      " + line for line in example.text.rstrip("\n").split("\n"))
            assert shown in section, d.name
