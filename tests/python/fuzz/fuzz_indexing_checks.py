"""tests/python/fuzz/fuzz_indexing_checks.py: x[index] and x[index] = value judged against NumPy, in the child.

Run by test_fuzz_indexing.py through fuzz_child.py. NumPy is the reference, except where
PyTorch differs on purpose, which wick follows: ints apply before advanced indices
(`torch_index`), a step below 1 is refused, a mask must match the dims it covers, and
the value's leading dims of size 1 are dropped.
"""
import warnings

import numpy as np

import wick
from fuzz_views import build_view
from reference import NUMPY_DTYPE, to_numpy, wdtype


def _index_item(recipe):
    """An item of an index: the wick one and NumPy's."""
    tag = recipe[0]
    if tag == "lit":  # ints, slices, None, Ellipsis, True, False
        return recipe[1], recipe[1]
    if tag == "int_tensor":
        a = np.array(recipe[2], dtype=recipe[1])
        return wick.tensor(recipe[2], dtype=wdtype(recipe[1])).reshape(a.shape), a
    if tag == "mask":
        a = np.array(recipe[1], dtype=bool)
        return wick.tensor(recipe[1], dtype=wick.bool).reshape(a.shape), a
    if tag == "list":  # as an index, a list is an index tensor for both
        return recipe[1], recipe[1]
    if tag == "np":  # a NumPy scalar or array, the same object for both
        value = np.array(recipe[2], dtype=recipe[1]) if recipe[3] else getattr(np, recipe[1])(recipe[2])
        return value, value
    raise ValueError(recipe)


def build_index(recipe):
    """(wick index, NumPy index): a single item, or a tuple of them."""
    if recipe[0] == "tuple":
        pairs = [_index_item(r) for r in recipe[1]]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    return _index_item(recipe)


def _wick_refuses(items):
    """PyTorch refuses a slice with a step below 1 (ValueError), where NumPy reverses."""
    items = items if isinstance(items, tuple) else (items,)
    return any(isinstance(i, slice) and i.step is not None and i.step <= 0 for i in items)


class _Refused(Exception):
    """NumPy's verdict on an index: what wick may raise for it, and whether it may also succeed."""

    def __init__(self, error, allowed, may_succeed=False):
        super().__init__(f"{type(error).__name__}({error})")
        self.allowed, self.may_succeed = allowed, may_succeed


def _kind(item):
    if item is None or item is Ellipsis or isinstance(item, slice):
        return "basic"
    if isinstance(item, (bool, np.bool_)):
        return "advanced"
    zero_d_int = isinstance(item, np.ndarray) and item.ndim == 0 and item.dtype.kind in "iu"
    if isinstance(item, (int, np.integer)) or zero_d_int:
        return "int"
    return "advanced" if isinstance(item, (list, np.ndarray)) else "other"


def _dims_of(item):
    """How many dims of the tensor an advanced item takes: a mask its own, an index one."""
    a = np.asarray(item)
    return a.ndim if a.dtype == bool and not isinstance(item, (bool, np.bool_)) else 0 if a.dtype == bool else 1


def torch_index(a, np_index):
    """(view, rest): PyTorch's a[index] is view[rest]. NumPy counts an int beside an array as one of
    the advanced indices (which then move to the front when a slice separates them); PyTorch applies
    ints first, as views, and then the advanced ones. So the ints, slices, None and ... go first,
    each advanced item standing aside with a full slice per dim it takes, then the advanced ones."""
    items = np_index if isinstance(np_index, tuple) else (np_index,)
    kinds = [_kind(i) for i in items]
    if "int" not in kinds or "advanced" not in kinds or "other" in kinds:
        return a, np_index
    first, rest = [], []
    for item, kind in zip(items, kinds):
        if kind == "int":
            first.append(int(item))  # NumPy takes a 0-d array for an advanced index, and copies
        elif kind == "basic":
            first.append(item)
            rest.append(Ellipsis if item is Ellipsis else slice(None))
        else:
            first += [slice(None)] * _dims_of(item)
            rest.append(item)
    first += [] if Ellipsis in first else [Ellipsis]  # a view even where ints take every dim
    return a[tuple(first)], tuple(rest)


