"""tests/python/fuzz/test_fuzz_regressions.py: the bugs the fuzz suites (test_fuzz_*.py) found, one regular test each.

Each asserts what PyTorch 1.13 or NumPy does. A reproducer that may crash runs in a fresh
child (fuzz_child.run_isolated, with the heap checks the fuzz children have), so that a
crash fails its test alone; the hostile objects come from fuzz_recipes.py.
"""
import numpy as np
import pytest

import wick
from fuzz_child import run_isolated
from fuzz_recipes import ArrayInterface


def _clean(outcome, *raised):
    """The child neither crashed nor hung, and gave a result or raised one of `raised`."""
    assert outcome.startswith(("returned", "raised")), outcome
    if outcome.startswith("raised"):
        assert outcome.split()[1].rstrip(":") in raised, outcome


# --- Python code that changes a container while wick reads it ---------------------------------------------

# Calls that read an int[] from a list (test_fuzz_calls.py finds the others: expand, flip, repeat...).
INT_LIST_CALLS = ["wick.zeros({})", "wick.zeros(1, 1).view({})", "wick.zeros(1, 1).permute({})",
                  "wick.zeros(1, 1).sum({})"]


@pytest.mark.parametrize("mutator", ["IndexClears", "IndexGrows"])
@pytest.mark.parametrize("call", INT_LIST_CALLS)
def test_int_list_whose_element_changes_the_list(call, mutator):
    """The element's __index__ empties the list (or grows it, moving its items) while the parser
    walks its items: a crash today. Reading a snapshot (the list as it was) or refusing the
    changed list are both what the issue asks for."""
    outcome = run_isolated(f"o = []\no += [{mutator}(o), 0]\n{call.format('o')}")
    _clean(outcome, "ValueError", "RuntimeError", "TypeError")


def test_int_list_element_whose_len_empties_the_list():
    """Checking whether an element is a number asks a sequence its length, and that __len__ empties
    the list: the parser's error path then found no fault and failed an internal assert
    (RuntimeError '... an overload that match() refused has no fault (this is a bug in wick)').
    The element is no int: TypeError, naming permute()."""
    outcome = run_isolated("o = []\no += [LenClears(o), 1, 2]\nwick.zeros(1, 1, 1).permute(o)")
    _clean(outcome, "TypeError", "ValueError")
    assert "bug in wick" not in outcome, outcome


@pytest.mark.parametrize("code", [
    "wick.tensor(GrowingList([]))",
    "wick.HalfTensor(LenGrows(None))",
    "wick.tensor(LenGrows(None))",
    "o = []\no += [[1, 1], GetitemGrows(o)]\nwick.tensor(o)",
    "wick.arange(3)[[GrowingList([1, 2])]]",
    "x = wick.zeros(3)\nx[0:2] = GrowingList([1])",
], ids=["list_len_lies", "legacy_constructor", "len_grows", "getitem_grows", "index_list", "setitem_value"])
def test_tensor_data_that_changes_between_measuring_and_filling(code):
    """wick.tensor() measures nested data, allocates, then reads it again to fill the buffer: data
    that is longer the second time is written past the buffer (glibc aborts: 'free(): invalid
    pointer'). PyTorch raises ValueError ('expected sequence of length 1 at dim 0 (got 3)')."""
    if code.startswith("x = "):
        code += "\nx"
    _clean(run_isolated(code), "ValueError", "RuntimeError")


def test_sequence_claiming_a_huge_length():
    """A sequence whose __len__ says 2**62: wick reads every element before it allocates, and never
    ends. NumPy raises MemoryError at once (PyTorch 1.13 hangs as well)."""
    _clean(run_isolated("wick.tensor(LenHuge(None))", timeout=5), "MemoryError", "ValueError", "RuntimeError")


# --- indices that are NumPy values ----------------------------------------------------------------------

