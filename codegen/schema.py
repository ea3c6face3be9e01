"""codegen/schema.py: the signatures of declarations, as enums and frozen algebraic dataclasses.

The leaf of the generator: it knows neither C++ nor Python's API, and every other
module matches on what it defines, never on the text of a type. A parsed
`Signature` prints back to the exact text it came from (`Signature.parse` checks
it), so emitters and error messages speak the declaration's own language.

    (Tensor self, int[1]? dim=None, *, bool keepdim=False) -> (Tensor values, Tensor indices)

A type is a `BaseType`, an `OptionalType` of a type (`int?`) or a `ListType` of
one (`int[]`, `Tensor?[]`, `int[]?`); `Tensor(a!)` is a tensor written in place,
an annotation of its parameter or return rather than a type of its own.
"""
from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Dict, FrozenSet, List, Optional, Pattern, Sequence, Tuple, Union

from codegen import names as naming
from codegen.errors import DeclarationError, Location, did_you_mean, shown
from codegen.numbers import float_problem


class Named(Enum):
    """An enum whose members print as their value, as declarations write them."""

    def __str__(self) -> str:
        return str(self.value)


class DType(Named):  # in the order of wick::DType (the copy tables static_assert it)
    bool = "bool"
    uint8 = "uint8"
    int8 = "int8"
    int16 = "int16"
    int32 = "int32"
    int64 = "int64"
    float16 = "float16"
    bfloat16 = "bfloat16"
    float32 = "float32"
    float64 = "float64"

    @property
    def is_floating(self) -> builtins.bool:
        return self.value.startswith(("float", "bfloat"))

    @property
    def legacy_tensor(self) -> str:
        """PyTorch's legacy tensor class of this dtype: wick.FloatTensor(2, 3), x.type() == "wick.FloatTensor"."""
        return naming.LEGACY_TENSORS[self.value]


DTYPES: Tuple[DType, ...] = tuple(DType)
DTYPE_NAMES: Tuple[str, ...] = tuple(d.value for d in DTYPES)


class BaseTy(Named):
    Tensor = "Tensor"
    Scalar = "Scalar"
    int = "int"
    float = "float"
    bool = "bool"
    ScalarType = "ScalarType"
    Device = "Device"
    Generator = "Generator"  # a wick.Generator (wick/generator.h), always optional: None is the default one
    MemoryFormat = "MemoryFormat"  # wick.contiguous_format... (wick/memory_format.h), always optional
    str = "str"
    object = "object"  # any Python object, for ops written in the Python glue


@dataclass(frozen=True)
class BaseType:
    name: BaseTy

    def __str__(self) -> str:
        return self.name.value


@dataclass(frozen=True)
class OptionalType:
    elem: "Type"

    def __str__(self) -> str:
        return f"{self.elem}?"


@dataclass(frozen=True)
class ListType:
    elem: "Type"

    def __str__(self) -> str:
        return f"{self.elem}[]"


Type = Union[BaseType, OptionalType, ListType]

TENSOR = BaseType(BaseTy.Tensor)


def base_of(t: Type) -> BaseTy:
    """The base type under every optional and list: Tensor for Tensor?[]."""
    while not isinstance(t, BaseType):
        t = t.elem
    return t.name


def strip_optional(t: Type) -> Type:
    return t.elem if isinstance(t, OptionalType) else t


def is_optional(t: Type) -> bool:
    return isinstance(t, OptionalType)


def is_list(t: Type) -> bool:
    return isinstance(strip_optional(t), ListType)


def is_tensor(t: Type) -> bool:
    """A single tensor, optional or not."""
    return strip_optional(t) == TENSOR


def is_base(t: Type, base: BaseTy) -> bool:
    """`t` is `base` itself, optional or not, and no list."""
    return strip_optional(t) == BaseType(base)


