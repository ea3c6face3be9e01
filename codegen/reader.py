"""codegen/reader.py: a declaration's YAML mapping read into the model, one function per group of keys.

Every accessor fails with a DeclarationError at the place of the key or value it
reads (`file:line:col: in 'op': what; hint`), so the checks below say only what
is wrong. What spans declarations is left to codegen/validate.py.
"""
from __future__ import annotations

import doctest
import re
from dataclasses import replace
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple, Type, TypeVar

from codegen import derivatives, expressions
from codegen import names as naming
from codegen import testplan, yaml_loader
from codegen.errors import DeclarationError, Location, did_you_mean, shown
from codegen.model import (Api, Backend, Cpp, Declaration, Example, Impl, OutDtype, Output, Pointwise, Promotion,
                           PythonGlue, Variant)
from codegen.schema import DTYPES, BaseTy, DType, ErrorAt, Named, Signature, base_of, is_tensor
from codegen.validate import validate
from codegen.yaml_loader import Node, NodeList

KNOWN_KEYS = ("name", "signatures", "variants", "inplace", "out", "pointwise", "cpp", "python",
              "promote", "output", "check", "dtypes", "doc", "numpy", "domain", "releases_gil", "samples",
              "structured", "out_dtype", "examples", "derivatives", "not_differentiable", "differentiable", "aliases")
IMPL_KEYS = ("pointwise", "cpp", "python")
POINTWISE_KEYS = ("promote", "output", "check")
# The parameters a pointwise kernel takes as constants, in its compute type; a float? left None
# reaches it as NaN (Note [Optional constants] in wick/pointwise.h).
CONSTANT_TYPES = ("Scalar", "int", "float?")
MAX_OPERANDS = 5  # TensorIter::kMaxOperands less the output (the ops units static_assert it)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
E = TypeVar("E", bound=Named)


class Reader:
    """The mapping of one declaration, with typed accessors that fail at the place of what they read."""

    def __init__(self, node: Node) -> None:
        self.node = node
        for key in node:
            if key not in KNOWN_KEYS:
                raise ErrorAt(node.key_locs.get(key, node.loc), self._name_or_none())(
                    f"unknown key {shown(key)}", did_you_mean(key, KNOWN_KEYS))
        if "name" not in node:
            raise ErrorAt(node.loc, None)("missing key 'name'")
        name = node["name"]
        if not isinstance(name, str) or not _IDENT.match(name) or len(name) > naming.MAX_LENGTH:
            raise self.at_value("name")(f"name must be an identifier of at most {naming.MAX_LENGTH} characters, "
                                        f"not {shown(name)}")
        self.name: str = name

    def _name_or_none(self) -> Optional[str]:
        name = self.node.get("name")
        return name if isinstance(name, str) else None

    @property
    def loc(self) -> Location:
        return self.node.loc

    def at(self, loc: Location) -> ErrorAt:
        return ErrorAt(loc, self._name_or_none())

    def at_key(self, key: str) -> ErrorAt:
        return self.at(self.node.key_locs.get(key, self.node.loc))

    def at_value(self, key: str) -> ErrorAt:
        return self.at(self.node.value_locs.get(key, self.node.loc))

    def missing(self, key: str, why: Optional[str] = None, hint: Optional[str] = None) -> DeclarationError:
        return self.at(self.node.loc)(f"missing key '{key}'" + (f" ({why})" if why else ""), hint)

    def has(self, key: str) -> bool:
        return key in self.node

    def raw(self, key: str) -> object:
        return self.node.get(key)

    def string(self, key: str) -> Optional[str]:
        if key not in self.node:
            return None
        value = self.node[key]
        if not isinstance(value, str) or not value.strip():
            raise self.at_value(key)(f"'{key}' must be a non-empty string, not {shown(value)}")
        return value

    def required_string(self, key: str) -> str:
        value = self.string(key)
        if value is None:
            raise self.missing(key)
        return value

    def flag(self, key: str) -> bool:
        value = self.node.get(key, False)
        if not isinstance(value, bool):
            raise self.at_value(key)(f"'{key}' must be true or false, not {shown(value)}")
        return value

    def choice(self, key: str, enum: Type[E]) -> E:
        """A member of `enum` by its value; the first member when the key is absent."""
        choices = [str(m) for m in enum]
        value = self.node.get(key, choices[0])
        if value not in choices:
            raise self.at_value(key)(f"'{key}' must be one of {', '.join(choices)}, not {shown(value)}",
                                     did_you_mean(str(value), choices))
        return enum(value)


