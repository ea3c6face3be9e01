"""Autograd's side of every op: wick::autograd::ops, the functions that record the graph
(generated/include/wick/autograd/ops.h), and the nodes the derivative formulas become
(generated/core/autograd_shard<N>.cpp).

Note [Recording ops]
~~~~~~~~~~~~~~~~~~~~
wick::autograd::ops::<name> is core's wick::<name> for the bindings and for the
formulas themselves: when no input requires grad, or grad mode is off, it calls
core's function and, for a form that writes in place or into out=, bumps the
version of what it wrote (Note [Version counter]); that is the whole cost on the
path without autograd. Otherwise it makes the op's node (<Op>Backward<N>, N the
signature's index), with an edge per differentiable input, saves what the formulas
read (only for the inputs that need a gradient), runs the op and makes the node
the grad_fn of its floating results, or of self for an in-place form (through its
base for a view, Note [Leaves and views]). An in-place form whose formulas read
`self` saves a copy of it taken before the op writes it. An out= form refuses
inputs that require grad, as PyTorch does. An op with nothing to record in any form
is core's own function, brought in by a using-declaration.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Set, Tuple

from codegen.api import cpp
from codegen.api.formula import Kind, Translator, result_name, uses
from codegen.dest.common import Layout, render
from codegen.errors import DeclarationError
from codegen.model import Declaration, Form, PythonGlue
from codegen.schema import TENSOR, BaseTy, ListType, OptionalType, Param, Signature, Type, base_of, is_list, is_optional

HEADER = "include/wick/autograd/ops.h"


def unit(shard: int) -> str:
    return f"core/autograd_shard{shard}.cpp"


def outputs(layout: Layout) -> List[str]:
    return [HEADER, *(unit(s) for s in range(layout.shards))]


def node_name(decl: Declaration, sig: Signature) -> str:
    camel = "".join(part.capitalize() for part in decl.name.split("_") if part)
    return f"{camel}Backward{decl.api.signatures.index(sig)}"


_MEMBER_BASE: Dict[BaseTy, str] = {
    BaseTy.Scalar: "Scalar", BaseTy.int: "int64_t", BaseTy.float: "double", BaseTy.bool: "bool",
    BaseTy.ScalarType: "DType", BaseTy.Device: "Device", BaseTy.str: "std::string",
    BaseTy.MemoryFormat: "MemoryFormat",
}


def _member_type(t: Type) -> str:
    """How a node keeps a parameter its formulas read."""
    if t == ListType(TENSOR):
        return "std::vector<TensorMeta>"
    if t == ListType(OptionalType(TENSOR)):
        return "std::vector<std::optional<Tensor>>"
    inner = "DimVector" if is_list(t) else _MEMBER_BASE[base_of(t)]
    return f"std::optional<{inner}>" if is_optional(t) else inner


def _is_tensor(p: Param) -> bool:
    return base_of(p.type) == BaseTy.Tensor and not is_list(p.type)


def _is_tensor_list(p: Param) -> bool:
    return p.type == ListType(TENSOR)


@dataclass
class NodeClass:
    name: str
    members: List[Tuple[str, str]] = field(default_factory=list)  # (C++ type, name)
    saved: List[str] = field(default_factory=list)  # the SavedVariable members
    body: List[str] = field(default_factory=list)  # apply()'s


@dataclass
class Edges:
    """Where each differentiable input's gradients are among a node's outputs."""

    starts: Dict[str, str]  # input -> the C++ of its first output's index
    lists: Set[str]  # the inputs that are lists, with <name>_size_ outputs

    def condition(self, inputs: Set[str], node: str) -> str:
        """C++ that says whether one of these inputs needs its gradient."""
        parts = []
        for name in sorted(inputs, key=list(self.starts).index):
            start = self.starts[name]
            if name in self.lists:
                size = f"{name}.size()" if node == "node->" else f"{name}_size_"
                parts.append(f"{node}should_compute_any_output({start}, {start} + {size})")
            else:
                parts.append(f"{node}should_compute_output({start})")
        return " || ".join(parts)


def _edges(inputs: List[str], sig: Signature, node: str) -> Edges:
    starts: Dict[str, str] = {}
    lists: Set[str] = set()
    offset, terms = 0, []  # type: int, List[str]
    for name in inputs:
        starts[name] = " + ".join([str(offset)] + terms) if terms else str(offset)
        p = sig.param(name)
        assert p is not None
        if _is_tensor_list(p):
            lists.add(name)
            terms.append(f"{name}.size()" if node == "node->" else f"{name}_size_")
        else:
            offset += 1
    return Edges(starts, lists)


@dataclass
class Results:
    """How a recording function records the results, and the C++ of each result a formula may read."""

    record: List[str]
    values: Dict[str, str]


class _Ops:
    """The C++ function a formula's call of an op names."""

    def __init__(self, decls: List[Declaration]) -> None:
        self.names: Dict[str, Declaration] = {}
        for d in decls:
            self.names[d.name] = d
            if d.api.inplace:
                self.names[d.name + "_"] = d

    def cpp_name(self, name: str) -> str:
        d = self.names[name]
        if isinstance(d.impl, PythonGlue):
            raise KeyError(name)
        return d.cpp_name + ("_" if name.endswith("_") and not name == d.name else "")