# The types a parameter may have; a tensor may also be `Tensor(a!)`.
PARAM_TYPES: FrozenSet[str] = frozenset({
    "Tensor", "Tensor?", "Tensor[]", "Tensor?[]", "Scalar", "Scalar?", "int", "int?", "int[]", "int[]?", "float",
    "float?", "bool", "ScalarType", "ScalarType?", "Device", "Device?", "Generator?", "MemoryFormat?", "str",
    "str?", "object",
})
# The types a signature may return alone; several tensors return as a tuple (Note [Tuple returns]).
RETURN_TYPES: FrozenSet[str] = frozenset({
    "Tensor", "Scalar", "int", "int[]", "bool", "float", "object", "Tensor[]",
})
TUPLE_FIELD_TYPES: FrozenSet[BaseTy] = frozenset({BaseTy.Tensor})

_TYPE = re.compile(r"(?P<base>[A-Za-z]+)(?P<mods>(\[\]|\(a!\)|\?)*)\Z")
_MODS = re.compile(r"\[\]|\(a!\)|\?")

Err = Callable[..., DeclarationError]


def parse_type(text: str, err: Err) -> Tuple[Type, bool]:
    """The type written `text`, and whether it is `Tensor(a!)`."""
    m = _TYPE.match(text)
    names = [b.value for b in BaseTy]
    if not m or m.group("base") not in names:
        base = m.group("base") if m else text
        raise err(f"unknown type {shown(base)}", did_you_mean(base, names))
    t: Type = BaseType(BaseTy(m.group("base")))
    mutable = False
    for mod in _MODS.findall(m.group("mods")):
        if mod == "(a!)":
            if t != TENSOR or mutable:
                raise err(f"type {shown(text)} is not supported", "only 'Tensor(a!)' is written in place")
            mutable = True
        else:
            t = OptionalType(t) if mod == "?" else ListType(t)
    shown_type = str(t) + ("(a!)" if mutable else "")
    if mutable and t != TENSOR:
        raise err(f"type {shown(text)} is not supported", "only 'Tensor(a!)' is written in place")
    if str(t) not in PARAM_TYPES:
        if base_of(t) == BaseTy.Tensor:
            raise err(f"type {shown(text)} is not supported",
                      "a list of tensors is 'Tensor[]', or 'Tensor?[]' when its elements may be None")
        base = base_of(t).value
        raise err(f"type {shown(text)} is not supported",
                  f"write one of {', '.join(sorted(x for x in PARAM_TYPES if re.match(base + '([?[]|$)', x)))}")
    if shown_type != text:
        raise err(f"malformed type {shown(text)}", f"write it as '{shown_type}'")
    return t, mutable


@dataclass(frozen=True)
class Param:
    name: str
    type: Type
    default: Optional[str]  # the literal as written: 1, 0.5, True, None
    kwarg_only: bool
    mutable: bool = False  # Tensor(a!): written in place, and returned as the same object

    def __str__(self) -> str:
        return (f"{self.type}{'(a!)' if self.mutable else ''} {self.name}"
                + ("" if self.default is None else f"={self.default}"))


