"""tests/python/ops/test_opcheck.py: the checker behind the generated op tests fails where it should.

It compares the fields of a named tuple, indices by the elements they pick (Note [Tied
indices] in opcheck.py), and the elements of a Tensor[], each a view of self (Note [List
results]). Here it meets references, and an op, that are wrong, and ties it must accept.
"""
import numpy as np
import pytest

import numpy_ref
import wick
from opcheck import Case, P, S, check

MAX = (P("self", "tensor"), P("dim", "dim"), P("keepdim", "value", False))
CHUNK = (P("self", "tensor"), P("chunks", "value"), P("dim", "dim", 0))


def _case(name, signature, returns, sample, reference):
    return Case(name=name, signatures=(signature,), returns=(returns,), samples=(S(0, sample),),
                dtypes=("bool", "int8", "float64"), domain="any", method=True, function=True, inplace=False,
                out=False, mutates=False, reference=reference)


def test_indices_may_pick_any_of_equal_elements():
    """max picks the first of equal maxima; a reference picking the last one agrees up to ties."""
    differed = []

    def last_of_maxima(self, dim, keepdim):
        values, first = numpy_ref.max(self, dim, keepdim)
        last = self.shape[dim] - 1 - np.argmax(np.flip(self, dim), axis=dim, keepdims=keepdim)
        differed.append(not np.array_equal(first, last))
        return values, last

    check(_case("max", MAX, ("values", "indices"), {"self": (3, 4), "dim": 1}, last_of_maxima), "bool", "contiguous")
    assert any(differed), "the sample held no ties: the test tests nothing"


def test_indices_picking_other_elements_fail():
    def shifted(self, dim, keepdim):
        values, indices = numpy_ref.max(self, dim, keepdim)
        return values, (indices + 1) % self.shape[dim]

    case = _case("max", MAX, ("values", "indices"), {"self": (3, 4), "dim": 1}, shifted)
    with pytest.raises(AssertionError, match="pick other elements"):
        check(case, "float64", "contiguous")


def test_a_list_of_another_length_fails():
    case = _case("chunk", CHUNK, "Tensor[]", {"self": (3, 4), "chunks": 2}, lambda **kw: numpy_ref.chunk(**kw)[:1])
    with pytest.raises(AssertionError, match="2 tensors, not 1"):
        check(case, "int8", "contiguous")


def test_list_elements_must_be_views_of_self(monkeypatch):
    chunk = wick.chunk
    monkeypatch.setattr(wick, "chunk", lambda *args, **kwargs: tuple(t * 1 for t in chunk(*args, **kwargs)))
    case = _case("chunk", CHUNK, "Tensor[]", {"self": (3, 4), "chunks": 2}, numpy_ref.chunk)
    with pytest.raises(AssertionError, match="not a view of self"):
        check(case, "float64", "contiguous")