class _Writer:
    """The node class and the recording functions of one signature of an op."""

    def __init__(self, decl: Declaration, sig: Signature, ops: _Ops) -> None:
        self.decl, self.sig = decl, sig
        self.formulas = decl.derivatives.formulas[decl.api.signatures.index(sig)]
        self.inputs = [f.input for f in self.formulas]
        self.uses = uses(sig, self.formulas)
        self.ops = ops

    def error(self, message: str) -> DeclarationError:
        return DeclarationError(self.formulas[0].loc if self.formulas else self.decl.loc, message, self.decl.name)

    def node(self) -> NodeClass:
        node = NodeClass(node_name(self.decl, self.sig))
        for name in self.uses.values:
            node.members.append(("SavedVariable", f"{name}_"))
            node.saved.append(f"{name}_")
        for name in self.uses.metas:
            p = self.sig.param(name)
            node.members.append(("std::vector<TensorMeta>" if p is not None and _is_tensor_list(p) else "TensorMeta",
                                  f"{name}_meta_"))
        for p in self.sig.params:
            if p.name in self.inputs and _is_tensor_list(p):
                node.members.append(("size_t", f"{p.name}_size_"))
            elif not base_of(p.type) == BaseTy.Tensor or p.type == ListType(OptionalType(TENSOR)):
                if self._read(p.name):
                    node.members.append((_member_type(p.type), f"{p.name}_"))
        node.body = self._apply()
        return node

    def _read(self, name: str) -> bool:
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        return any(pattern.search(f.expr) for f in self.formulas)

    def _apply(self) -> List[str]:
        lines = ["if (all_undefined(grads)) return TensorList(num_outputs());"]
        if any(re.search(r"\bgrad\b", f.expr) for f in self.formulas):
            lines.append("const Tensor grad = materialized(grads, 0);")
        if self.uses.values:
            lines.append("const std::shared_ptr<Node> me = shared_from_this();")
        for name in self.uses.values:
            lines.append(f"const Tensor {name} = {name}_.unpack(me);")
        lines.append("TensorList out(num_outputs());")
        edges = _edges(self.inputs, self.sig, "")
        translate = Translator(self.sig, set(self.uses.values), self._cpp_name, self.error)
        for f in self.formulas:
            x = translate(f.expr)
            start = edges.starts[f.input]
            if f.input in edges.lists:
                if x.kind != Kind.tensors:
                    raise self.error(f"the derivative of the list '{f.input}' must be a list: {f.expr}")
                lines.append(f"if ({edges.condition({f.input}, '')}) {{")
                lines.append(f"  TensorList parts = {x.text};")
                lines.append(f"  for (size_t i = 0; i < {f.input}_size_; ++i) out[{start} + i] = std::move(parts[i]);")
                lines.append("}")
            else:
                if x.kind != Kind.tensor:
                    raise self.error(f"the derivative of '{f.input}' must be a tensor: {f.expr}")
                lines.append(f"if ({edges.condition({f.input}, '')}) out[{start}] = {x.text};")
        lines.append("return out;")
        return lines

    def _cpp_name(self, name: str, method: bool) -> str:
        try:
            return self.ops.cpp_name(name)
        except KeyError:
            raise self.error(f"the formulas call {name}(), which has no function in core") from None

    def record(self, fn: cpp.CppFunction) -> List[str]:
        """The body of a recording function: the fast path, then the node."""
        inplace = fn.form == Form.inplace
        args = ", ".join(fn.arg_names)
        raw = f"::wick::{fn.name}({args})"
        lines = [f"if (!{self._needs_grad()}) {{"]
        if inplace:
            lines += [f"  {raw};", "  bump_version(self);", "  return self;", "}", "check_inplace(self);"]
        else:
            lines += [f"  return {raw};", "}"]
        node = node_name(self.decl, self.sig)
        lines.append(f"const auto node = std::make_shared<{node}>();")
        lines.append("std::vector<Edge> edges;")
        lines += [f"collect_next_edges(edges, {name});" for name in self.inputs]
        lines.append("node->set_next_edges(std::move(edges));")
        edges = _edges(self.inputs, self.sig, "node->")
        for name in edges.lists:
            lines.append(f"node->{name}_size_ = {name}.size();")
        outputs = set(_result_names(self.sig))
        for name, used_by in self.uses.values.items():
            if name in outputs:
                continue
            value = f"::wick::clone({name})" if inplace and name == "self" else name
            lines.append(f"if ({edges.condition(self._inputs_of(used_by), 'node->')}) "
                         f"node->{name}_ = SavedVariable({value}, false);")
        for name in self.uses.metas:
            if name not in outputs:
                p = self.sig.param(name)
                meta = "metas" if p is not None and _is_tensor_list(p) else "TensorMeta"
                lines.append(f"node->{name}_meta_ = {meta}({name});")
        for p in self.sig.params:
            if (not base_of(p.type) == BaseTy.Tensor or p.type == ListType(OptionalType(TENSOR))) \
                    and self._read(p.name):
                lines.append(f"node->{p.name}_ = owned({p.name});")
        results = self._results(fn)
        if inplace:
            lines += [f"{raw};", "bump_version(self);", "node->add_input_metadata(self);", "rebase_history(self, node);"]
        else:
            lines.append(f"{fn.returns} result = {raw};")
            tensors = [p.name for p in self.sig.params if _is_tensor(p)]
            if not self.sig.is_tuple and not is_list(self.sig.returns[0].type) and tensors:
                same = " || ".join(f"result.is_same({t})" for t in tensors)
                lines.append(f"if ({same}) return result;  // the op handed back an input: nothing to record")
            lines += results.record
        for name, used_by in self.uses.values.items():
            if name in outputs:
                lines.append(f"if ({edges.condition(self._inputs_of(used_by), 'node->')}) "
                             f"node->{name}_ = SavedVariable({results.values[name]}, true);")
        for name in self.uses.metas:
            if name in outputs:
                lines.append(f"node->{name}_meta_ = TensorMeta({results.values[name]});")
        lines.append("return self;" if inplace else "return result;")
        return lines

    def _inputs_of(self, formula_indices: Set[int]) -> Set[str]:
        return {self.formulas[i].input for i in formula_indices}

    def _needs_grad(self) -> str:
        singles = [n for n in self.inputs if not _is_list_param(self.sig, n)]
        lists = [n for n in self.inputs if _is_list_param(self.sig, n)]
        parts = ([f"any_requires_grad({{{', '.join('&' + n for n in singles)}}})"] if singles else []) + \
            [f"any_requires_grad({n})" for n in lists]
        return f"(({' || '.join(parts)}) && is_grad_enabled())"

    def _results(self, fn: cpp.CppFunction) -> "Results":
        """How the results are recorded, and the C++ of each result a formula may read."""
        if fn.form == Form.inplace:
            return Results([], {"result": "self"})
        ret = self.sig.returns
        record: List[str] = []
        values: Dict[str, str] = {}
        if self.sig.is_tuple:
            for i in range(len(ret)):
                record.append(f"node->add_input_metadata(std::get<{i}>(result));")
            for i in range(len(ret)):
                record.append(f"set_history(std::get<{i}>(result), node, {i});")
                values[result_name(i)] = f"std::get<{i}>(result)"
        elif is_list(ret[0].type):
            record += ["for (const Tensor& r : result) node->add_input_metadata(r);",
                       "for (size_t i = 0; i < result.size(); ++i) set_history(result[i], node, uint32_t(i));"]
        else:
            record += ["node->add_input_metadata(result);", "set_history(result, node, 0);"]
            values["result"] = "result"
        return Results(record, values)


