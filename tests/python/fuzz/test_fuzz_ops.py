"""tests/python/fuzz/test_fuzz_ops.py: pointwise ops and reductions on random views, against NumPy.

Every op that is pointwise or a reduction and names a NumPy reference in its declaration
(fuzz_strategies.op_cases) gets calls of random shapes (0-d and empty included), in every
dtype it takes, with its tensors laid out as views: transposed, sliced with steps, expanded
(stride 0), selected, and for pointwise ops broadcast against each other or overlapping
as windows of one base, also when the op writes one of them in place. The judging is the
generated tests' own (tests/python/opcheck.py, its tolerances included). The calls run in a
child (fuzz_child.py).
"""
import pytest
from hypothesis import event, given, note, settings

from fuzz_child import Child
from fuzz_strategies import examples, op_cases, op_recipes


@pytest.fixture(scope="module")
def child():
    c = Child("fuzz_op_checks.warm_up")
    yield c
    c.close()


@pytest.mark.parametrize("name", sorted(op_cases()))
def test_op_matches_numpy_on_views(child, name):
    @settings(max_examples=examples(30))
    @given(recipe=op_recipes(name))
    def calls(recipe):
        note(f"recipe: {recipe!r}")
        outcome = child.run("fuzz_op_checks", "check_op", recipe)
        if outcome[0] == "returned":
            event(outcome[1])
            return
        if outcome[0] == "raised":
            raise AssertionError(f"{outcome[1]}: {outcome[2]}\n{outcome[3]}")
        raise AssertionError(f"the child {outcome[0]} ({outcome[1]})\n{outcome[2]}")

    calls()
