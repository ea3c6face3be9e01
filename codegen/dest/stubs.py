"""The type stubs of wick._C (TensorBase and the functions, an @overload per overload) and of the wick package."""
from __future__ import annotations

from typing import Dict, List

from codegen.api.python import Binding, Overload, bindings, return_types
from codegen.dest.common import Layout, render
from codegen.model import Declaration
from codegen.schema import (DTYPES, TENSOR, TUPLE_FIELD_TYPES, BaseTy, BaseType, ListType, OptionalType, Param,
                            Signature, Type, base_of, is_list, is_optional, join_params, strip_optional)

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
_PARAM: Dict[BaseTy, str] = {
    BaseTy.Tensor: "TensorBase", BaseTy.Scalar: "_Number", BaseTy.int: "_int", BaseTy.float: "_float",
    BaseTy.bool: "_bool", BaseTy.ScalarType: "_DTypeLike", BaseTy.Device: "_DeviceLike", BaseTy.object: "Any",
    BaseTy.str: "_str", BaseTy.Generator: "Generator", BaseTy.MemoryFormat: "memory_format",
}
_LIST: Dict[Type, str] = {
    ListType(BaseType(BaseTy.int)): "_Size", ListType(TENSOR): "Sequence[TensorBase]",
    ListType(OptionalType(TENSOR)): "Sequence[Optional[TensorBase]]",
}
# What a lone returned value is, by its base type; a list of it is a Tuple of it.
_RETURN: Dict[BaseTy, str] = {
    BaseTy.Tensor: "Tensor", BaseTy.Scalar: "_Number", BaseTy.int: "_int", BaseTy.bool: "_bool",
    BaseTy.float: "_float", BaseTy.object: "Any",
}
# A tuple return is the NamedTuple class of its op in wick/return_types.pyi (Note [Tuple returns]),
# whose fields, like returned Tensors, are wick.Tensor (spelt _Tensor there).
_FIELD: Dict[BaseTy, str] = {BaseTy.Tensor: "_Tensor"}
assert set(_FIELD) == TUPLE_FIELD_TYPES


def _annotation(p: Param) -> str:
    if p.mutable:
        return "_T"
    base = _LIST[strip_optional(p.type)] if is_list(p.type) else _PARAM[base_of(p.type)]
    return f"Optional[{base}]" if is_optional(p.type) else base


def _returned(sig: Signature) -> str:
    if sig.returns_none:
        return "None"
    t = sig.returns[0].type
    return f"Tuple[{_RETURN[base_of(t)]}, ...]" if is_list(t) else _RETURN[base_of(t)]


def _shown(p: Param) -> str:
    return f"{p.name}: {_annotation(p)}" + ("" if p.default is None else " = ...")


def _defs(b: Binding, ov: Overload) -> List[str]:
    """The stub's `def` lines for one overload: two where a lone int[] also takes its sizes as *args."""
    head = ["self: _T" if ov.returns_self else "self"] if b.method else []
    ret = "_T" if ov.returns_self else f"_named_tuples.{ov.decl.name}" if ov.sig.is_tuple else _returned(ov.sig)

    def shown(p: Param) -> str:
        if ov.returns_self and p.name == "self":  # the function variant of an in-place form: wick.index_put_
            return "self: _T"
        if ov.has_out and ov.sig.is_tuple and p.name == "out":  # one tensor per field
            return f"out: Optional[Tuple[{', '.join('TensorBase' for _ in ov.sig.fields)}]] = ..."
        return _shown(p)

    params = ", ".join(head + ([join_params(ov.params, shown)] if ov.params else []))
    defs = [f"def {b.name}({params}) -> {ret}: ..."]
    if ov.sizes_param is not None:  # x.view(2, 3)
        rest = [f"*{ov.sizes_param.name}: _int"] + [shown(p) for p in ov.params if p.kwarg_only]
        defs.append(f"def {b.name}({', '.join(head + rest)}) -> {ret}: ...")
    return defs


def _entry(b: Binding) -> Dict[str, object]:
    defs = [d for ov in b.overloads for d in _defs(b, ov)]
    return dict(name=b.name, defs=defs, overloaded=len(defs) > 1)


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    methods, functions = bindings(decls)
    names = [b.name for b in functions]
    return {
        "python/_C.pyi": render("_C.pyi.j2", dtypes=DTYPES, methods=[_entry(b) for b in methods],
                                functions=[_entry(b) for b in functions]),
        "python/__init__.pyi": render("__init__.pyi.j2", dtypes=DTYPES, functions=names),
        "python/_legacy.pyi": render("_legacy.pyi.j2", dtypes=DTYPES),
        "python/return_types.pyi": render("return_types.pyi.j2", types=[
            dict(name=name, fields=[(f.name, _FIELD[base_of(f.type)]) for f in fields])
            for name, fields in return_types(decls)]),
    }