def load(paths: Sequence[str]) -> List[Declaration]:
    """The declarations of the files `paths`, each read alone, then validated together."""
    decls: List[Declaration] = []
    for path in paths:
        decls.extend(read_file(path, yaml_loader.load(path, yaml_loader.read(path))))
    validate(decls)
    return decls


def read_file(path: str, data: object) -> List[Declaration]:
    if data is None:
        return []
    if not isinstance(data, NodeList):
        loc = data.loc if isinstance(data, Node) else Location(path, 1, 1)
        raise DeclarationError(loc, "a declaration file is a list of declarations")
    decls = []
    for item, loc in zip(data, data.item_locs):
        if not isinstance(item, Node):
            raise DeclarationError(loc, "each declaration is a mapping with 'name:' and 'signatures:'")
        decl = read_declaration(item)
        decls += [decl, *_read_aliases(Reader(item), decl)]
    return decls


def read_declaration(node: Node) -> Declaration:
    r = Reader(node)
    sigs, sig_locs = _read_signatures(r)
    variants = _read_variants(r, sigs, sig_locs)
    inplace_variants, out = _read_forms(r, sigs, sig_locs, variants)
    impl = _read_impl(r, sigs, sig_locs, variants, inplace_variants, out)
    doc = r.required_string("doc")
    examples = _read_examples(r, variants)
    tests = _read_tests(r, sigs, sig_locs, variants, impl)
    api = Api(r.name, sigs, variants, inplace_variants, out, doc.strip(), examples, _read_gil(r, impl), r.loc,
              sig_locs)
    return Declaration(api, impl, tests, derivatives.read(node, r.name, sigs, sig_locs))


def _read_aliases(r: Reader, decl: Declaration) -> List[Declaration]:
    """`aliases:`, other names of the op (arcsin of asin): each has the op's signatures, forms, tests and
    derivatives, and calls its C++ functions."""
    raw = r.raw("aliases")
    if raw is None:
        return []
    if not isinstance(raw, NodeList) or not raw:
        raise r.at_value("aliases")("'aliases' must be a non-empty list of names")
    if any(sig.is_tuple for sig in decl.api.signatures):
        raise r.at_key("aliases")("an op returning a tuple takes no aliases: its tuple type is named for the op")
    aliases = []
    for name, loc in zip(raw, raw.item_locs):
        if not isinstance(name, str) or not _IDENT.match(name) or len(name) > naming.MAX_LENGTH:
            raise r.at(loc)(f"an alias is an identifier of at most {naming.MAX_LENGTH} characters, not {shown(name)}")
        if name.endswith("_") != decl.api.mutates_self:
            raise r.at(loc)(f"an alias ends with '_' where its op does: not {shown(name)}")
        api = replace(decl.api, name=name, doc=f"An alias of {decl.name}().", examples=(), loc=loc)
        made = [(name, v == Variant.method) for v in api.variants]
        made += [(name + "_", v == Variant.method) for v in api.inplace_variants & api.variants]
        for why in [naming.python_problem(name)] + [naming.package_problem(n, method) for n, method in made]:
            if why:
                raise r.at(loc)(f"'{name}' cannot name an alias: {why}", "rename the alias")
        aliases.append(replace(decl, api=api, alias_of=decl))
    return aliases


