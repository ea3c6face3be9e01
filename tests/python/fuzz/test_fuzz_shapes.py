"""tests/python/fuzz/test_fuzz_shapes.py: view, shape, join and split ops with ints at the edges of int64, against PyTorch.

Sizes, dims, starts, lengths, steps and counts near 2**62 and 2**63 are where size arithmetic
overflows; PyTorch checks it, and wick must raise where PyTorch raises and give PyTorch's shape and values where it does not. The ops are
the bindings declared in declarations/shape.yaml and join_split.yaml; each call runs in a
child (fuzz_child.py).
"""
import pytest
from hypothesis import event, given, note, settings

from fuzz_child import Child
from fuzz_recipes import describe_call
from fuzz_strategies import bindings, edge_int_mutants, examples, plain_call_recipes, reference_cases

# resize_ and resize_as_ give a grown tensor uninitialised elements, which no reference can match.
UNINITIALISED = ("resize_", "resize_as_")
BINDINGS = [b for b in bindings() if b.group in ("shape", "join_split") and b.name not in UNINITIALISED]


@pytest.fixture(scope="module")
def child():
    c = Child("fuzz_torch_checks.warm_up")
    yield c
    c.close()


@pytest.mark.parametrize("binding", BINDINGS, ids=lambda b: ("Tensor." if b.method else "wick.") + b.name)
def test_edge_ints_give_what_pytorch_gives(child, binding):
    @settings(max_examples=examples(20))
    @given(recipe=plain_call_recipes(binding))
    def calls(recipe):
        shown = describe_call(recipe)
        note(f"call: {shown}")
        outcome = child.run("fuzz_torch_checks", "check_against_torch", recipe)
        if outcome[0] == "returned":
            event(outcome[1])
            return
        if outcome[0] == "raised":
            raise AssertionError(f"{shown}: {outcome[1]}: {outcome[2]}\n{outcome[3]}")
        raise AssertionError(f"{shown}: the child {outcome[0]} ({outcome[1]})\n{outcome[2]}")

    calls()


CASES = [c for c in reference_cases().values() if any(b.name == c.name for b in BINDINGS)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_samples_with_an_edge_int_give_what_pytorch_gives(child, case):
    """Every int of the declaration's samples, one at a time, at the edge of int64 (fuzz_strategies.
    edge_int_mutants): not drawn at random, so that each such sum and product is tried in CI."""
    failures = []
    for recipe in edge_int_mutants(case):
        outcome = child.run("fuzz_torch_checks", "check_against_torch", recipe)
        if outcome[0] != "returned":
            failures.append(f"{describe_call(recipe)}: {outcome[2] if outcome[0] == 'raised' else outcome[1]}")
    assert not failures, f"{len(failures)} calls differ from PyTorch:\n" + "\n".join(failures[:10])
