"""tests/codegen/test_expr.py: how `and`, `or` and `not` of a pointwise expression reach C++.

An operand that is a bool already (a comparison, `not`, another `and`/`or`) is left as it is, so that
on CPU vectors it stays a mask whose && and || wick/cpu/vec.h defines; any other operand is converted
with bool(), which has no vector form, so such an expression runs its scalar operator().
"""
from __future__ import annotations

import pytest

from codegen.api.expr import to_cpp


@pytest.mark.parametrize("expr, cpp", [
    ("self != 0 and other != 0", "((self != C(0)) && (other != C(0)))"),
    ("self < 1 or not other", "((self < C(1)) || (!other))"),
    ("self > 0 and (other > 0 or self == other)", "((self > C(0)) && ((other > C(0)) || (self == other)))"),
    ("self and other != 0", "(bool(self) && (other != C(0)))"),
    ("self or abs(other)", "(bool(self) || bool(abs(other)))"),
])
def test_bool_operands_stay_as_they_are(expr: str, cpp: str) -> None:
    assert to_cpp(expr) == cpp
