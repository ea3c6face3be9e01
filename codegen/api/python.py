"""The Python API of an op: which methods and functions it makes, and their overloads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Tuple

from codegen.model import Declaration, Form, PythonGlue, Variant
from codegen.schema import (DTYPE_NAMES, TENSOR, BaseTy, BaseType, ListType, OptionalType, Param, Return, Signature, Type,
                            base_of, is_list, is_optional, join_params, strip_optional)

# How the runtime (python_ext/arg_parser.h) converts each parameter type.
ARG_KIND: Dict[BaseTy, str] = {
    BaseTy.Tensor: "Tensor", BaseTy.Scalar: "Scalar", BaseTy.int: "Int", BaseTy.float: "Double",
    BaseTy.bool: "Bool", BaseTy.ScalarType: "DType", BaseTy.Device: "Device", BaseTy.object: "Object",
    BaseTy.str: "String",
}
# Names shown in signatures and error messages, as PyTorch shows them.
PY_TYPE: Dict[BaseTy, str] = {
    BaseTy.Tensor: "Tensor", BaseTy.Scalar: "Number", BaseTy.int: "int", BaseTy.float: "float", BaseTy.bool: "bool",
    BaseTy.ScalarType: "dtype", BaseTy.Device: "Device", BaseTy.object: "object", BaseTy.str: "str",
}
# List types, by the type without '?': (runtime kind, name in signatures).
_LISTS: Dict[Type, Tuple[str, str]] = {
    ListType(BaseType(BaseTy.int)): ("IntList", "tuple of ints"),
    ListType(TENSOR): ("TensorList", "tuple of Tensors"),
    ListType(OptionalType(TENSOR)): ("OptionalTensorList", "tuple of (Tensor or None)"),
}

# What the runtime's parser holds (kMaxParams and kMaxOverloads in python_ext/arg_parser.h): a
# binding beyond it is refused, and the generated bindings static_assert that the two agree.
MAX_PARAMS = 10
MAX_OVERLOADS = 8

OUT_PARAM = Param("out", OptionalType(TENSOR), "None", kwarg_only=True)
# out= of a tuple return: a tuple of tensors, one per field, which the wrapper checks (Note [Tuple returns]).
OUT_TUPLE_PARAM = Param("out", OptionalType(BaseType(BaseTy.object)), "None", kwarg_only=True)

# The Python values each parameter type accepts (python_ext/arg_parser.cpp, type_ok).
_ACCEPTS: Dict[Type, FrozenSet[str]] = {
    TENSOR: frozenset({"tensor", "tensor0d"}),
    BaseType(BaseTy.Scalar): frozenset({"bool", "int", "float", "tensor0d"}),
    BaseType(BaseTy.int): frozenset({"int"}),
    ListType(BaseType(BaseTy.int)): frozenset({"int", "ints"}),
    BaseType(BaseTy.float): frozenset({"int", "float"}),
    BaseType(BaseTy.bool): frozenset({"bool"}),
    BaseType(BaseTy.ScalarType): frozenset({"dtype"}),
    BaseType(BaseTy.Device): frozenset({"str", "device"}),
    BaseType(BaseTy.str): frozenset({"str"}),
    ListType(TENSOR): frozenset({"tensors"}),
    ListType(OptionalType(TENSOR)): frozenset({"tensors", "tensors_and_nones"}),
}


# Names the stubs define or annotate with (templates/*.pyi.j2): an op of one of
# these names would shadow them there, and most would shadow a type, a dtype or
# an alias at runtime as well. Methods meet only what the body of TensorBase uses.
# What the wick package defines in Python the model refuses (codegen/names.py).
_ANNOTATIONS: FrozenSet[str] = frozenset({
    "Any", "Optional", "Sequence", "Tuple", "Union", "overload", "property", "Tensor", "TensorBase", "_T",
    "_Number", "_int", "_float", "_bool", "_str", "_dtype", "_device", "_DeviceLike", "_Size", "_IndexItem", "_Index",
    "Dict", "_return_types", "_named_tuples",
})
RESERVED_METHODS: FrozenSet[str] = _ANNOTATIONS | {
    "shape", "dtype", "device", "ndim", "is_cuda", "itemsize", "_base",
}
RESERVED_FUNCTIONS: FrozenSet[str] = _ANNOTATIONS | {
    "TypeVar", "final", "slice", "str", "type", "ellipsis", "dtype", "device", *DTYPE_NAMES, "_has_cuda",
    "_cuda_is_available", "_cuda_device_count", "_set_tensor_class", "_init_subclass", "_legacy_new",
    "from_numpy", "from_dlpack", "_to_dlpack",
}


def _accepts(t: Type) -> FrozenSet[str]:
    if base_of(t) == BaseTy.object:
        return frozenset({"*"})
    kinds = _ACCEPTS[strip_optional(t)]
    return kinds | {"None"} if is_optional(t) else kinds


def _covers(wide: Param, narrow: Param) -> bool:
    return "*" in _accepts(wide.type) or _accepts(narrow.type) <= _accepts(wide.type)


def arg_kind(t: Type) -> str:
    return _LISTS[strip_optional(t)][0] if is_list(t) else ARG_KIND[base_of(t)]


def py_type(t: Type) -> str:
    """How signatures in docs and errors name a type; `=None` already says it is optional."""
    return _LISTS[strip_optional(t)][1] if is_list(t) else PY_TYPE[base_of(t)]


@dataclass(frozen=True)
class Overload:
    decl: Declaration
    sig: Signature
    params: Tuple[Param, ...]  # as Python sees them: no self for methods, out= added
    form: Form
    method: bool

    @property
    def text(self) -> str:
        """The signature as error messages show it: (Tensor other, *, Number alpha=1)."""
        shown = join_params(self.params, lambda p: f"{self.py_type(p)} {p.name}" + (
            "" if p.default is None else f"={p.default}"))
        return f"({shown})"

    def py_type(self, p: Param) -> str:
        """As py_type(p.type), with PyTorch's name for the out= of a tuple return."""
        return "tuple of Tensors" if self.has_out and self.sig.is_tuple and p.name == "out" else py_type(p.type)

    @property
    def returns_self(self) -> bool:
        return self.form == Form.inplace or self.sig.returns_self

    @property
    def has_out(self) -> bool:
        return self.form == Form.out

    @property
    def fields(self) -> Tuple[Return, ...]:
        return self.sig.fields

    def cpp_function(self, with_out: bool) -> str:
        base = self.decl.cpp_name
        if self.form == Form.inplace and not self.decl.api.mutates_self:
            return base + "_"
        return base + "_out" if with_out else base

    @property
    def python_glue(self) -> bool:
        return isinstance(self.decl.impl, PythonGlue)


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

    @property
    def decl(self) -> Declaration:
        """The declaration of its first overload (in-place methods and aliases share a name)."""
        return self.overloads[0].decl


