"""The Python API of an op: which methods and functions it makes, and their overloads."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Tuple

from codegen.api import cpp
from codegen.errors import DeclarationError, Location
from codegen.model import Declaration, Param, PythonImpl, ReturnField, Signature, Type, join_params

# How the runtime (python_ext/arg_parser.h) converts each parameter type.
ARG_KIND = {
    "Tensor": "Tensor", "Scalar": "Scalar", "int": "Int", "float": "Double", "bool": "Bool",
    "ScalarType": "DType", "Device": "Device", "object": "Object", "str": "String",
}
# Names shown in signatures and error messages, as PyTorch shows them.
PY_TYPE = {
    "Tensor": "Tensor", "Scalar": "Number", "int": "int", "float": "float", "bool": "bool",
    "ScalarType": "dtype", "Device": "Device", "object": "object", "str": "str",
}
# List types: (runtime kind, name in signatures), by the type as declared without '?'.
_LISTS = {
    "int[]": ("IntList", "tuple of ints"),
    "Tensor[]": ("TensorList", "tuple of Tensors"),
    "Tensor?[]": ("OptionalTensorList", "tuple of (Tensor or None)"),
}

# What the runtime's parser holds (kMaxParams and kMaxOverloads in python_ext/arg_parser.h): a
# binding beyond it is refused here, and the generated bindings static_assert that the two agree.
MAX_PARAMS = 10
MAX_OVERLOADS = 8

OUT_PARAM = Param("out", Type("Tensor", optional=True), "None", kwarg_only=True)
# out= of a tuple return: a tuple of tensors, one per field, which the wrapper checks (Note [Tuple returns]).
OUT_TUPLE_PARAM = Param("out", Type("object", optional=True), "None", kwarg_only=True)

# The Python values each parameter type accepts (python_ext/arg_parser.cpp, type_ok).
_ACCEPTS = {
    "Tensor": {"tensor", "tensor0d"}, "Scalar": {"bool", "int", "float", "tensor0d"}, "int": {"int"},
    "int[]": {"int", "ints"}, "float": {"int", "float"}, "bool": {"bool"}, "ScalarType": {"dtype"},
    "Device": {"str", "device"}, "str": {"str"}, "Tensor[]": {"tensors"},
    "Tensor?[]": {"tensors", "tensors_and_nones"},
}


def _accepts(t: Type) -> set:
    if t.base == "object":
        return {"*"}
    kinds = set(_ACCEPTS[str(replace(t, optional=False)) if t.is_list else t.base])
    return kinds | {"None"} if t.optional else kinds


def _covers(wide: Param, narrow: Param) -> bool:
    return "*" in _accepts(wide.type) or _accepts(narrow.type) <= _accepts(wide.type)


def arg_kind(t: Type) -> str:
    return _LISTS[str(replace(t, optional=False))][0] if t.is_list else ARG_KIND[t.base]


def py_type(t: Type) -> str:
    """How signatures in docs and errors name a type; `=None` already says it is optional."""
    return _LISTS[str(replace(t, optional=False))][1] if t.is_list else PY_TYPE[t.base]


@dataclass(frozen=True)
class Overload:
    decl: Declaration
    sig: Signature
    params: Tuple[Param, ...]  # as Python sees them: no self for methods, out= added
    form: str  # "functional" | "inplace" | "out"
    method: bool

    @property
    def text(self) -> str:
        """The signature as error messages show it: (Tensor other, *, Number alpha=1)."""
        shown = join_params(self.params, lambda p: f"{self.py_type(p)} {p.name}" + (
            "" if p.default is None else f"={p.default}"))
        return f"({shown})"

    def py_type(self, p: Param) -> str:
        """As py_type(p.type), with PyTorch's name for the out= of a tuple return."""
        return "tuple of Tensors" if self.has_out and self.sig.fields and p.name == "out" else py_type(p.type)

    @property
    def returns_self(self) -> bool:
        return self.form == "inplace" or self.sig.returns == "Tensor(a!)"

    @property
    def has_out(self) -> bool:
        return self.form == "out"

    def cpp_function(self, with_out: bool) -> str:
        base = cpp.core_name(self.decl)
        if self.form == "inplace" and not self.decl.inplace_only:
            return base + "_"
        return base + "_out" if with_out else base

    @property
    def python_impl(self) -> bool:
        return isinstance(self.decl.impl, PythonImpl)


@dataclass(frozen=True)
class Binding:
    """One Python-visible name: a Tensor method or a wick function, with its overloads."""

    name: str
    method: bool
    overloads: Tuple[Overload, ...]
    doc: str

    @property
    def c_name(self) -> str:
        return ("TensorMethod_" if self.method else "Function_") + self.name


