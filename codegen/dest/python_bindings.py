"""The Python side: FASTCALL wrappers and PyMethodDef tables for Tensor methods and wick functions."""
from __future__ import annotations

import textwrap
from typing import Callable, Dict, List, Tuple

from codegen.api import cpp
from codegen.api.python import (ARG_KINDS, MAX_OVERLOADS, MAX_PARAMS, REQUIRES_GRAD_PARAM, Binding, Overload, arg_kind,
                                 bindings, default_spec, return_types)
from codegen.dest.common import Layout, c_string, render
from codegen.model import Declaration, PythonGlue
from codegen.schema import DTYPES, BaseTy, Param, Return, base_of, is_list, is_optional

# The bindings call the ops as autograd records them (Note [Recording ops] in codegen/dest/autograd.py).
_RECORDING = "wick::autograd::ops::"


def _accessor(p: Param) -> str:
    kind = arg_kind(p.type)
    # An undefined Tensor, Python's None and a null Generator* are what a Tensor?, an object and a Generator? take
    # for None.
    return kind.accessor + "_optional" if is_optional(p.type) and kind.name not in ("Tensor", "Object", "Generator") \
        else kind.accessor


def _param_spec(p: Param) -> str:
    kind, value = default_spec(p) or ("Required", "0")
    return (f'{{"{p.name}", ArgKind::{arg_kind(p.type).name}, {str(is_optional(p.type)).lower()}, '
            f"{str(p.kwarg_only).lower()}, DefaultKind::{kind}, {value}}}")


