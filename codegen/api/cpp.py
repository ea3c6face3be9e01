"""The C++ API of an op: wick::<name>, wick::<name>_ and wick::<name>_out in generated ops.h."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

from codegen.model import Cpp, Declaration, Param, Pointwise, PythonImpl, Signature, Type

_BASE = {
    "Tensor": "Tensor", "Scalar": "Scalar", "int": "int64_t", "float": "double", "bool": "bool",
    "ScalarType": "DType", "Device": "Device", "object": "PyObject*", "str": "std::string_view",
}
_RETURNS = {
    "Tensor": "Tensor", "Tensor(a!)": "Tensor", "Scalar": "Scalar", "int": "int64_t",
    "int[]": "DimVector", "bool": "bool", "float": "double", "None": "void", "object": "PyObject*",
    "Tensor[]": "std::vector<Tensor>",
}
# What core takes for a list, by its element type (see Note [Tensor lists] in wick/tensor_list.h).
_LISTS = {"int": "IntArrayRef", "Tensor": "TensorListRef"}
_LIST_ELEMENTS = {"int": "int64_t"}


def value_type(t: Type) -> str:
    """The C++ type holding a converted argument."""
    if t.elem_optional:
        return "ArrayRef<std::optional<Tensor>>"
    if t.base == "Tensor" and not t.is_list:
        return "Tensor"  # an undefined Tensor stands for None
    if t.is_list:
        # Note [Optional lists] in wick/array_ref.h
        return f"OptionalArrayRef<{_LIST_ELEMENTS[t.base]}>" if t.optional else _LISTS[t.base]
    return f"std::optional<{_BASE[t.base]}>" if t.optional else _BASE[t.base]


def param_type(t: Type) -> str:
    v = value_type(t)
    return f"const {v}&" if v in ("Tensor", "Scalar") or v.startswith("std::optional<Scalar") else v


def return_type(ret: str) -> str:
    return _RETURNS[ret]


def signature_return_type(sig: Signature) -> str:
    """What the C++ function of `sig` returns: a std::tuple for a tuple return (Note [Tuple returns])."""
    if sig.fields:
        return f"std::tuple<{', '.join(_RETURNS[f.type] for f in sig.fields)}>"
    return return_type(sig.returns)


def out_params(sig: Signature) -> Tuple[Tuple[str, str, Optional[str]], ...]:
    """The leading parameters of <name>_out: `out`, or one per field of a tuple return, named after it."""
    return tuple(("const Tensor&", f.name, None) for f in sig.fields) or (("const Tensor&", "out", None),)


def default_value(p: Param) -> Optional[str]:
    if p.default is None:
        return None
    if p.default == "None":
        return "Tensor()" if p.type.base == "Tensor" else "std::nullopt"
    if p.default in ("True", "False"):
        return p.default.lower()
    return p.default


@dataclass(frozen=True)
class CppFunction:
    """One C++ function of an op: its name, parameters and how ops.cpp defines it (if it does)."""

    name: str
    params: Tuple[Tuple[str, str, Optional[str]], ...]  # (type, name, default)
    returns: str
    decl: Declaration
    sig: Signature
    form: str  # "functional" | "inplace" | "out"

    def prototype(self, defaults: bool) -> str:
        ps = []
        for t, n, d in self.params:
            ps.append(f"{t} {n}" + (f" = {d}" if defaults and d is not None else ""))
        return f"{self.returns} {self.name}({', '.join(ps)})"

    @property
    def arg_names(self) -> List[str]:
        return [n for _, n, _ in self.params]


def _params(sig: Signature) -> List[Tuple[str, str, Optional[str]]]:
    out = []
    defaults_ok = True
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
    base = core_name(decl)
    for sig in decl.signatures:
        ps = _params(sig)
        # Pointwise in-place and out= forms hand back the tensor they wrote, by
        # reference: no reference count changes hands on the per-call path.
        written = "const Tensor&" if isinstance(decl.impl, Pointwise) else signature_return_type(sig)
        form = "inplace" if decl.inplace_only else "functional"
        result.append(CppFunction(base, tuple(ps), written if decl.inplace_only else signature_return_type(sig),
                                  decl, sig, form))
        if decl.inplace:
            result.append(CppFunction(base + "_", tuple(ps), written, decl, sig, "inplace"))
        # A hand-written in-place op is derived from its out form, which then exists
        # even when Python gets no out= (Note [Out forms of hand-written ops]).
        if decl.out or (decl.inplace and isinstance(decl.impl, Cpp)):
            result.append(CppFunction(base + "_out", out_params(sig) + tuple(ps), written, decl, sig, "out"))
    return result


def hand_written(fn: CppFunction) -> bool:
    """Whether core implements `fn` by hand (see Note [Out forms of hand-written ops] in ops.h)."""
    if not isinstance(fn.decl.impl, Cpp):
        return False
    if fn.decl.inplace or fn.decl.out:
        return fn.form == "out"
    return True


def core_name(decl: Declaration) -> str:
    impl = decl.impl
    return impl.function if isinstance(impl, (Cpp, PythonImpl)) else decl.name


def is_pointwise(decl: Declaration) -> bool:
    return isinstance(decl.impl, Pointwise)
