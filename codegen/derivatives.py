"""codegen/derivatives.py: how an op differentiates, read from its declaration and checked.

Note [Derivatives]
~~~~~~~~~~~~~~~~~~
Every op that takes a tensor says how autograd goes back through it, in one of
three ways:

    derivatives:                 # the gradient of each differentiable input
      self: grad * other
      other: grad * self
    not_differentiable: [index]  # tensor inputs that get no gradient (indices, masks)
    differentiable: false        # none does (comparisons, integer ops, factories)

A formula is a Python expression of one line over `grad` (the gradient of the
op's first result; `grads[i]` of result i), `result` (its first result;
`results[i]`), the parameters of the signature, the ops (as functions and
methods), the helpers of HELPERS below (the backward of reductions, indexing
and shape ops, written in core) and the attributes `shape`, `dtype` and `ndim`
of a tensor (and `device`). A gradient has the shape of the result: the engine sums it back
to the shape of an input that was broadcast, so formulas never do. `derivatives:`
is one mapping for every signature (an input that is a Scalar in one of them
has no formula there), or a list of mappings, one per signature, where their
formulas differ. A formula of a `Tensor[]` input gives a list of gradients.
The reader refuses a tensor input with neither a formula nor a place in
`not_differentiable`, at `file:line:col` with a hint, so that no op is
differentiable by accident (a signature that returns no tensor has nothing to
differentiate, and needs no word); codegen/validate.py checks the ops the formulas
call against the declarations.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Dict, FrozenSet, List, Set, Tuple

from codegen import expressions
from codegen.errors import DeclarationError, Location, did_you_mean, shown
from codegen.schema import BaseTy, ErrorAt, Signature, base_of
from codegen.yaml_loader import Node, NodeList


class Returns(Enum):
    tensor = "tensor"
    tensors = "tensors"  # one gradient per tensor of a Tensor[] input
    ints = "ints"


@dataclass(frozen=True)
class Helper:
    """A helper's parameters, a letter each: `t` any value, `m` a tensor of which the helper reads only the
    shape, dtype and device (a TensorMeta in C++, Note [Backward helpers] in wick/autograd/helpers.h)."""

    params: str
    returns: Returns

    @property
    def arity(self) -> int:
        return len(self.params)


# The helpers a formula may call, with their parameters (wick/autograd/helpers.h says what each computes).
HELPERS: Dict[str, Helper] = {
    "sum_to": Helper("tm", Returns.tensor),  # (t, like)
    "expand_reduced": Helper("tmtt", Returns.tensor),  # (grad, self, dim, keepdim)
    "mean_backward": Helper("tmtt", Returns.tensor),  # (grad, self, dim, keepdim)
    "prod_backward": Helper("ttttt", Returns.tensor),  # (grad, self, result, dim, keepdim)
    "var_backward": Helper("ttttt", Returns.tensor),  # (grad, self, dim, correction, keepdim)
    "std_backward": Helper("tttttt", Returns.tensor),  # (grad, self, result, dim, correction, keepdim)
    "norm_backward": Helper("tttttt", Returns.tensor),  # (grad, self, p, result, dim, keepdim)
    "logsumexp_backward": Helper("ttttt", Returns.tensor),  # (grad, self, result, dim, keepdim)
    "extreme_backward": Helper("ttttt", Returns.tensor),  # (grad, self, result, dim, keepdim)
    "indexed_backward": Helper("tmttt", Returns.tensor),  # (grad, self, dim, indices, keepdim)
    "select_backward": Helper("tmtt", Returns.tensor),  # (grad, self, dim, index)
    "narrow_backward": Helper("tmttt", Returns.tensor),  # (grad, self, dim, start, length)
    "diagonal_backward": Helper("tmttt", Returns.tensor),  # (grad, self, offset, dim1, dim2)
    "unfold_backward": Helper("tmttt", Returns.tensor),  # (grad, self, dimension, size, step)
    "diag_backward": Helper("tmt", Returns.tensor),  # (grad, self, diagonal)
    "masked_select_backward": Helper("tmt", Returns.tensor),  # (grad, self, mask)
    "scatter_src_backward": Helper("tttm", Returns.tensor),  # (grad, dim, index, src)
    "index_put_values_backward": Helper("ttm", Returns.tensor),  # (grad, indices, values)
    "hstack_backward": Helper("tm", Returns.tensors),  # (grad, tensors)
    "vstack_backward": Helper("tm", Returns.tensors),  # (grad, tensors)
    "slice_backward": Helper("tmtttt", Returns.tensor),  # (grad, self, dim, start, end, step)
    "index_select_backward": Helper("tmtt", Returns.tensor),  # (grad, self, dim, index)
    "gather_backward": Helper("tmtt", Returns.tensor),  # (grad, self, dim, index)
    "index_backward": Helper("tmt", Returns.tensor),  # (grad, self, indices)
    "take_backward": Helper("tmt", Returns.tensor),  # (grad, self, index)
    "im2col_backward": Helper("tmtttt", Returns.tensor),  # (grad, self, kernel_size, dilation, padding, stride)
    "max_pool2d_backward": Helper("tmt", Returns.tensor),  # (grad, self, indices)
    "permute_backward": Helper("tt", Returns.tensor),  # (grad, dims)
    "unbind_backward": Helper("tmt", Returns.tensor),  # (grads, self, dim)
    "split_backward": Helper("tmt", Returns.tensor),  # (grads, self, dim)
    "cat_backward": Helper("tmt", Returns.tensors),  # (grad, tensors, dim)
    "stack_backward": Helper("tmt", Returns.tensors),  # (grad, tensors, dim)
    "repeat_backward": Helper("tmt", Returns.tensor),  # (grad, self, repeats)
    "negated": Helper("t", Returns.ints),  # (ints)
    "clamp_backward": Helper("tttt", Returns.tensor),  # (grad, self, min, max)
    "clamp_backward_min": Helper("tttt", Returns.tensor),  # (grad, self, min, max)
    "clamp_backward_max": Helper("tttt", Returns.tensor),  # (grad, self, min, max)
    "div_backward_self": Helper("ttt", Returns.tensor),  # (grad, other, rounding_mode)
    "div_backward_other": Helper("tttt", Returns.tensor),  # (grad, result, other, rounding_mode)
    "pow_backward_self": Helper("ttt", Returns.tensor),  # (grad, self, exponent)
    "pow_backward_exponent": Helper("tttt", Returns.tensor),  # (grad, self, exponent, result)
    "matmul_backward_self": Helper("ttt", Returns.tensor),  # (grad, self, other)
    "matmul_backward_other": Helper("ttt", Returns.tensor),  # (grad, self, other)
    "cumsum_backward": Helper("tt", Returns.tensor),  # (grad, dim)
    "cumprod_backward": Helper("tttt", Returns.tensor),  # (grad, self, dim, result)
    "logit_backward": Helper("ttt", Returns.tensor),  # (grad, self, eps)
    "masked_grad": Helper("tt", Returns.tensor),  # (grad, mask)
    "sort_backward": Helper("tmtt", Returns.tensor),  # (grad, self, dim, indices)
    "softmax_backward": Helper("ttt", Returns.tensor),  # (grad, result, dim)
    "log_softmax_backward": Helper("ttt", Returns.tensor),  # (grad, result, dim)
    "gelu_tanh_backward": Helper("tt", Returns.tensor),  # (grad, self)
    "linear_backward_input": Helper("tt", Returns.tensor),  # (grad, weight)
    "linear_backward_weight": Helper("tt", Returns.tensor),  # (grad, input)
}
# What a formula may read of a tensor as an attribute.
ATTRIBUTES: FrozenSet[str] = frozenset({"shape", "dtype", "device", "ndim"})
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load, ast.Constant, ast.Attribute,
          ast.Subscript, ast.keyword, ast.List, ast.Tuple, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub,
          ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_RESULT_NAMES = ("grad", "grads", "result", "results")
At = Callable[[Location], ErrorAt]


@dataclass(frozen=True)
class Formula:
    """The gradient of input `input` as an expression (Note [Derivatives])."""

    input: str
    expr: str
    loc: Location


@dataclass(frozen=True)
class Derivatives:
    """An op's formulas, a tuple per signature (empty where nothing is differentiable)."""

    formulas: Tuple[Tuple[Formula, ...], ...]
    not_differentiable: FrozenSet[str]

    @property
    def differentiable(self) -> bool:
        return any(self.formulas)

    def calls(self) -> List[Tuple[Formula, str, bool]]:
        """(formula, name, as a method) for every function and method a formula calls."""
        found = []
        for per_sig in self.formulas:
            for f in per_sig:
                for sub in ast.walk(ast.parse(f.expr.strip(), mode="eval")):
                    if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                        found.append((f, sub.func.id, False))
                    elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
                        found.append((f, sub.func.attr, True))
        return found


