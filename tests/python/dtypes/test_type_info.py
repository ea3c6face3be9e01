"""wick.finfo, wick.iinfo, promote_types, result_type, can_cast and the default dtype (wick/type_info.py)
against PyTorch 1.13's functions of the same names, on the same arguments: every dtype, every pair of
dtypes, and every pair of operand kinds (dimensioned, 0-d and empty tensors, Python and NumPy numbers)."""
import numpy as np
import pytest

import wick

torch = pytest.importorskip("torch")

FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTEGERS = ["uint8", "int8", "int16", "int32", "int64"]
DTYPES = ["bool", *INTEGERS, *FLOATS]
FINFO_FIELDS = ["bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"]
IINFO_FIELDS = ["bits", "max", "min", "dtype"]


def shown(result):
    """What a call gave, comparable across the two libraries: a dtype by its name, anything else as itself."""
    return str(result).split(".")[1] if isinstance(result, (wick.dtype, torch.dtype)) else result


def outcome(lib, call):
    """("returns", what `call(lib)` gave) or ("raises", the exception's type name)."""
    try:
        return "returns", shown(call(lib))
    except Exception as e:  # noqa: BLE001 (the kind of error is what is compared)
        return "raises", type(e).__name__


def assert_as_torch(call):
    got, want = outcome(wick, call), outcome(torch, call)
    assert got == want, f"wick {got}, PyTorch {want}"
    return got


def raises_as_torch(call, words):
    """Both libraries raise TypeError, and wick's message says `words` as PyTorch's does."""
    with pytest.raises(TypeError, match=words):
        call(torch)
    with pytest.raises(TypeError, match=words):
        call(wick)


@pytest.fixture
def restore_default_dtype():
    yield
    torch.set_default_dtype(torch.float32)
    wick.set_default_dtype(wick.float32)


# --- finfo and iinfo -----------------------------------------------------------------------------

def assert_info_as_torch(ours, theirs, fields):
    for field in fields:
        got, want = getattr(ours, field), getattr(theirs, field)
        assert type(got) is type(want) and got == want, f"{field}: wick {got!r}, PyTorch {want!r}"
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_as_torch(name):
    assert_info_as_torch(wick.finfo(getattr(wick, name)), torch.finfo(getattr(torch, name)), FINFO_FIELDS)
    assert_info_as_torch(wick.finfo(type=getattr(wick, name)), torch.finfo(type=getattr(torch, name)),
                         FINFO_FIELDS)


@pytest.mark.parametrize("name", INTEGERS)
def test_iinfo_as_torch(name):
    assert_info_as_torch(wick.iinfo(getattr(wick, name)), torch.iinfo(getattr(torch, name)), IINFO_FIELDS)
    assert_info_as_torch(wick.iinfo(type=getattr(wick, name)), torch.iinfo(type=getattr(torch, name)),
                         IINFO_FIELDS)


@pytest.mark.parametrize("name", DTYPES)
def test_info_of_the_wrong_kind_is_refused(name):
    if name not in FLOATS:
        raises_as_torch(lambda L: L.finfo(getattr(L, name)), r"finfo\(\) requires a floating point input type")
    if name in FLOATS:
        raises_as_torch(lambda L: L.iinfo(getattr(L, name)), r"iinfo\(\) requires an integer input type")
    if name == "bool":
        raises_as_torch(lambda L: L.iinfo(L.bool), "bool is not supported by .*iinfo")


@pytest.mark.parametrize("value", [1, 1.5, "float32", None, [np.float32], np.float32, np.dtype("float32")], ids=repr)
@pytest.mark.parametrize("info", ["finfo", "iinfo"])
def test_info_of_a_non_dtype_is_refused(info, value):
    raises_as_torch(lambda L: getattr(L, info)(value), rf"{info}\(\): argument 'type' \(position 1\) must be")
    raises_as_torch(lambda L: getattr(L, info)(L.ones(1)), "must be .*dtype, not Tensor")


