"""The ops that declare a NumPy reference (`numpy:`), as opcheck cases, read from declarations/*.yaml.

The test plan of a declaration (codegen/testplan.py) says what its generated tests
check: its signatures, each parameter with its role, the calls to make (its samples),
the dtypes it takes, its forms and its reference. This module reads it through the
generator's own reader when the tests are collected, as PyTorch's OpInfo tables are
read, so nothing is generated for the tests and an edited declaration is tested as it
now stands.
"""
import ast
import functools
import math
import sys
from pathlib import Path
from typing import Dict, Tuple

import numpy as np

import numpy_ref
from opcheck import Case, P, Pointwise, S

ROOT = Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=None)
def declarations():
    """Every declaration of declarations/*.yaml, read and validated by codegen/reader.py."""
    if str(ROOT) not in sys.path:  # codegen/ is a package at the root of the repository
        sys.path.append(str(ROOT))
    from codegen import reader
    return tuple(reader.load(sorted(str(p) for p in (ROOT / "declarations").glob("*.yaml"))))


@functools.lru_cache(maxsize=None)
def cases() -> Tuple[Case, ...]:
    """A case per declaration with a NumPy reference, in declaration order."""
    return tuple(case(d) for d in declarations() if d.tests is not None)


def case(d) -> Case:
    from codegen import testplan
    from codegen.model import Pointwise as PointwiseImpl, Variant
    from codegen.schema import BaseTy, base_of, is_list
    api, plan, impl = d.api, d.tests, d.impl
    pointwise = None
    if isinstance(impl, PointwiseImpl):
        # Pointwise operands all take one shape, and a second signature only turns the last into a Scalar.
        sigs, samples = api.signatures[:1], (testplan.derive(api.signatures, 0, d.loc),)
        derived = dict(samples[0].args)
        defaults = {p.name: p.default for p in sigs[0].params}
        # A constant without default takes its derived value (fill_'s value).
        constants = {c: ast.literal_eval(defaults[c]) if defaults[c] is not None else derived[c] for c in impl.constants}
        last = impl.operands[-1] if impl.operands else None
        pointwise = Pointwise(
            promote=str(impl.promote),
            output=str(impl.output),
            constants=constants,
            scalar_operand=any(base_of(p.type) == BaseTy.Scalar for sig in api.signatures for p in sig.params
                               if p.name == last),
            broadcasts=len(impl.operands) > 1,
        )
    else:
        sigs, samples = api.signatures, plan.samples
    return Case(
        name=d.name,
        signatures=tuple(tuple(P(p.name, str(testplan.role(p)), *(() if p.default is None else (ast.literal_eval(p.default),)),
                                 kw=p.kwarg_only) for p in sig.params) for sig in sigs),
        returns=tuple(tuple(str(f.name) for f in sig.fields) if sig.is_tuple
                      else "Tensor[]" if is_list(sig.returns[0].type) else "Tensor" for sig in sigs),
        samples=tuple(S(s.signature, dict(s.args)) for s in samples),
        dtypes=tuple(str(t) for t in plan.dtypes),
        domain=str(plan.domain),
        method=api.has(Variant.method),
        function=api.has(Variant.function),
        inplace=api.inplace,
        out=api.out,
        mutates=api.mutates_self,
        reference=_reference(plan.reference, plan.reference_function(api.signatures),
                             [p.name for sig in api.signatures for p in sig.params]),
        pointwise=pointwise,
    )


def _reference(expression: str, function, params) -> object:
    """The reference: a function of numpy_ref, or a lambda of every parameter of every signature by name."""
    if function:
        return getattr(numpy_ref, function)
    names = ", ".join(f"{p}=None" for p in dict.fromkeys(params))
    scope: Dict[str, object] = {"np": np, "math": math, "numpy_ref": numpy_ref}
    return eval(f"lambda {names}: {expression}", scope)  # noqa: S307 - an expression of a declaration
