"""Python code that runs in the middle of a read (__index__, __len__, __float__, __getitem__) and changes
what is being read: the read sees one consistent state, or raises; it never reads freed memory or
writes past a buffer. See Note [Reading nested data] and ParsedArgs::intlist."""
import numpy as np
import pytest

import wick


class Index:
    """An int whose __index__ first runs `action`."""

    def __init__(self, value, action):
        self.value, self.action = value, action

    def __index__(self):
        self.action()
        return self.value


class Float:
    """A float whose __float__ first runs `action`."""

    def __init__(self, value, action):
        self.value, self.action = value, action

    def __float__(self):
        self.action()
        return self.value


def test_int_list_cleared_by_an_elements_index():
    sizes = [3, None, 2]
    sizes[1] = Index(2, sizes.clear)
    assert wick.arange(12).view(sizes).shape == (3, 2, 2)  # the list as it was when the call began


def test_int_list_grown_by_an_elements_index():
    sizes = [3, None]
    sizes[1] = Index(4, lambda: sizes.extend([object()] * 1000))
    assert wick.arange(12).reshape(sizes).shape == (3, 4)


def test_int_list_whose_element_raises():
    def fail():
        raise ZeroDivisionError("from __index__")
    with pytest.raises(ZeroDivisionError, match="from __index__"):
        wick.zeros(4).view([2, Index(2, fail)])


class Lengthy:
    """An object that is an int (by __index__) and also has a __len__ that runs `action`."""

    def __init__(self, value, action):
        self.value, self.action = value, action

    def __index__(self):
        return self.value

    def __len__(self):
        self.action()
        return 1

    def __getitem__(self, i):
        raise IndexError


def test_int_list_changed_while_its_elements_are_classified():
    sizes = [2, None, 3]
    sizes[1] = Lengthy(2, sizes.clear)
    # Classifying the element as a number asks for its length, which empties the list; whatever
    # the outcome, it is a clean one.
    try:
        result = wick.zeros(12).view(sizes)
    except (TypeError, RuntimeError):
        return
    assert result.numel() == 12


def test_tensor_data_grown_by_a_float():
    data = [1.0, None, 3.0]
    data[1] = Float(2.0, lambda: data.extend([9.0] * 10000))
    assert wick.tensor(data).tolist() == [1.0, 2.0, 3.0]


def test_tensor_data_row_emptied_by_an_index():
    data = [[1, None], [3, 4]]
    data[0][1] = Index(2, data[1].clear)
    with pytest.raises(ValueError, match="expected sequence of length 2"):
        wick.tensor(data)


def test_tensor_data_emptied_after_it_was_measured():
    inner = [1, 2, 3]
    data = [inner, [Index(4, inner.clear), 5, 6]]
    assert wick.tensor(data).tolist() == [[1, 2, 3], [4, 5, 6]]


class Shifty:
    """A sequence whose length changes each time it is asked, and whose items grow it."""

    def __init__(self):
        self.items = [1.0, 2.0]

    def __len__(self):
        self.items.append(0.0)
        return len(self.items) - 1

    def __getitem__(self, i):
        self.items.extend([5.0] * 100)
        return self.items[i]


def test_tensor_data_whose_length_changes():
    # Its length is read once, when it is copied: 3 by then, which the next row does not match.
    with pytest.raises(ValueError, match="expected sequence of length 3"):
        wick.tensor([Shifty(), [7.0, 8.0]])
    assert wick.tensor([Shifty(), [7.0, 8.0, 9.0]]).tolist() == [[1.0, 2.0, 0.0], [7.0, 8.0, 9.0]]


def test_nested_tensor_resized_after_it_was_read():
    t = wick.tensor([1.0, 2.0])
    grow = Index(3, lambda: wick.add(wick.ones(100000), 1, out=t))
    with pytest.warns(UserWarning, match="resized"):
        result = wick.tensor([t, [grow, 4]], dtype=wick.float64)
    assert result.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert t.shape == (100000,)


def test_list_index_changed_while_read():
    x = wick.arange(10)
    row = [1, None, 3]
    row[1] = Index(2, lambda: row.extend(range(100)))
    assert x[[row, [4, 5, 6]]].tolist() == [[1, 2, 3], [4, 5, 6]]
    with pytest.raises(IndexError, match="expected sequence of length 103"):  # read again, grown
        x[[row, row]]


def test_self_containing_data_is_refused():
    data = [1]
    data.append(data)
    with pytest.raises(ValueError):
        wick.tensor(data)


@pytest.mark.parametrize("index", [
    np.longdouble(2), np.clongdouble(2), np.array(np.longdouble(2)), np.float64(2.0), np.array(2.5),
    np.array(None, dtype=object), np.array([1, 2], dtype=object),
], ids=["longdouble", "clongdouble", "longdouble-0d", "float64", "float-0d", "object-None", "object-list"])
def test_numpy_values_that_are_no_index(index):
    with pytest.raises((IndexError, TypeError)):
        wick.arange(5)[index]


def test_self_containing_object_array_is_no_index():
    a = np.empty((), dtype=object)
    a[()] = a
    b = np.empty(1, dtype=object)
    b[0] = b
    for index in (a, b):
        with pytest.raises(IndexError):
            wick.arange(5)[index]


class ArrayLike:
    """Claims to be an array and is not."""

    __array_interface__ = {"shape": (1,), "typestr": "<i8", "version": 3}


def test_object_with_array_interface_only():
    with pytest.raises(IndexError):
        wick.arange(5)[ArrayLike()]


@pytest.mark.parametrize("index", [np.int64(2), np.uint8(3), np.array(1), np.array([0, 2]), np.bool_(True),
                                   np.array([True, False, True, False, True])])
def test_numpy_indices_index_as_numpy_does(index):
    assert np.asarray(wick.arange(5)[index]).tolist() == np.arange(5)[index].tolist()


def test_slice_bound_that_resizes_the_tensor_indexed():
    x = wick.arange(10.0)
    shrink = Index(1, lambda: wick.add(wick.zeros(3), 5, out=x))
    with pytest.warns(UserWarning, match="resized"):
        assert x[shrink:].tolist() == [5.0, 5.0]  # the index is read first, then x as it is then
    with pytest.warns(UserWarning, match="resized"):
        x[Index(0, lambda: wick.add(wick.zeros(4), 1, out=x)):2] = 7
    assert x.tolist() == [7.0, 7.0, 1.0, 1.0]


class LenClears:
    """Not a number, and its __len__ (asked while the parser decides whether it is one) empties a list."""

    def __init__(self, target):
        self.target = target

    def __len__(self):
        self.target.clear()
        return 0

    def __getitem__(self, i):
        raise IndexError


def test_int_list_emptied_while_the_parser_checks_it():
    dims = [None, 1, 2]
    dims[0] = LenClears(dims)
    with pytest.raises(TypeError, match=r"permute\(\): an argument changed while it was being read"):
        wick.zeros(1, 1, 1).permute(dims)
