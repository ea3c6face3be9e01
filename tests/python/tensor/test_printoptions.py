"""wick.set_printoptions against torch.set_printoptions: the same options give the same repr()."""
import math

import numpy as np
import pytest
import torch

import wick


@pytest.fixture(autouse=True)
def default_options():
    """Every test starts, and leaves both libraries, with the default profile."""
    wick.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")
    yield
    wick.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


def _same_repr(values, dtype="float32"):
    """The same repr, but where a suffix goes: whether "dtype=wick.float64" fits on the last line is reckoned
    with its own length, one less than torch's."""
    w = wick.tensor(values, dtype=getattr(wick, dtype))
    t = torch.tensor(values, dtype=getattr(torch, dtype))
    unwrapped = "\n" + " " * len("tensor(") + "dtype="
    assert repr(w).replace("wick.", "torch.").replace(unwrapped, " dtype=") == repr(t).replace(unwrapped, " dtype=")


VALUES = [
    [1.23456789, -2.5, 3.0],
    [1e-6, 1.0, 12345.678],
    [[1.0, 2.0], [3.0, 4.5]],
    np.linspace(-5, 5, 2000).reshape(40, 50).tolist(),
    list(range(1500)),
    [0.1, float("nan"), float("inf")],
]
OPTIONS = [
    {"precision": 2},
    {"precision": 8},
    {"threshold": 5},
    {"threshold": 5, "edgeitems": 1},
    {"edgeitems": 5},
    {"linewidth": 40},
    {"sci_mode": True},
    {"sci_mode": False},
    {"profile": "short"},
    {"profile": "full", "linewidth": 200},
    {"profile": "short", "precision": 6},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("values", VALUES, ids=range(len(VALUES)))
def test_options_print_as_pytorch(options, values):
    wick.set_printoptions(**options)
    torch.set_printoptions(**options)
    dtype = "int64" if np.asarray(values).dtype.kind == "i" else "float32"
    _same_repr(values, dtype)
    if dtype == "float32":
        _same_repr(values, "float64")


def test_options_that_are_left_out_keep_their_values_but_sci_mode():
    for library in (wick, torch):
        library.set_printoptions(precision=2, sci_mode=True)
        library.set_printoptions(linewidth=60)  # sci_mode back to None; precision stays 2
    _same_repr([1.23456, 1e-5])
    _same_repr([3.14159, 2.0])


def test_threshold_may_be_infinite():
    wick.set_printoptions(threshold=math.inf)
    torch.set_printoptions(threshold=math.inf)
    _same_repr(list(range(1200)), "int64")


@pytest.mark.parametrize("bad, error", [
    ({"precision": -1}, ValueError), ({"linewidth": 0}, ValueError), ({"edgeitems": -2}, ValueError),
    ({"edgeitems": 2 ** 70}, OverflowError), ({"edgeitems": 2 ** 50}, ValueError), ({"precision": 1.5}, TypeError),
    ({"threshold": "many"}, TypeError),
    ({"sci_mode": 1}, TypeError), ({"profile": 3}, TypeError), ({"threshold": math.nan}, ValueError),
])
def test_bad_options_are_refused_and_change_nothing(bad, error):
    before = repr(wick.tensor([1.23456]))
    with pytest.raises(error):
        wick.set_printoptions(**bad)
    assert repr(wick.tensor([1.23456])) == before
