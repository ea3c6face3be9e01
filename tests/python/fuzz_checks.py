"""tests/python/fuzz_checks.py: the fuzz cases judged against NumPy, run in the child (fuzz_child.py).

Each function takes a recipe that fuzz_strategies.py drew, builds the tensors (views of
random values, each beside the NumPy array it should equal), makes the call and raises
AssertionError where wick differs from NumPy (or from PyTorch, where the two differ and
wick follows PyTorch). They run in a child so that a crash fails one example.

A view recipe is ("view", dtype, base shape, seed, ops): random values of the dtype in a
contiguous base, then the ops (permute, slice with a step, expand, select, unsqueeze)
applied to the tensor and to its NumPy twin alike.
"""
import math
import re
import warnings

import numpy as np

import wick
from reference import NUMPY_DTYPE, assert_close, make, random_values, reference_dtype, root, to_numpy, wdtype

def apply_view_ops(t, a, ops):
    """The ops of a view recipe applied to tensor `t` and array `a` alike."""
    for op in ops:
        if op[0] == "permute":
            t, a = t.permute(*op[1]), np.transpose(a, op[1])
        elif op[0] == "slice":
            _, d, start, stop, step = op
            key = (slice(None),) * d + (slice(start, stop, step),)
            t, a = t[key], a[key]
        elif op[0] == "expand":
            t, a = t.expand(*op[1]), np.broadcast_to(a, op[1])
        elif op[0] == "select":
            t, a = t.select(op[1], op[2]), np.take(a, op[2], axis=op[1])
        elif op[0] == "unsqueeze":
            t, a = t.unsqueeze(op[1]), np.expand_dims(a, op[1])
        else:
            raise ValueError(op)
    return t, a


def build_view(recipe, domain="any"):
    """(tensor, its values as NumPy computes with them); checks that the view holds what NumPy's does."""
    _, dtype, shape, seed, ops = recipe
    base = make(random_values(dtype, shape, np.random.default_rng(seed), domain), dtype)
    t, a = apply_view_ops(base, to_numpy(base), ops)
    assert tuple(t.shape) == a.shape, f"the view {ops} has shape {tuple(t.shape)}, NumPy's {a.shape}"
    got = to_numpy(t)
    assert np.array_equal(got, a, equal_nan=True), f"the view {ops} holds {got.tolist()}, NumPy's {a.tolist()}"
    return t, np.array(a)


# --- indexing ---------------------------------------------------------------------------------------

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
    if isinstance(item, (int, np.integer)) or (isinstance(item, np.ndarray) and item.ndim == 0 and item.dtype.kind in "iu"):
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
    assert np.array_equal(to_numpy(got), want, equal_nan=True), f"{to_numpy(got).tolist()} != {np.asarray(want).tolist()}"
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


# --- ops with a NumPy reference -----------------------------------------------------------------------

def warm_up():
    """Builds the table of ops once in the zygote (fuzz_child.Child), not in each worker."""
    import opcheck  # noqa: F401
    from fuzz_strategies import op_cases
    op_cases()


def warm_up_torch():
    import torch  # noqa: F401
    warm_up()


_FORM_LAYOUT = {"function": "contiguous", "method": "method", "inplace": "inplace", "out": "out"}


def _operands(recipe, domain):
    """{name: (tensor, values)}: each its own view, or all of them windows of one base along one dim,
    at their offsets (so that they overlap)."""
    if recipe["shared"] is None:
        return {name: build_view(view, domain) for name, view in recipe["tensors"].items()}
    dtype, shape, seed, d, offsets = recipe["shared"]
    base = make(random_values(dtype, shape, np.random.default_rng(seed), domain), dtype)
    values = to_numpy(base)
    width = shape[d] - max(offsets.values())
    key = lambda o: (slice(None),) * d + (slice(o, o + width),)  # noqa: E731
    return {name: (base[key(o)], values[key(o)].copy()) for name, o in offsets.items()}


def _overlaps(t, u):
    return root(t) is root(u)


