"""The C++ of a derivative formula (Note [Derivatives] in codegen/derivatives.py), and what its node saves.

A formula is Python syntax over tensors, numbers and the op's other parameters.
Each subexpression gets a kind as it is written: a tensor operator becomes a call
of a recording op (`grad * other` is `ops::mul(grad, other)`, so that a gradient
computed with create_graph has a graph of its own), arithmetic between numbers and
Scalars is done in double, and a tensor that a formula reads only for its shape,
dtype and device, or passes where a helper takes a TensorMeta, is read from the
TensorMeta the node keeps instead of the tensor.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Dict, List, Optional, Set, Tuple

from codegen.derivatives import HELPERS, Formula, Returns
from codegen.errors import DeclarationError
from codegen.schema import TENSOR, BaseTy, ListType, OptionalType, Signature, base_of, is_list, is_optional


TENSOR_LIST = ListType(TENSOR)
INDICES = ListType(OptionalType(TENSOR))  # Tensor?[], kept as they are


class Kind(Enum):
    tensor = "tensor"
    tensors = "tensors"  # a TensorList
    number = "number"  # a C++ arithmetic value (a literal, or arithmetic of Scalars)
    scalar = "scalar"  # a wick::Scalar
    other = "other"  # passed through as it is: ints, lists of ints, dtypes, optionals...
    meta = "meta"  # a TensorMeta, or a list of them


@dataclass(frozen=True)
class Cpp:
    text: str
    kind: Kind


# The recording op each operator of a formula calls, and its mirror for `number op tensor`.
_BINARY: Dict[type, str] = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow"}
_COMPARE: Dict[type, str] = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_FLIPPED = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
_NUMBER_OPS: Dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_ATTRIBUTES = {"shape": ("sizes()", "sizes"), "dtype": ("dtype()", "dtype"), "device": ("device()", "device"),
               "ndim": ("dim()", "dim()")}
# The ops a formula's operators call.
OPERATOR_OPS = frozenset(_BINARY.values()) | frozenset(_COMPARE.values()) | {"neg", "reciprocal"}


def _results(sig: Signature) -> List[str]:
    """The names formulas give the op's results: result for the first, results[i] as result<i>."""
    return ["result"] + [f"result{i}" for i in range(1, len(sig.returns))]


def result_name(i: int) -> str:
    return "result" if i == 0 else f"result{i}"


@dataclass
class Uses:
    """How the formulas of one signature read each tensor: by value (saved as a SavedVariable) or for its
    shape, dtype and device alone (a TensorMeta); by the edges whose formulas read it."""

    values: Dict[str, Set[int]]
    metas: Dict[str, Set[int]]


def _tensor_names(sig: Signature) -> Set[str]:
    tensors = {p.name for p in sig.params if base_of(p.type) == BaseTy.Tensor and p.type != INDICES}
    return tensors | set(_results(sig))


def _name_of(node: ast.AST) -> Optional[str]:
    """The tensor a name or `results[i]` stands for."""
    if isinstance(node, ast.Name):
        return "result" if node.id == "result" else node.id
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "results":
        index = node.slice
        if isinstance(index, ast.Constant) and isinstance(index.value, int):
            return result_name(index.value)
    return None


def uses(sig: Signature, formulas: Tuple[Formula, ...]) -> Uses:
    tensors = _tensor_names(sig)
    found = Uses({}, {})
    for i, f in enumerate(formulas):
        tree = ast.parse(f.expr, mode="eval")
        as_meta: Set[int] = set()
        for sub in ast.walk(tree):
            if isinstance(sub, ast.Attribute) and sub.attr in _ATTRIBUTES:
                as_meta.add(id(sub.value))
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in HELPERS:
                kinds = HELPERS[sub.func.id].params
                as_meta.update(id(a) for a, k in zip(sub.args, kinds) if k == "m")
        for sub in ast.walk(tree):
            name = _name_of(sub)
            if name in tensors and not (isinstance(sub, ast.Name) and sub.id == "results"):
                target = found.metas if id(sub) in as_meta else found.values
                target.setdefault(name, set()).add(i)
    for name in list(found.metas):  # a tensor saved whole gives its meta too
        if name in found.values:
            found.values[name] |= found.metas.pop(name)
    return found


