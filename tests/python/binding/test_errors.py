"""Bad calls raise clean Python exceptions: argument parsing, translation of core errors, warnings."""
import warnings

import pytest

import wick


@pytest.fixture
def x():
    return wick.ones(3)


def test_wrong_type_lists_every_signature(x):
    with pytest.raises(TypeError) as e:
        x.add("a")
    msg = str(e.value)
    assert "add() received an invalid combination of arguments - got (str)" in msg
    assert "add(Tensor other, *, Number alpha=1)" in msg and "add(Number other, *, Number alpha=1)" in msg


def test_wrong_type_for_a_single_signature(x):
    with pytest.raises(TypeError, match=r"transpose\(\): argument 'dim0' \(position 1\) must be int, not str"):
        x.transpose("a", 0)
    with pytest.raises(TypeError, match="must be int, not float"):
        x.narrow(0, 1.5, 1)
    with pytest.raises(TypeError, match=r"got \(Tensor, int, keepdim=int\)"):
        wick.sum(x, 0, keepdim=1)


def test_cpython_wording_for_counts_and_keywords(x):
    with pytest.raises(TypeError, match=r"^transpose\(\) takes at most 2 positional arguments \(3 given\)$"):
        x.transpose(0, 0, 0)
    with pytest.raises(TypeError, match=r"^transpose\(\) missing required argument 'dim1' \(pos 2\)$"):
        x.transpose(0)
    with pytest.raises(TypeError, match=r"^'foo' is an invalid keyword argument for narrow\(\)$"):
        x.narrow(0, 0, 1, foo=2)
    with pytest.raises(TypeError, match=r"^argument for narrow\(\) given by name \('dim'\) and position \(1\)$"):
        x.narrow(0, 0, 1, dim=0)


def test_keywords_and_defaults_work(x):
    assert x.narrow(length=2, start=1, dim=0).tolist() == [1.0, 1.0]
    assert wick.add(x, x, alpha=3).tolist() == [4.0] * 3
    assert x.view((3, 1)).shape == (3, 1) and x.view(3, 1).shape == (3, 1) and x.view([3]).shape == (3,)
    assert wick.zeros([2, 3]).shape == (2, 3) and wick.zeros(size=(2,)).shape == (2,)
    assert wick.zeros(2, dtype=None).dtype is wick.float32


def test_sizes_as_varargs_must_all_be_ints(x):
    with pytest.raises(TypeError, match="view"):
        x.view(3, "a")
    with pytest.raises(TypeError):
        wick.zeros(2, 3.0)


@pytest.mark.parametrize("call", [lambda m: m.ones(2, 3).var(0, 1), lambda m: m.ones(2, 3).std(0, 1),
                                  lambda m: m.ones(2, 3).nansum(0, 1)])
def test_reduction_dims_are_no_varargs(call):
    """An optional int list holds reduction dims, which PyTorch takes only as one argument."""
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError):
        call(torch)
    with pytest.raises(TypeError):
        call(wick)
    assert wick.ones(2, 3).var((0, 1)).shape == () and wick.ones(2, 3, 4).permute(2, 0, 1).shape == (4, 2, 3)


def test_numpy_scalars_are_numbers(x):
    np = pytest.importorskip("numpy")
    assert x.add(np.float32(1.5)).tolist() == [2.5] * 3
    assert x.view(np.int64(3)).shape == (3,)
    assert x.add(wick.tensor(2)).tolist() == [3.0] * 3


@pytest.mark.parametrize("value", [0, 1, -1, 2**30 - 1, -(2**30 - 1), 2**30, -(2**30), 2**31, 2**62, -(2**63)])
def test_ints_of_every_size_keep_their_value(value):
    # Note [Small ints]: one-digit ints are read in place, bigger ones through PyLong_AsLongLong.
    x = wick.zeros(2, dtype=wick.int64)
    assert x.add_(value).tolist() == [value] * 2
    assert wick.full([1], value, dtype=wick.int64).item() == value
    assert wick.zeros(1, dtype=wick.int64).fill_(value).item() == value
    with pytest.raises(OverflowError):
        x.add_(2**63 + abs(value))