# --- the API: signatures, variants, forms --------------------------------------------------------------------------

def _read_signatures(r: Reader) -> Tuple[Tuple[Signature, ...], Tuple[Location, ...]]:
    raw = r.raw("signatures")
    if raw is None:
        raise r.missing("signatures")
    if not isinstance(raw, NodeList) or not raw:
        raise r.at_value("signatures")("'signatures' must be a non-empty list of signatures")
    sigs: List[Signature] = []
    for text, loc in zip(raw, raw.item_locs):
        if not isinstance(text, str):
            raise r.at(loc)(f"a signature is a string, not {shown(text)}")
        sig = Signature.parse(text, r.at(loc), r.name)
        if sig in sigs:
            raise r.at(loc)(f"signature '{sig}' given twice")
        sigs.append(sig)
    locs = tuple(raw.item_locs)
    mutable = [s.mutates_self for s in sigs]
    if any(mutable) != all(mutable):
        raise r.at_value("signatures")("either every signature or none takes 'Tensor(a!) self'")
    for sig, loc in zip(sigs, locs):
        for p in sig.params[1:]:
            if p.mutable:
                raise r.at(loc)(f"only 'self' may be Tensor(a!), not '{p.name}'")
        if sig.returns_self != sig.mutates_self:
            raise r.at(loc)("'-> Tensor(a!)' goes with a 'Tensor(a!) self' parameter, and only with it")
    if mutable[0] and not r.name.endswith("_"):
        raise r.at_value("name")(f"an in-place op's name ends with '_': '{r.name}_'")
    if not mutable[0] and r.name.endswith("_"):
        raise r.at_value("name")("a name ending in '_' is for ops taking 'Tensor(a!) self'")
    return tuple(sigs), locs


def _read_variants(r: Reader, sigs: Tuple[Signature, ...], locs: Tuple[Location, ...]) -> FrozenSet[Variant]:
    if not r.has("variants"):
        raise r.missing("variants", hint="list 'method', 'function' or both")
    raw = r.raw("variants")
    if not isinstance(raw, NodeList):
        raise r.at_value("variants")("'variants' must be a list of 'method' and 'function' (empty for C++ only)")
    names = [str(v) for v in Variant]
    for v, loc in zip(raw, raw.item_locs):
        if v not in names:
            raise r.at(loc)(f"unknown variant {shown(v)}", did_you_mean(str(v), names))
    variants = frozenset(Variant(v) for v in raw)
    if Variant.method in variants:
        for i, (sig, loc) in enumerate(zip(sigs, locs)):
            scalar_self = bool(sig.params) and sig.params[0].name == "self" and str(sig.params[0].type) == "Scalar"
            if not sig.takes_tensor_self and not (i > 0 and scalar_self and Variant.function in variants):
                raise r.at(loc)("a method's first parameter must be 'Tensor self'",
                                "after the first signature, a function may also take a 'Scalar self', which "
                                "the method and in-place forms do not")
    return variants