@pytest.mark.parametrize("python_type", [bool, int, float])
def test_info_of_a_python_type_is_of_its_dtype(python_type):
    """PyTorch reads int as int64 and float as float64 where it wants a dtype."""
    for info in ("finfo", "iinfo"):
        assert assert_as_torch(lambda L: repr(getattr(L, info)(python_type)))


def test_info_argument_count_and_keywords():
    for call in (lambda L: L.iinfo(), lambda L: L.finfo(L.float32, 1), lambda L: L.finfo(dtype=L.float32),
                 lambda L: L.iinfo(L.int8, type=L.int8)):
        assert assert_as_torch(call) == ("raises", "TypeError")


def test_info_is_read_only_and_compares_by_dtype():
    for L in (wick, torch):
        info = L.finfo(L.float32)
        assert info == L.finfo(L.float32) and info != L.finfo(L.float64) and info != L.iinfo(L.int32)
        assert L.iinfo(L.int8) == L.iinfo(L.int8) and L.iinfo(L.int8) != L.iinfo(L.uint8) and info != 1
        with pytest.raises(TypeError, match="unhashable"):
            hash(info)
        with pytest.raises(AttributeError, match="not writable"):
            info.eps = 1.0
        with pytest.raises(AttributeError, match="not writable"):
            L.iinfo(L.int8).max = 1


# --- promote_types and can_cast ------------------------------------------------------------------

@pytest.mark.parametrize("first", DTYPES)
def test_promote_types_of_every_pair(first):
    for second in DTYPES:
        got = assert_as_torch(lambda L: L.promote_types(getattr(L, first), getattr(L, second)))
        assert got[0] == "returns"
        assert assert_as_torch(lambda L: L.promote_types(type1=getattr(L, first), type2=getattr(L, second))) == got


@pytest.mark.parametrize("first", DTYPES)
def test_can_cast_every_pair(first):
    for second in DTYPES:
        got = assert_as_torch(lambda L: L.can_cast(getattr(L, first), getattr(L, second)))
        assert got[0] == "returns" and isinstance(got[1], bool)


def test_python_types_are_dtypes_to_promote_types_and_can_cast():
    for python_type in (bool, int, float):
        for name in DTYPES:
            assert assert_as_torch(lambda L: L.promote_types(getattr(L, name), python_type))[0] == "returns"
            assert assert_as_torch(lambda L: L.can_cast(python_type, getattr(L, name)))[0] == "returns"


@pytest.mark.parametrize("value", [1, 1.5, "int32", None, np.int32], ids=repr)
def test_promote_types_and_can_cast_refuse_non_dtypes(value):
    raises_as_torch(lambda L: L.promote_types(L.int32, value), r"promote_types\(\): argument 'type2' \(position 2\)")
    raises_as_torch(lambda L: L.promote_types(value, L.int32), r"promote_types\(\): argument 'type1' \(position 1\)")
    raises_as_torch(lambda L: L.can_cast(value, L.int32), r"can_cast\(\): argument 'from' \(position 1\)")
    raises_as_torch(lambda L: L.can_cast(L.int32, value), r"can_cast\(\): argument 'to' \(position 2\)")
    for call in (lambda L: L.promote_types(L.int32), lambda L: L.can_cast(L.int32),
                 lambda L: L.promote_types(L.int32, L.int8, L.int8)):
        assert assert_as_torch(call) == ("raises", "TypeError")


# --- result_type ---------------------------------------------------------------------------------

def _operands():
    """{id: call(lib) that makes one operand}: a dimensioned, a 0-d and an empty tensor of each dtype, and
    numbers of each Python kind (NumPy's scalars among them)."""
    made = {}
    for name in DTYPES:
        made[f"{name}[2]"] = lambda L, name=name: L.ones(2, dtype=getattr(L, name))
        made[f"{name}[]"] = lambda L, name=name: L.ones((), dtype=getattr(L, name))
        made[f"{name}[0]"] = lambda L, name=name: L.ones(0, dtype=getattr(L, name))
    for number in (True, False, 3, -7, 2.5, float("nan"), np.float64(0.5), np.int64(4), np.float32(1.0)):
        made[repr(number)] = lambda L, number=number: number
    return made