def _torch_refuses(case, call):
    """Whether PyTorch refuses the call that the NumPy reference answered: where the two differ,
    wick follows PyTorch (a reference may be more lenient, as with a dim out of range of a 0-d tensor)."""
    import gc

    import opcheck
    import torch
    gc.freeze()  # imported now, in this worker: keep the collection after each case cheap
    fn = getattr(torch, case.name, None)
    if fn is None:
        return False
    args, kwargs = [], {}
    for p in call.sig:
        if p.name not in call.given:
            continue
        value = call.given[p.name]
        if isinstance(value, wick.Tensor):
            name = repr(value.dtype).split(".")[1]
            value = torch.from_numpy(np.array(to_numpy(value))).to(getattr(torch, name))
        elif isinstance(value, wick.dtype):
            value = getattr(torch, repr(value).split(".")[1])
        if p.kw or p.default is not opcheck.REQUIRED:
            kwargs[p.name] = value
        else:
            args.append(value)
    try:
        fn(*args, **kwargs)
    except (IndexError, ValueError, RuntimeError, TypeError):
        return True
    return False


def check_op(recipe):
    """One call of an op with a NumPy reference (fuzz_strategies.op_recipes), judged as the generated
    tests judge a sample (tests/python/opcheck.py): NumPy refusing means wick must refuse; else the
    result's dtype, shape and values, the fields of a named tuple, and inputs left as they were."""
    import opcheck
    from fuzz_strategies import op_cases

    case, _ = op_cases()[recipe["name"]]
    sig, dtype, form = case.signatures[recipe["sig"]], recipe["dtype"], recipe["form"]
    layout = _FORM_LAYOUT[form]
    compute = opcheck.compute_dtype(case, dtype)
    built = _operands(recipe, case.domain)
    call = opcheck.Call(sig, {}, {})
    for p in sig:
        if p.name in built:
            t, values = built[p.name]
            call.given[p.name], call.inputs[p.name] = t, (t, to_numpy(t))
            call.reference[p.name] = values.astype(reference_dtype(compute))
        elif p.name in recipe["values"]:
            value = recipe["values"][p.name]
            is_dtype = p.role == "dtype" and value is not None
            call.given[p.name] = wdtype(value) if is_dtype else value
            call.reference[p.name] = NUMPY_DTYPE[value] if is_dtype else value
        else:
            call.reference[p.name] = p.default
    dtype_args = [recipe["values"][p.name] for p in sig if p.role == "dtype" and recipe["values"].get(p.name)]
    call.result_half = dtype_args[0] if dtype_args else dtype
    if recipe["scalar_last"]:  # the last operand a Python number, which keeps the tensor's dtype
        last = [p for p in sig if p.role == "tensor"][-1].name
        number = 2 if dtype not in ("float16", "bfloat16", "float32", "float64") else 1.5
        call.given[last] = number
        call.reference[last] = np.asarray(number).astype(call.reference[last].dtype)  # broadcasts as the number
        del call.inputs[last]
    returns = case.returns[recipe["sig"]]
    try:
        refs = opcheck._reference(case, call, returns)
    except (ValueError, IndexError, TypeError, RuntimeError) as e:
        try:
            opcheck._invoke(case, call, layout)
        except (IndexError, ValueError, RuntimeError):
            return "refused"
        raise AssertionError(f"NumPy refused the call ({type(e).__name__}: {e}); wick did not") from None
    expected = [opcheck._expected_dtype(case, dtype, ref, call) for ref in refs]
    writes = case.mutates or form == "inplace"
    self_t = call.given.get("self")
    if writes and (expected[0] != dtype or refs[0].shape != tuple(self_t.shape)):
        try:
            opcheck._invoke(case, call, layout)
        except RuntimeError:
            return "refused"
        raise AssertionError(f"the result ({expected[0]}, {refs[0].shape}) does not fit self "
                             f"({dtype}, {tuple(self_t.shape)}), and wick wrote it anyway")
    # Written operands that overlap the others: PyTorch refuses; NumPy answers as if they were copied first.
    overlapping = writes and any(name != "self" and _overlaps(t, self_t) for name, (t, _) in call.inputs.items())
    out = None
    if form == "out":
        outs = [wick.empty(0, dtype=wdtype(e)) for e in expected]
        out = outs[0] if returns == "Tensor" else tuple(outs)
    try:
        result = opcheck._invoke(case, call, layout, out)
    except RuntimeError:
        if overlapping:
            return "refused"
        if _torch_refuses(case, call):
            return "refused, as PyTorch does"
        raise
    except (IndexError, ValueError, TypeError):
        if _torch_refuses(case, call):
            return "refused, as PyTorch does"
        raise
    parts = opcheck._parts(result, returns, len(refs))
    if writes:
        assert result is self_t, "an in-place form returns self"
    for i, (part, ref, want) in enumerate(zip(parts, refs, expected)):
        what = f"{returns[i]}: " if isinstance(returns, tuple) else ""
        assert part.dtype is wdtype(want), f"{what}{part.dtype} != {want}"
        assert tuple(part.shape) == ref.shape, f"{what}shape {tuple(part.shape)} != {ref.shape}"
        if isinstance(returns, tuple) and returns[i] == "indices" and "values" in returns:
            opcheck._check_indices(call, part, ref)
        else:
            assert_close(part, ref, want)
    for name, (t, values) in call.inputs.items():
        if not writes or (name != "self" and not _overlaps(t, self_t)):
            assert np.array_equal(to_numpy(t), values, equal_nan=values.dtype.kind == "f"), \
                f"the op wrote its input '{name}'"
    return "overlapping" if overlapping else "compared"


