"""The expressions of declarations, checked: `pointwise:`, which api/expr.py writes as C++, and
`numpy:`, which the generated tests run as Python.

Both are Python syntax of one line, bounded in length and depth, so that
neither the parser nor any walk of the tree recurses without bound, and they
land in one line of generated code (a C++ comment, a lambda in a table).
"""
from __future__ import annotations

import ast
import io
import tokenize
import warnings
from typing import Callable, Dict, FrozenSet, Mapping, Optional, Set

from codegen.errors import DeclarationError, did_you_mean, shown
from codegen.numbers import INT64_MAX, float_problem

# Python's parser recurses once per level (5,000 nested operators raise RecursionError in it),
# so the text is bounded first; the tree then, for everything that walks it.
MAX_LENGTH = 500
MAX_DEPTH = 32

# Functions a pointwise expression may call (core/include/wick/math.h), with how many arguments each takes.
POINTWISE_FUNCTIONS: Dict[str, int] = {
    **dict.fromkeys(["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan",
                     "asin", "acos", "atan", "sinh", "cosh", "tanh", "erf", "sigmoid", "silu", "gelu", "abs",
                     "floor", "ceil", "trunc", "round", "frac", "sign", "isnan", "isinf", "isfinite", "erfc",
                     "erfinv", "asinh", "acosh", "atanh", "signbit"], 1),
    **dict.fromkeys(["atan2", "maximum", "minimum", "remainder", "fmod", "floor_divide", "trunc_divide", "pow",
                     "hypot", "copysign", "nextafter", "fmax", "fmin", "gcd", "lcm", "round_decimals"], 2),
    "fma": 3,
}
# The functions of wick/math.h that the C++ of a pointwise expression calls: those it names, and
# those api/expr.py writes for operators (`a << b` is shift_left(a, b)). A parameter would hide them.
EXPRESSION_CALLS: FrozenSet[str] = frozenset(POINTWISE_FUNCTIONS) | {
    "shift_left", "shift_right", "bitwise_not", "wrapping_add", "wrapping_sub", "wrapping_mul", "wrapping_neg"}
# Functions that return a bool (a mask on vectors): a logical operator takes them as they are.
PREDICATES: FrozenSet[str] = frozenset({"isnan", "isinf", "isfinite", "signbit"})
# Functions defined for float and double only: their ops must promote integers to float.
FLOAT_FUNCTIONS: FrozenSet[str] = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "erf", "sigmoid", "silu", "gelu", "frac", "erfc", "erfinv",
    "asinh", "acosh", "atanh", "hypot", "copysign", "nextafter",
})
# Operators defined for integers and bools alone.
BITWISE_NODES = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.Invert)

# Python syntax a pointwise expression may use (api/expr.py says what each becomes in C++).
POINTWISE_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Name, ast.Load,
                   ast.Constant, ast.BoolOp, ast.IfExp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod,
                   ast.FloorDiv, ast.Pow, ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.Invert,
                   ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt,
                   ast.GtE)
# What a reference may not do in the lambda the generated tests make of it: be a generator,
# await, or bind a name.
_NOT_IN_LAMBDA = (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)

Err = Callable[..., DeclarationError]


def parse(expr: str, err: Err) -> ast.Expression:
    """The tree of `expr`, which must be one line of Python of bounded length and depth, without comments."""
    text = expr.strip()
    if len(text) > MAX_LENGTH:
        raise err(f"an expression is at most {MAX_LENGTH} characters, not {len(text)}: {shown(text)}")
    if "\n" in text:
        raise err(f"an expression is one line: {shown(text)}", "generated code holds it on one line")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # as SyntaxError: an invalid escape, which generated code would warn of
            tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        raise err(f"cannot parse expression {shown(expr)}: {e.msg}") from None
    if any(t.type == tokenize.COMMENT for t in tokenize.generate_tokens(io.StringIO(text).readline)):
        raise err(f"an expression has no comments: {shown(text)}", "generated code holds it on one line")
    if _depth(tree) > MAX_DEPTH:
        raise err(f"expression nested deeper than {MAX_DEPTH} levels: {shown(text)}")
    return tree


def _depth(tree: ast.AST) -> int:
    """How deep sub-expressions nest in `tree`, found without recursion."""
    deepest, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        depth += isinstance(node, ast.expr)
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in ast.iter_child_nodes(node))
    return deepest


def check(expr: str, names: Set[str], err: Err, functions: Optional[Mapping[str, int]]) -> None:
    """Checks an expression's syntax and names. With `functions` (name: number of arguments), it must
    also be C++-compatible."""
    tree = parse(expr, err)
    called = {id(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)}
    for sub in ast.walk(tree):
        if functions is None:
            if isinstance(sub, ast.Name) and sub.id not in names:
                raise err(f"unknown name '{sub.id}' in {shown(expr)}", did_you_mean(sub.id, names))
            if isinstance(sub, _NOT_IN_LAMBDA):
                raise err(f"'{type(sub).__name__}' is not allowed in a reference: {shown(expr)}",
                          "the generated tests call it as a lambda")
            continue
        if not isinstance(sub, POINTWISE_NODES):
            raise err(f"'{type(sub).__name__}' is not allowed in a pointwise expression: {shown(expr)}",
                      "use arithmetic, bitwise and boolean operators, comparisons, `a if c else b`, numbers, "
                      "parameters and the functions of core/include/wick/math.h")
        if isinstance(sub, ast.Constant):
            _check_constant(sub, expr, err)
        if isinstance(sub, ast.Call):
            if not isinstance(sub.func, ast.Name) or sub.func.id not in functions:
                fname = ast.unparse(sub.func)
                raise err(f"unknown function '{fname}' in {shown(expr)}", did_you_mean(fname, functions))
            if sub.keywords:
                raise err(f"keyword arguments are not allowed in {shown(expr)}")
            if len(sub.args) != functions[sub.func.id]:
                raise err(f"{sub.func.id}() takes {functions[sub.func.id]} argument(s), not {len(sub.args)}, in "
                          f"{shown(expr)}")
        elif isinstance(sub, ast.Name) and sub.id not in names and (sub.id not in functions or id(sub) not in called):
            raise err(f"unknown name '{sub.id}' in {shown(expr)}", did_you_mean(sub.id, names))
        if isinstance(sub, ast.Compare) and len(sub.ops) > 1:
            raise err(f"chained comparisons mean something else in C++: {shown(expr)}")


def _check_constant(node: ast.Constant, expr: str, err: Err) -> None:
    """A number of a pointwise expression becomes a C++ literal (api/expr.py): an int64 or a finite double."""
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise err(f"only numbers may appear as constants in {shown(expr)}, not {shown(value)}")
    written = ast.get_source_segment(expr.strip(), node) or repr(value)
    if isinstance(value, int) and value > INT64_MAX:
        raise err(f"the integer {shown(written)} is out of the int64 range, in {shown(expr)}")
    why = float_problem(written, value) if isinstance(value, float) else None
    if why:
        raise err(f"the number {written} is {why}, in {shown(expr)}")


def names_in(expr: str) -> Set[str]:
    """The names an expression reads, functions it calls included."""
    return {n.id for n in ast.walk(ast.parse(expr.strip(), mode="eval")) if isinstance(n, ast.Name)}


def calls_in(expr: str) -> Set[str]:
    """The functions an expression calls."""
    tree = ast.parse(expr.strip(), mode="eval")
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def uses_bitwise(expr: str) -> bool:
    return any(isinstance(n, BITWISE_NODES) for n in ast.walk(ast.parse(expr.strip(), mode="eval")))
