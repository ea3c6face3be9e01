"""The numbers a declaration writes, which become C++ and Python literals of int64 and double.

The YAML loader, the defaults of signatures and the constants of pointwise
expressions each read numbers in their own syntax; what they may be is said here once.
"""
from __future__ import annotations

import math
import re
from typing import Optional

INT64_MIN, INT64_MAX = -2**63, 2**63 - 1


def float_problem(written: str, value: float) -> Optional[str]:
    """Why `written`, which reads as the float `value`, stands for no double; None if it does."""
    if math.isinf(value):
        return "too large for a double"
    mantissa = re.split("[eE]", written.replace("_", ""))[0]
    if value == 0 and any(c in "123456789" for c in mantissa):
        return "too small for a double: it rounds to 0"
    return None
