"""The argument runtime for lists and strings (python_ext/arg_parser.cpp): Tensor[] and Tensor?[]
take lists and tuples, name a wrong element as PyTorch does, hold no reference after the
call and survive a list changed by another thread while the GIL is released; str and str?
take strings; a Tensor[] result is a tuple."""
import gc
import sys
import threading

import pytest

import wick


def test_lists_and_tuples_are_accepted_other_sequences_are_not():
    a, b = wick.ones(2), wick.zeros(1)
    assert wick.cat([a, b]).tolist() == wick.cat((a, b)).tolist() == [1.0, 1.0, 0.0]
    for bad, name in (((t for t in (a, b)), "generator"), (a, "Tensor"), ({a}, "set"), ("ab", "str")):
        with pytest.raises(TypeError, match=rf"cat\(\): argument 'tensors' \(position 1\) must be tuple of "
                                            rf"Tensors, not {name}"):
            wick.cat(bad)


@pytest.mark.parametrize("args,position,got", [
    (([wick.ones(1), 1],), 1, "int"),
    (((wick.ones(1), wick.ones(1), None),), 2, "NoneType"),
    (([[wick.ones(1)]],), 0, "list"),
    (([wick.ones(1), 2.5, "x"],), 1, "float"),
])
def test_a_wrong_element_is_named(args, position, got):
    with pytest.raises(TypeError, match=rf"^stack\(\): expected Tensor as element {position} in argument 0, "
                                        rf"but got {got}$"):
        wick.stack(*args)


def test_optional_tensor_lists_take_none():
    x = wick.zeros(2, 3)
    x.index_put_((None, wick.tensor([2])), wick.tensor(1.0))
    assert x.tolist() == [[0, 0, 1], [0, 0, 1]]
    with pytest.raises(TypeError, match=r"^index_put_\(\): expected Tensor or None as element 0 in argument 0, "
                                        r"but got str$"):
        x.index_put_(["a"], wick.tensor(1.0))


def test_no_reference_is_kept():
    tensors = [wick.ones(3) for _ in range(3)]
    as_list, as_tuple = list(tensors), tuple(tensors)
    before = [sys.getrefcount(t) for t in tensors] + [sys.getrefcount(as_list), sys.getrefcount(as_tuple)]
    for _ in range(100):
        wick.cat(as_list)
        wick.stack(as_tuple, 1)
        wick.hstack(as_list, out=wick.empty(9))
        wick.zeros(3).index_put_([tensors[0].long()], tensors[1])
        with pytest.raises(TypeError):
            wick.cat(as_list + [1])
    gc.collect()
    after = [sys.getrefcount(t) for t in tensors] + [sys.getrefcount(as_list), sys.getrefcount(as_tuple)]
    assert after == before


def test_results_are_tuples_of_new_tensors():
    x = wick.arange(6)
    parts = x.split(2)
    assert type(parts) is tuple and all(type(p) is wick.Tensor for p in parts)
    assert all(p._base is x for p in parts) and len({id(p) for p in parts}) == 3
    assert wick.unbind(wick.empty(0)) == ()


def test_a_list_changed_while_the_gil_is_released():
    """Another thread empties and refills the list during cat, dropping the only references to
    its tensors; cat still joins what it was given, and it does let that thread run (it
    releases the GIL for large inputs)."""
    expected = [float(i) for i in range(4)]
    shared = []
    ran = [0]
    stop = threading.Event()

    def meddle():
        while not stop.is_set():
            shared.clear()
            shared.extend(wick.zeros(1) for _ in range(3))
            shared[:] = [wick.ones(2)]
            ran[0] += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)  # the other thread runs only when cat releases the GIL
    thread = threading.Thread(target=meddle)
    try:
        thread.start()
        released = False
        for _ in range(20):
            shared[:] = [wick.full((1 << 21,), value) for value in expected]
            start = ran[0]
            result = wick.cat(shared)
            released = released or ran[0] > start
            assert result.shape == (4 << 21,)
            assert [result[i << 21].item() for i in range(4)] == expected
            assert result[-1].item() == 3.0
            if released:
                break
    finally:
        stop.set()
        sys.setswitchinterval(interval)
        thread.join()
    assert released


def test_string_arguments():
    x = wick.tensor([7, -7])

    class Mode(str):
        pass

    assert x.div(2, rounding_mode=Mode("floor")).tolist() == [3, -4]
    assert x.div(2, rounding_mode=None).tolist() == [3.5, -3.5]
    with pytest.raises(TypeError, match="invalid combination of arguments"):
        x.div(2, rounding_mode=b"floor")
    with pytest.raises(UnicodeEncodeError):
        x.div(2, rounding_mode="\udc80")
    with pytest.raises(ValueError, match="but found 'fl"):  # not 'floor': the NUL is part of the string
        x.div(2, rounding_mode="fl\x00oor")


def test_numpy_keywords_stand_for_dim_and_keepdim_as_in_pytorch():
    """axis= is dim= and keepdims= is keepdim=, as PyTorch's parser takes them; giving both names is an error."""
    import torch
    data = [[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]]
    x, t = wick.tensor(data), torch.tensor(data)
    assert wick.sum(x, axis=0).tolist() == torch.sum(t, axis=0).tolist()
    assert x.mean(axis=1, keepdims=True).tolist() == t.mean(axis=1, keepdims=True).tolist()
    assert x.argmax(axis=1).tolist() == t.argmax(axis=1).tolist()
    assert wick.cat([x, x], axis=1).shape == torch.cat([t, t], axis=1).shape
    with pytest.raises(TypeError):
        wick.sum(x, dim=0, axis=1)
    with pytest.raises(TypeError):
        wick.sum(x, axes=0)