def _read_forms(r: Reader, sigs: Tuple[Signature, ...], locs: Tuple[Location, ...],
                variants: FrozenSet[Variant]) -> Tuple[FrozenSet[Variant], bool]:
    """`inplace:` (true for the method <name>_, or the variants of <name>_) and `out:`. With no variants
    (C++ only) they add the C++ functions <name>_ and <name>_out alone."""
    inplace_variants = _read_inplace(r, variants)
    inplace, out = bool(inplace_variants), r.flag("out")
    if inplace and any(not s.returns_only("Tensor") for s in sigs if s.takes_tensor_self):
        raise r.at_key("inplace")("'inplace: true' needs every signature to return Tensor")
    if out and any(not s.has_out_form and not (i > 0 and s.returns_only("Tensor[]")) for i, s in enumerate(sigs)):
        raise r.at_key("out")("'out: true' needs every signature to return Tensor or a tuple",
                              "after the first, a signature returning Tensor[] is allowed, without an out= form")
    tuples = [(sig, loc) for sig, loc in zip(sigs, locs) if sig.is_tuple]
    for sig, loc in tuples:  # one named tuple type per op (Note [Tuple returns])
        if sig.returns != tuples[0][0].returns:
            raise r.at(loc)(f"every tuple return of '{r.name}' must have the same fields, "
                            f"as its first, {tuples[0][0].returns_text()}",
                            "they share the named tuple type wick.return_types." + r.name)
    if inplace and variants and not inplace_variants <= variants:
        raise r.at_key("inplace")("'inplace: true' makes a method, so 'variants' must include method"
                                  if r.raw("inplace") is True else "'inplace' lists a variant that 'variants' lacks")
    if out and variants and Variant.function not in variants:
        raise r.at_key("out")("'out: true' adds out= to the function, so 'variants' must include function")
    if out:
        for sig, loc in zip(sigs, locs):
            if sig.param("out"):
                raise r.at(loc)("'out: true' adds the 'out' parameter itself")
    return inplace_variants, out


def _read_inplace(r: Reader, variants: FrozenSet[Variant]) -> FrozenSet[Variant]:
    raw = r.raw("inplace")
    if raw is None or raw is False:
        return frozenset()
    if raw is True:
        return frozenset({Variant.method})
    names = [str(v) for v in Variant]
    if not isinstance(raw, NodeList) or not raw or any(v not in names for v in raw):
        raise r.at_value("inplace")(f"'inplace' is true (a method) or a list of 'method' and 'function', "
                                    f"not {shown(raw)}")
    return frozenset(Variant(v) for v in raw)


def _read_examples(r: Reader, variants: FrozenSet[Variant]) -> Tuple[Example, ...]:
    """`examples:`, a list of blocks in doctest form, each calling the op (Note [Examples])."""
    raw = r.raw("examples")
    if raw is None:
        return ()
    if not variants:
        raise r.at_key("examples")("an op with no variants has no Python binding for an example to call")
    if not isinstance(raw, NodeList) or not raw:
        raise r.at_value("examples")("'examples' must be a non-empty list of blocks in doctest form",
                                     "write each as a literal block ('- |') of '>>> ' lines and their output")
    called = re.compile(rf"\b{re.escape(r.name)}_?\b")
    examples = []
    for text, loc in zip(raw, raw.item_locs):
        err = r.at(loc)
        if not isinstance(text, str) or not text.startswith(">>> "):
            raise err(f"an example starts with '>>> ', not {shown(text)}",
                      "write each as a literal block ('- |') of '>>> ' lines and their output")
        try:
            found = doctest.DocTestParser().get_examples(text, name="the example")
        except ValueError as e:
            raise err(f"not in doctest form: {e}") from None
        for ex in found:
            # Python's parser recurses per level of nesting: bounded as expressions are (codegen/expressions.py).
            if len(ex.source) > expressions.MAX_LENGTH:
                raise err(f"line {ex.lineno + 1} of the example starts a statement of {len(ex.source)} characters, "
                          f"more than {expressions.MAX_LENGTH}", "split it")
            try:
                compile(ex.source, "<example>", "single")
            except SyntaxError as e:
                raise err(f"line {ex.lineno + 1} of the example is not Python: {e.msg}") from None
        if not any(called.search(ex.source) for ex in found):
            raise err(f"the example never calls '{r.name}'", "an example shows its own op")
        examples.append(Example(text.rstrip("\n") + "\n", loc))
    return tuple(examples)


# --- the implementation --------------------------------------------------------------------------------------------

