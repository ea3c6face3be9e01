"""The named tuples of wick.return_types (Note [Tuple returns] in codegen/schema.py), as torch.return_types.

One type per op returning a tuple, a tuple subclass: unpackable, indexable, with
named fields, PyTorch's repr, picklable; stubs that mypy --strict accepts.
"""
import copy
import inspect
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import wick

TUPLE_OPS = ("kthvalue", "max", "median", "min", "nanmedian", "sort", "topk")


def test_one_type_per_op():
    assert set(TUPLE_OPS) <= set(wick.return_types.__all__)
    for name in wick.return_types.__all__:
        cls = getattr(wick.return_types, name)
        assert issubclass(cls, tuple) and cls.__name__ == name and cls.__module__ == "wick.return_types"
    assert wick.return_types.max is not wick.return_types.min
    assert wick.return_types.max._fields == ("values", "indices")
    assert wick.return_types._unique2._fields == ("output", "inverse_indices", "counts")


def test_fields_unpacking_indexing():
    x = wick.tensor([[1.0, 7.0, 3.0], [9.0, 2.0, 9.0]])
    result = x.max(1)
    assert type(result) is wick.return_types.max
    values, indices = result
    assert values is result.values is result[0] and indices is result.indices is result[1]
    assert values.tolist() == [7.0, 9.0] and indices.tolist() == [1, 0]
    assert len(result) == 2 and result[-1] is indices and list(result[:1]) == [values]
    assert result._asdict() == {"values": values, "indices": indices}
    assert type(wick.max(x, dim=1)) is type(result) and type(wick.sort(x)) is wick.return_types.sort
    with pytest.raises(AttributeError):
        result.values = values


def test_repr_is_pytorchs():
    torch = pytest.importorskip("torch")
    data = [[3.0, 1.0, 2.0], [float("nan"), 5.0, 0.0]]
    for op, args in (("max", (1,)), ("sort", ()), ("topk", (2,)), ("median", (0, True))):
        want = repr(getattr(torch.tensor(data), op)(*args)).replace("torch.", "wick.")
        assert repr(getattr(wick.tensor(data), op)(*args)) == want


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_and_copy(protocol):
    result = wick.tensor([[4, 1, 3], [2, 2, 0]]).sort(1)
    back = pickle.loads(pickle.dumps(result, protocol))
    assert type(back) is wick.return_types.sort
    assert back.values.tolist() == result.values.tolist() and back.indices.tolist() == result.indices.tolist()
    assert copy.copy(result).values is result.values
    assert copy.deepcopy(result).indices.tolist() == result.indices.tolist()


def test_built_from_fields():
    v, i = wick.tensor([1.0]), wick.tensor([0])
    made = wick.return_types.topk(v, i)
    assert made.values is v and made == wick.return_types.topk(values=v, indices=i)
    assert made._replace(values=i).values is i


def test_text_signature_has_out():
    assert str(inspect.signature(wick.sort)) == "(self, dim=-1, descending=False, *, stable=False, out=None)"
    assert str(inspect.signature(wick.Tensor.topk)) == "(self, /, k, dim=-1, largest=True, sorted=True)"


PROGRAM = textwrap.dedent("""\
    from typing import TYPE_CHECKING, Tuple

    import wick

    x = wick.zeros(3, 4)
    values, indices = x.max(1)
    best: wick.Tensor = wick.max(x, dim=0, keepdim=True).values + x.min(0).indices
    s = x.sort(descending=True)
    first: wick.Tensor = s.values[0] + s[1]
    pair: Tuple[wick.Tensor, wick.Tensor] = wick.topk(x, 2, out=(wick.empty(0), wick.empty(0, dtype=wick.int64)))
    k = x.kthvalue(2).indices.sum() + x.median(1).values.sum() + x.nanmedian(0)[0].sum()
    whole: wick.Tensor = x.max() + x.max(x)
    if TYPE_CHECKING:
        reveal_type(s)  # reveal: Tuple[wick._tensor.Tensor, wick._tensor.Tensor, fallback=wick.return_types.sort]
        reveal_type(x.max(0).indices)  # reveal: wick._tensor.Tensor
    s.valuez  # E
    x.sort(out=(x, x))  # E
    wick.sort(x, out=x)  # E
    a, b, c = x.topk(1)  # E
    """)


def test_mypy_strict_accepts_the_fields(tmp_path):
    pytest.importorskip("mypy")
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--config-file", "mypy.ini",
         "--no-error-summary", "program.py"],
        cwd=tmp_path, env={**os.environ, "MYPYPATH": str(Path(wick.__file__).resolve().parents[1])},
        capture_output=True, text=True, timeout=120)
    lines = PROGRAM.splitlines()
    errors, revealed = set(), {}
    for line in proc.stdout.splitlines():
        path, number, kind, text = line.split(":", 3)
        if path != "program.py":  # a note on where a stub defines what an error is about
            continue
        if kind.strip() == "error":
            errors.add(int(number))
        elif text.strip().startswith("Revealed type"):
            revealed[int(number)] = text.strip()
    assert errors == {i for i, text in enumerate(lines, 1) if text.endswith("# E")}, proc.stdout
    assert revealed == {i: f'Revealed type is "{text.split("# reveal: ")[1]}"'
                        for i, text in enumerate(lines, 1) if "# reveal: " in text}, proc.stdout