class Translator:
    """Writes one formula of `sig` as C++, inside the apply() of its node."""

    def __init__(self, sig: Signature, values: Set[str], cpp_name_of: Callable[[str, bool], str],
                 error: Callable[[str], DeclarationError]) -> None:
        self.sig = sig
        self.values = values
        self.cpp_name_of = cpp_name_of
        self.error = error

    def __call__(self, expr: str) -> Cpp:
        return self.expr(ast.parse(expr, mode="eval").body)

    def expr(self, node: ast.AST) -> Cpp:
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.negated(self.expr(node.operand))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return self.binary(type(node.op), self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            return self.compare(_COMPARE[type(node.ops[0])], self.expr(node.left), self.expr(node.comparators[0]))
        if isinstance(node, ast.Call):
            return self.call(node)
        raise self.error(f"cannot write '{ast.unparse(node)}' in C++")

    def constant(self, value: object) -> Cpp:
        if value is None:
            return Cpp("std::nullopt", Kind.other)
        if isinstance(value, bool):
            return Cpp(str(value).lower(), Kind.other)
        if isinstance(value, int):
            return Cpp(f"int64_t({value})", Kind.number)
        if isinstance(value, float):
            return Cpp(repr(value), Kind.number)
        raise self.error(f"the constant {value!r} has no C++ form")

    def name(self, name: str) -> Cpp:
        if name == "grad":
            return Cpp("grad", Kind.tensor)
        if name == "grads":
            return Cpp("materialized(grads)", Kind.tensors)
        if name == "result":
            return self.tensor("result")
        p = self.sig.param(name)
        if p is None:
            raise self.error(f"unknown name '{name}'")
        if base_of(p.type) == BaseTy.Tensor and not is_list(p.type):
            return self.tensor(name)
        if base_of(p.type) == BaseTy.Tensor and p.type == TENSOR_LIST:
            return Cpp(f"{name}_meta_", Kind.meta)
        scalar = base_of(p.type) == BaseTy.Scalar and not is_optional(p.type) and not is_list(p.type)
        return Cpp(f"{name}_", Kind.scalar if scalar else Kind.other)

    def tensor(self, name: str) -> Cpp:
        return Cpp(name, Kind.tensor) if name in self.values else Cpp(f"{name}_meta_", Kind.meta)

    def subscript(self, node: ast.Subscript) -> Cpp:
        index = node.slice
        assert isinstance(node.value, ast.Name) and isinstance(index, ast.Constant)
        if node.value.id == "grads":
            return Cpp(f"materialized(grads, {index.value})", Kind.tensor)
        name = _name_of(node)
        assert name is not None
        return self.tensor(name)

    def attribute(self, node: ast.Attribute) -> Cpp:
        base = self.expr(node.value)
        value_form, meta_form = _ATTRIBUTES[node.attr]
        if base.kind == Kind.meta:
            return Cpp(f"{base.text}.{meta_form}", Kind.other)
        if base.kind != Kind.tensor:
            raise self.error(f"'.{node.attr}' of something that is not a tensor: {ast.unparse(node)}")
        return Cpp(f"{base.text}.{value_form}", Kind.other)

    def as_number(self, x: Cpp) -> str:
        if x.kind == Kind.scalar:
            return f"{x.text}.to_double()"
        if x.kind == Kind.number:
            return x.text
        raise self.error(f"'{x.text}' is not a number")

    def negated(self, x: Cpp) -> Cpp:
        if x.kind == Kind.tensor:
            return Cpp(f"ops::neg({x.text})", Kind.tensor)
        number = self.as_number(x)
        return Cpp(f"(-{number})", Kind.number)

    def binary(self, op: type, a: Cpp, b: Cpp) -> Cpp:
        if a.kind != Kind.tensor and b.kind != Kind.tensor:
            if op is ast.Pow:
                return Cpp(f"std::pow({self.as_number(a)}, {self.as_number(b)})", Kind.number)
            return Cpp(f"({self.as_number(a)} {_NUMBER_OPS[op]} {self.as_number(b)})", Kind.number)
        fn = _BINARY[op]
        if op is ast.Mult and Kind.scalar in (a.kind, b.kind):  # a Scalar parameter: often 1, then no product
            t, s = (a, b) if a.kind == Kind.tensor else (b, a)
            return Cpp(f"scaled({t.text}, {s.text})", Kind.tensor)
        if a.kind == Kind.tensor:
            return Cpp(f"ops::{fn}({a.text}, {self.operand(b)})", Kind.tensor)
        # number op tensor
        n = self.operand(a)
        if op in (ast.Add, ast.Mult):
            return Cpp(f"ops::{fn}({b.text}, {n})", Kind.tensor)
        if op is ast.Sub:
            return Cpp(f"ops::add(ops::neg({b.text}), {n})", Kind.tensor)
        if op is ast.Div:
            return Cpp(f"ops::mul(ops::reciprocal({b.text}), {n})", Kind.tensor)
        raise self.error("a number to the power of a tensor is not written in formulas")

    def operand(self, x: Cpp) -> str:
        """An operand of a tensor operator: a tensor, or a number or Scalar as it is."""
        if x.kind in (Kind.tensor, Kind.number, Kind.scalar):
            return x.text
        raise self.error(f"'{x.text}' is no operand of a tensor operator")

    def compare(self, fn: str, a: Cpp, b: Cpp) -> Cpp:
        if a.kind == Kind.tensor:
            return Cpp(f"ops::{fn}({a.text}, {self.operand(b)})", Kind.tensor)
        if b.kind == Kind.tensor:
            return Cpp(f"ops::{_FLIPPED[fn]}({b.text}, {self.operand(a)})", Kind.tensor)
        raise self.error("a comparison of two numbers is not written in formulas")

    def call(self, node: ast.Call) -> Cpp:
        if node.keywords:
            raise self.error(f"keyword arguments are not written in formulas: {ast.unparse(node)}")
        if isinstance(node.func, ast.Name) and node.func.id in HELPERS:
            helper = HELPERS[node.func.id]
            texts = []
            for arg, k in zip(node.args, helper.params):
                x = self.expr(arg)
                if k == "m" and x.kind == Kind.tensor:
                    x = Cpp(f"TensorMeta({x.text})", Kind.meta)
                if k == "m" and x.kind != Kind.meta:
                    raise self.error(f"{node.func.id}() takes a tensor there, not '{ast.unparse(arg)}'")
                texts.append(x.text)
            kind = {Returns.tensor: Kind.tensor, Returns.tensors: Kind.tensors, Returns.ints: Kind.other}
            return Cpp(f"helpers::{node.func.id}({', '.join(texts)})", kind[helper.returns])
        if isinstance(node.func, ast.Name):
            name, operands = node.func.id, [self.expr(a) for a in node.args]
            method = False
        else:
            assert isinstance(node.func, ast.Attribute)
            name, operands = node.func.attr, [self.expr(node.func.value)] + [self.expr(a) for a in node.args]
            method = True
        for x in operands:
            if x.kind in (Kind.meta, Kind.tensors):
                raise self.error(f"'{x.text}' cannot be passed to the op {name}()")
        return Cpp(f"ops::{self.cpp_name_of(name, method)}({', '.join(x.text for x in operands)})", Kind.tensor)
