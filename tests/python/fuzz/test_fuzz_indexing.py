"""tests/python/fuzz/test_fuzz_indexing.py: x[index] and x[index] = value against NumPy.

Tensors of every dtype, laid out as views (transposed, sliced with steps, expanded,
selected), indexed by random mixtures of ints (negative, out of range, near 2**63),
slices (any bounds, huge and refused steps), None, Ellipsis, bools, masks, integer
tensors and lists, and NumPy values; then assigned numbers, tensors and lists that
broadcast, and views of the tensor itself. NumPy is the reference, except where
PyTorch differs on purpose (fuzz_indexing_checks.py). The calls run in a child (fuzz_child.py).
"""
import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from fuzz_child import Child
from fuzz_recipes import DTYPES
from fuzz_strategies import (examples, index_recipes, indexed_shape, overlapping_assignments, value_recipes,
                             view_recipes, view_shapes)


@pytest.fixture(scope="module")
def child():
    c = Child()
    yield c
    c.close()


def _judge(child, function, recipe):
    note(f"recipe: {recipe!r}")
    outcome = child.run("fuzz_indexing_checks", function, recipe)
    if outcome[0] == "returned":
        event(outcome[1])  # compared, refused...: --hypothesis-show-statistics tells how often
        return outcome[1]
    if outcome[0] == "raised":
        raise AssertionError(f"{outcome[1]}: {outcome[2]}\n{outcome[3]}")
    raise AssertionError(f"the child {outcome[0]} ({outcome[1]})\n{outcome[2]}")


@st.composite
def getitem_cases(draw, numpy=False):
    shape = draw(view_shapes)
    return draw(view_recipes(shape, draw(st.sampled_from(DTYPES)))), draw(index_recipes(shape, numpy))


@settings(max_examples=examples(500))
@given(case=getitem_cases())
def test_getitem_matches_numpy(child, case):
    _judge(child, "check_getitem", case)


# Apart, so that a failure with NumPy values in the index does not hide the others in CI.
@settings(max_examples=examples(200))
@given(case=getitem_cases(numpy=True))
def test_numpy_values_in_the_index(child, case):
    _judge(child, "check_getitem", case)


@st.composite
def setitem_cases(draw):
    shape = draw(view_shapes)
    x = draw(view_recipes(shape, draw(st.sampled_from(DTYPES)), expand=False))
    index = draw(index_recipes(shape))
    return x, index, draw(value_recipes(indexed_shape(shape, index), x[1]))


@settings(max_examples=examples(500))
@given(case=setitem_cases())
def test_setitem_matches_numpy(child, case):
    _judge(child, "check_setitem", case)


@settings(max_examples=examples(100))
@given(case=overlapping_assignments())
def test_assigning_a_view_of_itself(child, case):
    _judge(child, "check_setitem", case)