# --- calls against PyTorch ------------------------------------------------------------------------------

def _outcome(lib, recipe):
    """What a call gives with `lib` (wick or torch): ("raised", type) or ("returned", [results])."""
    from fuzz_child import EXPECTED
    from fuzz_recipes import build, target
    spec, args, kwargs = recipe
    try:
        fn = target(spec, lib)
        result = fn(*[build(a, lib=lib) for a in args], **{k: build(v, lib=lib) for k, v in kwargs})
    except EXPECTED as e:
        return "raised", e
    return "returned", list(result) if isinstance(result, (tuple, list)) else [result]


def _summary(value):
    """(shape, values) of a tensor, the values only where there are few; a number as itself."""
    if not hasattr(value, "shape"):
        return value
    shape = tuple(value.shape)
    n = math.prod(shape)
    values = np.array(value.float().tolist() if "bfloat16" in str(value.dtype) else value.tolist()) \
        if n <= 4096 else None
    return shape, str(value.dtype).split(".")[-1], values


def _ints(recipe):
    if isinstance(recipe, tuple) and len(recipe) == 2 and recipe[0] == "lit" and isinstance(recipe[1], int):
        return {recipe[1]}
    return set().union(*(_ints(r) for r in recipe)) if isinstance(recipe, tuple) else set()


def _has_empty(recipe):
    if isinstance(recipe, tuple) and recipe and recipe[0] == "tensor":
        return math.prod(recipe[2]) == 0
    return isinstance(recipe, tuple) and any(_has_empty(r) for r in recipe)


def _same(g, w):
    g, w = _summary(g), _summary(w)
    if not isinstance(w, tuple):
        return g == w
    return g[:2] == w[:2] and (g[2] is None) == (w[2] is None) and (w[2] is None or np.array_equal(g[2], w[2],
                                                                                                   equal_nan=True))


def _sampled(case, name):
    return [dict(s.args)[name] for s in case.samples if name in s.args]


def _numpy_agrees(recipe, got):
    """Whether the op's NumPy reference (from its declaration) gives what wick gave, None where it has
    no opinion: the second opinion where PyTorch's own arithmetic overflows (tril(t, 2**63 - 1))."""
    from fuzz_recipes import build
    from fuzz_strategies import reference_cases
    spec, args, kwargs = recipe
    case = reference_cases().get(spec[1]) or reference_cases().get(spec[1].rstrip("_"))
    if case is None:
        return None
    given = ([spec[2]] if spec[0] == "method" else []) + list(args)
    kwargs = [(k, v) for k, v in kwargs if not (k == "out" and v == ("lit", None))]
    sig = next((sig for sig in case.signatures if len(sig) >= len(given)
                and {k for k, _ in kwargs} <= {p.name for p in sig}), None)
    if sig is None:
        return None

    def to_reference(value, p):
        if isinstance(value, int) and any(isinstance(v, tuple) for v in _sampled(case, p)):
            return (value,)  # an int given for an int[]
        if isinstance(value, wick.Tensor):
            return to_numpy(value)
        if isinstance(value, (list, tuple)) and any(isinstance(v, wick.Tensor) for v in value):
            return [to_reference(v, None) for v in value]
        return tuple(value) if isinstance(value, list) else value

    named = {p.name: to_reference(build(v), p.name) for p, v in zip(sig, given)}
    named.update({k: to_reference(build(v), k) for k, v in kwargs})
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = case.reference(**named)
    except OverflowError:
        return None  # NumPy's C ints are narrower than int64 (np.diag(a, 2**62)): no opinion
    except (ValueError, IndexError, TypeError, RuntimeError, MemoryError):
        return got[0] == "raised"
    if got[0] == "raised":
        return False
    refs = list(ref) if isinstance(ref, (list, tuple)) else [ref]
    return len(refs) == len(got[1]) and all(
        tuple(g.shape) == np.shape(r) and (math.prod(g.shape) > 4096 or np.array_equal(to_numpy(g), r, equal_nan=True))
        for g, r in zip(got[1], refs))


