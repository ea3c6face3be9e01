"""The type stubs of wick._C (TensorBase and the functions, an @overload per overload) and of the wick package."""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, FrozenSet, List

from codegen.api.python import Binding, Overload, bindings, return_types
from codegen.dest.common import render
from codegen.errors import DeclarationError
from codegen.model import DTYPES, RETURN_TYPES, TUPLE_FIELD_TYPES, Declaration, Param, join_params

# Note [Stub types]
# ~~~~~~~~~~~~~~~~~
# A parameter takes what the runtime accepts (python_ext/arg_parser.cpp,
# type_ok): any TensorBase for a Tensor, an int or a sequence of ints for an
# int[], a wick.device or a string for a Device. A returned Tensor is a
# wick.Tensor, the class every new tensor gets (wick._C._set_tensor_class), so
# results have the operators of wick/_tensor.py; an in-place op returns its
# `self`, typed _T so that FloatTensor.fill_() stays a FloatTensor. The stub
# spells builtins and the dtype and device classes through underscored aliases
# (_int, _dtype, ...): wick._C.bool is a dtype, and in the body of TensorBase
# `dtype` and `device` are its properties, which an annotation would find first.
#
# A Tensor[] or Tensor?[] parameter is a Sequence (the runtime takes a list or a
# tuple; a list of wick.Tensor is no List[TensorBase], lists being invariant),
# and a Tensor[] result a Tuple[Tensor, ...].
_PARAM: Dict[str, str] = {
    "Tensor": "TensorBase", "Scalar": "_Number", "int": "_int", "float": "_float", "bool": "_bool",
    "ScalarType": "_dtype", "Device": "_DeviceLike", "object": "Any", "str": "_str",
}
_LIST: Dict[str, str] = {
    "int[]": "_Size", "Tensor[]": "Sequence[TensorBase]", "Tensor?[]": "Sequence[Optional[TensorBase]]",
}
_RETURN: Dict[str, str] = {
    "Tensor": "Tensor", "Tensor(a!)": "_T", "Scalar": "_Number", "int": "_int", "int[]": "Tuple[_int, ...]",
    "bool": "_bool", "float": "_float", "object": "Any", "None": "None", "Tensor[]": "Tuple[Tensor, ...]",
}
assert set(_RETURN) == RETURN_TYPES
# A tuple return is the NamedTuple class of its op in wick/return_types.pyi (Note [Tuple returns]),
# whose fields, like returned Tensors, are wick.Tensor (spelt _Tensor there).
_FIELD: Dict[str, str] = {"Tensor": "_Tensor"}
assert set(_FIELD) == TUPLE_FIELD_TYPES

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
    "TypeVar", "final", "slice", "str", "type", "ellipsis", "dtype", "device", *DTYPES, "_has_cuda",
    "_cuda_is_available", "_cuda_device_count", "_set_tensor_class", "_init_subclass", "_legacy_new",
    "from_numpy", "from_dlpack", "_to_dlpack",
}


def _annotation(p: Param) -> str:
    if p.type.mutable:
        return "_T"
    base = _LIST[str(replace(p.type, optional=False))] if p.type.is_list else _PARAM[p.type.base]
    return f"Optional[{base}]" if p.type.optional else base


def _shown(p: Param) -> str:
    return f"{p.name}: {_annotation(p)}" + ("" if p.default is None else " = ...")


def _defs(b: Binding, ov: Overload) -> List[str]:
    """The stub's `def` lines for one overload: two where a lone int[] also takes its sizes as *args."""
    head = ["self: _T" if ov.returns_self else "self"] if b.method else []
    ret = "_T" if ov.returns_self else f"_named_tuples.{ov.decl.name}" if ov.sig.fields else _RETURN[ov.sig.returns]

    def shown(p: Param) -> str:  # out= of a tuple return takes one tensor per field
        if ov.has_out and ov.sig.fields and p.name == "out":
            return f"out: Optional[Tuple[{', '.join('TensorBase' for _ in ov.sig.fields)}]] = ..."
        return _shown(p)

    params = ", ".join(head + ([join_params(ov.params, shown)] if ov.params else []))
    defs = [f"def {b.name}({params}) -> {ret}: ..."]
    positional = [p for p in ov.params if not p.kwarg_only]
    if len(positional) == 1 and positional[0].type.is_list and positional[0].type.base == "int":  # x.view(2, 3)
        rest = [f"*{positional[0].name}: _int"] + [shown(p) for p in ov.params if p.kwarg_only]
        defs.append(f"def {b.name}({', '.join(head + rest)}) -> {ret}: ...")
    return defs


def _entry(b: Binding) -> Dict[str, object]:
    if b.name in (RESERVED_METHODS if b.method else RESERVED_FUNCTIONS):
        decl = b.overloads[0].decl
        what = "TensorBase" if b.method else "wick"
        raise DeclarationError(decl.loc, f"'{b.name}' is a name that {what} or its type stub defines already",
                               decl.name, "rename the op")
    defs = [d for ov in b.overloads for d in _defs(b, ov)]
    return dict(name=b.name, defs=defs, overloaded=len(defs) > 1)


def emit(decls: List[Declaration]) -> Dict[str, str]:
    methods, functions = bindings(decls)
    names = [b.name for b in functions]
    return {
        "python/_C.pyi": render("_C.pyi.j2", dtypes=DTYPES, methods=[_entry(b) for b in methods],
                                functions=[_entry(b) for b in functions]),
        "python/__init__.pyi": render("__init__.pyi.j2", dtypes=DTYPES, functions=names),
        "python/return_types.pyi": render("return_types.pyi.j2", types=[
            dict(name=name, fields=[(f.name, _FIELD[f.type]) for f in fields])
            for name, fields in return_types(decls)]),
    }