@pytest.mark.parametrize("call,exc,match", [
    (lambda t: t.add(wick.ones(4)), RuntimeError, r"add\(\): the size of tensor a \(3\) must match"),
    (lambda t: t.add_(wick.ones(2, 3)), RuntimeError, r"add_\(\): output with shape \[3\] doesn't match"),
    (lambda t: t.size(1), IndexError, "Dimension out of range"),
    (lambda t: wick.ones(3, dtype=wick.int32).add_(1.5), RuntimeError, "result type Float can't be cast"),
    (lambda t: wick.abs(wick.tensor([True])), TypeError, r"abs\(\): not supported for dtype bool"),
    (lambda t: wick.zeros(-1), ValueError, "negative dimension"),
    (lambda t: wick.empty(1 << 62), MemoryError, "memory"),
    (lambda t: wick.empty(1 << 40, 1 << 40), MemoryError, "memory"),
    (lambda t: t.expand(2, 3).add_(1), RuntimeError, "more than one element of the written-to tensor"),
    (lambda t: t.to("gpu"), ValueError, "device string"),
    (lambda t: wick.add(None, t), TypeError, "add"),
    (lambda t: wick.tensor([1, 2]).add(1, alpha=0.5), RuntimeError, "alpha must not be a floating point"),
    (lambda t: wick.tensor(1.0).size(0), IndexError, "tensor has no dimensions"),
])
def test_core_errors_become_python_exceptions(x, call, exc, match):
    with pytest.raises(exc, match=match):
        call(x)


def test_core_messages_name_the_op(x):
    with pytest.raises(IndexError, match=r"^transpose\(\): Dimension out of range"):
        x.transpose(0, 5)
    with pytest.raises(RuntimeError, match=r"^view\(\): shape '\[2\]' is invalid"):
        x.view(2)


def test_messages_name_the_binding_called(x):
    # Note [Op names in messages]: the name the user called, once, whichever core function made the check.
    with pytest.raises(RuntimeError, match=r"^matmul\(\): mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)$"):
        wick.ones(2, 3) @ wick.ones(2, 3)
    with pytest.raises(RuntimeError, match=r"^where\(\): the size of tensor a \(2\) must match"):
        wick.where(wick.tensor([True, False]), x, x)
    with pytest.raises(RuntimeError, match=r"^add_\(\): the size of tensor a \(3\) must match"):
        x.add_(wick.ones(4))
    with pytest.raises(RuntimeError, match=r"^concat\(\): expected a non-empty list of Tensors$"):
        wick.concat([])
    with pytest.raises(RuntimeError, match=r"^flatten\(\): has invalid args: start_dim cannot come after end_dim$"):
        wick.ones(2, 2).flatten(1, 0)
    with pytest.raises(TypeError, match=r"^stack\(\): expected Tensor as element 1 in argument 0, but got int$"):
        wick.stack([x, 1])


def test_glue_that_is_not_an_op_names_none(x):
    with pytest.raises(RuntimeError, match=r"^unsupported operation: more than one element of the written-to tensor"):
        wick.ones(1).expand(3)[wick.tensor([0])] = wick.ones(1)
    with pytest.raises(ValueError, match=r"^the cpu device has only index 0$"):
        wick.device("cpu", 1)
    with pytest.raises(TypeError, match=r"^the only keyword argument is device=$"):
        wick.FloatTensor(2, foo=1)


def test_out_resize_warns_and_warnings_can_be_errors(x):
    out = wick.empty(5)
    with pytest.warns(UserWarning, match="was resized"):
        wick.add(x, x, out=out)
    assert out.shape == (3,) and out.tolist() == [2.0] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="was resized"):
            wick.add(x, x, out=wick.empty(2))
    empty = wick.empty(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wick.add(x, x, out=empty)  # an empty out= is resized silently
    assert empty.shape == (3,)


def test_out_with_another_dtype(x):
    out = wick.empty(3, dtype=wick.float64)
    assert wick.add(x, 1, out=out) is out and out.tolist() == [2.0] * 3
    with pytest.raises(RuntimeError, match="can't be cast"):
        wick.add(x, 1, out=wick.empty(3, dtype=wick.int64))
