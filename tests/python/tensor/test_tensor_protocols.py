"""Python's protocols on a tensor (format(), __index__) and the small methods beside them (where, is_signed, H, mH,
adjoint()), against PyTorch 1.13 on the same calls: the same results, and the same errors with the same words."""
import operator

import numpy as np
import pytest
import torch

import wick

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


def both(dtype, shape=(), start=0):
    data = (np.arange(int(np.prod(shape)), dtype="float64") + start).reshape(shape)
    return wick.tensor(data, dtype=getattr(wick, dtype)), torch.tensor(data, dtype=getattr(torch, dtype))


def outcome(call):
    """What call() gives: ("ok", its result), or the type and message of what it raised."""
    try:
        return "ok", call()
    except Exception as e:  # noqa: BLE001 - any exception is a result to compare
        return type(e).__name__, str(e)


def equal(ours, theirs):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    np.testing.assert_array_equal(ours.double().numpy(), theirs.double().numpy())


SPECS = ["", ".2f", ">12", "+.3e", "d", "x", "#b", "s", "%", "^9.1f"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("spec", SPECS)
def test_format_0d_formats_the_number(dtype, spec):
    w, t = both(dtype, start=5.25 if "float" in dtype else 5)
    assert outcome(lambda: format(w, spec)) == outcome(lambda: format(t, spec))


def test_format_f_string():
    w, t = both("float32", start=3.14159)
    assert f"{w:.2f}" == f"{t:.2f}" == "3.14"
    assert f"{w}" == f"{t}" == "3.141590118408203"
    assert f"{wick.tensor(True):5}" == f"{torch.tensor(True):5}"


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
@pytest.mark.parametrize("shape", [(1,), (2,), (0,), (1, 1), (2, 3)], ids=str)
@pytest.mark.parametrize("spec", ["", ".2f", "s", ">40"])
def test_format_other_tensors_takes_only_an_empty_spec(dtype, shape, spec):
    w, t = both(dtype, shape)
    ours, theirs = outcome(lambda: format(w, spec)), outcome(lambda: format(t, spec))
    assert ours == (theirs[0], theirs[1].replace("torch.", "wick."))  # an empty one's dtype: wick.int64
    if spec == "":
        assert ours == ("ok", str(w))


def test_format_subclass_takes_only_an_empty_spec():
    w, t = wick.nn.Parameter(wick.tensor(2.5)), torch.nn.Parameter(torch.tensor(2.5))
    assert outcome(lambda: f"{w:.2f}") == outcome(lambda: f"{t:.2f}")
    assert outcome(lambda: f"{w:.2f}")[0] == "TypeError"
    assert format(w, "") == str(w)


def index_uses(x):
    """What Python does with x where it needs an int: each use's outcome."""
    items = list(range(10, 20))
    return [outcome(lambda: operator.index(x)), outcome(lambda: items[x]), outcome(lambda: items[x:]),
            outcome(lambda: list(range(x))), outcome(lambda: hex(x))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (2,), (0,)], ids=str)
def test_index(dtype, shape):
    w, t = both(dtype, shape, start=1 if dtype == "bool" else 3)
    ours, theirs = index_uses(w), index_uses(t)
    assert ours == theirs
    integral = "float" not in dtype and int(np.prod(shape)) == 1
    assert ours[0] == (("ok", int(t.item())) if integral else
                       ("TypeError", "only integer tensors of a single element can be converted to an index"))
    assert all(type(result) is not bool for kind, result in ours if kind == "ok")  # True indexes as 1, an int


def test_index_bool_false_and_negative():
    for value in [False, -2]:
        assert index_uses(wick.tensor(value)) == index_uses(torch.tensor(value))


@pytest.mark.parametrize("dtype", ["int64", "uint8", "bool"])
def test_index_as_slice_bound_of_a_tensor(dtype):
    w, t = both(dtype, start=1)
    wx, tx = wick.arange(10.0), torch.arange(10.0)
    equal(wx[w:], tx[t:])
    equal(wx[:w], tx[:t])
    equal(wx[::w + 1], tx[::t + 1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (2, 3)], ids=str)
def test_is_signed(dtype, shape):
    w, t = both(dtype, shape)
    assert w.is_signed() is t.is_signed()
    assert outcome(lambda: w.is_signed(1))[0] == outcome(lambda: t.is_signed(1))[0] == "TypeError"


WHERE_CASES = [  # (self dtype, other dtype, self shape, other shape, condition shape)
    ("float32", "float32", (2, 3), (2, 3), (2, 3)),
    ("float64", "float32", (2, 3), (3,), (2, 1)),
    ("int64", "float32", (3,), (3,), (3,)),
    ("int32", "uint8", (2, 1), (1, 4), (4,)),
    ("bool", "bool", (3,), (3,), (3,)),
    ("float16", "bfloat16", (), (2,), ()),
    ("float32", "float64", (0, 3), (3,), (1, 3)),
]


