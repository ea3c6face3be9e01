"""Every op that declares a NumPy reference (the `numpy:` line of its declaration) against it, in every
dtype it lists (the others must raise) and every layout that applies (tests/python/opcheck.py). The
cases are read from the declarations themselves (tests/python/declared.py)."""
import pytest

from declared import cases
from opcheck import check, params


@pytest.mark.parametrize("case,dtype,layout", params(cases()))
def test_matches_numpy(case, dtype, layout):
    check(case, dtype, layout)
