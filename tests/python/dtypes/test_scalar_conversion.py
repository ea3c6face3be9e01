"""A Python number stored into a tensor's dtype as a value is checked as PyTorch checks it
(Note [Checked conversion of Python numbers]): every entry point raises where PyTorch raises,
with its words, and otherwise gives PyTorch's values. A wrapped number (x + 1000) still wraps."""
import math

import pytest

import torch_ref
import wick
from reference import DTYPES

torch = pytest.importorskip("torch")

# At the edges of every dtype's range, and beyond them.
VALUES = [0, -1, 2.7, -0.5, 127, 128, -129, 255, 255.5, 256, -255, -256, 2 ** 31, 2147483647.5, 2 ** 40,
          -2 ** 63, 2 ** 63 - 1, 65504.0, 65520.0, 1e30, 1e39, -1e300, math.inf, -math.inf, math.nan, True]
BASE = {"bool": [True, False, True], "uint8": [3, 2, 0]}


def base(lib, dtype):
    return lib.tensor(BASE.get(dtype, [3, -2, 0]) if not dtype.startswith(("float", "bfloat")) else [1.5, -2.0, 0.0],
                      dtype=getattr(lib, dtype))


def assert_as_torch(call, exact=True):
    return torch_ref.assert_as_torch(torch, call, exact)


ENTRY_POINTS = {
    "fill_": lambda L, d, v: base(L, d).fill_(v),
    "full": lambda L, d, v: L.full((2,), v, dtype=getattr(L, d)),
    "full_like": lambda L, d, v: L.full_like(base(L, d), v),
    "masked_fill": lambda L, d, v: base(L, d).masked_fill(L.tensor([True, False, True]), v),
    "masked_fill_0d_tensor": lambda L, d, v: base(L, d).masked_fill(L.tensor([True, False, True]), L.tensor(v)),
    "scatter": lambda L, d, v: base(L, d).scatter(0, L.tensor([1]), v),
    # A NaN bound is left out: it propagates in wick, as in NumPy and later PyTorch; 1.13 ignores it.
    "clamp_min": lambda L, d, v: base(L, d).clamp(min=0 if v != v else v),
    "clamp_max": lambda L, d, v: base(L, d).clamp_max(0 if v != v else v),
    "where": lambda L, d, v: L.where(L.tensor([True, False, True]), base(L, d), v),
    "add_alpha": lambda L, d, v: L.add(base(L, d), base(L, d), alpha=v),
    "addcmul_value": lambda L, d, v: L.addcmul(base(L, d), base(L, d), base(L, d), value=v),
    "index_add_alpha": lambda L, d, v: base(L, d).index_add(0, L.tensor([0]), base(L, d)[:1], alpha=v),
    "addmm_beta": lambda L, d, v: L.addmm(L.eye(2, dtype=getattr(L, d)), L.eye(2, dtype=getattr(L, d)),
                                          L.eye(2, dtype=getattr(L, d)), beta=v),
    "linspace": lambda L, d, v: L.linspace(0, v, 3, dtype=getattr(L, d)),
}


def _setitem(index):
    def call(L, d, v):
        x = base(L, d)
        x[index(L)] = v
        return x
    return call


ENTRY_POINTS.update({
    "setitem": _setitem(lambda L: 0),
    "setitem_mask": _setitem(lambda L: L.tensor([True, False, True])),
    "setitem_list": _setitem(lambda L: [0, 2]),
    "setitem_slice": _setitem(lambda L: slice(1, None)),
})


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_values_are_checked_as_pytorch_checks_them(entry, dtype):
    arithmetic = entry in ("add_alpha", "addcmul_value", "index_add_alpha", "addmm_beta")
    torch_ref.skip_unless_compared([assert_as_torch(lambda L: ENTRY_POINTS[entry](L, dtype, value),
                                                    exact=not (arithmetic and dtype in ("float16", "bfloat16")))
                                    for value in VALUES])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nested", [False, True])
def test_tensor_construction_checks_integers_and_names_the_dtype(dtype, nested):
    for value in VALUES:
        data = [value] if nested else value
        assert_as_torch(lambda L: L.tensor(data, dtype=getattr(L, dtype)))
        assert_as_torch(lambda L: L.as_tensor(data, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_wrapped_numbers_wrap_as_in_pytorch(dtype):
    # An operand is converted as a tensor is: no check (PyTorch: torch.zeros(2, dtype=int8) + 1000 is -24).
    for value in (1000, -1000, 300, 2 ** 40, 1e30, math.inf):
        for op in ("add", "mul", "eq", "remainder", "bitwise_and"):
            if op in ("remainder", "bitwise_and") and isinstance(value, float):
                continue
            assert_as_torch(lambda L: getattr(L, op)(base(L, dtype), value))


def test_pow_checks_its_exponent_as_pytorch_converts_it():
    # Into an integer or 16-bit float base's dtype; float32 and float64 take it as a double.
    for dtype in ("int8", "uint8", "int64", "float16", "float32", "float64"):
        for exponent in (2, 1000, 2 ** 40, 2.5, 1e10, 1e300):
            assert_as_torch(lambda L: base(L, dtype) ** exponent)


def test_arange_reads_its_bounds_as_the_accumulate_type():
    cases = [(0, 2.5, 1), (0.5, 3, 1), (-0.5, 3, 1), (0, 5, 1.5), (0, 2.5, 0.5), (0, 3000, 1000), (0, math.inf, 1),
             (0, 1e30, 1e29), (6, 0, -2), (0, 255.5, 1)]
    for dtype in ("uint8", "int8", "int32", "int64", "float32", "float64"):
        for start, end, step in cases:
            call = lambda L: L.arange(start, end, step, dtype=getattr(L, dtype))  # noqa: E731
            got, want = torch_ref.outcome(wick, call), torch_ref.outcome(torch, call)
            if want[0] == "raises":  # wick's own words and kinds for a bad range; PyTorch's for an overflow
                assert got[0] == "raises" and (want[2] in got[2] or "overflow" not in want[2]), (got, want)
            else:
                assert got == want


def test_nan_to_num_casts_its_replacements_unchecked_as_pytorch():
    for dtype in ("float16", "bfloat16", "float32"):
        for value in (1e30, 1e300, -1e300, 2 ** 40):
            assert_as_torch(lambda L: L.tensor([math.nan, math.inf, -math.inf, 1.0], dtype=getattr(L, dtype))
                            .nan_to_num(value, value, value))
