"""codegen/model.py: a declaration in its three parts, each a frozen dataclass.

    Declaration
      api          what Python and C++ see: the name, the signatures (codegen/schema.py),
                   the method and function variants, the in-place and out= forms, the doc,
                   its examples and whether the binding releases the GIL;
      impl         how it is computed: a pointwise expression with the dtypes its kernels
                   are compiled for, a hand-written core function, or a function of the
                   Python glue;
      tests        what the generated tests check (codegen/testplan.py), or None;
      derivatives  how autograd goes back through it (codegen/derivatives.py).

An alias (`aliases:`, as arcsin of asin) is a Declaration of its own, for its bindings, stubs,
docs and tests, that shares the impl, tests and derivatives of the op it names and calls that
op's C++ functions: it adds no C++ function or kernel.

codegen/reader.py builds them from YAML, and codegen/validate.py checks what
spans declarations before any emitter runs; emitters only render.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Optional, Tuple, Union

from codegen.derivatives import Derivatives
from codegen.errors import Location
from codegen.schema import DType, Named, Signature
from codegen.testplan import TestPlan


class Backend(Named):
    cpu = "cpu"
    cuda = "cuda"


class Variant(Named):
    method = "method"
    function = "function"


class Form(Named):
    """The C++ functions and Python overloads of an op: <name>, <name>_ and <name>_out; and the two
    halves of a structured op that core writes, detail::<name>_meta and detail::<name>_impl."""

    functional = "functional"
    inplace = "inplace"
    out = "out"
    meta = "meta"
    impl = "impl"


class OutDtype(Named):
    """What dtype the out= of a structured op may have (Note [Structured ops] in wick/structured.h)."""

    same = "same"  # the result's
    cast = "cast"  # any the result casts to, as PyTorch's reductions; a dtype= left None is out's


class Promotion(Named):
    common = "common"  # the result type of the operands, as PyTorch's
    int_to_float = "int_to_float"  # ... and integer or bool inputs compute in the default float dtype


class Output(Named):
    same = "same"  # the computed dtype
    bool = "bool"  # a predicate


# Note [Examples]
# ~~~~~~~~~~~~~~~~
# An op's `examples:` are doctests: `>>> ` lines (`... ` for continuations), each
# followed by what wick prints, with `wick` imported and nothing else. The manual
# shows them on the op's entry (codegen/dest/docs.py), the docstrings of its
# bindings carry them, and tests/python/docs/test_examples.py runs every one against
# the built module, a test case per op, so that an example that no longer prints what
# it says fails with the op's name. The reader checks their form alone (the doctest
# syntax, Python syntax, that the op is called): what they print only running them
# can check. So an example must print the same on every run: no random values
# without a seed, no addresses.
@dataclass(frozen=True)
class Example:
    """One block of an op's `examples:` (Note [Examples])."""

    text: str
    loc: Location


@dataclass(frozen=True)
class Api:
    name: str
    signatures: Tuple[Signature, ...]
    variants: FrozenSet[Variant]
    # <name>_, which writes into self: a method (`inplace: true`), and a function of wick where
    # PyTorch has one too (`inplace: [method, function]`, as torch.index_put_).
    inplace_variants: FrozenSet[Variant]
    out: bool  # also out= on the function
    doc: str
    examples: Tuple[Example, ...]
    releases_gil: bool  # the binding releases the GIL around the call (Note [GIL])
    loc: Location
    signature_locs: Tuple[Location, ...]

    @property
    def inplace(self) -> bool:
        return bool(self.inplace_variants)

    @property
    def mutates_self(self) -> bool:
        """An op whose every signature takes `Tensor(a!) self` (its name ends with '_')."""
        return self.signatures[0].mutates_self

    def has(self, variant: Variant) -> bool:
        return variant in self.variants

    def signature_loc(self, sig: Signature) -> Location:
        return self.signature_locs[self.signatures.index(sig)]


@dataclass(frozen=True)
class Pointwise:
    expr: str  # Python syntax, which codegen/api/expr.py writes as C++
    promote: Promotion
    output: Output
    operands: Tuple[str, ...]  # the Tensor parameters the expression reads, in order
    constants: Tuple[str, ...]  # the Scalar parameters, passed to the kernel as constants
    check: Optional[str]  # wick::detail::<check>, PyTorch's refusals (Note [Pointwise checks])
    dtypes: Dict[Backend, Tuple[DType, ...]]  # the dtypes its kernels are compiled for


@dataclass(frozen=True)
class Cpp:
    function: str  # wick::<function> in core
    # Written as detail::<function>_meta and _impl, from which the generator derives every form
    # (Note [Structured ops] in wick/structured.h): an op with in-place or out= forms.
    structured: bool = False
    out_dtype: OutDtype = OutDtype.same


@dataclass(frozen=True)
class PythonGlue:
    function: str  # wick::python::impl::<function> in python_ext


Impl = Union[Pointwise, Cpp, PythonGlue]


@dataclass(frozen=True)
class Declaration:
    api: Api
    impl: Impl
    tests: Optional[TestPlan]
    derivatives: Derivatives
    alias_of: Optional[Declaration] = None  # the op this one is another name of

    @property
    def owns_kernels(self) -> bool:
        """Whether it is a pointwise op whose kernels are compiled for it (an alias calls its op's)."""
        return isinstance(self.impl, Pointwise) and self.alias_of is None

    @property
    def name(self) -> str:
        return self.api.name

    @property
    def loc(self) -> Location:
        return self.api.loc

    @property
    def cpp_name(self) -> str:
        """The base name of its C++ functions: wick::<cpp_name>, <cpp_name>_ and <cpp_name>_out."""
        if self.alias_of is not None:
            return self.alias_of.cpp_name
        return self.impl.function if isinstance(self.impl, (Cpp, PythonGlue)) else self.name