def _mask_mismatch(shape, np_index):
    """Whether a bool mask differs in shape from the dims it covers: PyTorch refuses it (IndexError),
    where NumPy lets an empty mask cover a dim of size 1."""
    items = np_index if isinstance(np_index, tuple) else (np_index,)

    def takes(i):
        if i is None or i is Ellipsis or isinstance(i, bool):
            return 0
        return np.ndim(i) if isinstance(i, np.ndarray) and i.dtype == bool else 1

    if sum(i is Ellipsis for i in items) > 1:
        return False
    rest = len(shape) - sum(takes(i) for i in items)
    d = 0
    for i in items:
        if i is Ellipsis:
            d += max(rest, 0)
        elif isinstance(i, np.ndarray) and i.dtype == bool and i.ndim:
            if tuple(shape[d:d + i.ndim]) != i.shape:
                return True
        d += takes(i)
    return False


def _numpy(np_index, fn, shape):
    """fn() as NumPy computes it, or _Refused. Where PyTorch refuses a step (ValueError), wick raises.
    NumPy still lets an index out of range pass when the result is empty (with a DeprecationWarning,
    as it will raise), and PyTorch raises for some of these: either answer is accepted."""
    refused_step = _wick_refuses(np_index)
    if _mask_mismatch(shape, np_index):
        raise _Refused(IndexError("the shape of the mask does not match"), (IndexError,) + (ValueError,) * refused_step)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            result = fn()
        except DeprecationWarning as e:
            if "Out of bound index" not in str(e):
                raise
            raise _Refused(e, (IndexError,) + (ValueError,) * refused_step, may_succeed=not refused_step) from None
        except IndexError as e:
            # also an int beyond int64 (PyTorch: RuntimeError), an array of objects or floats (PyTorch: TypeError)
            raise _Refused(e, (IndexError, TypeError, RuntimeError) + (ValueError,) * refused_step) from None
        except OverflowError as e:
            raise _Refused(e, (IndexError, OverflowError, RuntimeError) + (ValueError,) * refused_step) from None
        except (ValueError, TypeError) as e:
            raise _Refused(e, (ValueError, IndexError, TypeError, RuntimeError)) from None
    if refused_step:
        raise _Refused(ValueError("step must be greater than zero"), (ValueError,))
    return result


def _getitem(a, np_index):
    view, rest = torch_index(a, np_index)
    return view[rest]


def _setitem(a, np_index, value):
    view, rest = torch_index(a, np_index)
    view[rest] = value


def check_getitem(recipe):
    x_recipe, index_recipe = recipe
    x, a = build_view(x_recipe)
    index, np_index = build_index(index_recipe)
    before = to_numpy(x)
    try:
        want = _numpy(np_index, lambda: _getitem(a, np_index), a.shape)
    except _Refused as refused:
        try:
            got = x[index]
        except refused.allowed:
            return "refused"
        if not refused.may_succeed:
            raise AssertionError(f"NumPy raised {refused}; wick gave {got!r} of shape {tuple(got.shape)}") from None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            want = _getitem(a, np_index)
    got = x[index]
    dtype = x_recipe[1]
    assert got.dtype is x.dtype, f"dtype {got.dtype} != {x.dtype}"
    assert tuple(got.shape) == np.shape(want), f"shape {tuple(got.shape)} != NumPy's {np.shape(want)}"
    assert np.array_equal(to_numpy(got), want, equal_nan=True), \
        f"{to_numpy(got).tolist()} != {np.asarray(want).tolist()}"
    assert np.array_equal(to_numpy(x), before, equal_nan=True), "indexing wrote to the tensor"
    expanded = any(op[0] == "expand" for op in x_recipe[4])
    if isinstance(want, np.ndarray) and want.size and np.shares_memory(want, a) and not expanded:
        # A basic index gives a view: writing it writes the tensor where NumPy's view writes the array.
        marker = 1 if dtype == "bool" else 7
        got.fill_(marker)
        np.copyto(want, marker, casting="unsafe")
        assert np.array_equal(to_numpy(x), a.astype(NUMPY_DTYPE[dtype]), equal_nan=True), \
            "writing the view wrote other elements than NumPy's view"
    return "compared"