@pytest.mark.parametrize("index", [
    "np.longdouble(2)", "np.clongdouble(1)", "np.array(2, dtype=np.longdouble)",
    "np.array(1 + 1j, dtype=np.clongdouble)",
    "np_object('self_0d')", "np_object('self')",
])
def test_numpy_index_that_is_no_integer(index):
    """Their tolist() gives no Python int, and the index conversion recursed on it until the stack
    overflowed. NumPy and PyTorch raise IndexError (PyTorch TypeError for the 0-d arrays)."""
    _clean(run_isolated(f"wick.arange(3)[{index}]"), "IndexError", "TypeError")


@pytest.mark.parametrize("index", [np.array(None, dtype=object), np.array(1, dtype=object)], ids=["None", "1"])
def test_object_array_index_is_refused(index):
    """x[np.array(None, dtype=object)] was taken as x[None], and a 0-d object array holding 1 as x[1].
    NumPy raises IndexError, PyTorch TypeError."""
    with pytest.raises((IndexError, TypeError)):
        wick.arange(3)[index]


def test_object_with_array_interface_as_index():
    """An object that has __array_interface__ but no dtype: AttributeError escaped. PyTorch raises
    IndexError ('only integers, slices ... are valid indices')."""
    with pytest.raises(IndexError):
        wick.arange(6)[ArrayInterface(None)]


# --- size arithmetic that overflows ---------------------------------------------------------------------

@pytest.mark.parametrize("step", [2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 64])
@pytest.mark.parametrize("start", [None, 1, -2, -2 ** 63])
def test_slice_with_a_huge_step(start, step):
    """A step near 2**63 gave nothing (or 'negative dimension -1'): it takes the first element, as
    Python lists and NumPy do."""
    assert wick.arange(5)[start::step].tolist() == list(range(5))[start::step]


def test_slice_with_a_huge_step_beside_a_mask():
    x = wick.arange(24).reshape(3, 1, 4, 2)
    mask = np.array([[False, True, False, True]])
    want = np.arange(24).reshape(3, 1, 4, 2)[-2 ** 63::2 ** 64, mask]
    got = x[-2 ** 63::2 ** 64, wick.tensor(mask.tolist())]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(np.array(got.tolist()), want)


@pytest.mark.parametrize("make", [
    lambda: wick.zeros(0).view(2 ** 62, 4),
    lambda: wick.zeros(0).view(2 ** 62, 2 ** 62),
    lambda: wick.zeros(0).reshape(2 ** 62, 2 ** 62),
    lambda: wick.zeros(1).expand(2 ** 62, 4),
    lambda: wick.zeros(()).expand(2 ** 62, 2 ** 62),
    lambda: wick.zeros(0).reshape(0, 2 ** 63 - 2, 2 ** 62),
    lambda: wick.zeros(3, 4).view(2 ** 63 - 1, -1, 2),  # wick: shape (2**63 - 1, -6, 2), numel() 12
    lambda: wick.zeros(3, 1).expand(2 ** 62, 3, 4),
], ids=["view", "view_square", "reshape", "expand", "expand_0d", "reshape_empty_strides", "view_inferred_negative",
        "expand_3d"])
def test_shape_whose_size_overflows(make):
    """The element count (or, for an empty tensor, a contiguous stride) passes 2**63 and wrapped:
    view(2**62, 4) of no elements claimed numel() 0, reshape(0, 2**63 - 2, 2**62) gave the stride
    -2**63, and view(2**63 - 1, -1, 2) of 12 elements inferred the size -6. PyTorch raises
    RuntimeError ('numel: integer multiplication overflow', "shape '[...]' is invalid for input of
    size 12"); NumPy refuses them all too (ValueError)."""
    with pytest.raises(RuntimeError):
        make()


def test_narrow_whose_end_overflows():
    """start + length wrapped past 2**63 and narrow gave an empty tensor. PyTorch: RuntimeError
    'start (3) + length (9223372036854775807) exceeds dimension size (5).'"""
    with pytest.raises(RuntimeError):
        wick.zeros(5).narrow(0, 3, 2 ** 63 - 1)


