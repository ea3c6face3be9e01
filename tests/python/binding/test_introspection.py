"""inspect.signature, help() and docstrings for every function and Tensor method generated from declarations/*.yaml."""
import inspect
import pydoc
import types
from pathlib import Path

import pytest
import yaml

import wick
from wick import _C
from wick._names import FUNCTIONS

DECLARATIONS = Path(__file__).resolve().parents[3] / "declarations"
# Every method the C type defines, the generated ones and any written by hand.
METHODS = sorted(name for name, attr in vars(_C.TensorBase).items()
                 if isinstance(attr, types.MethodDescriptorType) and not name.startswith("__"))


def _declared():
    """{Python name: YAML doc} for every binding the declarations make, those of aliases among them."""
    found = {}
    for path in sorted(DECLARATIONS.glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            method, function = "method" in entry["variants"], "function" in entry["variants"]
            # `inplace: true` is a method x.op_() (C++ only without variants); a list names its variants.
            inplace = entry.get("inplace")
            inplace = (set(entry["variants"]) & {"method"}) if inplace is True else set(inplace or ())
            docs = {entry["name"]: entry["doc"].strip()}
            docs.update((alias, f"An alias of {entry['name']}().") for alias in entry.get("aliases", []))
            for name, doc in docs.items():
                if method:
                    found["Tensor." + name] = doc
                if function:
                    found["wick." + name] = doc
                if "method" in inplace:
                    found["Tensor." + name + "_"] = doc
                if "function" in inplace:
                    found["wick." + name + "_"] = doc
    return found


DECLARED = _declared()


def _callable(qualname):
    owner, name = qualname.split(".")
    return getattr(wick.Tensor if owner == "Tensor" else wick, name)


def test_the_lists_are_the_declared_ones():
    """FUNCTIONS and the C methods of TensorBase hold exactly what the declarations make."""
    assert sorted("wick." + n for n in FUNCTIONS) == sorted(q for q in DECLARED if q.startswith("wick."))
    assert {"Tensor." + n for n in METHODS} >= {q for q in DECLARED if q.startswith("Tensor.")}
    assert len(FUNCTIONS) > 20 and len(METHODS) > 40


@pytest.mark.parametrize("qualname", ["wick." + n for n in FUNCTIONS] + ["Tensor." + n for n in METHODS])
def test_signature(qualname):
    """inspect.signature works, for the function and for the bound method, overloads or not."""
    fn = _callable(qualname)
    sig = inspect.signature(fn)
    if qualname.startswith("Tensor."):
        assert next(iter(sig.parameters)) == "self"
        inspect.signature(getattr(wick.ones(1), qualname.split(".")[1]))
    assert fn.__text_signature__ is not None


@pytest.mark.parametrize("qualname", sorted(DECLARED))
def test_docstring_is_the_yaml_doc(qualname):
    """__doc__ (the text signature stripped off) holds the entry's `doc:`, and help() shows both."""
    fn = _callable(qualname)
    assert fn.__doc__ and DECLARED[qualname] in fn.__doc__
    assert not fn.__doc__.startswith(fn.__name__ + "("), "the text signature was not recognised"
    assert f"{fn.__name__}{inspect.signature(fn)}" in pydoc.render_doc(fn, renderer=pydoc.plaintext)


def test_signatures_read_as_declared():
    assert str(inspect.signature(wick.Tensor.add)) == "(self, /, other, *, alpha=1)"
    assert str(inspect.signature(wick.ones(1).add)) == "(other, *, alpha=1)"
    assert str(inspect.signature(wick.zeros)) == "(size, *, dtype=None, device=None, requires_grad=False, out=None)"
    assert str(inspect.signature(wick.add)) == "(self, other, *, alpha=1, out=None)"
    # Several overloads: None where they differ, *args past names that differ.
    assert str(inspect.signature(wick.Tensor.sum)) == "(self, /, dim=None, keepdim=False, *, dtype=None)"
    assert str(inspect.signature(wick.Tensor.to)).startswith("(self, /, *args, dtype=None, ")


def test_overloaded_signatures_admit_real_calls():
    """Calls that work at runtime bind to the signature inspect reports."""
    x, y = wick.ones(2, 3), wick.zeros(2, 3, dtype=wick.float64)
    calls = [
        (wick.Tensor.to, (x, wick.float64), {}),
        (wick.Tensor.to, (x, "cpu", wick.float64), {"copy": True}),
        (wick.Tensor.to, (x, y), {"non_blocking": False}),
        (wick.Tensor.to, (x,), {"device": "cpu", "dtype": wick.int32}),
        (wick.arange, (5,), {}),
        (wick.arange, (1, 5, 2), {"dtype": wick.int64}),
        (wick.arange, (), {"start": 1, "end": 5}),
        (wick.Tensor.sum, (x,), {}),
        (wick.Tensor.sum, (x, 0, True), {"dtype": wick.float64}),
        (wick.Tensor.size, (x, 1), {}),
        (wick.add, (x, 1), {"alpha": 2, "out": wick.empty(2, 3)}),
    ]
    for fn, args, kwargs in calls:
        inspect.signature(fn).bind(*args, **kwargs)
        fn(*args, **kwargs)
