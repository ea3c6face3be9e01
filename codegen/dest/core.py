"""Core's side of every op: generated/include/wick/ops.h, the ops units of the shards
(generated/core/ops_shard<N>.cpp) and the table of copy kernels."""
from __future__ import annotations

from typing import Dict, List

from codegen.api import cpp
from codegen.dest import kernels
from codegen.dest.common import CPP_TYPE, Layout, render
from codegen.model import Backend, Cpp, Declaration, Form, OutDtype, Output, Pointwise, Promotion, PythonGlue
from codegen.reader import MAX_OPERANDS
from codegen.schema import DTYPES, BaseTy, BaseType, OptionalType, Signature, base_of, is_list, is_optional


def _pointwise_body(fn: cpp.CppFunction) -> str:
    decl = fn.decl
    impl = decl.impl
    assert isinstance(impl, Pointwise)
    # A Scalar operand (the `other` of x + 2) is an Operand of its own: a wrapped
    # number to promotion (Note [Wrapped numbers]), a value on the stack to the kernel.
    constants = [f"detail::nan_if_none({c})" if _is_optional(fn.sig, c) else c for c in impl.constants]
    operands = f"{{{', '.join(impl.operands)}}}, {{{', '.join(constants)}}}"
    if fn.form == Form.functional:
        return f"return detail::pointwise({decl.name}_pointwise, {operands});"
    target, mode = ("self", "InPlace") if fn.form == Form.inplace else ("out", "Out")
    return f"return detail::pointwise_into({decl.name}_pointwise, {target}, OutMode::{mode}, {operands});"


def _structured_body(fn: cpp.CppFunction) -> str:
    """A form of a structured op, from its meta and impl (Note [Structured ops] in wick/structured.h)."""
    base, impl = fn.decl.cpp_name, fn.decl.impl
    assert isinstance(impl, Cpp)
    fields = [str(f.name) for f in fn.sig.fields] or ["out"]
    names = [p.name for p in fn.sig.params]
    lines = []
    # out_dtype: cast. A dtype= left None is out's, which the result then has; without a dtype=
    # parameter, out may have any dtype the result casts to.
    casting = fn.form == Form.out and impl.out_dtype == OutDtype.cast
    if casting and _takes_dtype(fn.sig):
        lines.append(f"const std::optional<DType> result_dtype = detail::dtype_or_out(dtype, {fields[0]});")
        names = ["result_dtype" if n == "dtype" else n for n in names]
        casting = False
    args = ", ".join(names)
    lines.append(f"const auto spec = detail::{base}_meta({args});")

    def at(i: int) -> str:  # the spec of field i
        return f"spec[{i}]" if fn.sig.is_tuple else "spec"
    if fn.form == Form.functional:
        lines += [f"Tensor {name} = detail::new_output({at(i)});" for i, name in enumerate(fields)]
        lines.append(f"detail::{base}_impl({', '.join(fields)}, {args});")
        lines.append(f"return {{{', '.join(fields)}}};" if fn.sig.is_tuple else "return out;")
        return "\n  ".join(lines)
    tensors = [p for p in fn.sig.params if base_of(p.type) == BaseTy.Tensor]
    if fn.form == Form.inplace:
        others = [p.name for p in tensors if p.name != "self"]
        inputs = f"{{{', '.join('&' + n for n in others if not _is_list(fn.sig, n))}}}"
        lists = [n for n in others if _is_list(fn.sig, n)]
        lines.append(f"const auto target = detail::Output::in_place(self, spec, {inputs}"
                     + (f", {{{', '.join(lists)}}}" if lists else "") + ");")
        targets = ["target"]
    else:
        inputs = f"{{{', '.join('&' + p.name for p in tensors if not is_list(p.type))}}}"
        lists = [p.name for p in tensors if is_list(p.type)]
        targets = [f"{name}_target" for name in fields]
        for i, (name, target) in enumerate(zip(fields, targets)):
            given = f'"{fn.decl.name}", {name}, {at(i)}, {inputs}' + (f", {{{', '.join(lists)}}}" if lists else "")
            lines.append(f"const auto {target} = detail::Output::casting({given});" if casting
                         else f"const detail::Output {target}({given});")
    lines.append(f"detail::{base}_impl({', '.join(t + '.tensor()' for t in targets)}, {args});")
    finished = [f"{t}.finish()" for t in targets]
    lines.append(f"return {{{', '.join(finished)}}};" if fn.sig.is_tuple else f"return {finished[0]};")
    return "\n  ".join(lines)


def _takes_dtype(sig: Signature) -> bool:
    p = sig.param("dtype")
    return p is not None and p.type == OptionalType(BaseType(BaseTy.ScalarType))