OPERANDS = _operands()


@pytest.mark.parametrize("first", sorted(OPERANDS))
def test_result_type_of_every_pair_of_operands(first):
    for second in OPERANDS:
        got = assert_as_torch(lambda L: L.result_type(OPERANDS[first](L), OPERANDS[second](L)))
        assert got[0] == "returns", f"({first}, {second})"


def test_result_type_ignores_autograd_and_views():
    for L in (wick, torch):
        leaf = L.ones(3, 2, dtype=L.float16, requires_grad=True)
        assert shown(L.result_type(leaf.t()[0], L.ones((), dtype=L.float64))) == "float16"
        assert shown(L.result_type(leaf[0, 0], L.ones(2, dtype=L.bfloat16))) == "bfloat16"
        assert leaf.grad is None


@pytest.mark.parametrize("bad", ["a", None, [1, 2], (1,), np.ones(2), object()], ids=repr)
def test_result_type_refuses_what_is_no_tensor_nor_number(bad):
    for call in (lambda L: L.result_type(L.ones(2), bad), lambda L: L.result_type(bad, L.ones(2)),
                 lambda L: L.result_type(1, bad), lambda L: L.result_type(bad, 2.5), lambda L: L.result_type(bad, bad)):
        raises_as_torch(call, r"result_type\(\) received an invalid combination of arguments - got \(")
    assert assert_as_torch(lambda L: L.result_type(L.ones(2))) == ("raises", "TypeError")


def test_result_type_keywords():
    assert assert_as_torch(lambda L: L.result_type(tensor=L.ones(2, dtype=L.int8), other=L.ones(2))) == \
        ("returns", "float32")


# --- the default dtype ---------------------------------------------------------------------------

def test_default_dtype_is_float32():
    assert assert_as_torch(lambda L: L.get_default_dtype()) == ("returns", "float32")
    assert wick.finfo() == wick.finfo(wick.float32)
    assert repr(wick.finfo()) == repr(torch.finfo())
    assert assert_as_torch(lambda L: L.get_default_dtype(1)) == ("raises", "TypeError")


@pytest.mark.parametrize("name", FLOATS)
def test_set_default_dtype_is_followed(name, restore_default_dtype):
    for L in (wick, torch):
        assert L.set_default_dtype(getattr(L, name)) is None
    assert assert_as_torch(lambda L: L.get_default_dtype()) == ("returns", name)
    assert repr(wick.finfo()) == repr(torch.finfo())
    for call in (lambda L: L.result_type(L.ones(2, dtype=L.int32), 2.5), lambda L: L.result_type(1, 2.5),
                 lambda L: L.result_type(True, 0.5), lambda L: L.tensor([1.5]).dtype, lambda L: L.ones(2).dtype):
        assert assert_as_torch(call) == ("returns", name)
    assert assert_as_torch(lambda L: L.set_default_dtype(d=L.float64)) == ("returns", None)
    assert assert_as_torch(lambda L: L.get_default_dtype()) == ("returns", "float64")


@pytest.mark.parametrize("name", ["bool", *INTEGERS])
def test_set_default_dtype_refuses_other_dtypes(name, restore_default_dtype):
    raises_as_torch(lambda L: L.set_default_dtype(getattr(L, name)),
                    "^only floating-point types are supported as the default type$")
    assert assert_as_torch(lambda L: L.get_default_dtype()) == ("returns", "float32")


@pytest.mark.parametrize("value", [float, int, 1, 1.5, None, "float32", np.float32], ids=repr)
def test_set_default_dtype_refuses_non_dtypes(value, restore_default_dtype):
    raises_as_torch(lambda L: L.set_default_dtype(value),
                    "^invalid dtype object: only floating-point types are supported as the default type$")
    assert assert_as_torch(lambda L: L.get_default_dtype()) == ("returns", "float32")
    assert assert_as_torch(lambda L: L.set_default_dtype()) == ("raises", "TypeError")
