"""The Python API of an op: which methods and functions it makes, and their overloads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Tuple

from codegen.model import Declaration, Form, PythonGlue, Variant
from codegen.schema import (DTYPE_NAMES, TENSOR, BaseTy, BaseType, ListType, OptionalType, Param, Return, Signature,
                            Type, is_optional, join_params, strip_optional)

@dataclass(frozen=True)
class ArgKind:
    """How the runtime's parser (python_ext/arg_parser.cpp) takes a parameter of a type."""

    name: str  # its enumerator, ArgKind::<name> in generated/python/arg_kinds.h
    shown: str  # how signatures and error messages name it, as PyTorch's do
    accessor: str  # the ParsedArgs method that converts it (arg_parser.h); "<accessor>_optional" for a '?' type
    # The Python values it takes, as type_ok in arg_parser.cpp checks them, for the check that no
    # overload hides another (codegen/validate.py).
    accepts: FrozenSet[str]
    # Where a wrapper keeps the argument: a list, seen by core as an ArrayRef; a Generator?, seen as a Generator*.
    holder: Optional[str] = None


def _kind(name: str, shown: str, accessor: str, *accepts: str, holder: Optional[str] = None) -> ArgKind:
    return ArgKind(name, shown, accessor, frozenset(accepts), holder)


INT, INTS = BaseType(BaseTy.int), ListType(BaseType(BaseTy.int))
# The parser's kinds, by the type a parameter has without '?': the one table that the C++ enum
# ArgKind and its names are generated from. An object takes anything ("*").
ARG_KINDS: Dict[Type, ArgKind] = {
    TENSOR: _kind("Tensor", "Tensor", "tensor", "tensor", "tensor0d"),
    BaseType(BaseTy.Scalar): _kind("Scalar", "Number", "scalar", "bool", "int", "float", "tensor0d"),
    INT: _kind("Int", "int", "toint", "int"),
    INTS: _kind("IntList", "tuple of ints", "intlist", "int", "ints", holder="DimVector"),
    BaseType(BaseTy.float): _kind("Double", "float", "todouble", "int", "float"),
    BaseType(BaseTy.bool): _kind("Bool", "bool", "tobool", "bool"),
    BaseType(BaseTy.ScalarType): _kind("DType", "wick.dtype", "dtype", "dtype"),
    BaseType(BaseTy.Device): _kind("Device", "wick.device", "device", "str", "device"),
    BaseType(BaseTy.object): _kind("Object", "object", "object", "*"),
    ListType(TENSOR): _kind("TensorList", "tuple of Tensors", "tensorlist", "tensors", holder="TensorList"),
    ListType(OptionalType(TENSOR)): _kind("OptionalTensorList", "tuple of (Tensor or None)", "optional_tensorlist",
                                          "tensors", "tensors_and_nones",
                                          holder="std::vector<std::optional<Tensor>>"),
    BaseType(BaseTy.str): _kind("String", "str", "string", "str"),
    # Held for the whole call, None as a null pointer (python_ext/generator_object.h).
    BaseType(BaseTy.Generator): _kind("Generator", "wick.Generator", "generator", "generator",
                                      holder="GeneratorArg"),
    BaseType(BaseTy.MemoryFormat): _kind("MemoryFormat", "wick.memory_format", "memory_format", "memory_format"),
}


def arg_kind(t: Type) -> ArgKind:
    return ARG_KINDS[strip_optional(t)]


# What the runtime's parser holds (kMaxParams and kMaxOverloads in python_ext/arg_parser.h): a
# binding beyond it is refused, and the generated bindings static_assert that the two agree.
MAX_PARAMS = 10
MAX_OVERLOADS = 8

OUT_PARAM = Param("out", OptionalType(TENSOR), "None", kwarg_only=True)
# out= of a tuple return: a tuple of tensors, one per field, which the wrapper checks (Note [Tuple returns]).
OUT_TUPLE_PARAM = Param("out", OptionalType(BaseType(BaseTy.object)), "None", kwarg_only=True)