def check_against_torch(recipe):
    """A call of a view or shape op, with ints at the edges of int64, gives what PyTorch gives: a
    result of the same shape, dtype and values, or an error where PyTorch raises one."""
    import gc

    import torch
    gc.freeze()
    want = _outcome(torch, recipe)
    got = _outcome(wick, recipe)
    try:
        [_summary(r) for r in want[1]] if want[0] == "returned" else None
    except RuntimeError:
        return "PyTorch gave a tensor it cannot read"  # strides it computed wrapped (view(0, 2**63 - 2, 2**62))
    for outcome in (want, got):
        if outcome[0] == "raised" and isinstance(outcome[1], MemoryError):
            return "no memory"  # the answer exists, but not on this machine
    if want[0] == "raised":
        # PyTorch's parser takes no single int for an int[] and its CPU kernels skip some dtypes:
        # these say nothing of the values passed. A negative number in its message that is none of
        # the arguments is one PyTorch's own arithmetic wrapped to (chunk(t, 2**63 - 1)).
        if isinstance(want[1], TypeError) or "not implemented for" in str(want[1]):
            return "PyTorch refused the types"
        if any(int(n) not in _ints(recipe) for n in re.findall(r"-\d+", str(want[1]))):
            return "PyTorch overflowed"
        agrees = _numpy_agrees(recipe, got) if got[0] == "returned" else False
        if agrees:
            return "NumPy agrees with wick"
        if agrees is None and "overflow" in str(want[1]):
            return "PyTorch overflowed, NumPy has no opinion"
        assert got[0] == "raised", f"PyTorch raised {type(want[1]).__name__}({want[1]}); wick gave " \
                                   f"{[_summary(r)[:2] if hasattr(r, 'shape') else r for r in got[1]]}"
        return "both raised"
    if got[0] == "raised":
        if _has_empty(recipe):
            return "wick refused an empty tensor"  # PyTorch skips some checks for those (tril of 1-d, roll's dims)
        if "single memory location" in str(got[1]):
            return "wick refused to write an expanded tensor"  # as PyTorch does, in all but a few ops
        if any(s < 0 for r in want[1] if hasattr(r, "shape") for s in r.shape):
            return "PyTorch gave a negative size"
    if got[0] == "raised" and _numpy_agrees(recipe, got):
        return "NumPy agrees with wick"
    assert got[0] == "returned", f"wick raised {type(got[1]).__name__}({got[1]}); PyTorch gave " \
                                 f"{[_summary(r)[:2] if hasattr(r, 'shape') else r for r in want[1]]}"
    assert len(got[1]) == len(want[1]), f"{len(got[1])} results, PyTorch {len(want[1])}"
    if not all(_same(g, w) for g, w in zip(got[1], want[1])) and _numpy_agrees(recipe, got):
        return "NumPy agrees with wick"
    for g, w in zip(got[1], want[1]):
        g, w = _summary(g), _summary(w)
        if isinstance(w, tuple):
            assert g[:2] == w[:2], f"shape and dtype {g[:2]}, PyTorch's {w[:2]}"
            assert (g[2] is None) == (w[2] is None) and (w[2] is None or np.array_equal(g[2], w[2], equal_nan=True)), \
                f"{g[2]} != PyTorch's {w[2]}"
        else:
            assert g == w, f"{g!r} != PyTorch's {w!r}"
    return "both returned"
