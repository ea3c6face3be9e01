"""The Python side: FASTCALL wrappers and PyMethodDef tables for Tensor methods and wick functions."""
from __future__ import annotations

from typing import Dict, List, Tuple

from codegen.api import cpp
from codegen.api.python import Binding, Overload, arg_kind, bindings, default_spec
from codegen.dest.common import c_string, render
from codegen.model import Declaration, Param, PythonImpl, join_params

_ACCESSOR = {
    "Tensor": "tensor", "Scalar": "scalar", "Int": "toint", "IntList": "intlist", "Double": "todouble",
    "Bool": "tobool", "DType": "dtype", "Device": "device", "Object": "object",
}


def _accessor(p: Param) -> str:
    kind = arg_kind(p.type)
    name = _ACCESSOR[kind]
    return name + "_optional" if p.type.optional and kind not in ("Tensor", "Object") else name


def _param_spec(p: Param) -> str:
    kind, value = default_spec(p) or ("Required", "0")
    return (f'{{"{p.name}", ArgKind::{arg_kind(p.type)}, {str(p.type.optional).lower()}, '
            f"{str(p.kwarg_only).lower()}, DefaultKind::{kind}, {value}}}")


def _case(ov: Overload, index: int) -> str:
    """The body that converts the parsed arguments of one overload and calls core."""
    lines: List[str] = []
    names: Dict[str, str] = {}
    if ov.method:
        lines.append("const Tensor& self_ = unpack_tensor(self);")
        names["self"] = "self_"
    for j, p in enumerate(ov.params):
        if p.name == "out" and ov.has_out:
            continue
        var = f"a{j}"
        ctype = cpp.value_type(p.type)
        ref = "const Tensor&" if ctype == "Tensor" else "PyObject*" if ctype == "PyObject*" else ctype
        lines.append(f"{ref} {var} = r.{_accessor(p)}({j});")
        names[p.name] = var
    args = [names[p.name] for p in ov.sig.params]
    ret = ov.sig.returns
    if isinstance(ov.decl.impl, PythonImpl):
        call = f"impl::{ov.cpp_function(False)}({', '.join(args)})"
        lines.append(f"return {call};" if ret == "object" else f"return wrap({call});")
        return "\n".join(lines)
    fn = f"wick::{ov.cpp_function(False)}"

    def unlocked(stmt: str) -> str:
        """`stmt`, with the GIL released around it if the op says so (see Note [GIL])."""
        return f"{{ GilRelease nogil; {stmt} }}" if ov.decl.releases_gil else stmt

    if ov.has_out:
        out_index = len(ov.params) - 1
        lines.append(f"if (PyObject* out = r.raw({out_index}); out && out != Py_None) {{")
        lines.append(f"  const Tensor& out_ = unpack_tensor(out);")
        lines.append("  " + unlocked(f"wick::{ov.cpp_function(True)}({', '.join(['out_'] + args)});"))
        lines.append("  return Py_NewRef(out);")
        lines.append("}")
    self_obj = "self" if ov.method else "r.raw(0)"
    if ov.returns_self:
        lines.append(unlocked(f"{fn}({', '.join(args)});"))
        lines.append(f"return Py_NewRef({self_obj});")
    elif ret == "None":
        lines.append(unlocked(f"{fn}({', '.join(args)});"))
        lines.append("Py_RETURN_NONE;")
    else:
        lines.append(f"{cpp.return_type(ret)} result;")
        lines.append(unlocked(f"result = {fn}({', '.join(args)});"))
        lines.append("return wrap(std::move(result));")
    return "\n".join(lines)


def _text_signature(b: Binding) -> str:
    """`add($self, other, /, *, alpha=1)` for inspect.signature, when there is one overload."""
    (ov,) = b.overloads
    first = "$self" if b.method else "$module"
    rest = join_params(ov.params, lambda p: p.name + ("" if p.default is None else f"={p.default}"))
    return f"{b.name}({first}{', ' + rest if rest else ''})\n--\n\n"


def _doc(b: Binding) -> str:
    if len(b.overloads) == 1:
        return _text_signature(b) + b.doc
    sigs = "\n".join(f"    {b.name}{ov.text}" for ov in b.overloads)
    return f"{b.doc}\n\nOverloads:\n{sigs}"


def _binding(b: Binding) -> Dict[str, object]:
    noargs = len(b.overloads) == 1 and not b.overloads[0].params and b.method
    return dict(
        b=b,
        noargs=noargs,
        sigs=[dict(params=[_param_spec(p) for p in ov.params], text=c_string(ov.text)) for ov in b.overloads],
        cases=[_case(ov, i) for i, ov in enumerate(b.overloads)],
        doc=c_string(_doc(b)),
    )


def emit(decls: List[Declaration]) -> Dict[str, str]:
    methods, functions = bindings(decls)
    impls = sorted({fn.prototype(defaults=False) for d in decls if isinstance(d.impl, PythonImpl)
                    for fn in cpp.functions(d)})
    return {
        "python/tensor_methods.cpp": render("bindings.cpp.j2", kind="methods", table="tensor_methods",
                                            bindings=[_binding(b) for b in methods]),
        "python/functions.cpp": render("bindings.cpp.j2", kind="functions", table="module_functions",
                                       bindings=[_binding(b) for b in functions]),
        "python/python_impls.h": render("python_impls.h.j2", prototypes=impls),
        "python/function_names.py": render("function_names.py.j2", names=[b.name for b in functions]),
    }


def names(decls: List[Declaration]) -> Tuple[List[str], List[str]]:
    methods, functions = bindings(decls)
    return [b.name for b in methods], [b.name for b in functions]