def bindings(decls: List[Declaration]) -> Tuple[List[Binding], List[Binding]]:
    """(Tensor methods, module functions), each sorted by name."""
    methods: Dict[str, List[Overload]] = {}
    functions: Dict[str, List[Overload]] = {}
    docs: Dict[str, str] = {}
    for d in decls:
        for sig in d.signatures:
            if "method" in d.variants:
                methods.setdefault(d.name, []).append(
                    Overload(d, sig, sig.params[1:], "inplace" if d.inplace_only else "functional", True))
                if d.inplace:
                    methods.setdefault(d.name + "_", []).append(Overload(d, sig, sig.params[1:], "inplace", True))
            if "function" in d.variants:
                form = "inplace" if d.inplace_only else "out" if d.out else "functional"
                params = sig.params + ((OUT_TUPLE_PARAM if sig.fields else OUT_PARAM,) if d.out else ())
                functions.setdefault(d.name, []).append(Overload(d, sig, params, form, False))
        docs[d.name] = d.doc
        if d.inplace:
            docs[d.name + "_"] = f"In-place form of {d.name}(). {d.doc}"

    def build(table: Dict[str, List[Overload]], method: bool) -> List[Binding]:
        result = [Binding(n, method, tuple(ovs), docs[n]) for n, ovs in sorted(table.items())]
        for b in result:
            check_limits(b)
            check_overloads(b)
        return result

    return build(methods, True), build(functions, False)


def return_types(decls: List[Declaration]) -> List[Tuple[str, Tuple[ReturnField, ...]]]:
    """(name, fields) of each named tuple type of wick.return_types, sorted by name (Note [Tuple returns])."""
    found = {d.name: sig.fields for d in decls for sig in d.signatures if sig.fields}
    return sorted(found.items())


def _signature_loc(ov: Overload) -> Location:
    return ov.decl.signature_locs[ov.decl.signatures.index(ov.sig)]


def check_limits(binding: Binding) -> None:
    """Rejects a binding with more overloads, or an overload with more parameters, than the parser holds."""
    if len(binding.overloads) > MAX_OVERLOADS:
        extra = binding.overloads[MAX_OVERLOADS]
        raise DeclarationError(_signature_loc(extra), f"{binding.name}() has {len(binding.overloads)} overloads, "
                               f"more than the {MAX_OVERLOADS} the argument parser holds", extra.decl.name,
                               "declare another op for some of them")
    for ov in binding.overloads:
        if len(ov.params) > MAX_PARAMS:
            raise DeclarationError(_signature_loc(ov), f"{binding.name}() takes {len(ov.params)} arguments in Python"
                                   f"{' with out=' if ov.has_out else ''}, more than the {MAX_PARAMS} the argument "
                                   "parser holds",
                                   ov.decl.name, "group some of them in a list, or split the op")


def check_overloads(binding: Binding) -> None:
    """Rejects an overload that an earlier one always wins (see Note [Argument parsing])."""
    for j, later in enumerate(binding.overloads):
        for earlier in binding.overloads[:j]:
            if _shadows(earlier.params, later.params):
                raise DeclarationError(
                    _signature_loc(later), f"overload {binding.name}{later.text} can never be chosen: every call it "
                    f"accepts matches the earlier {binding.name}{earlier.text}", later.decl.name,
                    "reorder the signatures, narrowest first, or make them differ")


def _shadows(first: Tuple[Param, ...], second: Tuple[Param, ...]) -> bool:
    """Whether every call that `second` accepts is accepted by `first`."""
    by_name = {p.name: (i, p) for i, p in enumerate(first)}
    for i, p in enumerate(second):
        if p.name not in by_name:
            return False
        k, q = by_name[p.name]
        if not _covers(q, p) or (not p.kwarg_only and (k != i or q.kwarg_only)):
            return False
    required = {p.name for p in second if p.default is None}
    return all(q.default is not None or q.name in required for q in first)


def default_spec(p: Param) -> Optional[Tuple[str, str]]:
    """The runtime's (kind, value) for a default: ("Int", "1"), ("Bool", "true"), ("None", "0")."""
    if p.default is None:
        return None
    if p.default == "None":
        return ("None", "0")
    if p.default in ("True", "False"):
        return ("Bool", "1" if p.default == "True" else "0")
    if "." in p.default or "e" in p.default.lower():  # 0.5, 1e-05
        return ("Float", p.default)
    return ("Int", p.default)