def _read_impl(r: Reader, sigs: Tuple[Signature, ...], locs: Tuple[Location, ...], variants: FrozenSet[Variant],
               inplace_variants: FrozenSet[Variant], out: bool) -> Impl:
    inplace = bool(inplace_variants)
    kinds = [k for k in IMPL_KEYS if r.has(k)]
    if len(kinds) != 1:
        raise r.at(r.loc)("give exactly one implementation: 'pointwise:', 'cpp:' or 'python:'"
                          + (f" (got {', '.join(kinds)})" if kinds else ""))
    kind = kinds[0]
    for key in POINTWISE_KEYS:
        if r.has(key) and kind != "pointwise":
            raise r.at_key(key)(f"'{key}' applies only to pointwise ops")
    impl: Impl
    if kind == "pointwise":
        impl = _read_pointwise(r, sigs, locs)
    else:
        function = r.required_string(kind)
        if not _IDENT.match(function):
            raise r.at_value(kind)(f"'{kind}' names a C++ function, not {shown(function)}")
        # A cpp: function is wick::<function>; a python: one is in wick::python::impl, which has no namespaces.
        why = naming.function_problem(function) if kind == "cpp" else naming.cpp_problem(function)
        if why:
            raise r.at_value(kind)(f"{shown(function)} cannot name a C++ function: {why}", "rename the function")
        structured = r.flag("structured")
        if structured and (kind != "cpp" or not (inplace or out)):
            raise r.at_key("structured")("'structured: true' is for a 'cpp:' op with in-place or out= forms")
        out_dtype = r.choice("out_dtype", OutDtype)
        impl = Cpp(function, structured, out_dtype) if kind == "cpp" else PythonGlue(function)
    if r.has("out_dtype") and not (isinstance(impl, Cpp) and impl.structured and out):
        raise r.at_key("out_dtype")("'out_dtype' is for a structured op with 'out: true'")
    _check_op_name(r, variants, inplace_variants, impl, sigs)
    if isinstance(impl, PythonGlue):
        if not variants:
            raise r.at_value("variants")("an op implemented in Python glue needs a method or function variant")
        for key, value in (("inplace", inplace), ("out", out)):
            if value:
                raise r.at_key(key)(f"'{key}: true' is not supported for ops implemented in Python glue")
    else:
        for sig, loc in zip(sigs, locs):
            if sig.returns_only("object") or any(base_of(p.type) == BaseTy.object for p in sig.params):
                raise r.at(loc)("'object' is only for ops implemented in Python glue ('python:')")
    return impl


