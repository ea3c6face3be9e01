"""The op reference of the manual: a reStructuredText page per declaration file, and their index.

Each op gets a section: its function, its method and its in-place forms as entries of
Sphinx's Python domain, with their signatures in Python syntax, its doc, its forms, the
dtypes it takes and its examples (Note [Examples]). docs/ holds the hand-written pages
and the configuration, and scripts/build_docs.py builds the two together.
"""
from __future__ import annotations

import os
from typing import Dict, List, Optional

from codegen.api.python import Binding, Overload, bindings, py_type
from codegen.dest.common import Layout, render
from codegen.model import Backend, Declaration, Pointwise
from codegen.schema import (DTYPES, TENSOR, BaseTy, BaseType, DType, ListType, OptionalType, Param, Type, base_of,
                            is_list, is_optional, join_params, strip_optional)

REFERENCE = "docs/reference"

# A list parameter's type as the manual writes it, in Python syntax; any other is named as the
# argument parser's messages name it (Tensor, Number, int, wick.dtype...), and a '?' adds `| None`.
_LIST: Dict[Type, str] = {
    ListType(BaseType(BaseTy.int)): "Sequence[int]", ListType(TENSOR): "Sequence[Tensor]",
    ListType(OptionalType(TENSOR)): "Sequence[Tensor | None]",
}


def page(decl: Declaration) -> str:
    """The name of the page of the file that declares `decl`: pointwise_math for pointwise_math.yaml."""
    return os.path.splitext(os.path.basename(decl.loc.file))[0]


def outputs(decls: List[Declaration]) -> List[str]:
    return [f"{REFERENCE}/index.rst", *(f"{REFERENCE}/{name}.rst" for name in sorted({page(d) for d in decls}))]


def _annotation(ov: Overload, p: Param) -> str:
    if ov.has_out and ov.sig.is_tuple and p.name == "out":
        return f"tuple[{', '.join('Tensor' for _ in ov.sig.fields)}] | None"
    t = strip_optional(p.type)
    base = _LIST[t] if is_list(t) else py_type(t)
    return f"{base} | None" if is_optional(p.type) else base


def _returns(ov: Overload) -> str:
    if ov.sig.is_tuple:
        return f"return_types.{ov.decl.name}"
    if ov.returns_self or ov.sig.returns_none:
        return "Tensor" if ov.returns_self else "None"
    t = ov.sig.returns[0].type
    return f"tuple[{py_type(BaseType(base_of(t)))}, ...]" if is_list(t) else py_type(t)


def _signatures(b: Binding) -> List[str]:
    """The Python signatures of a binding, one per overload (two where an int[] also takes *args)."""
    name = f"Tensor.{b.name}" if b.method else b.name
    lines: List[str] = []
    for ov in b.overloads:
        def shown(p: Param) -> str:
            return f"{p.name}: {_annotation(ov, p)}" + ("" if p.default is None else f" = {p.default}")

        returns = _returns(ov)
        lines.append(f"{name}({join_params(ov.params, shown)}) -> {returns}")
        if ov.sizes_param is not None:
            rest = [f"*{ov.sizes_param.name}: int"] + [shown(p) for p in ov.params if p.kwarg_only]
            lines.append(f"{name}({', '.join(rest)}) -> {returns}")
    return list(dict.fromkeys(lines))


def _dtypes(decl: Declaration) -> Optional[str]:
    """The dtypes an op takes, where its declaration lists them."""
    def listed(dtypes: tuple[DType, ...]) -> str:
        names = ", ".join(str(d) for d in dtypes)
        return f"all ({names})" if dtypes == DTYPES else names

    if isinstance(decl.impl, Pointwise):
        cpu, cuda = decl.impl.dtypes[Backend.cpu], decl.impl.dtypes[Backend.cuda]
        return listed(cpu) if cpu == cuda else f"{listed(cpu)} on CPU; {listed(cuda)} on CUDA"
    return listed(decl.tests.dtypes) if decl.tests is not None and decl.tests.dtypes else None


def _entry(b: Binding) -> Dict[str, object]:
    return dict(objtype="method" if b.method else "function", role="meth" if b.method else "func",
                target=f"Tensor.{b.name}" if b.method else b.name, signatures=_signatures(b))


def _op(decl: Declaration, own: List[Binding]) -> Dict[str, object]:
    """An op's section: its bindings, the function first, each in-place form after what it is the form of."""
    own = sorted(own, key=lambda b: (b.name != decl.name, b.method))
    entries = [_entry(b) for b in own]
    fields = []
    if len(own) > 1:
        fields.append(("Forms", ", ".join(f":py:{e['role']}:`{e['target']}`" for e in entries)))
    tuples = [ov.sig for b in own for ov in b.overloads if ov.sig.is_tuple]
    listed = ", ".join(str(f.name) for f in tuples[0].fields) if tuples else ""
    if decl.api.out:
        fields.append(("Out", f"``wick.{decl.name}(..., out=({listed}))`` writes the results into the given tensors"
                       if tuples else f"``wick.{decl.name}(..., out=t)`` writes the result into ``t`` and returns it"))
    if tuples:
        fields.append(("Returns", f"a named tuple ``({listed})``, of type ``wick.return_types.{decl.name}``"))
    dtypes = _dtypes(decl)
    if dtypes:
        fields.append(("Supported dtypes", dtypes))
    main = entries[0]
    rest = [dict(e, doc=f"The {'in-place' if b.name.endswith('_') and b.name != decl.name else 'method'} form of "
                        f":py:{main['role']}:`{main['target']}`.")
            for b, e in zip(own[1:], entries[1:])]
    return dict(name=decl.name, main=main, rest=rest, doc=decl.api.doc, fields=fields,
                examples=[e.text.rstrip("\n") for e in decl.api.examples])


def _title(name: str) -> str:
    return name.replace("_", " ").capitalize()


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    methods, functions = bindings(decls)
    by_op: Dict[str, List[Binding]] = {}
    for b in methods + functions:
        by_op.setdefault(b.decl.name, []).append(b)
    pages: Dict[str, List[Dict[str, object]]] = {}
    for d in decls:
        pages.setdefault(page(d), [])
        # An op with no variants exists in C++ alone; one whose name starts with '_' is wick's own.
        if d.name in by_op and not d.name.startswith("_"):
            pages[page(d)].append(_op(d, by_op[d.name]))
    files = {f"{REFERENCE}/{name}.rst": render("docs_page.rst.j2", title=_title(name), file=f"{name}.yaml", ops=ops)
             for name, ops in sorted(pages.items())}
    files[f"{REFERENCE}/index.rst"] = render("docs_index.rst.j2", pages=[(name, _title(name)) for name in sorted(pages)])
    return files
