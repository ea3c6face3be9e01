"""The C++ API of an op: wick::<name>, wick::<name>_ and wick::<name>_out in generated ops.h."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from codegen.model import Cpp, Declaration, Form, PythonGlue
from codegen.schema import (BaseTy, BaseType, ListType, OptionalType, Param, Return, Signature, Type, base_of,
                            is_list, is_optional)

_BASE: Dict[BaseTy, str] = {
    BaseTy.Tensor: "Tensor", BaseTy.Scalar: "Scalar", BaseTy.int: "int64_t", BaseTy.float: "double",
    BaseTy.bool: "bool", BaseTy.ScalarType: "DType", BaseTy.Device: "Device", BaseTy.object: "PyObject*",
    BaseTy.str: "std::string_view", BaseTy.Generator: "Generator*", BaseTy.MemoryFormat: "MemoryFormat",
}
_RETURNED_LISTS: Dict[BaseTy, str] = {BaseTy.int: "DimVector", BaseTy.Tensor: "std::vector<Tensor>"}
# What core takes for a list, by its element type (see Note [Tensor lists] in wick/tensor_list.h).
_LISTS: Dict[BaseTy, str] = {BaseTy.int: "IntArrayRef", BaseTy.Tensor: "TensorListRef"}
assert set(_BASE) == set(BaseTy)

Param3 = Tuple[str, str, Optional[str]]  # (C++ type, name, default)


def value_type(t: Type) -> str:
    """The C++ type holding a converted argument."""
    if t == ListType(OptionalType(BaseType(BaseTy.Tensor))):
        return "ArrayRef<std::optional<Tensor>>"
    if base_of(t) == BaseTy.Tensor and not is_list(t):
        return "Tensor"  # an undefined Tensor stands for None
    if base_of(t) == BaseTy.Generator:
        return "Generator*"  # a null one stands for None: the default generator
    if is_list(t):
        # Note [Optional lists] in wick/array_ref.h
        return f"OptionalArrayRef<{_BASE[base_of(t)]}>" if is_optional(t) else _LISTS[base_of(t)]
    return f"std::optional<{_BASE[base_of(t)]}>" if is_optional(t) else _BASE[base_of(t)]


def param_type(t: Type) -> str:
    v = value_type(t)
    return f"const {v}&" if v in ("Tensor", "Scalar") or v.startswith("std::optional<Scalar") else v


def return_type(r: Return) -> str:
    return _RETURNED_LISTS[base_of(r.type)] if is_list(r.type) else _BASE[base_of(r.type)]


def signature_return_type(sig: Signature) -> str:
    """What the C++ function of `sig` returns: a std::tuple for a tuple return (Note [Tuple returns])."""
    if sig.returns_none:
        return "void"
    if sig.is_tuple:
        return f"std::tuple<{', '.join(return_type(f) for f in sig.returns)}>"
    return return_type(sig.returns[0])


def written_return_type(sig: Signature) -> str:
    """What an in-place or out= form returns: the tensors it wrote, by reference."""
    if sig.is_tuple:
        return f"std::tuple<{', '.join('const Tensor&' for _ in sig.returns)}>"
    return "const Tensor&"


def meta_return_type(sig: Signature) -> str:
    """What detail::<name>_meta returns: a spec of the result, one per field of a tuple."""
    return f"std::array<detail::OutputSpec, {len(sig.returns)}>" if sig.is_tuple else "detail::OutputSpec"


def out_params(sig: Signature) -> Tuple[Param3, ...]:
    """The leading parameters of <name>_out: `out`, or one per field of a tuple return, named after it."""
    return tuple(("const Tensor&", str(f.name), None) for f in sig.fields) or (("const Tensor&", "out", None),)


def default_value(p: Param) -> Optional[str]:
    if p.default is None:
        return None
    if p.default == "None":
        return {BaseTy.Tensor: "Tensor()", BaseTy.Generator: "nullptr"}.get(base_of(p.type), "std::nullopt")
    if p.default in ("True", "False"):
        return p.default.lower()
    return p.default


@dataclass(frozen=True)
class CppFunction:
    """One C++ function of an op: its name, parameters and how ops.cpp defines it (if it does)."""

    name: str
    params: Tuple[Param3, ...]
    returns: str
    decl: Declaration
    sig: Signature
    form: Form

    def prototype(self, defaults: bool) -> str:
        ps = []
        for t, n, d in self.params:
            ps.append(f"{t} {n}" + (f" = {d}" if defaults and d is not None else ""))
        return f"{self.returns} {self.name}({', '.join(ps)})"

    @property
    def arg_names(self) -> List[str]:
        return [n for _, n, _ in self.params]

    @property
    def hand_written(self) -> bool:
        """Whether core implements it by hand: the meta and impl of a structured op, and every form of
        another `cpp:` op (Note [Structured ops] in wick/structured.h)."""
        impl = self.decl.impl
        if not isinstance(impl, Cpp):
            return False
        return self.form in (Form.meta, Form.impl) if impl.structured else True

    @property
    def in_detail(self) -> bool:
        """Whether it is a function of wick::detail: the halves of a structured op."""
        return self.form in (Form.meta, Form.impl)

    @property
    def in_core(self) -> bool:
        """Whether it is a function of core (those of the Python glue take and give Python objects)."""
        return not isinstance(self.decl.impl, PythonGlue)


def _params(sig: Signature, defaults: bool = True) -> List[Param3]:
    out = []
    defaults_ok = defaults
    # C++ defaults must be trailing: drop any default that a later non-default parameter follows.
    for p in reversed(sig.params):
        d = default_value(p) if defaults_ok else None
        if d is None:
            defaults_ok = False
        out.append((param_type(p.type), p.name, d))
    return list(reversed(out))


def functions(decl: Declaration) -> List[CppFunction]:
    """Every C++ function of `decl`, functional form first, in declaration order."""
    result: List[CppFunction] = []
    api, base, impl = decl.api, decl.cpp_name, decl.impl
    structured = isinstance(impl, Cpp) and impl.structured
    for sig in api.signatures:
        ps = tuple(_params(sig))
        # In-place and out= forms hand back the tensors they wrote, by reference: no reference
        # count changes hands on the per-call path.
        written = written_return_type(sig)
        if api.mutates_self:
            result.append(CppFunction(base, ps, written, decl, sig, Form.inplace))
        else:
            result.append(CppFunction(base, ps, signature_return_type(sig), decl, sig, Form.functional))
        if api.inplace and sig.takes_tensor_self:
            result.append(CppFunction(base + "_", ps, written, decl, sig, Form.inplace))
        if api.out and sig.has_out_form:
            result.append(CppFunction(base + "_out", out_params(sig) + ps, written, decl, sig, Form.out))
        if structured:
            bare = tuple(_params(sig, defaults=False))
            result.append(CppFunction(base + "_meta", bare, meta_return_type(sig), decl, sig, Form.meta))
            result.append(CppFunction(base + "_impl", out_params(sig) + bare, "void", decl, sig, Form.impl))
    return result