def _case(ov: Overload, index: int) -> str:
    """The body that converts the parsed arguments of one overload and calls core."""
    lines: List[str] = []
    names: Dict[str, str] = {}
    if ov.method:
        lines.append("const Tensor& self_ = unpack_tensor(self);")
        names["self"] = "self_"
    marks = REQUIRES_GRAD_PARAM in ov.params
    for j, p in enumerate(ov.params):
        if p.name == "out" and ov.has_out:
            continue
        if p is REQUIRES_GRAD_PARAM:
            lines.append(f"const bool requires_grad = r.{_accessor(p)}({j});")
            continue
        var = f"a{j}"
        ctype = cpp.value_type(p.type)
        ref = "const Tensor&" if ctype == "Tensor" else "PyObject*" if ctype == "PyObject*" else ctype
        holder = arg_kind(p.type).holder
        if is_list(p.type):
            assert holder is not None, p
            ref = f"std::optional<{holder}>" if is_optional(p.type) else holder
        elif holder is not None:  # a Generator?, whose holder stands for None itself
            ref = holder
        lines.append(f"{ref} {var} = r.{_accessor(p)}({j});")
        names[p.name] = var
    args = [names[p.name] for p in ov.sig.params]
    # A tuple return becomes a named tuple of wick.return_types (Note [Tuple returns]).
    wrap = f"wrap(ReturnType::{ov.decl.name}, " if ov.sig.is_tuple else "wrap("
    if ov.python_glue:
        call = f"impl::{ov.cpp_function(False)}({', '.join(args)})"
        if marks:  # Note [requires_grad of factories]
            lines.append(f"Tensor result = {call};")
            lines.append("if (requires_grad) autograd::set_requires_grad(result, true);")
            lines.append(f"return {wrap}std::move(result));")
        else:
            lines.append(f"return {call};" if ov.sig.returns_only("object") else f"return {wrap}{call});")
        return "\n".join(lines)
    fn = f"{_RECORDING}{ov.cpp_function(False)}"

    tensors = [names[p.name] for p in ov.sig.params if base_of(p.type) == BaseTy.Tensor and not is_list(p.type)]
    lists = [names[p.name] for p in ov.sig.params if arg_kind(p.type).name == "TensorList"]
    tensor_lists = [names[p.name] for p in ov.sig.params if base_of(p.type) == BaseTy.Tensor and is_list(p.type)]

    def unlocked(statement: Callable[[List[str]], str], outs: List[str], out_tuple: str = "") -> str:
        """The call `statement(outs + args)`, with the GIL released around it when the op says so
        and has work (Note [GIL]), on aliases of its tensors (Note [Tensors read without the GIL])."""
        if not ov.decl.api.releases_gil:
            return statement(outs + args)
        aliased = outs + tensors if not out_tuple else tensors
        counted = [aliased] + ([lists] if lists else [])  # the tensors of a Tensor[] count too
        braced = ", ".join("{" + ", ".join("&" + name for name in group) + "}" for group in counted)
        worth = f"worth_releasing({braced})" if aliased or lists else "true"
        held = "{" + ", ".join("&" + name for name in aliased) + "}"
        pinned = "".join(f", {name}" for name in tensor_lists + ([out_tuple] if out_tuple else []))
        call = statement([f"nogil({a})" if a in aliased else a for a in outs + args])
        return f"{{ NoGil nogil({worth}, {held}{pinned}); {call} }}"

    if ov.has_out and ov.sig.is_tuple:  # out= is a tuple of tensors, which come back in a named tuple
        n = len(ov.sig.fields)
        outs = [f"out_[{i}]" for i in range(n)]
        lines.append(f"if (PyObject* out = r.raw({len(ov.params) - 1}); out && out != Py_None) {{")
        lines.append(f'  std::array<Tensor, {n}> out_ = unpack_out_tuple<{n}>(out);')
        lines.append("  " + unlocked(lambda a: f"{_RECORDING}{ov.cpp_function(True)}({', '.join(a)});", outs, "out_"))
        lines.append(f"  return wrap_out_tuple(ReturnType::{ov.decl.name}, out);")
        lines.append("}")
    elif ov.has_out:
        out_index = len(ov.params) - 1
        lines.append(f"if (PyObject* out = r.raw({out_index}); out && out != Py_None) {{")
        lines.append("  const Tensor& out_ = unpack_tensor(out);")
        lines.append("  " + unlocked(lambda a: f"{_RECORDING}{ov.cpp_function(True)}({', '.join(a)});", ["out_"]))
        lines.append("  return Py_NewRef(out);")
        lines.append("}")
    self_obj = "self" if ov.method else "r.raw(0)"
    if ov.returns_self:
        lines.append(unlocked(lambda a: f"{fn}({', '.join(a)});", []))
        lines.append(f"return Py_NewRef({self_obj});")
    elif ov.sig.returns_none:
        lines.append(unlocked(lambda a: f"{fn}({', '.join(a)});", []))
        lines.append("Py_RETURN_NONE;")
    else:
        lines.append(f"{cpp.signature_return_type(ov.sig)} result;")
        restored = "result = nogil.restore({});" if ov.decl.api.releases_gil else "result = {};"
        lines.append(unlocked(lambda a: restored.format(f"{fn}({', '.join(a)})"), []))
        if marks:
            lines.append("if (requires_grad) autograd::set_requires_grad(result, true);")
        lines.append(f"return {wrap}std::move(result));")
    return "\n".join(lines)


def _text_signature(b: Binding) -> str:
    """The first docstring line inspect.signature reads: `add($self, other, *, alpha=1)\\n--\\n\\n`.

    With several overloads it admits every call that one of them accepts. The
    leading positions that hold the same name in every overload having them
    (and that name nowhere else) stay positional; past the first position where
    names differ (to(dtype) / to(device) / to(other)) come `*args` and every
    other name as keyword-only. A parameter whose defaults differ between
    overloads, or that some overload lacks and the others require, defaults to
    None; one that some overload lacks shows the default the others give it.
    """
    overloads = [ov.params for ov in b.overloads]
    positional = [[p.name for p in params if not p.kwarg_only] for params in overloads]
    slots: Dict[str, set[int]] = {}
    for names in positional:
        for i, name in enumerate(names):
            slots.setdefault(name, set()).add(i)
    width = max(len(names) for names in positional)
    prefix: List[str] = []
    for i in range(width):
        here = {names[i] for names in positional if len(names) > i}
        if len(here) != 1 or slots[next(iter(here))] != {i}:
            break
        prefix.append(next(iter(here)))
    varargs = len(prefix) < width
    keyword = [name for name in dict.fromkeys(p.name for params in overloads for p in params) if name not in prefix]

    def shown(name: str, needs_default: bool) -> str:
        found = [next((p for p in params if p.name == name), None) for params in overloads]
        defaults = {p.default for p in found if p is not None}
        if len(defaults) > 1 or (defaults == {None} and (needs_default or None in found)):
            return f"{name}=None"
        (default,) = defaults
        return name if default is None else f"{name}={default}"

    parts = ["$self" if b.method else "$module"]
    for name in prefix:  # once one has a default, the later ones need one too
        parts.append(shown(name, needs_default="=" in parts[-1]))
    if varargs or keyword:
        parts.append("*args" if varargs else "*")
    parts.extend(shown(name, needs_default=varargs and name in slots) for name in keyword)
    return f"{b.name}({', '.join(parts)})\n--\n\n"