def _value(recipe, x, x_array):
    """The value assigned: (wick value, NumPy value)."""
    tag = recipe[0]
    if tag == "lit":
        return recipe[1], recipe[1]
    if tag == "tensor":  # a view of random values, of any dtype, in a domain that x's dtype holds
        t, a = build_view(recipe[1], recipe[2])
        return t, a.astype(NUMPY_DTYPE[recipe[1][1]])
    if tag == "list":
        return recipe[1], np.array(recipe[1])
    if tag == "self":  # a view of the tensor assigned to: its values as they were, or RuntimeError
        key = recipe[1]
        return x[key], x_array[key].copy()
    raise ValueError(recipe)


def _round_to(dtype, array):
    """float32 values rounded to the nearest bfloat16 (ties to even), as a conversion rounds them;
    NumPy holds bfloat16 values in float32, and its other dtypes round themselves."""
    if dtype != "bfloat16":
        return array
    values = np.array(array, dtype=np.float32)
    bits = values.reshape(-1).view(np.uint32)
    rounded = ((bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(values), values, rounded.reshape(values.shape))


def check_setitem(recipe):
    """x[index] = value as NumPy assigns (where NumPy refuses, wick raises). Where an index
    names an element twice, it holds one of the values assigned to it (PyTorch leaves which
    one undefined)."""
    x_recipe, index_recipe, value_recipe = recipe
    dtype = x_recipe[1]
    x, a = build_view(x_recipe)
    a = a.astype(NUMPY_DTYPE[dtype])
    index, np_index = build_index(index_recipe)
    value, np_value = _value(value_recipe, x, a)
    want = a.copy()
    if not np.isscalar(np_value):  # PyTorch strips the value's leading dims of size 1 (NumPy not always)
        np_value = np.asarray(np_value).astype(want.dtype)
        while np_value.ndim and np_value.shape[0] == 1:
            np_value = np_value[0]
    try:
        _numpy(np_index, lambda: _setitem(want, np_index, np_value), a.shape)
    except _Refused as refused:
        try:
            x[index] = value
        except refused.allowed + (ValueError, RuntimeError):  # a value that does not fit: ValueError, RuntimeError
            return "refused"
        if not refused.may_succeed:
            raise AssertionError(f"NumPy raised {refused}; wick assigned, giving {to_numpy(x).tolist()}") from None
        assert np.array_equal(to_numpy(x), a, equal_nan=True), "an assignment that selects nothing changed the tensor"
        return "assigned nothing"
    try:
        x[index] = value
    except RuntimeError:
        if value_recipe[0] == "self":  # PyTorch refuses to copy between overlapping memory
            return "refused"
        raise
    want = _round_to(dtype, want)
    got = to_numpy(x)
    # Elements the index names more than once may hold any of the values assigned to them.
    count = np.zeros(a.shape, dtype=np.int64)
    np.add.at(*torch_index(count, np_index), 1)
    once = count <= 1
    assert np.array_equal(got[once], want[once], equal_nan=True), \
        f"{got.tolist()} != NumPy's {want.tolist()}"
    candidates = _round_to(dtype, np.asarray(np_value).astype(want.dtype)).ravel()
    for position in zip(*np.nonzero(~once)):
        assert np.isin(got[position], candidates) or (np.isnan(candidates).any() and np.isnan(got[position])), \
            f"element {position} holds {got[position]}, none of the values assigned to it"
    return "compared"
