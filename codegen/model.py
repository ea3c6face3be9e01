"""The declaration model: frozen dataclasses parsed from YAML and validated.

A `Signature` prints back to the exact text it was parsed from (checked in
`Signature.parse`), so every emitter and every error message speaks the
declaration's own language.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

from codegen import expressions
from codegen import names as naming
from codegen import samples as sampling
from codegen.errors import DeclarationError, Location, did_you_mean, shown
from codegen.numbers import float_problem
from codegen.yaml_loader import Node, NodeList

DTYPES: Tuple[str, ...] = (
    "bool", "uint8", "int8", "int16", "int32", "int64",
    "float16", "bfloat16", "float32", "float64",
)
BACKENDS: Tuple[str, ...] = ("cpu", "cuda")

# Base types a parameter may have, and which modifiers each allows.
PARAM_TYPES: Dict[str, FrozenSet[str]] = {
    "Tensor": frozenset({"?", "(a!)", "[]", "?[]"}),
    "Scalar": frozenset({"?"}),
    "int": frozenset({"?", "[]"}),
    "float": frozenset({"?"}),
    "bool": frozenset(),
    "ScalarType": frozenset({"?"}),
    "Device": frozenset({"?"}),
    "object": frozenset(),
    "str": frozenset({"?"}),
}
RETURN_TYPES: FrozenSet[str] = frozenset(
    {"Tensor", "Tensor(a!)", "Scalar", "int", "int[]", "bool", "float", "object", "None", "Tensor[]"})
# What the fields of a tuple return may be (Note [Tuple returns]).
TUPLE_FIELD_TYPES: FrozenSet[str] = frozenset({"Tensor"})
# Functions a pointwise expression may call (core/include/wick/math.h).
POINTWISE_FUNCTIONS: Dict[str, int] = {  # name: how many arguments it takes
    **dict.fromkeys(["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan",
                     "asin", "acos", "atan", "sinh", "cosh", "tanh", "erf", "sigmoid", "silu", "gelu", "abs",
                     "floor", "ceil", "trunc", "round", "frac", "sign", "isnan", "isinf", "isfinite"], 1),
    **dict.fromkeys(["atan2", "maximum", "minimum", "remainder", "fmod", "floor_divide", "trunc_divide", "pow"], 2),
    "fma": 3,
}
# The functions of wick/math.h that the C++ of a pointwise expression calls: those it names, and
# those api/expr.py writes for operators (`a << b` is shift_left(a, b)). A parameter would hide them.
EXPRESSION_CALLS: FrozenSet[str] = frozenset(POINTWISE_FUNCTIONS) | {"shift_left", "shift_right", "bitwise_not", "wrapping_add",
                                                          "wrapping_sub", "wrapping_mul", "wrapping_neg"}
# Functions defined for float and double only: their ops must promote integers to float.
FLOAT_FUNCTIONS: FrozenSet[str] = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "erf", "sigmoid", "silu", "gelu", "frac",
})
# The values the generated tests draw (tests/python/reference.py, random_values); `nonfinite`
# puts NaN and infinities among the floats.
DOMAINS = ("any", "positive", "unit", "nonzero", "nonfinite")
MAX_OPERANDS = 5  # TensorIter::kMaxOperands less the output

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TYPE = re.compile(r"(?P<base>[A-Za-z]+)(?P<mods>(\[\]|\(a!\)|\?)*)\Z")
_MODS = re.compile(r"\?\[\]|\[\]|\(a!\)|\?")


@dataclass(frozen=True)
class Type:
    base: str
    is_list: bool = False
    optional: bool = False
    mutable: bool = False  # Tensor(a!): written in place, returned as the same object
    elem_optional: bool = False  # Tensor?[]: a list whose elements may be None

    @staticmethod
    def parse(text: str, err: "ErrorAt") -> "Type":
        m = _TYPE.match(text)
        if not m or m.group("base") not in PARAM_TYPES:
            base = m.group("base") if m else text
            raise err(f"unknown type {shown(base)}", did_you_mean(base, PARAM_TYPES))
        base, mods = m.group("base"), m.group("mods")
        allowed = PARAM_TYPES[base]
        found = _MODS.findall(mods)
        for mod in found:
            if mod not in allowed:
                raise err(f"type {shown(base)} does not take '{mod}'")
        is_list = "[]" in found or "?[]" in found
        t = Type(base, is_list, mods.endswith("?"), "(a!)" in mods, "?[]" in found)
        if base == "Tensor" and is_list and (t.optional or t.mutable):
            raise err(f"type {shown(text)} is not supported",
                      "a list of tensors is 'Tensor[]', or 'Tensor?[]' when its elements may be None")
        if str(t) != text:
            raise err(f"malformed type {shown(text)}", f"write it as '{t}'")
        return t

    def __str__(self) -> str:
        listed = ("?[]" if self.elem_optional else "[]") if self.is_list else ""
        return self.base + listed + ("(a!)" if self.mutable else "") + ("?" if self.optional else "")


@dataclass(frozen=True)
class Param:
    name: str
    type: Type
    default: Optional[str]  # the literal as written: 1, 0.5, True, None
    kwarg_only: bool

    def __str__(self) -> str:
        return f"{self.type} {self.name}" + ("" if self.default is None else f"={self.default}")


# A default is written once and read three times: as a C++ literal in ops.h, as Python in
# the text signature, and as a double by the runtime (ParamSpec::default_value). So an
# integer is decimal (0777 is octal in C++ and no Python) and exact in a double, and a
# float is finite and does not round to 0.
_INT = r"-?(0|[1-9][0-9]*)"
_DEFAULT_OK = {
    "Scalar": re.compile(_INT + r"(\.[0-9]+)?\Z|True\Z|False\Z"),
    "int": re.compile(_INT + r"\Z"),
    "float": re.compile(_INT + r"(\.[0-9]+)?([eE]-?[0-9]+)?\Z"),
    "bool": re.compile(r"True\Z|False\Z"),
}
MAX_EXACT_INT = 2**53  # the largest integer a double holds with every smaller one


# Note [Tuple returns]
# ~~~~~~~~~~~~~~~~~~~~
# `-> (Tensor values, Tensor indices)` returns several tensors: a std::tuple in
# C++, and in Python a named tuple of type wick.return_types.<op name>, as
# torch.return_types (python_ext/named_tuples.cpp), one type per op whatever its
# overloads, so every tuple return of one op has the same fields. Each field has a name
# that is an identifier, unique in the return and not a parameter's name: the
# names become the attributes of the named tuple and, for `out: true`, the
# parameters that receive the results in <op>_out(values, indices, ...).
@dataclass(frozen=True)
class ReturnField:
    name: str
    type: str  # one of TUPLE_FIELD_TYPES

    def __str__(self) -> str:
        return f"{self.type} {self.name}"


@dataclass(frozen=True)
class Signature:
    params: Tuple[Param, ...]
    returns: str  # as written; for a tuple, "(Tensor values, Tensor indices)"
    fields: Tuple[ReturnField, ...] = ()  # the fields of a tuple return, else empty

    @staticmethod
    def parse(text: str, err: "ErrorAt") -> "Signature":
        m = re.fullmatch(r"\((?P<params>.*)\)\s*->\s*(?P<ret>\(.*\)|\S+)", text.strip())
        if not m:
            raise err(f"malformed signature {shown(text)}",
                      "expected '(Type name, ..., *, Type name=default) -> Return'")
        params: List[Param] = []
        kwarg_only = False
        seen_default = False
        body = m.group("params").strip()
        for piece in [p.strip() for p in body.split(",")] if body else []:
            if piece == "*":
                if kwarg_only:
                    raise err("'*' given twice")
                kwarg_only = True
                continue
            pm = re.fullmatch(r"(?P<type>\S+)\s+(?P<name>\w+)(\s*=\s*(?P<default>\S+))?", piece)
            if not pm:
                raise err(f"malformed parameter {shown(piece)}", "expected 'Type name' or 'Type name=default'")
            ptype = Type.parse(pm.group("type"), err)
            name, default = pm.group("name"), pm.group("default")
            _check_param_name(name, err)
            if any(p.name == name for p in params):
                raise err(f"parameter '{name}' given twice")
            if default is not None:
                _check_default(ptype, name, default, err)
                seen_default = True
            elif seen_default and not kwarg_only:
                raise err(f"parameter '{name}' without a default follows one with a default")
            params.append(Param(name, ptype, default, kwarg_only))
        ret = m.group("ret")
        fields = _parse_fields(ret, params, err) if ret.startswith("(") else ()
        if fields:
            ret = f"({', '.join(map(str, fields))})"
        elif ret not in RETURN_TYPES:
            raise err(f"unknown return type {shown(ret)}", did_you_mean(ret, RETURN_TYPES))
        sig = Signature(tuple(params), ret, fields)
        if str(sig) != " ".join(text.split()):
            raise err(f"signature does not round-trip: {shown(text)} prints as {shown(str(sig))}",
                      "use one space after commas and around '->'")
        return sig

    def __str__(self) -> str:
        return f"({join_params(self.params, str)}) -> {self.returns}"

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)


def _parse_fields(text: str, params: List[Param], err: "ErrorAt") -> Tuple[ReturnField, ...]:
    """The fields of a tuple return `(Tensor values, Tensor indices)`; see Note [Tuple returns]."""
    fields: List[ReturnField] = []
    for piece in [p.strip() for p in text[1:-1].split(",")]:
        fm = re.fullmatch(r"(?P<type>\S+)(\s+(?P<name>\S+))?", piece)
        if not fm:
            raise err(f"malformed tuple return {shown(text)}", "expected '(Tensor name, Tensor name, ...)'")
        ftype, name = fm.group("type"), fm.group("name")
        if ftype not in TUPLE_FIELD_TYPES:
            raise err(f"a tuple return holds {' or '.join(sorted(TUPLE_FIELD_TYPES))} fields, not '{ftype}'",
                      did_you_mean(ftype, TUPLE_FIELD_TYPES))
        if name is None:
            raise err(f"the fields of a tuple return need names: {shown(piece)} has none",
                      "write '(Tensor values, Tensor indices)'")
        why = "named tuples have no fields starting with '_'" if name.startswith("_") \
            else naming.parameter_problem(name, err.decl or "")
        if why:
            raise err(f"{shown(name)} cannot name a field of a tuple return: {why}", "rename the field")
        if any(f.name == name for f in fields):
            raise err(f"field '{name}' given twice in the tuple return")
        if any(p.name == name for p in params):
            raise err(f"field '{name}' of the tuple return has the name of a parameter",
                      "an out= form takes the fields as parameters; rename one of them")
        fields.append(ReturnField(name, ftype))
    if len(fields) < 2:
        raise err(f"a tuple return has at least two fields, not {len(fields)}", "return 'Tensor' for one")
    return tuple(fields)


def _check_param_name(name: str, err: "ErrorAt") -> None:
    why = naming.parameter_problem(name, err.decl or "")
    if why:
        raise err(f"{shown(name)} cannot be a parameter name: {why}", "rename the parameter")


def join_params(params: Sequence[Param], show: Callable[[Param], str]) -> str:
    """The parameters shown by `show`, comma-separated, with '*' before the first keyword-only one."""
    parts: List[str] = []
    for i, p in enumerate(params):
        if p.kwarg_only and (i == 0 or not params[i - 1].kwarg_only):
            parts.append("*")
        parts.append(show(p))
    return ", ".join(parts)


def _check_default(t: Type, name: str, default: str, err: "ErrorAt") -> None:
    if default == "None":
        if not t.optional and t.base != "object":  # an object may be None as it is
            raise err(f"parameter '{name}' has default None but type '{t}' is not optional",
                      f"write '{t}?'")
        return
    if t.base == "str":
        raise err(f"default {shown(default)} does not fit type '{t}' of parameter '{name}'",
                  "a str parameter has no default, or is 'str?' with default None")
    pattern = None if t.is_list or t.optional else _DEFAULT_OK.get(t.base)
    if pattern is None or not pattern.match(default):
        raise err(f"default {shown(default)} does not fit type '{t}' of parameter '{name}'",
                  "write integers in decimal, without leading zeros" if re.fullmatch(r"-?0[0-9]+", default) else None)
    if default in ("True", "False"):
        return
    if re.fullmatch(_INT, default):
        if len(default) > 20 or abs(int(default)) > MAX_EXACT_INT:  # int() reads at most 4,300 digits
            raise err(f"default {shown(default)} of parameter '{name}' is out of range",
                      "the runtime keeps defaults as doubles, exact for integers up to 2**53")
    elif why := float_problem(default, float(default)):
        raise err(f"default {shown(default)} of parameter '{name}' is {why}")


@dataclass(frozen=True)
class Pointwise:
    expr: str
    promote: str  # "common" | "int_to_float"
    output: str  # "same" | "bool"
    operands: Tuple[str, ...]  # the Tensor parameters the expression reads, in order
    constants: Tuple[str, ...]  # the Scalar parameters, passed to the kernel as constants
    check: Optional[str] = None  # wick::detail::<check>, PyTorch's refusals (Note [Pointwise checks])


@dataclass(frozen=True)
class Cpp:
    function: str  # wick::<function> in core


@dataclass(frozen=True)
class PythonImpl:
    function: str  # wick::python::impl::<function> in python_ext


Impl = Union[Pointwise, Cpp, PythonImpl]


@dataclass(frozen=True)
class Declaration:
    name: str
    signatures: Tuple[Signature, ...]
    variants: FrozenSet[str]
    inplace: bool
    out: bool
    impl: Impl
    # backend -> dtypes: the kernels of a pointwise op; for another op with `numpy:`, the dtypes
    # its generated tests expect to work (the others must raise TypeError).
    dtypes: Dict[str, Tuple[str, ...]]
    doc: str
    numpy: Optional[str]
    domain: str
    releases_gil: bool
    loc: Location
    signature_locs: Tuple[Location, ...]
    # The calls its generated tests make (codegen/samples.py); empty for ops without `numpy:`.
    samples: Tuple[sampling.Sample, ...] = ()

    @property
    def numpy_function(self) -> Optional[str]:
        """The function of tests/python/numpy_ref.py that `numpy:` names, if not an expression."""
        return numpy_function(self.numpy, self.signatures) if self.numpy is not None else None

    @property
    def inplace_only(self) -> bool:
        return self.signatures[0].params[0].type.mutable if self.signatures[0].params else False


class ErrorAt:
    """Builds DeclarationErrors for one place in one declaration."""

    def __init__(self, loc: Location, decl: Optional[str]) -> None:
        self.loc, self.decl = loc, decl

    def __call__(self, message: str, hint: Optional[str] = None) -> DeclarationError:
        return DeclarationError(self.loc, message, self.decl, hint)


KNOWN_KEYS = ("name", "signatures", "variants", "inplace", "out", "pointwise", "cpp", "python",
              "promote", "output", "check", "dtypes", "doc", "numpy", "domain", "releases_gil", "samples")


def parse_file(path: str, data: object) -> List[Declaration]:
    if data is None:
        return []
    if not isinstance(data, NodeList):
        loc = data.loc if isinstance(data, Node) else Location(path, 1, 1)
        raise DeclarationError(loc, "a declaration file is a list of declarations")
    decls = []
    for item, loc in zip(data, data.item_locs):
        if not isinstance(item, Node):
            raise DeclarationError(loc, "each declaration is a mapping with 'name:' and 'signatures:'")
        decls.append(parse_declaration(item))
    return decls


def parse_declaration(node: Node) -> Declaration:
    name = node.get("name")
    at_key = lambda key: ErrorAt(node.key_locs.get(key, node.loc), name if isinstance(name, str) else None)  # noqa: E731
    at_value = lambda key: ErrorAt(node.value_locs.get(key, node.loc), name if isinstance(name, str) else None)  # noqa: E731
    for key in node:
        if key not in KNOWN_KEYS:
            raise at_key(key)(f"unknown key {shown(key)}", did_you_mean(key, KNOWN_KEYS))
    if "name" not in node:
        raise ErrorAt(node.loc, None)("missing key 'name'")
    if not isinstance(name, str) or not _IDENT.match(name) or len(name) > naming.MAX_LENGTH:
        raise at_value("name")(f"name must be an identifier of at most {naming.MAX_LENGTH} characters, "
                               f"not {shown(name)}")

    def get_str(key: str, required: bool = False) -> Optional[str]:
        if key not in node:
            if required:
                raise ErrorAt(node.loc, name)(f"missing key '{key}'")
            return None
        value = node[key]
        if not isinstance(value, str) or not value.strip():
            raise at_value(key)(f"'{key}' must be a non-empty string, not {shown(value)}")
        return value

    def get_bool(key: str) -> bool:
        value = node.get(key, False)
        if not isinstance(value, bool):
            raise at_value(key)(f"'{key}' must be true or false, not {shown(value)}")
        return value

    def get_choice(key: str, choices: Tuple[str, ...]) -> str:
        value = node.get(key, choices[0])
        if value not in choices:
            raise at_value(key)(f"'{key}' must be one of {', '.join(choices)}, not {shown(value)}",
                                did_you_mean(str(value), choices))
        return str(value)

    # signatures
    raw_sigs = node.get("signatures")
    if raw_sigs is None:
        raise ErrorAt(node.loc, name)("missing key 'signatures'")
    if not isinstance(raw_sigs, NodeList) or not raw_sigs:
        raise at_value("signatures")("'signatures' must be a non-empty list of signatures")
    sigs: List[Signature] = []
    for text, loc in zip(raw_sigs, raw_sigs.item_locs):
        if not isinstance(text, str):
            raise ErrorAt(loc, name)(f"a signature is a string, not {shown(text)}")
        sig = Signature.parse(text, ErrorAt(loc, name))
        if sig in sigs:
            raise ErrorAt(loc, name)(f"signature '{sig}' given twice")
        sigs.append(sig)

    # variants
    if "variants" not in node:
        raise ErrorAt(node.loc, name)("missing key 'variants'", "list 'method', 'function' or both")
    raw_variants = node["variants"]
    if not isinstance(raw_variants, NodeList):
        raise at_value("variants")("'variants' must be a list of 'method' and 'function' (empty for C++ only)")
    for v, loc in zip(raw_variants, raw_variants.item_locs):
        if v not in ("method", "function"):
            raise ErrorAt(loc, name)(f"unknown variant {shown(v)}", did_you_mean(str(v), ("method", "function")))
    variants = frozenset(raw_variants)
    if "method" in variants:
        for sig, loc in zip(sigs, raw_sigs.item_locs):
            if not sig.params or sig.params[0].name != "self" or sig.params[0].type.base != "Tensor" \
                    or sig.params[0].type.optional or sig.params[0].type.is_list:
                raise ErrorAt(loc, name)("a method's first parameter must be 'Tensor self'")

    mutable_self = [bool(s.params) and s.params[0].type.mutable for s in sigs]
    if any(mutable_self) != all(mutable_self):
        raise at_value("signatures")("either every signature or none takes 'Tensor(a!) self'")
    for sig, loc in zip(sigs, raw_sigs.item_locs):
        for p in sig.params[1:]:
            if p.type.mutable:
                raise ErrorAt(loc, name)(f"only 'self' may be Tensor(a!), not '{p.name}'")
        if (sig.returns == "Tensor(a!)") != (bool(sig.params) and sig.params[0].type.mutable):
            raise ErrorAt(loc, name)("'-> Tensor(a!)' goes with a 'Tensor(a!) self' parameter, and only with it")
    if mutable_self[0] and not name.endswith("_"):
        raise at_value("name")(f"an in-place op's name ends with '_': '{name}_'")
    if not mutable_self[0] and name.endswith("_"):
        raise at_value("name")("a name ending in '_' is for ops taking 'Tensor(a!) self'")

    inplace, out = get_bool("inplace"), get_bool("out")
    for flag, value in (("inplace", inplace), ("out", out)):
        if value and any(s.returns != "Tensor" and not (flag == "out" and s.fields) for s in sigs):
            raise at_key(flag)(f"'{flag}: true' needs every signature to return Tensor"
                               + (" or a tuple" if flag == "out" else ""))
    _check_tuple_returns(name, sigs, raw_sigs)
    # With no variants (C++ only), inplace and out add the C++ functions <name>_ and <name>_out alone.
    if inplace and variants and "method" not in variants:
        raise at_key("inplace")("'inplace: true' makes a method, so 'variants' must include method")
    if out and variants and "function" not in variants:
        raise at_key("out")("'out: true' adds out= to the function, so 'variants' must include function")
    if out:
        for sig, loc in zip(sigs, raw_sigs.item_locs):
            if sig.param("out"):
                raise ErrorAt(loc, name)("'out: true' adds the 'out' parameter itself")

    # implementation
    impls = [k for k in ("pointwise", "cpp", "python") if k in node]
    if len(impls) != 1:
        raise ErrorAt(node.loc, name)(
            "give exactly one implementation: 'pointwise:', 'cpp:' or 'python:'"
            + (f" (got {', '.join(impls)})" if impls else ""))
    kind = impls[0]
    impl: Impl
    dtypes: Dict[str, Tuple[str, ...]] = {}
    for key in ("promote", "output", "check"):
        if key in node and kind != "pointwise":
            raise at_key(key)(f"'{key}' applies only to pointwise ops")
    if kind == "pointwise":
        impl = _parse_pointwise(node, name, sigs, raw_sigs, at_value, get_choice)
        dtypes = _parse_dtypes(node, name, at_value)
        _check_pointwise_dtypes(impl, dtypes, at_value)
    else:
        function = get_str(kind)
        assert function is not None
        if not _IDENT.match(function):
            raise at_value(kind)(f"'{kind}' names a C++ function, not {shown(function)}")
        # A cpp: function is wick::<function>; a python: one is in wick::python::impl, which has no namespaces.
        why = naming.function_problem(function) if kind == "cpp" else naming.cpp_problem(function)
        if why:
            raise at_value(kind)(f"{shown(function)} cannot name a C++ function: {why}", "rename the function")
        impl = Cpp(function) if kind == "cpp" else PythonImpl(function)
    _check_op_name(name, variants, inplace, impl, sigs, at_value("name"))
    if isinstance(impl, PythonImpl) and not variants:
        raise at_value("variants")("an op implemented in Python glue needs a method or function variant")
    if isinstance(impl, PythonImpl):
        for flag in ("inplace", "out"):
            if node.get(flag):
                raise at_key(flag)(f"'{flag}: true' is not supported for ops implemented in Python glue")
    else:
        for sig, loc in zip(sigs, raw_sigs.item_locs):
            if sig.returns == "object" or any(p.type.base == "object" for p in sig.params):
                raise ErrorAt(loc, name)("'object' is only for ops implemented in Python glue ('python:')")

    doc = get_str("doc", required=True)
    assert doc is not None
    numpy = get_str("numpy")
    if numpy is not None and not variants:
        raise at_key("numpy")("generated tests call the Python binding, which an op with no variants lacks",
                              "test it through the op that calls it")
    if numpy is not None:
        _check_numpy_reference(numpy, sigs, raw_sigs, name, at_value)
    tested_samples = _parse_test_keys(node, name, kind, numpy, sigs, at_key)
    if kind != "pointwise" and "dtypes" in node:
        dtypes = _parse_dtypes(node, name, at_value)
    domain = get_choice("domain", DOMAINS)
    # Releasing the GIL costs more than a metadata-only op (dim(), a view) takes.
    releases_gil = get_bool("releases_gil") if "releases_gil" in node else not isinstance(impl, PythonImpl)
    if releases_gil and isinstance(impl, PythonImpl):
        raise at_value("releases_gil")("ops implemented in Python glue run with the GIL held")
    return Declaration(name, tuple(sigs), variants, inplace, out, impl, dtypes, doc.strip(),
                       numpy, domain, releases_gil, node.loc, tuple(raw_sigs.item_locs), tested_samples)


def numpy_function(numpy: str, sigs: Sequence[Signature]) -> Optional[str]:
    """`numpy:` is an expression in the parameters, np and math, or a name that is not a
    parameter: a function of tests/python/numpy_ref.py, called with the parameters by name."""
    name = numpy.strip()
    return name if _IDENT.match(name) and all(s.param(name) is None for s in sigs) else None


def _check_numpy_reference(numpy: str, sigs: List[Signature], raw_sigs: NodeList, name: str,
                           at_value) -> None:  # type: ignore[no-untyped-def]
    function = numpy_function(numpy, sigs)
    if function is None:
        params = {p.name for s in sigs for p in s.params}
        expressions.check(numpy, params | {"np", "math"}, at_value("numpy"), functions=None)
    elif why := naming.python_problem(function):
        raise at_value("numpy")(f"{shown(function)} cannot name a function of numpy_ref: {why}")
    for sig, loc in zip(sigs, raw_sigs.item_locs):
        if sig.returns not in ("Tensor", "Tensor(a!)", "Tensor[]") and not sig.fields:
            raise ErrorAt(loc, name)("generated tests compare tensors (one, a tuple or a list of them), "
                                     f"and this signature returns {sig.returns}", "drop 'numpy:' and test it by hand")
        fields = {f.name for f in sig.fields}
        if {"values", "indices"} <= fields and not (sig.param("self") and sig.param("dim")):
            raise ErrorAt(loc, name)("generated tests check 'indices' as positions along 'dim' of 'self' "
                                     "(Note [Tied indices] in tests/python/opcheck.py), and this signature lacks one",
                                     "name the fields otherwise, or drop 'numpy:' and test it by hand")


def _parse_test_keys(node: Node, name: str, kind: str, numpy: Optional[str], sigs: List[Signature],
                     at_key) -> Tuple[sampling.Sample, ...]:  # type: ignore[no-untyped-def]
    """The samples of an op that is not pointwise and has `numpy:`, whose `dtypes:` its tests check."""
    for key in ("samples", "dtypes"):
        if key in node and kind != "pointwise" and numpy is None:
            raise at_key(key)(f"'{key}' says what the generated tests check, so it needs 'numpy:'")
    if "samples" in node and kind == "pointwise":
        raise at_key("samples")("a pointwise op is tested on operands of one shape: it takes no 'samples'")
    if kind == "pointwise" or numpy is None:
        return ()
    if "dtypes" not in node:
        raise ErrorAt(node.loc, name)("missing key 'dtypes' (the generated tests check that the others raise)")
    return sampling.parse(node, name, sigs, DTYPES)


def _check_op_name(name: str, variants: FrozenSet[str], inplace: bool, impl: Impl, sigs: List[Signature],
                   err: ErrorAt) -> None:
    """An op's methods and function must not hide or replace what the wick package defines, and
    its name must be an identifier wherever the generated code uses it as it is."""
    made = [(name, False)] if "function" in variants else []
    if "method" in variants:
        made += [(name, True)] + ([(name + "_", True)] if inplace else [])
    for made_name, method in made:
        why = naming.package_problem(made_name, method)
        if why:
            raise err(f"'{made_name}' cannot name a {'method' if method else 'function'}: {why}", "rename the op")
    why = naming.python_problem(name)
    if why:
        raise err(f"'{name}' cannot name an op: {why}", "rename the op")
    # Other ops take the C++ names of their `cpp:` or `python:` function (float() is to_float).
    if isinstance(impl, Pointwise):
        what, why = f"a pointwise op, whose C++ function is wick::{name}", naming.function_problem(name)
    elif any(s.fields for s in sigs):
        what = f"an op returning a tuple, whose type is ReturnType::{name} in C++ (Note [Tuple returns])"
        why = naming.cpp_problem(name)
    else:
        return
    if why:
        raise err(f"'{name}' cannot name {what}: {why}", "rename the op")


def _check_tuple_returns(name: str, sigs: List[Signature], raw_sigs: NodeList) -> None:
    """One named tuple type per op (Note [Tuple returns]): the same fields throughout."""
    tuples = [(sig, loc) for sig, loc in zip(sigs, raw_sigs.item_locs) if sig.fields]
    for sig, loc in tuples:
        if sig.fields != tuples[0][0].fields:
            raise ErrorAt(loc, name)(f"every tuple return of '{name}' must have the same fields, "
                                     f"as its first, {tuples[0][0].returns}",
                                     "they share the named tuple type wick.return_types." + name)


def _parse_pointwise(node: Node, name: str, sigs: List[Signature], raw_sigs: NodeList,
                     at_value, get_choice) -> Pointwise:  # type: ignore[no-untyped-def]
    first = sigs[0]
    for sig, loc in zip(sigs, raw_sigs.item_locs):
        if [p.name for p in sig.params] != [p.name for p in first.params]:
            raise ErrorAt(loc, name)("the signatures of a pointwise op must name the same parameters")
        if sig.returns not in ("Tensor", "Tensor(a!)"):
            raise ErrorAt(loc, name)("a pointwise op returns Tensor")
        for p in sig.params:
            if p.type.base not in ("Tensor", "Scalar") or p.type.optional or p.type.is_list:
                raise ErrorAt(loc, name)(f"a pointwise op takes Tensor and Scalar parameters, not '{p.type} {p.name}'")
            if p.name in EXPRESSION_CALLS:
                raise ErrorAt(loc, name)(f"'{p.name}' cannot name a parameter of a pointwise op: its kernel calls "
                                         f"the function {p.name}() of wick/math.h", "rename the parameter")
    expr = node["pointwise"]
    if isinstance(expr, (int, float)) and not isinstance(expr, bool):
        expr = str(expr)
    if not isinstance(expr, str) or not expr.strip():
        raise at_value("pointwise")("'pointwise' must be a C++ expression string")
    operands = tuple(p.name for p in first.params if p.type.base == "Tensor" and not p.type.mutable)
    for sig, loc in zip(sigs[1:], raw_sigs.item_locs[1:]):
        for p in sig.params:
            if p.type.base == "Tensor" and not p.type.mutable and p.name not in operands:
                raise ErrorAt(loc, name)(
                    f"'{p.name}' is a Scalar in the first signature but a Tensor here",
                    "list the all-Tensor signature first; later ones may take Scalars for operands")
    if first.params and first.params[0].type.mutable and re.search(r"\bself\b", expr):
        operands = ("self",) + operands
    constants = tuple(p.name for p in first.params if p.type.base == "Scalar")
    if len(operands) > MAX_OPERANDS:
        raise at_value("signatures")(f"a pointwise op takes at most {MAX_OPERANDS} tensors")
    expressions.check(expr, set(operands) | set(constants), at_value("pointwise"), functions=POINTWISE_FUNCTIONS)
    used = {n.id for n in ast.walk(ast.parse(expr.strip(), mode="eval")) if isinstance(n, ast.Name)}
    for unused in [n for n in operands + constants if n not in used]:
        raise at_value("pointwise")(f"parameter '{unused}' is not used in the expression {shown(expr)}")
    promote = get_choice("promote", ("common", "int_to_float"))
    output = get_choice("output", ("same", "bool"))
    check = node.get("check")
    if check is not None and (not isinstance(check, str) or not _IDENT.match(check)):
        raise at_value("check")(f"'check' names a C++ function of wick::detail, not {check!r}")
    return Pointwise(expr.strip(), promote, output, operands, constants, check)


_BITWISE_NODES = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.Invert)


def _check_pointwise_dtypes(impl: Pointwise, dtypes: Dict[str, Tuple[str, ...]], at_value) -> None:  # type: ignore[no-untyped-def]
    """What the expression uses must exist, in C++, for every dtype the op lists."""
    tree = ast.parse(impl.expr, mode="eval")
    listed = set(dtypes["cpu"]) | set(dtypes["cuda"])
    floats = {d for d in listed if d.startswith(("float", "bfloat"))}
    if any(isinstance(n, _BITWISE_NODES) for n in ast.walk(tree)) and floats:
        raise at_value("dtypes")(f"bitwise operators need integer or bool dtypes, not {', '.join(sorted(floats))}")
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    float_only = sorted(called & FLOAT_FUNCTIONS)
    if float_only and (listed - floats) and impl.promote != "int_to_float":
        raise at_value("dtypes")(f"{', '.join(float_only)} take floating-point values: list only float dtypes, "
                                 "or declare 'promote: int_to_float'")


def _parse_dtypes(node: Node, name: str, at_value) -> Dict[str, Tuple[str, ...]]:  # type: ignore[no-untyped-def]
    if "dtypes" not in node:
        raise ErrorAt(node.loc, name)("missing key 'dtypes' (a pointwise op lists the dtypes it supports)")
    raw = node["dtypes"]
    err = at_value("dtypes")

    def one(value: object) -> Tuple[str, ...]:
        if value == "all":
            return DTYPES
        if not isinstance(value, NodeList) or not value:
            raise err("'dtypes' is 'all', a list of dtypes, or a mapping from backend to one of those")
        for d, loc in zip(value, value.item_locs):
            if d not in DTYPES:
                raise ErrorAt(loc, name)(f"unknown dtype {shown(d)}", did_you_mean(str(d), DTYPES))
        if len(set(value)) != len(value):
            raise err("a dtype is listed twice")
        return tuple(d for d in DTYPES if d in value)

    if isinstance(raw, dict):
        for backend in raw:
            if backend not in BACKENDS:
                raise err(f"unknown backend {shown(backend)}", did_you_mean(str(backend), BACKENDS))
        if "cpu" not in raw:
            raise err("'dtypes' must list the cpu dtypes")
        cpu = one(raw["cpu"])
        return {"cpu": cpu, "cuda": one(raw.get("cuda", "all")) if "cuda" in raw else cpu}
    both = one(raw)
    return {"cpu": both, "cuda": both}


def check_all(decls: List[Declaration]) -> None:
    """Checks across declarations: names unique, including derived in-place forms."""
    seen: Dict[str, Declaration] = {}
    for d in decls:
        names = [d.name] + ([d.name + "_"] if d.inplace else [])
        for n in names:
            if n in seen:
                first = seen[n]
                raise DeclarationError(d.loc, f"'{n}' is declared twice (first at {first.loc})", d.name)
            seen[n] = d