def _doc(b: Binding) -> str:
    """The text signature, the declaration's doc, each overload with its types, and the examples.

    help() shows the text signature as the header and the rest below it, as it shows
    the docstrings of Python functions.
    """
    sigs = "".join(f"\n    {b.name}{ov.text} -> {ov.returns_text}" for ov in b.overloads)
    examples = "".join("\n" + textwrap.indent(e.text, "    ").rstrip("\n") for e in b.decl.api.examples)
    return f"{_text_signature(b)}{b.doc}\n\nSignatures:{sigs}" + (f"\n\nExamples:{examples}" if examples else "")


def _binding(b: Binding) -> Dict[str, object]:
    noargs = len(b.overloads) == 1 and not b.overloads[0].params and b.method
    return dict(
        b=b,
        noargs=noargs,
        sigs=[dict(params=[_param_spec(p) for p in ov.params], text=c_string(ov.text)) for ov in b.overloads],
        cases=[_case(ov, i) for i, ov in enumerate(b.overloads)],
        doc=c_string(_doc(b)),
    )


def _return_type_entry(name: str, fields: Tuple[Return, ...]) -> Dict[str, object]:
    listed = ", ".join(str(f.name) for f in fields)
    return dict(name=name, fields=[c_string(str(f.name)) for f in fields],
                doc=c_string(f"{name}({listed}): the named tuple that {name}() returns."))


def bindings_unit(shard: int) -> str:
    return f"python/bindings_shard{shard}.cpp"


def outputs(layout: Layout) -> List[str]:
    return ["python/method_tables.cpp", "python/arg_kinds.h", *(bindings_unit(s) for s in range(layout.shards)),
            "python/python_impls.h", "python/names.py", "python/legacy_tensors.h", "python/return_types.h"]


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    methods, functions = bindings(decls)
    rows = {b.c_name: _binding(b) for b in methods + functions}
    impls = sorted({fn.prototype(defaults=False) for d in decls if isinstance(d.impl, PythonGlue)
                    for fn in cpp.functions(d)})
    files = {
        "python/method_tables.cpp": render("method_tables.cpp.j2", methods=[rows[b.c_name] for b in methods],
                                           functions=[rows[b.c_name] for b in functions]),
        "python/python_impls.h": render("python_impls.h.j2", prototypes=impls),
        "python/arg_kinds.h": render("arg_kinds.h.j2", kinds=list(ARG_KINDS.values())),
        "python/names.py": render("names.py.j2", functions=[b.name for b in functions], dtypes=DTYPES),
        "python/legacy_tensors.h": render("legacy_tensors.h.j2", dtypes=DTYPES),
        "python/return_types.h": render("return_types.h.j2",
                                        types=[_return_type_entry(*t) for t in return_types(decls)]),
    }
    # Note [Shards]: a binding goes with the op that declares it.
    for s, shard in enumerate(layout.by_shard(methods + functions, lambda b: b.decl.name)):
        files[bindings_unit(s)] = render("bindings.cpp.j2", shard=s, bindings=[rows[b.c_name] for b in shard],
                                         max_params=MAX_PARAMS, max_overloads=MAX_OVERLOADS)
    return files


def names(decls: List[Declaration]) -> Tuple[List[str], List[str]]:
    methods, functions = bindings(decls)
    return [b.name for b in methods], [b.name for b in functions]
