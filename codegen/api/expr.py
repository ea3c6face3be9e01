"""Pointwise expressions: Python syntax in the YAML, C++ in the functors.

A declaration writes `self if self > 0 else 0` or `a // b`; the functor gets
`(self > 0 ? self : 0)` and `floor_divide(a, b)`. The model has already
checked that only these constructs appear (expressions.POINTWISE_NODES), with numbers
that are C++ literals of int64 and double.
"""
from __future__ import annotations

import ast
from typing import Dict

from codegen.expressions import EXPRESSION_CALLS, PREDICATES

_BINARY = {ast.Div: "/", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
# Operators whose C++ meaning differs from Python's become calls into wick/math.h: integer + - *
# wrap around there as in PyTorch, where C++'s signed overflow is undefined (Note [Wrapping
# integer arithmetic]).
_BINARY_CALLS = {ast.Add: "wrapping_add", ast.Sub: "wrapping_sub", ast.Mult: "wrapping_mul", ast.Mod: "remainder",
                 ast.FloorDiv: "floor_divide", ast.Pow: "pow", ast.LShift: "shift_left", ast.RShift: "shift_right"}
_UNARY = {ast.UAdd: "+", ast.Not: "!"}
_UNARY_CALLS: Dict[type, str] = {ast.USub: "wrapping_neg", ast.Invert: "bitwise_not"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
assert {*_BINARY_CALLS.values(), *_UNARY_CALLS.values()} <= EXPRESSION_CALLS, "parameters must not hide them"


def to_cpp(expr: str) -> str:
    return _emit(ast.parse(expr.strip(), mode="eval").body)


def _emit(node: ast.AST) -> str:
    if isinstance(node, ast.BinOp):
        left, right = _emit(node.left), _emit(node.right)
        if type(node.op) in _BINARY_CALLS:
            return f"{_BINARY_CALLS[type(node.op)]}({left}, {right})"
        return f"({left} {_BINARY[type(node.op)]} {right})"
    if isinstance(node, ast.UnaryOp):
        if type(node.op) in _UNARY_CALLS:
            return f"{_UNARY_CALLS[type(node.op)]}({_emit(node.operand)})"
        return f"({_UNARY[type(node.op)]}{_emit(node.operand)})"
    if isinstance(node, ast.BoolOp):
        # A comparison is a bool already (a mask on vectors, whose && and || wick/cpu/vec.h
        # defines), so only other operands are converted: `x != 0 and y != 0` runs on vectors.
        joiner = " && " if isinstance(node.op, ast.And) else " || "
        return "(" + joiner.join(_emit(v) if _is_bool(v) else f"bool({_emit(v)})" for v in node.values) + ")"
    if isinstance(node, ast.Compare):
        return f"({_emit(node.left)} {_COMPARE[type(node.ops[0])]} {_emit(node.comparators[0])})"
    if isinstance(node, ast.IfExp):
        # Both branches in the compute type, so `x if c else 0` has one type.
        return f"({_emit(node.test)} ? C({_emit(node.body)}) : C({_emit(node.orelse)}))"
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return f"{node.func.id}({', '.join(_emit(a) for a in node.args)})"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant):
        # Literals in the compute type: float math stays in float, and pow(x, 2)
        # finds one template argument.
        return f"C({node.value!r})"
    raise AssertionError(f"unexpected {type(node).__name__} in a checked expression")


def _is_bool(node: ast.AST) -> bool:
    """Whether `node` is a bool already: a comparison, a logical operator or a predicate of wick/math.h."""
    return isinstance(node, (ast.Compare, ast.BoolOp)) or (isinstance(node, ast.UnaryOp)
                                                           and isinstance(node.op, ast.Not)) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in PREDICATES)