def differentiable_inputs(sig: Signature) -> List[str]:
    """The parameters a gradient may flow to: the tensors, lists of them included, but out=; none where
    the signature returns no tensor (a size, a bool, a Python object) for a gradient to come from."""
    if not any(base_of(r.type) == BaseTy.Tensor for r in sig.returns):
        return []
    return [p.name for p in sig.params if base_of(p.type) == BaseTy.Tensor and p.name != "out"]


def read(node: Node, op: str, sigs: Tuple[Signature, ...], sig_locs: Tuple[Location, ...]) -> Derivatives:
    """`derivatives:`, `not_differentiable:` and `differentiable:` of a declaration (Note [Derivatives])."""
    def at(loc: Location) -> ErrorAt:
        return ErrorAt(loc, op)

    def at_key(key: str) -> ErrorAt:
        return at(node.key_locs.get(key, node.loc))

    inputs = [differentiable_inputs(s) for s in sigs]
    if not any(inputs):
        for key in ("derivatives", "not_differentiable", "differentiable"):
            if key in node:
                raise at_key(key)("an op with no tensor input has nothing to differentiate", f"drop '{key}'")
        return Derivatives(tuple(() for _ in sigs), frozenset())
    flag = node.get("differentiable", True)
    if not isinstance(flag, bool):
        raise at(node.value_locs.get("differentiable", node.loc))(
            f"'differentiable' must be true or false, not {shown(flag)}")
    if "differentiable" in node and flag:
        raise at_key("differentiable")("'differentiable: true' is what 'derivatives:' says",
                                       "drop the key, and give the formulas")
    if not flag:
        for key in ("derivatives", "not_differentiable"):
            if key in node:
                raise at_key(key)(f"'differentiable: false' leaves nothing for '{key}' to say")
        return Derivatives(tuple(() for _ in sigs), frozenset())
    excluded = _read_not_differentiable(node, at, inputs)
    mappings = _read_mappings(node, at, sigs)
    formulas = []
    for i, (sig, loc, mapping) in enumerate(zip(sigs, sig_locs, mappings)):
        per_sig = []
        for name in inputs[i]:
            if name in excluded:
                continue
            if name not in mapping:
                raise at(loc)(f"no derivative for '{name}' of signature '{sig}'",
                              f"give 'derivatives: {{{name}: ...}}' (a formula of grad), list '{name}' in "
                              "'not_differentiable', or say 'differentiable: false'")
            expr, expr_loc = mapping[name]
            _check_formula(expr, sig, at(expr_loc))
            per_sig.append(Formula(name, expr.strip(), expr_loc))
        formulas.append(tuple(per_sig))
    every_input = {n for names in inputs for n in names}
    for mapping in mappings:
        for name, (_, loc) in mapping.items():
            if name in excluded:
                raise at(loc)(f"'{name}' has a formula and is listed in 'not_differentiable'")
            if name not in every_input:
                raise at(loc)(f"'{name}' is no tensor input of '{op}'", did_you_mean(name, every_input))
    return Derivatives(tuple(formulas), excluded)