def _is_optional(sig: Signature, name: str) -> bool:
    p = sig.param(name)
    return p is not None and is_optional(p.type)


def _is_list(sig: Signature, name: str) -> bool:
    p = sig.param(name)
    return p is not None and is_list(p.type)


def _unique(fns: List[cpp.CppFunction]) -> List[cpp.CppFunction]:
    """`fns` without repeats: an alias (concat of cat) names a C++ function that another op declared
    alike (codegen/validate.py checks that they agree)."""
    seen = set()
    result = []
    for fn in fns:
        key = (fn.name, tuple(t for t, _, _ in fn.params))
        if key not in seen:
            seen.add(key)
            result.append(fn)
    return result


def ops_unit(shard: int) -> str:
    return f"core/ops_shard{shard}.cpp"


def op_header(cpp_name: str) -> str:
    """The header of the C++ functions wick::<cpp_name>, <cpp_name>_ and <cpp_name>_out."""
    return f"include/wick/ops/{cpp_name}.h"


def _headers(decls: List[Declaration]) -> List[str]:
    """The op headers, one per base name of core's functions, sorted."""
    return sorted({op_header(d.cpp_name) for d in decls if not isinstance(d.impl, PythonGlue)})


def outputs(decls: List[Declaration], layout: Layout) -> List[str]:
    return ["include/wick/ops.h", *_headers(decls), *(ops_unit(s) for s in range(layout.shards)),
            "core/copy_kernels.cpp"]


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    fns = _unique([fn for d in decls for fn in cpp.functions(d)])
    core_fns = [fn for fn in fns if fn.in_core]
    bodies = []
    for fn in core_fns:
        if isinstance(fn.decl.impl, Pointwise):
            bodies.append((fn, _pointwise_body(fn)))
        elif not fn.hand_written:
            bodies.append((fn, _structured_body(fn)))
    headers = _headers(decls)
    files = {
        "include/wick/ops.h": render("ops.h.j2", headers=[h[len("include/"):] for h in headers]),
        "core/copy_kernels.cpp": render("copy_tables.cpp.j2", cpp_types=[CPP_TYPE[t] for t in DTYPES],
                                        copy_table=kernels.COPY_TABLE),
    }
    by_header: Dict[str, List[cpp.CppFunction]] = {h: [] for h in headers}
    for fn in core_fns:
        by_header[op_header(fn.decl.cpp_name)].append(fn)
    for header, header_fns in by_header.items():
        ops = list(dict.fromkeys(fn.decl.name for fn in header_fns))
        files[header] = render("op.h.j2", name=header_fns[0].decl.cpp_name, ops=ops,
                               functions=[fn for fn in header_fns if not fn.in_detail],
                               detail=[fn for fn in header_fns if fn.in_detail],
                               structured=any(fn.in_detail for fn in header_fns),
                               generator=any(base_of(p.type) == BaseTy.Generator for fn in header_fns
                                             for p in fn.sig.params))
    shard_bodies = layout.by_shard(bodies, lambda body: body[0].decl.name)
    pointwise = [d for d in decls if d.owns_kernels]
    for s, shard_pointwise in enumerate(layout.by_shard(pointwise, lambda d: d.name)):
        includes = sorted({op_header(fn.decl.cpp_name)[len("include/"):] for fn, _ in shard_bodies[s]})
        files[ops_unit(s)] = render("ops.cpp.j2", shard=s, bodies=shard_bodies[s], max_operands=MAX_OPERANDS,
                                    pointwise=[_kernel_table(d, layout) for d in shard_pointwise], dtypes=DTYPES,
                                    includes=includes, cpu_table=kernels.cpu_table(s))
    return files


def _kernel_table(d: Declaration, layout: Layout) -> Dict[str, object]:
    impl = d.impl
    assert isinstance(impl, Pointwise)
    dtypes = impl.dtypes

    cuda = [f"&cuda_pointwise_kernel<kernels::{_functor(d)}<{CPP_TYPE[t]}>>"
            if t in dtypes[Backend.cuda] and t in layout.kernel_dtypes else "nullptr" for t in DTYPES]
    return dict(name=d.name, functor=_functor(d), cuda=cuda, check=impl.check,
                promotion=_CPP_PROMOTION[impl.promote], result=_CPP_RESULT[impl.output])


# The C++ enumerators of wick/pointwise.h.
_CPP_PROMOTION = {Promotion.common: "Common", Promotion.int_to_float: "IntToFloat"}
_CPP_RESULT = {Output.same: "Computed", Output.bool: "Bool"}


def _functor(d: Declaration) -> str:
    return f"{d.name}_op"