@dataclass(frozen=True)
class Return:
    """One returned value: unnamed alone, named as a field of a tuple (Note [Tuple returns])."""

    type: Type
    name: Optional[str] = None
    mutable: bool = False  # -> Tensor(a!): self, written in place

    def __str__(self) -> str:
        text = str(self.type) + ("(a!)" if self.mutable else "")
        return text if self.name is None else f"{text} {self.name}"


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
class Signature:
    params: Tuple[Param, ...]
    returns: Tuple[Return, ...]  # () for None; several, each named, for a tuple

    @property
    def is_tuple(self) -> bool:
        return len(self.returns) > 1

    @property
    def returns_none(self) -> bool:
        return not self.returns

    @property
    def returns_self(self) -> bool:
        return len(self.returns) == 1 and self.returns[0].mutable

    @property
    def fields(self) -> Tuple[Return, ...]:
        """The fields of a tuple return; () for any other."""
        return self.returns if self.is_tuple else ()

    def returns_only(self, *types: str) -> bool:
        """Whether it returns one value, of one of these types (as written, Tensor(a!) included)."""
        return len(self.returns) == 1 and str(self.returns[0]) in types

    @property
    def mutates_self(self) -> bool:
        return bool(self.params) and self.params[0].mutable

    @property
    def has_out_form(self) -> bool:
        """Whether `out: true` gives it an out= form: it returns a Tensor or a tuple of them; a Tensor[]
        (where(condition), the columns of nonzero) has none, as its number of results depends on the input."""
        return self.returns_only("Tensor") or self.is_tuple

    @property
    def takes_tensor_self(self) -> bool:
        """Whether its first parameter is `Tensor self`: a method's signatures do, but a function's
        `(Scalar self, ...)` overload (pow(2, x)) has no method or in-place form."""
        return bool(self.params) and self.params[0].name == "self" and self.params[0].type == TENSOR

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)

    def returns_text(self) -> str:
        if not self.returns:
            return "None"
        if self.is_tuple:
            return f"({', '.join(map(str, self.returns))})"
        return str(self.returns[0])

    def __str__(self) -> str:
        return f"({join_params(self.params, str)}) -> {self.returns_text()}"

    @staticmethod
    def parse(text: str, err: Err, op: str) -> "Signature":
        m = re.fullmatch(r"\((?P<params>.*)\)\s*->\s*(?P<ret>\(.*\)|\S+)", text.strip())
        if not m:
            raise err(f"malformed signature {shown(text)}",
                      "expected '(Type name, ..., *, Type name=default) -> Return'")
        params = _parse_params(m.group("params").strip(), err, op)
        ret = m.group("ret")
        returns = _parse_fields(ret, params, err, op) if ret.startswith("(") else _parse_return(ret, err)
        sig = Signature(tuple(params), returns)
        if str(sig) != " ".join(text.split()):
            raise err(f"signature does not round-trip: {shown(text)} prints as {shown(str(sig))}",
                      "use one space after commas and around '->'")
        return sig


def _parse_params(body: str, err: Err, op: str) -> List[Param]:
    params: List[Param] = []
    kwarg_only = seen_default = False
    for piece in [p.strip() for p in body.split(",")] if body else []:
        if piece == "*":
            if kwarg_only:
                raise err("'*' given twice")
            kwarg_only = True
            continue
        pm = re.fullmatch(r"(?P<type>\S+)\s+(?P<name>\w+)(\s*=\s*(?P<default>\S+))?", piece)
        if not pm:
            raise err(f"malformed parameter {shown(piece)}", "expected 'Type name' or 'Type name=default'")
        ptype, mutable = parse_type(pm.group("type"), err)
        name, default = pm.group("name"), pm.group("default")
        why = naming.parameter_problem(name, op)
        if why:
            raise err(f"{shown(name)} cannot be a parameter name: {why}", "rename the parameter")
        if any(p.name == name for p in params):
            raise err(f"parameter '{name}' given twice")
        if default is not None:
            _check_default(ptype, name, default, err)
            seen_default = True
        elif seen_default and not kwarg_only:
            raise err(f"parameter '{name}' without a default follows one with a default")
        params.append(Param(name, ptype, default, kwarg_only, mutable))
    return params


def _parse_return(text: str, err: Err) -> Tuple[Return, ...]:
    if text == "None":
        return ()
    if text == "Tensor(a!)":
        return (Return(TENSOR, mutable=True),)
    if text not in RETURN_TYPES:
        raise err(f"unknown return type {shown(text)}", did_you_mean(text, RETURN_TYPES | {"None", "Tensor(a!)"}))
    t, _ = parse_type(text, err)
    return (Return(t),)