def _read_pointwise(r: Reader, sigs: Tuple[Signature, ...], locs: Tuple[Location, ...]) -> Pointwise:
    first = sigs[0]
    for sig, loc in zip(sigs, locs):
        if [p.name for p in sig.params] != [p.name for p in first.params]:
            raise r.at(loc)("the signatures of a pointwise op must name the same parameters")
        if not sig.returns_only("Tensor", "Tensor(a!)"):
            raise r.at(loc)("a pointwise op returns Tensor")
        for p in sig.params:
            if str(p.type) not in ("Tensor", *CONSTANT_TYPES):
                raise r.at(loc)(f"a pointwise op takes Tensor, Scalar, int and float? parameters, "
                                f"not '{p.type} {p.name}'")
            if p.name in expressions.EXPRESSION_CALLS:
                raise r.at(loc)(f"'{p.name}' cannot name a parameter of a pointwise op: its kernel calls "
                                f"the function {p.name}() of wick/math.h", "rename the parameter")
    expr = r.raw("pointwise")
    if isinstance(expr, (int, float)) and not isinstance(expr, bool):
        expr = str(expr)
    if not isinstance(expr, str) or not expr.strip():
        raise r.at_value("pointwise")("'pointwise' must be an expression string")
    operands = tuple(p.name for p in first.params if is_tensor(p.type) and not p.mutable)
    for sig, loc in zip(sigs[1:], locs[1:]):
        for p in sig.params:
            if is_tensor(p.type) and not p.mutable and p.name not in operands:
                raise r.at(loc)(f"'{p.name}' is a Scalar in the first signature but a Tensor here",
                                "list the all-Tensor signature first; later ones may take Scalars for operands")
    if first.mutates_self and re.search(r"\bself\b", expr):
        operands = ("self",) + operands
    constants = tuple(p.name for p in first.params if str(p.type) in CONSTANT_TYPES)  # Scalars in C++
    if len(operands) > MAX_OPERANDS:
        raise r.at_value("signatures")(f"a pointwise op takes at most {MAX_OPERANDS} tensors")
    expressions.check(expr, set(operands) | set(constants), r.at_value("pointwise"),
                      functions=expressions.POINTWISE_FUNCTIONS)
    used = expressions.names_in(expr)
    for unused in [n for n in operands + constants if n not in used]:
        raise r.at_value("pointwise")(f"parameter '{unused}' is not used in the expression {shown(expr)}")
    promote, output = r.choice("promote", Promotion), r.choice("output", Output)
    check = r.raw("check")
    if check is not None and (not isinstance(check, str) or not _IDENT.match(check)):
        raise r.at_value("check")(f"'check' names a C++ function of wick::detail, not {check!r}")
    if not r.has("dtypes"):
        raise r.missing("dtypes", "a pointwise op lists the dtypes it supports")
    dtypes = _read_dtypes(r)
    listed = set(dtypes[Backend.cpu]) | set(dtypes[Backend.cuda])
    floats = sorted(str(d) for d in listed if d.is_floating)
    if expressions.uses_bitwise(expr) and floats:
        raise r.at_value("dtypes")(f"bitwise operators need integer or bool dtypes, not {', '.join(floats)}")
    float_only = sorted(expressions.calls_in(expr) & expressions.FLOAT_FUNCTIONS)
    if float_only and len(listed) > len(floats) and promote != Promotion.int_to_float:
        raise r.at_value("dtypes")(f"{', '.join(float_only)} take floating-point values: list only float dtypes, "
                                   "or declare 'promote: int_to_float'")
    return Pointwise(expr.strip(), promote, output, operands, constants, check, dtypes)


def _read_dtypes(r: Reader) -> Dict[Backend, Tuple[DType, ...]]:
    """`dtypes:` is `all`, a list of dtypes, or a mapping from backend to one of those."""
    raw = r.raw("dtypes")
    err = r.at_value("dtypes")
    names = [str(d) for d in DTYPES]

    def one(value: object) -> Tuple[DType, ...]:
        if value == "all":
            return DTYPES
        if not isinstance(value, NodeList) or not value:
            raise err("'dtypes' is 'all', a list of dtypes, or a mapping from backend to one of those")
        for d, loc in zip(value, value.item_locs):
            if d not in names:
                raise r.at(loc)(f"unknown dtype {shown(d)}", did_you_mean(str(d), names))
        if len(set(value)) != len(value):
            raise err("a dtype is listed twice")
        return tuple(d for d in DTYPES if str(d) in value)

    if isinstance(raw, dict):
        backends = [str(b) for b in Backend]
        for backend in raw:
            if backend not in backends:
                raise err(f"unknown backend {shown(backend)}", did_you_mean(str(backend), backends))
        if "cpu" not in raw:
            raise err("'dtypes' must list the cpu dtypes")
        cpu = one(raw["cpu"])
        return {Backend.cpu: cpu, Backend.cuda: one(raw["cuda"]) if "cuda" in raw else cpu}
    both = one(raw)
    return {Backend.cpu: both, Backend.cuda: both}