def _read_not_differentiable(node: Node, at: At, inputs: List[List[str]]) -> FrozenSet[str]:
    raw = node.get("not_differentiable")
    if raw is None:
        return frozenset()
    loc = node.value_locs.get("not_differentiable", node.loc)
    if not isinstance(raw, NodeList) or not raw or not all(isinstance(n, str) for n in raw):
        raise at(loc)("'not_differentiable' must be a non-empty list of tensor inputs")
    every_input = {n for names in inputs for n in names}
    for name, item_loc in zip(raw, raw.item_locs):
        if name not in every_input:
            raise at(item_loc)(f"'{name}' is no tensor input", did_you_mean(str(name), every_input))
    return frozenset(raw)


def _read_mappings(node: Node, at: At, sigs: Tuple[Signature, ...]) -> List[Dict[str, Tuple[str, Location]]]:
    """One {input: (formula, its place)} per signature."""
    raw = node.get("derivatives")
    if raw is None:
        return [{} for _ in sigs]
    loc = node.value_locs.get("derivatives", node.loc)
    if isinstance(raw, Node):
        return [_mapping(raw, at)] * len(sigs)
    if isinstance(raw, NodeList):
        if len(raw) != len(sigs):
            raise at(loc)(f"'derivatives' as a list has one mapping per signature: {len(sigs)}, not {len(raw)}")
        out = []
        for item, item_loc in zip(raw, raw.item_locs):
            if not isinstance(item, Node):
                raise at(item_loc)("each entry of 'derivatives' is a mapping from input to formula")
            out.append(_mapping(item, at))
        return out
    raise at(loc)("'derivatives' is a mapping from input to formula, or a list of them, one per signature")