def _parse_fields(text: str, params: List[Param], err: Err, op: str) -> Tuple[Return, ...]:
    """The fields of a tuple return `(Tensor values, Tensor indices)`; see Note [Tuple returns]."""
    fields: List[Return] = []
    field_types = [b.value for b in TUPLE_FIELD_TYPES]
    for piece in [p.strip() for p in text[1:-1].split(",")]:
        fm = re.fullmatch(r"(?P<type>\S+)(\s+(?P<name>\S+))?", piece)
        if not fm:
            raise err(f"malformed tuple return {shown(text)}", "expected '(Tensor name, Tensor name, ...)'")
        ftype, name = fm.group("type"), fm.group("name")
        if ftype not in field_types:
            raise err(f"a tuple return holds {' or '.join(sorted(field_types))} fields, not '{ftype}'",
                      did_you_mean(ftype, field_types))
        if name is None:
            raise err(f"the fields of a tuple return need names: {shown(piece)} has none",
                      "write '(Tensor values, Tensor indices)'")
        why = "named tuples have no fields starting with '_'" if name.startswith("_") \
            else naming.parameter_problem(name, op)
        if why:
            raise err(f"{shown(name)} cannot name a field of a tuple return: {why}", "rename the field")
        if any(f.name == name for f in fields):
            raise err(f"field '{name}' given twice in the tuple return")
        if any(p.name == name for p in params):
            raise err(f"field '{name}' of the tuple return has the name of a parameter",
                      "an out= form takes the fields as parameters; rename one of them")
        fields.append(Return(BaseType(BaseTy(ftype)), name))
    if len(fields) < 2:
        raise err(f"a tuple return has at least two fields, not {len(fields)}", "return 'Tensor' for one")
    return tuple(fields)


def join_params(params: Sequence[Param], show: Callable[[Param], str]) -> str:
    """The parameters shown by `show`, comma-separated, with '*' before the first keyword-only one."""
    parts: List[str] = []
    for i, p in enumerate(params):
        if p.kwarg_only and (i == 0 or not params[i - 1].kwarg_only):
            parts.append("*")
        parts.append(show(p))
    return ", ".join(parts)


# A default is written once and read three times: as a C++ literal in ops.h, as Python in
# the text signature, and as a double by the runtime (ParamSpec::default_value). So an
# integer is decimal (0777 is octal in C++ and no Python) and exact in a double, and a
# float is finite and does not round to 0.
_INT = r"-?(0|[1-9][0-9]*)"
_DEFAULT_OK: Dict[Type, Pattern[str]] = {
    BaseType(BaseTy.Scalar): re.compile(_INT + r"(\.[0-9]+)?\Z|True\Z|False\Z"),
    BaseType(BaseTy.int): re.compile(_INT + r"\Z"),
    BaseType(BaseTy.float): re.compile(_INT + r"(\.[0-9]+)?([eE]-?[0-9]+)?\Z"),
    BaseType(BaseTy.bool): re.compile(r"True\Z|False\Z"),
}
MAX_EXACT_INT = 2**53  # the largest integer a double holds with every smaller one


def _check_default(t: Type, name: str, default: str, err: Err) -> None:
    if default == "None":
        if not is_optional(t) and t != BaseType(BaseTy.object):  # an object may be None as it is
            raise err(f"parameter '{name}' has default None but type '{t}' is not optional", f"write '{t}?'")
        return
    if base_of(t) == BaseTy.str:
        raise err(f"default {shown(default)} does not fit type '{t}' of parameter '{name}'",
                  "a str parameter has no default, or is 'str?' with default None")
    pattern = _DEFAULT_OK.get(t)
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


class ErrorAt:
    """Builds DeclarationErrors for one place in one declaration."""

    def __init__(self, loc: Location, decl: Optional[str]) -> None:
        self.loc, self.decl = loc, decl

    def __call__(self, message: str, hint: Optional[str] = None) -> DeclarationError:
        return DeclarationError(self.loc, message, self.decl, hint)