# --- reductions -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["sum", "mean", "amax", "amin", "std", "var", "norm", "logsumexp"])
@pytest.mark.parametrize("dims", [(0, 0), (0, -1)])
def test_0d_reduction_over_a_repeated_dim(name, dims):
    """A 0-d tensor has the dims 0 and -1, which are one dim: naming it twice is refused for tensors
    of more dims, and was accepted for 0-d ones (std even gave nan). PyTorch: RuntimeError
    'dim 0 appears multiple times in the list of dims'."""
    with pytest.raises(RuntimeError, match="appears multiple times"):
        getattr(wick, name)(wick.tensor(1.5), dim=dims)


# --- calls PyTorch refuses and wick answered (found against PyTorch, fuzz_torch_checks.py) ----------------------

@pytest.mark.parametrize("call", [
    lambda: wick.tensor([1], dtype=wick.int8).clamp(max=1000),  # wick: clamped to -24
    lambda: wick.tensor([5, -5], dtype=wick.int16).clamp_min(2 ** 63 - 1),  # wick: [5, -1]
    lambda: wick.add(wick.tensor([1], dtype=wick.int32), wick.tensor([1], dtype=wick.int32), alpha=2 ** 62 + 1),
    lambda: wick.tensor([1.0], dtype=wick.float16).sub_(wick.tensor([1], dtype=wick.int32), alpha=2 ** 63 - 2),
    lambda: wick.tensor([1], dtype=wick.int8).fill_(300),  # wick: 44
], ids=["clamp_int8", "clamp_min_int16", "add_alpha_int32", "sub_alpha_float16", "fill_int8"])
def test_scalar_that_the_dtype_cannot_hold(call):
    """A bound, alpha or fill value is converted to the tensor's dtype, and wick wrapped it silently.
    PyTorch: RuntimeError 'value cannot be converted to type int8_t without overflow'."""
    with pytest.raises(RuntimeError, match="cannot be converted"):
        call()


@pytest.mark.parametrize("name", ["neg", "ceil", "sign"])
def test_out_of_another_dtype_for_an_op_that_keeps_its_dtype(name):
    """PyTorch's ops whose result has the input's dtype take no out= of another: RuntimeError
    'Found dtype Double but expected Long'. wick cast into it."""
    with pytest.raises(RuntimeError):
        getattr(wick, name)(wick.tensor([1, -2]), out=wick.zeros(2, dtype=wick.float64))


@pytest.mark.parametrize("call", [
    lambda: wick.lerp(wick.tensor([1.0]), wick.tensor([1.0], dtype=wick.float16), 0.5),
    lambda: wick.addcdiv(wick.tensor([1.0]), wick.tensor([1], dtype=wick.int16), wick.tensor([2], dtype=wick.int16)),
    lambda: wick.tensor([1.0, 2.0]).masked_fill(wick.tensor([2, 0], dtype=wick.uint8), 0.0),
    lambda: wick.tensor([2]).pow(-1),  # wick: 0
    lambda: wick.where(wick.tensor([1.0, 0.0]), wick.tensor([1.0, 2.0]), wick.tensor([3.0, 4.0])),
    lambda: wick.tensor([1], dtype=wick.uint8).add(1, alpha=True),
    lambda: wick.tensor([True]).sub(wick.tensor([1])),
], ids=["lerp_end_dtype", "addcdiv_integers", "uint8_mask_of_2", "int_pow_negative",
        "where_float_condition", "bool_alpha", "bool_minus_int"])
def test_call_pytorch_refuses(call):
    """PyTorch raises (RuntimeError: 'expected dtype float for `end` but got dtype Half', 'Integer
    division with addcdiv is no longer supported', 'Mask tensor can take 0 and 1 values only', and
    the four class-6 cases of the issue); wick gave a result."""
    with pytest.raises(RuntimeError):
        call()
