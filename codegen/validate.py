"""codegen/validate.py: the checks that span declarations, run once before any emitter.

codegen/reader.py checks each declaration alone; what depends on several (one name
declared twice, two ops sharing a C++ function, the overloads of one Python name,
names the generated stubs reserve) is checked here, so that emitters only render.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from codegen.api import cpp
from codegen.api.python import (MAX_OVERLOADS, MAX_PARAMS, RESERVED_FUNCTIONS, RESERVED_METHODS, Binding, bindings,
                                 shadows)
from codegen.derivatives import check_calls
from codegen.errors import DeclarationError
from codegen.model import Declaration, Variant


def validate(decls: List[Declaration]) -> None:
    _names_unique(decls)
    _cpp_functions_agree(decls)
    _derivatives_call_ops(decls)
    methods, functions = bindings(decls)
    for b in methods + functions:
        _fits_the_parser(b)
        _overloads_reachable(b)
        _not_reserved(b)


def _derivatives_call_ops(decls: List[Declaration]) -> None:
    """The functions and methods that derivative formulas call are ops (or helpers, Note [Derivatives])."""
    functions = {d.name for d in decls} | {d.name + "_" for d in decls if d.api.inplace}
    methods = {d.name for d in decls if d.api.has(Variant.method)}
    methods |= {d.name + "_" for d in decls if Variant.method in d.api.inplace_variants}
    for d in decls:
        check_calls(d.derivatives, d.name, functions, methods)


def _names_unique(decls: List[Declaration]) -> None:
    """Op names are unique, the in-place methods that `inplace: true` derives included."""
    seen: Dict[str, Declaration] = {}
    for d in decls:
        for n in [d.name] + ([d.name + "_"] if d.api.inplace else []):
            if n in seen:
                raise DeclarationError(d.loc, f"'{n}' is declared twice (first at {seen[n].loc})", d.name)
            seen[n] = d


def _cpp_functions_agree(decls: List[Declaration]) -> None:
    """Two ops may name one C++ function (an alias: concat of cat), and then declare it alike.

    C++ accepts one declaration of a default and one definition, so the two must agree on
    everything but parameter names.
    """
    seen: Dict[Tuple[str, Tuple[str, ...]], cpp.CppFunction] = {}
    for fn in [fn for d in decls for fn in cpp.functions(d)]:
        first = seen.setdefault((fn.name, tuple(t for t, _, _ in fn.params)), fn)

        def shape(f: cpp.CppFunction) -> object:
            return f.returns, tuple(d for _, _, d in f.params), f.form, f.hand_written

        if shape(first) != shape(fn):
            raise DeclarationError(fn.decl.loc, f"'{fn.decl.name}' declares {fn.prototype(defaults=True)}, which "
                                   f"'{first.decl.name}' declares with other defaults or forms", fn.decl.name,
                                   "give both the same signatures, inplace and out, or name another C++ function")


def _fits_the_parser(b: Binding) -> None:
    """No more overloads, and no overload with more parameters, than the runtime's parser holds."""
    if len(b.overloads) > MAX_OVERLOADS:
        extra = b.overloads[MAX_OVERLOADS]
        raise DeclarationError(extra.decl.api.signature_loc(extra.sig), f"{b.name}() has {len(b.overloads)} "
                               f"overloads, more than the {MAX_OVERLOADS} the argument parser holds", extra.decl.name,
                               "declare another op for some of them")
    for ov in b.overloads:
        if len(ov.params) > MAX_PARAMS:
            raise DeclarationError(ov.decl.api.signature_loc(ov.sig), f"{b.name}() takes {len(ov.params)} "
                                   f"arguments in Python{' with out=' if ov.has_out else ''}, more than the "
                                   f"{MAX_PARAMS} the argument parser holds",
                                   ov.decl.name, "group some of them in a list, or split the op")


def _overloads_reachable(b: Binding) -> None:
    """No overload that an earlier one always wins (Note [Argument parsing])."""
    for j, later in enumerate(b.overloads):
        for earlier in b.overloads[:j]:
            if shadows(earlier.params, later.params):
                raise DeclarationError(
                    later.decl.api.signature_loc(later.sig), f"overload {b.name}{later.text} can never be chosen: "
                    f"every call it accepts matches the earlier {b.name}{earlier.text}", later.decl.name,
                    "reorder the signatures, narrowest first, or make them differ")


def _not_reserved(b: Binding) -> None:
    """No name that the stubs of wick._C define or annotate with (Note [Stub types])."""
    if b.name in (RESERVED_METHODS if b.method else RESERVED_FUNCTIONS):
        what = "TensorBase" if b.method else "wick"
        raise DeclarationError(b.decl.loc, f"'{b.name}' is a name that {what} or its type stub defines already",
                               b.decl.name, "rename the op")