def _check_op_name(r: Reader, variants: FrozenSet[Variant], inplace_variants: FrozenSet[Variant], impl: Impl,
                   sigs: Tuple[Signature, ...]) -> None:
    """An op's methods and function must not hide or replace what the wick package defines, and
    its name must be an identifier wherever the generated code uses it as it is."""
    name, err = r.name, r.at_value("name")
    made = [(name, False)] if Variant.function in variants else []
    if Variant.method in variants:
        made.append((name, True))
    made += [(name + "_", v == Variant.method) for v in sorted(inplace_variants & variants, key=str)]
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
    elif any(s.is_tuple for s in sigs):
        what = f"an op returning a tuple, whose type is ReturnType::{name} in C++ (Note [Tuple returns])"
        why = naming.cpp_problem(name)
    else:
        return
    if why:
        raise err(f"'{name}' cannot name {what}: {why}", "rename the op")


def _read_gil(r: Reader, impl: Impl) -> bool:
    """`releases_gil:`; by default every op but those of the Python glue, which run with the GIL held."""
    releases = r.flag("releases_gil") if r.has("releases_gil") else not isinstance(impl, PythonGlue)
    if releases and isinstance(impl, PythonGlue):
        raise r.at_value("releases_gil")("ops implemented in Python glue run with the GIL held")
    return releases


# --- the test plan -------------------------------------------------------------------------------------------------

def _read_tests(r: Reader, sigs: Tuple[Signature, ...], locs: Tuple[Location, ...], variants: FrozenSet[Variant],
                impl: Impl) -> Optional[testplan.TestPlan]:
    """`numpy:`, and with it `dtypes:` (of an op that is not pointwise), `samples:` and `domain:`."""
    reference = r.string("numpy")
    pointwise = isinstance(impl, Pointwise)
    if reference is not None and not variants:
        raise r.at_key("numpy")("generated tests call the Python binding, which an op with no variants lacks",
                                "test it through the op that calls it")
    if reference is not None:
        _check_reference(r, reference, sigs, locs)
    for key in ("samples", "dtypes"):
        if r.has(key) and not pointwise and reference is None:
            raise r.at_key(key)(f"'{key}' says what the generated tests check, so it needs 'numpy:'")
    if r.has("samples") and pointwise:
        raise r.at_key("samples")("a pointwise op is tested on operands of one shape: it takes no 'samples'")
    samples: Tuple[testplan.Sample, ...] = ()
    if not pointwise and reference is not None:
        if not r.has("dtypes"):
            raise r.missing("dtypes", "the generated tests check that the others raise")
        samples = testplan.parse_samples(r.raw("samples"), r.node.value_locs.get("samples", r.loc), r.name, sigs)
    dtypes = impl.dtypes[Backend.cpu] if isinstance(impl, Pointwise) else \
        _read_dtypes(r)[Backend.cpu] if r.has("dtypes") else ()
    domain = r.choice("domain", testplan.Domain)
    if reference is None:
        return None
    return testplan.TestPlan(reference.strip(), dtypes, domain, samples)


def _check_reference(r: Reader, reference: str, sigs: Tuple[Signature, ...], locs: Tuple[Location, ...]) -> None:
    function = testplan.reference_function(reference, sigs)
    if function is None:
        params = {p.name for s in sigs for p in s.params}
        expressions.check(reference, params | {"np", "math"}, r.at_value("numpy"), functions=None)
    elif why := naming.python_problem(function):
        raise r.at_value("numpy")(f"{shown(function)} cannot name a function of numpy_ref: {why}")
    for sig, loc in zip(sigs, locs):
        if not sig.returns_only("Tensor", "Tensor(a!)", "Tensor[]") and not sig.is_tuple:
            raise r.at(loc)("generated tests compare tensors (one, a tuple or a list of them), "
                            f"and this signature returns {sig.returns_text()}", "drop 'numpy:' and test it by hand")
        fields = {f.name for f in sig.fields}
        if {"values", "indices"} <= fields and not (sig.param("self") and sig.param("dim")):
            raise r.at(loc)("generated tests check 'indices' as positions along 'dim' of 'self' "
                            "(Note [Tied indices] in tests/python/opcheck.py), and this signature lacks one",
                            "name the fields otherwise, or drop 'numpy:' and test it by hand")