@pytest.mark.parametrize("case", WHERE_CASES, ids=str)
def test_where_method(case):
    dtype, other_dtype, shape, other_shape, condition_shape = case
    (w, t), (wo, to) = both(dtype, shape, start=1), both(other_dtype, other_shape, start=-5)
    mask = (np.arange(int(np.prod(condition_shape))) % 3 != 1).reshape(condition_shape)
    wc, tc = wick.tensor(mask), torch.tensor(mask)
    equal(w.where(wc, wo), t.where(tc, to))
    equal(w.where(condition=wc, other=wo), t.where(condition=tc, other=to))
    equal(w.where(wc, wo), wick.where(wc, w, wo))


def test_where_method_gradient():
    data, other = np.linspace(-1, 1, 6).reshape(2, 3), np.linspace(2, 3, 3)
    mask = np.array([[True, False, True], [False, False, True]])
    w, wo = wick.tensor(data, requires_grad=True), wick.tensor(other, requires_grad=True)
    t, to = torch.tensor(data, requires_grad=True), torch.tensor(other, requires_grad=True)
    (w.where(wick.tensor(mask), wo) * wick.tensor(data)).sum().backward()
    (t.where(torch.tensor(mask), to) * torch.tensor(data)).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), t.grad.numpy())
    np.testing.assert_array_equal(wo.grad.numpy(), to.grad.numpy())


WHERE_ERRORS = [  # (condition, other), each built for both libraries from (lib, x)
    lambda lib, x: (x > 2, 1.5),
    lambda lib, x: (x > 2, 2),
    lambda lib, x: (x > 2, None),
    lambda lib, x: (x > 2, "a"),
    lambda lib, x: (x > 2, np.ones(3)),
    lambda lib, x: ([True, False, True], x),
    lambda lib, x: (True, x),
    lambda lib, x: (None, x),
]


@pytest.mark.parametrize("make", WHERE_ERRORS)
def test_where_method_refuses_what_is_not_a_tensor(make):
    w, t = wick.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    ours, theirs = outcome(lambda: w.where(*make(wick, w))), outcome(lambda: t.where(*make(torch, t)))
    assert ours[0] == "TypeError"
    assert ours == (theirs[0], theirs[1].replace("numpy.ndarray", "ndarray"))  # wick names a type by its __name__


def test_where_method_errors():
    w, t = wick.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    calls = [
        lambda x, lib: x.where(x, x),  # a condition that is not bool
        lambda x, lib: x.where(x > 2, lib.ones(4)),  # shapes that do not broadcast
        lambda x, lib: x.where(x > 2),
        lambda x, lib: x.where(),
        lambda x, lib: x.where(x > 2, x, x),
        lambda x, lib: x.where(condition=x > 2, y=x),
    ]
    for call in calls:
        ours, theirs = outcome(lambda: call(w, wick)), outcome(lambda: call(t, torch))
        assert ours[0] == theirs[0] != "ok"
    assert "boolean tensor" in outcome(lambda: w.where(w, w))[1]


SHAPES = [(2, 3), (0, 3), (3, 0), (4, 2, 3), (1, 5, 2, 2)]


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "bfloat16"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", ["H", "mH", "adjoint"])
def test_conjugate_transposes(dtype, shape, name):
    w, t = both(dtype, shape, start=1)
    get = (lambda x: x.adjoint()) if name == "adjoint" else operator.attrgetter(name)
    ours, theirs = outcome(lambda: get(w)), outcome(lambda: get(t))
    assert ours[0] == theirs[0]
    if ours[0] != "ok":
        assert ours == theirs  # H of a batch: the same words
        return
    equal(ours[1], theirs[1])
    assert tuple(ours[1].stride()) == tuple(w.mT.stride())
    assert ours[1].data_ptr() == w.data_ptr() and ours[1]._base is w  # a view


@pytest.mark.parametrize("name", ["H", "mH", "adjoint"])
def test_conjugate_transposes_gradient(name):
    data = np.linspace(-1, 1, 6).reshape(2, 3)
    w, t = wick.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    get = (lambda x: x.adjoint()) if name == "adjoint" else operator.attrgetter(name)
    weight = np.arange(6.0).reshape(3, 2)
    (get(w) * wick.tensor(weight)).sum().backward()
    (get(t) * torch.tensor(weight)).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("name", ["H", "mH", "adjoint"])
def test_conjugate_transposes_need_matrices(name):
    get = (lambda x: x.adjoint()) if name == "adjoint" else operator.attrgetter(name)
    w, t = both("float64", (3,))
    assert outcome(lambda: get(w)) == outcome(lambda: get(t))
    assert outcome(lambda: get(w))[0] == "RuntimeError"
    # PyTorch 1.13 gives a 0-d tensor back unchanged (deprecated there); wick refuses it, as it does for mT.
    w, t = both("float64")
    assert outcome(lambda: get(t))[0] == "ok"
    with pytest.raises(RuntimeError, match="Got 0-D tensor"):
        get(w)
    assert outcome(lambda: w.adjoint(1))[0] == outcome(lambda: t.adjoint(1))[0] == "TypeError"