# Names the stubs define or annotate with (templates/*.pyi.j2): an op of one of
# these names would shadow them there, and most would shadow a type, a dtype or
# an alias at runtime as well. Methods meet only what the body of TensorBase uses.
# What the wick package defines in Python the model refuses (codegen/names.py).
_ANNOTATIONS: FrozenSet[str] = frozenset({
    "Any", "Optional", "Sequence", "Tuple", "Union", "overload", "property", "Tensor", "TensorBase", "_T",
    "_Number", "_int", "_float", "_bool", "_str", "_dtype", "_DTypeLike", "_device", "_DeviceLike", "_Size",
    "_IndexItem", "_Index", "Dict", "List", "SupportsIndex", "_return_types", "_named_tuples", "Generator",
    "memory_format",
})
RESERVED_METHODS: FrozenSet[str] = _ANNOTATIONS | {
    "shape", "dtype", "device", "ndim", "is_cuda", "itemsize", "_base",
}
RESERVED_FUNCTIONS: FrozenSet[str] = _ANNOTATIONS | {
    "TypeVar", "final", "slice", "str", "type", "ellipsis", "dtype", "device", *DTYPE_NAMES, "_has_cuda",
    "contiguous_format", "preserve_format", "channels_last", "channels_last_3d",
    "_cuda_is_available", "_cuda_device_count", "_set_tensor_class", "_init_subclass", "_legacy_new",
    "from_numpy", "from_dlpack", "_to_dlpack", "default_generator",
}


def _accepts(t: Type) -> FrozenSet[str]:
    kinds = arg_kind(t).accepts
    return kinds | {"None"} if is_optional(t) else kinds


def _covers(wide: Param, narrow: Param) -> bool:
    return "*" in _accepts(wide.type) or _accepts(narrow.type) <= _accepts(wide.type)


def py_type(t: Type) -> str:
    """How signatures in docs and errors name a type; `=None` already says it is optional."""
    return arg_kind(t).shown


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

    @property
    def returns_text(self) -> str:
        """What it returns, as docstrings show it: Tensor, tuple of Tensors, (Tensor values, Tensor indices)."""
        if self.returns_self:
            return "Tensor"
        if self.sig.returns_none:
            return "None"
        shown = [f"{py_type(r.type)} {r.name}" if r.name else py_type(r.type) for r in self.sig.returns]
        return f"({', '.join(shown)})" if self.sig.is_tuple else shown[0]

    @property
    def sizes_param(self) -> Optional[Param]:
        """Its lone positional parameter when that is an int[], which also takes its values as *args:
        x.view(2, 3) as x.view((2, 3))."""
        positional = [p for p in self.params if not p.kwarg_only]
        if len(positional) == 1 and strip_optional(positional[0].type) == INTS:
            return positional[0]
        return None

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


# Note [requires_grad of factories]
# A function that makes a tensor (it takes `*, Device? device`) also takes PyTorch's
# `requires_grad=False`, which only the binding reads: it marks the new leaf.
REQUIRES_GRAD_PARAM = Param("requires_grad", BaseType(BaseTy.bool), "False", kwarg_only=True)


def is_factory(sig: Signature) -> bool:
    device = sig.param("device")
    return device is not None and device.kwarg_only and device.type == OptionalType(BaseType(BaseTy.Device))


def bindings(decls: List[Declaration]) -> Tuple[List[Binding], List[Binding]]:
    """(Tensor methods, module functions), each sorted by name."""
    methods: Dict[str, List[Overload]] = {}
    functions: Dict[str, List[Overload]] = {}
    docs: Dict[str, str] = {}
    for d in decls:
        api = d.api
        for sig in api.signatures:
            if api.has(Variant.method) and sig.takes_tensor_self:
                methods.setdefault(d.name, []).append(
                    Overload(d, sig, sig.params[1:], Form.inplace if api.mutates_self else Form.functional, True))
                if Variant.method in api.inplace_variants:
                    methods.setdefault(d.name + "_", []).append(Overload(d, sig, sig.params[1:], Form.inplace, True))
            if api.has(Variant.function):
                out = api.out and sig.has_out_form
                form = Form.inplace if api.mutates_self else Form.out if out else Form.functional
                params = sig.params + ((REQUIRES_GRAD_PARAM,) if is_factory(sig) else ()) + \
                    ((OUT_TUPLE_PARAM if sig.is_tuple else OUT_PARAM,) if out else ())
                functions.setdefault(d.name, []).append(Overload(d, sig, params, form, False))
                if Variant.function in api.inplace_variants and sig.takes_tensor_self:
                    functions.setdefault(d.name + "_", []).append(Overload(d, sig, sig.params, Form.inplace, False))
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