def _result_names(sig: Signature) -> List[str]:
    return [result_name(i) for i in range(len(sig.returns))]


def _is_list_param(sig: Signature, name: str) -> bool:
    p = sig.param(name)
    return p is not None and is_list(p.type)


def _written(fn: cpp.CppFunction) -> List[str]:
    """The tensors an in-place or out= form writes."""
    if fn.form == Form.out:
        return [n for _, n, _ in cpp.out_params(fn.sig)]
    return ["self"]


def _plain_body(fn: cpp.CppFunction) -> List[str]:
    """An in-place or out= form that records nothing: the op, and the versions of what it wrote."""
    raw = f"::wick::{fn.name}({', '.join(fn.arg_names)})"
    lines = []
    if fn.form == Form.out and fn.decl.derivatives.differentiable:
        tensors = [n for t, n, _ in fn.params if t == "const Tensor&"]
        lists = [n for t, n, _ in fn.params if t == "TensorListRef"]
        parts = ([f"any_requires_grad({{{', '.join('&' + n for n in tensors)}}})"] if tensors else []) + \
            [f"any_requires_grad({n})" for n in lists]
        lines.append(f"check_no_grad_for_out(({' || '.join(parts)}) && is_grad_enabled());")
    written = _written(fn)
    if fn.form == Form.out and not fn.decl.derivatives.differentiable:
        # Nothing to record, but out= writes its tensors in place: a leaf that requires grad is refused.
        lines += [f"if (is_grad_enabled()) check_inplace({n});" for n in written]
    lines.append(f"{raw};")
    lines += [f"bump_version({n});" for n in written]
    lines.append(f"return {{{', '.join(written)}}};" if fn.sig.is_tuple and fn.form == Form.out
                 else f"return {written[0]};")
    return lines


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    ops = _Ops(decls)
    fns = [fn for d in decls for fn in cpp.functions(d) if fn.in_core and not fn.in_detail]
    seen: Set[Tuple[str, Tuple[str, ...]]] = set()
    unique = []
    for fn in fns:  # an alias (concat of cat) names the C++ function of another op
        key = (fn.name, tuple(t for t, _, _ in fn.params))
        if key not in seen:
            seen.add(key)
            unique.append(fn)

    def records(fn: cpp.CppFunction) -> bool:
        return fn.form in (Form.inplace, Form.out) or fn.decl.derivatives.differentiable

    wrapped_names = {fn.name for fn in unique if records(fn)}
    using = sorted({fn.name for fn in unique if fn.name not in wrapped_names})
    wrapped = [fn for fn in unique if fn.name in wrapped_names]
    per_shard: List[Dict[str, object]] = [{"nodes": [], "functions": []} for _ in range(layout.shards)]
    nodes_done: Set[str] = set()
    for fn in wrapped:
        shard = per_shard[layout.shard_of(fn.decl.name)]
        differentiable = fn.decl.derivatives.differentiable and fn.form != Form.out and \
            bool(fn.decl.derivatives.formulas[fn.decl.api.signatures.index(fn.sig)])
        if differentiable:
            writer = _Writer(fn.decl, fn.sig, ops)
            name = node_name(fn.decl, fn.sig)
            if name not in nodes_done:
                nodes_done.add(name)
                shard["nodes"].append(writer.node())  # type: ignore[attr-defined]
            body = writer.record(fn)
        elif fn.form in (Form.inplace, Form.out):
            body = _plain_body(fn)
        else:
            body = [f"return ::wick::{fn.name}({', '.join(fn.arg_names)});"]
        shard["functions"].append((fn, body))  # type: ignore[attr-defined]
    files = {HEADER: render("autograd_ops.h.j2", using=using, functions=wrapped)}
    for s, shard in enumerate(per_shard):
        files[unit(s)] = render("autograd_ops.cpp.j2", shard=s, **shard)
    return files