def _mapping(node: Node, at: At) -> Dict[str, Tuple[str, Location]]:
    out = {}
    for name in node:
        expr = node[name]
        loc = node.value_locs.get(name, node.loc)
        if not isinstance(expr, str) or not expr.strip():
            raise at(loc)(f"the derivative of '{name}' is a formula string, not {shown(expr)}")
        out[str(name)] = (expr, loc)
    return out


def _check_formula(expr: str, sig: Signature, err: ErrorAt) -> None:
    """The formula's syntax and names; the ops it calls are checked against the declarations later."""
    tree = expressions.parse(expr, err)
    names: Set[str] = {p.name for p in sig.params} | set(_RESULT_NAMES)
    called = {id(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)}
    for sub in ast.walk(tree):
        if not isinstance(sub, _NODES):
            raise err(f"'{type(sub).__name__}' is not allowed in a derivative: {shown(expr)}",
                      "use arithmetic, calls of ops and helpers, methods, and shape, dtype, device and ndim")
        if isinstance(sub, ast.Name) and id(sub) not in called and sub.id not in names:
            raise err(f"unknown name '{sub.id}' in {shown(expr)}", did_you_mean(sub.id, names))
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in HELPERS:
            arity = HELPERS[sub.func.id].arity
            if len(sub.args) != arity or sub.keywords:
                raise err(f"{sub.func.id}() takes {arity} positional argument(s), in {shown(expr)}")
        if isinstance(sub, ast.Attribute) and id(sub) not in called and sub.attr not in ATTRIBUTES:
            raise err(f"unknown attribute '{sub.attr}' in {shown(expr)}", did_you_mean(sub.attr, ATTRIBUTES))
        if isinstance(sub, ast.Subscript) and not (isinstance(sub.value, ast.Name) and
                                                   sub.value.id in ("grads", "results")):
            raise err(f"only grads[i] and results[i] are indexed in a derivative: {shown(expr)}")


def check_calls(d: Derivatives, op: str, functions: Set[str], methods: Set[str]) -> None:
    """Each function a formula calls is a helper or an op's function, each method an op's method."""
    for f, name, method in d.calls():
        known = methods if method else functions | set(HELPERS)
        if name not in known:
            what = "method" if method else "function"
            raise DeclarationError(f.loc, f"unknown {what} '{name}' in the derivative of '{f.input}': "
                                          f"{shown(f.expr)}", op, did_you_mean(name, known))

