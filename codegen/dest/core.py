"""Core's side of every op: generated/include/wick/ops.h, the ops units of the shards
(generated/core/ops_shard<N>.cpp) and the table of copy kernels."""
from __future__ import annotations

from typing import Dict, List, Tuple

from codegen.api import cpp
from codegen.dest.common import CPP_TYPE, NUM_SHARDS, by_shard, render
from codegen.errors import DeclarationError
from codegen.model import DTYPES, MAX_OPERANDS, Cpp, Declaration, Pointwise


def _pointwise_body(fn: cpp.CppFunction) -> str:
    decl = fn.decl
    impl = decl.impl
    assert isinstance(impl, Pointwise)
    # A Scalar operand (the `other` of x + 2) is an Operand of its own: a wrapped
    # number to promotion (Note [Wrapped numbers]), a value on the stack to the kernel.
    operands = f"{{{', '.join(impl.operands)}}}, {{{', '.join(impl.constants)}}}"
    if fn.form == "functional":
        return f"return detail::pointwise({decl.name}_pointwise, {operands});"
    target, mode = ("self", "InPlace") if fn.form == "inplace" else ("out", "Out")
    return f"return detail::pointwise_into({decl.name}_pointwise, {target}, OutMode::{mode}, {operands});"


def _derived_body(fn: cpp.CppFunction) -> str:
    """Functional and in-place forms of a hand-written op that has an out form."""
    args = ", ".join(fn.arg_names)
    if fn.form == "functional":
        outs = ", ".join("Tensor()" for _ in cpp.out_params(fn.sig))
        return f"return {fn.name}_out({outs}, {args});"
    assert fn.form == "inplace"
    base = fn.name[:-1]
    return f'return detail::assign_inplace("{fn.name}", self, {base}_out(Tensor(), {args}));'


def _unique(fns: List[cpp.CppFunction]) -> List[cpp.CppFunction]:
    """`fns` without repeats: an alias (concat of cat) names a C++ function that another op declared.

    C++ accepts one declaration of a default and one definition, so the two must agree on
    everything but parameter names.
    """
    seen: Dict[Tuple[str, Tuple[str, ...]], cpp.CppFunction] = {}
    result = []
    for fn in fns:
        first = seen.setdefault((fn.name, tuple(t for t, _, _ in fn.params)), fn)
        if first is fn:
            result.append(fn)
            continue

        def shape(f: cpp.CppFunction) -> object:
            return f.returns, tuple(d for _, _, d in f.params), f.form, cpp.hand_written(f)

        if shape(first) != shape(fn):
            raise DeclarationError(fn.decl.loc, f"'{fn.decl.name}' declares {fn.prototype(defaults=True)}, which "
                                   f"'{first.decl.name}' declares with other defaults or forms", fn.decl.name,
                                   "give both the same signatures, inplace and out, or name another C++ function")
    return result


def ops_unit(shard: int) -> str:
    return f"core/ops_shard{shard}.cpp"


def outputs() -> List[str]:
    return ["include/wick/ops.h", *(ops_unit(s) for s in range(NUM_SHARDS)), "core/copy_kernels.cpp"]


def emit(decls: List[Declaration]) -> Dict[str, str]:
    fns = _unique([fn for d in decls for fn in cpp.functions(d)])
    core_fns = [fn for fn in fns if fn.returns != "PyObject*" and not _python(fn)]
    bodies = []
    for fn in core_fns:
        if isinstance(fn.decl.impl, Pointwise):
            bodies.append((fn, _pointwise_body(fn)))
        elif isinstance(fn.decl.impl, Cpp) and not cpp.hand_written(fn):
            bodies.append((fn, _derived_body(fn)))
    files = {
        "include/wick/ops.h": render("ops.h.j2", functions=core_fns),
        "core/copy_kernels.cpp": render("copy_tables.cpp.j2", cpp_types=[CPP_TYPE[t] for t in DTYPES]),
    }
    shard_bodies = by_shard(bodies, lambda body: body[0].decl.name)
    pointwise = [d for d in decls if isinstance(d.impl, Pointwise)]
    for s, shard_pointwise in enumerate(by_shard(pointwise, lambda d: d.name)):
        files[ops_unit(s)] = render("ops.cpp.j2", shard=s, bodies=shard_bodies[s], max_operands=MAX_OPERANDS,
                                    pointwise=[_kernel_table(d) for d in shard_pointwise], dtypes=DTYPES)
    return files


def _kernel_table(d: Declaration) -> Dict[str, object]:
    def table(backend: str, entry: str) -> List[str]:
        return [f"&{backend}_pointwise_{entry}<kernels::{_functor(d)}<{CPP_TYPE[t]}>>" if t in d.dtypes[backend]
                else "nullptr" for t in DTYPES]
    entries = dict(cpu=table("cpu", "kernel"), cuda=table("cuda", "kernel"), cpu_run=table("cpu", "run"))
    return dict(decl=d, functor=_functor(d), entries=entries)


def _python(fn: cpp.CppFunction) -> bool:
    return not isinstance(fn.decl.impl, (Cpp, Pointwise))


def _functor(d: Declaration) -> str:
    return f"{d.name}_op"