def bindings(decls: List[Declaration]) -> Tuple[List[Binding], List[Binding]]:
    """(Tensor methods, module functions), each sorted by name."""
    methods: Dict[str, List[Overload]] = {}
    functions: Dict[str, List[Overload]] = {}
    docs: Dict[str, str] = {}
    for d in decls:
        api = d.api
        for sig in api.signatures:
            if api.has(Variant.method):
                methods.setdefault(d.name, []).append(
                    Overload(d, sig, sig.params[1:], Form.inplace if api.mutates_self else Form.functional, True))
                if api.inplace:
                    methods.setdefault(d.name + "_", []).append(Overload(d, sig, sig.params[1:], Form.inplace, True))
            if api.has(Variant.function):
                form = Form.inplace if api.mutates_self else Form.out if api.out else Form.functional
                params = sig.params + ((OUT_TUPLE_PARAM if sig.is_tuple else OUT_PARAM,) if api.out else ())
                functions.setdefault(d.name, []).append(Overload(d, sig, params, form, False))
        docs[d.name] = api.doc
        if api.inplace:
            docs[d.name + "_"] = f"In-place form of {d.name}(). {api.doc}"

    def build(table: Dict[str, List[Overload]], method: bool) -> List[Binding]:
        return [Binding(n, method, tuple(ovs), docs[n]) for n, ovs in sorted(table.items())]

    return build(methods, True), build(functions, False)


def return_types(decls: List[Declaration]) -> List[Tuple[str, Tuple[Return, ...]]]:
    """(name, fields) of each named tuple type of wick.return_types, sorted by name (Note [Tuple returns])."""
    found = {d.name: sig.fields for d in decls for sig in d.api.signatures if sig.is_tuple}
    return sorted(found.items())


def shadows(first: Tuple[Param, ...], second: Tuple[Param, ...]) -> bool:
    """Whether every call that the overload `second` accepts is accepted by `first` (Note [Argument parsing])."""
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

