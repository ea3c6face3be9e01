"""The checks behind ops/test_declared_ops.py: one op against its NumPy reference.

Each `Case` is read from a declaration (declared.py): its signatures,
each parameter with its role (codegen/testplan.py) and what each signature returns
(a tensor, a named tuple of them or a tuple of them), the calls to make (samples),
the dtypes it takes, its forms, and its reference. `check` runs one case, for one
dtype, in one layout, over every sample; `params` says which layouts apply to a case.

Note [Sample roles]
~~~~~~~~~~~~~~~~~~~
A layout rewrites a sample before it is called, and the roles of the parameters say
how: `tensor`, `index` and `mask` parameters are shapes, built here (random values of
the dtype under test, valid int64 indices into `self`, random bools), and `tensors`
and `indices` lists of shapes, whose elements are built alike (the i-th of `indices`
indexing dim i of `self`) and laid out one by one as a tensor parameter is; `dim` and
`size` parameters move with the shapes. In the zero_dim layout every tensor is 0-d, dims
become 0 (or -1) and sizes []; in `one` every size is 1; in `empty` the first size of
the first tensor becomes 0 wherever it appears. NumPy judges the rewritten call: where
the reference refuses it, wick must raise too (a user error, never a crash), and where
it does not, wick must give its answer. The other layouts only lay the same values out
differently: transposed or sliced with a step, expanded with a stride of 0, as a view
written in place, or into out=.

Note [Tied indices]
~~~~~~~~~~~~~~~~~~~
A named tuple with the fields `values` and `indices` follows PyTorch's convention:
`indices` are the positions along `dim` of `self` of the elements in `values` (sort,
topk, kthvalue, median, max...). Where a line of `self` holds the chosen value more
than once, not every op promises which of its positions it gives (sort without
stable=True does not), and samples of integers and bools nearly always hold ties. So
indices are checked by what they pick: wick's must pick, along `dim`, elements equal
to those the reference's pick (NaN equal to NaN). Where the value is unique in its
line that is exactly the reference's index; among equal elements it is any of them.
A choice among ties that an op promises is tested where it returns a plain tensor
(argsort with stable=True, compared exactly) or by hand (tests/python/ops/test_sorting.py).

Note [List results]
~~~~~~~~~~~~~~~~~~~
An op returning Tensor[] gives a tuple, compared element by element with the list
the reference returns. Taking a `self`, it cuts it into views, as PyTorch's split,
chunk and unbind do: each element must share the memory of `self`.
"""
import re
import warnings
import zlib
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Tuple, Union

import numpy as np
import pytest

import numpy_ref
import wick
from reference import (DTYPES, FLOATS, NUMPY_DTYPE, assert_close, make, random_values, reference_dtype, root, to_numpy,
                       wdtype)

REQUIRED = object()
TENSOR_ROLES = ("tensor", "index", "mask")
# Lists of tensors, and the role of their elements.
LIST_ROLES = {"tensors": "tensor", "indices": "index"}
SHAPED_ROLES = TENSOR_ROLES + tuple(LIST_ROLES)
# Layouts that change shapes, where NumPy may refuse the call (then wick must raise).
RESHAPING = ("zero_dim", "empty", "one")
# The shapes of up to five pointwise operands that broadcast together to (3, 4).
BROADCAST_SHAPES = [(3, 1), (4,), (1, 4), (4,), (3, 1)]


@dataclass(frozen=True)
class P:
    """A parameter: its name, role (codegen/testplan.py), default, and whether it is keyword-only."""
    name: str
    role: str
    default: object = REQUIRED
    kw: bool = False


@dataclass(frozen=True)
class S:
    """A sample: the signature it calls, and the values of the parameters it gives."""
    signature: int
    args: Dict[str, object]


@dataclass(frozen=True)
class Pointwise:
    promote: str  # "common" | "int_to_float": the dtype the kernel computes in
    output: str  # "same" | "bool"
    constants: Dict[str, object]  # Scalar parameters and their defaults
    scalar_operand: bool  # the last operand may be a Python number
    broadcasts: bool  # it has operands that broadcast together


@dataclass(frozen=True)
class Case:
    name: str
    signatures: Tuple[Tuple[P, ...], ...]
    # What each signature returns: "Tensor", "Tensor[]" or the fields of a named tuple.
    returns: Tuple[Union[str, Tuple[str, ...]], ...]
    samples: Tuple[S, ...]
    dtypes: Tuple[str, ...]
    domain: str
    method: bool
    function: bool
    inplace: bool  # also x.name_()
    out: bool  # also name(..., out=)
    mutates: bool  # self is Tensor(a!): every call writes it
    reference: Callable
    pointwise: Optional[Pointwise] = None


def compute_dtype(case, dtype):
    if case.pointwise and case.pointwise.promote == "int_to_float" and dtype not in FLOATS:
        return "float32"
    return dtype


def _roles(case):
    return {p.role for sig in case.signatures for p in sig}


def _layouts(case, dtype):
    roles = _roles(case)
    tensors, shaped = bool(roles & set(SHAPED_ROLES)), bool(roles & {*SHAPED_ROLES, "size"})
    data = any(p.role in ("tensor", "tensors") and not (case.mutates and p.name == "self")
               for sig in case.signatures for p in sig)
    pw = case.pointwise
    applies = {
        "contiguous": True,
        "noncontiguous": tensors,  # nothing to lay out without tensors (factories)
        "expanded": data,  # a stride-0 operand; never the tensor written in place
        "broadcast": bool(pw and pw.broadcasts),  # operands of different shapes: pointwise only
        "scalar_operand": bool(pw and pw.scalar_operand and dtype != "bool"),  # a Python int promotes bool
        "zero_dim": shaped,
        "empty": shaped,
        "one": shaped,
        "method": case.method and case.function,  # else every layout calls the only form
        "inplace": case.inplace,
        "inplace_view": case.inplace or case.mutates,
        "out": case.out,
    }
    return [layout for layout, ok in applies.items() if ok]


def params(cases):
    out = []
    for case in cases:
        for dtype in DTYPES:
            layouts = _layouts(case, dtype) if compute_dtype(case, dtype) in case.dtypes else ["unsupported"]
            out += [pytest.param(case, dtype, layout, id=f"{case.name}-{dtype}-{layout}") for layout in layouts]
    return out


# --- rewriting a sample for a layout (Note [Sample roles]) -------------------------------------------

def _zero_dim(d):
    """The dim of a 0-d tensor that `d` stands for: 0, or -1 for a negative one."""
    return 0 if d >= 0 else -1


def _reshape_sample(sig, args, layout):
    """The sample's arguments for `layout`: shapes, dims and sizes moved together."""
    args = dict(args)
    shaped = [p for p in sig if args.get(p.name) is not None and p.role in (*SHAPED_ROLES, "size")]

    def reshape(rule):  # applies rule(shape) to every shape, and to sizes
        for p in shaped:
            value = args[p.name]
            args[p.name] = tuple(s if s is None else rule(s) for s in value) if p.role in LIST_ROLES else rule(value)

    if layout == "broadcast":
        operands = [p for p in shaped if p.role == "tensor"]
        args.update({p.name: shape for p, shape in zip(operands, BROADCAST_SHAPES)})
    elif layout == "zero_dim":
        reshape(lambda shape: ())
        for p in sig:  # a 0-d tensor has the dims 0 and -1; a list keeps its first
            d = args.get(p.name)
            if p.role == "dim" and d is not None:
                args[p.name] = tuple(_zero_dim(i) for i in d[:1]) if isinstance(d, tuple) else _zero_dim(d)
    elif layout == "one":
        reshape(lambda shape: tuple(1 for _ in shape))
    elif layout == "empty":
        shapes = [s for p in shaped for s in (args[p.name] if p.role in LIST_ROLES else [args[p.name]]) if s]
        size = next((s for shape in shapes for s in shape if s > 0), 0)
        reshape(lambda shape: tuple(0 if s == size else s for s in shape))
    return args


def _slots(sig, args):
    """The tensors a call builds, in order, as (key, role, shape): a tensor parameter's key is
    its name, an element's of a list (name, position)."""
    slots = []
    for p in sig:
        value = args.get(p.name)
        if value is not None and p.role in TENSOR_ROLES:
            slots.append((p.name, p.role, value))
        elif value is not None and p.role in LIST_ROLES:
            slots += [((p.name, i), LIST_ROLES[p.role], s) for i, s in enumerate(value) if s is not None]
    return slots


def _tensor_kinds(case, slots, layout):
    """How each tensor is laid out: contiguous, transposed, stepped, expanded or view."""
    kinds = {key: "contiguous" for key, _, _ in slots}
    if layout == "noncontiguous":  # transposed and sliced with a step, alternately
        for i, (key, _, shape) in enumerate(slots):
            kinds[key] = "transposed" if i % 2 == 0 and len(shape) >= 2 else "stepped"
    elif layout == "expanded":
        key = next((key for key, role, shape in slots if role == "tensor" and not (case.mutates and key == "self")
                    and any(s > 1 for s in shape)), None)
        if key is not None:
            kinds[key] = "expanded"
    elif layout == "inplace_view":
        kinds["self"] = "view"
    return kinds


def _lay_out(values, dtype, kind):
    """A wick tensor holding `values` laid out as `kind`, and the base it is a view of (for `view`)."""
    shape = values.shape
    if kind == "transposed":
        order = tuple(reversed(range(len(shape))))
        return make(values.transpose(order), dtype).permute(order), None
    if kind in ("stepped", "view") and len(shape) >= 1:
        # A base twice as long in the last dim; the tensor is every other element, from 0 or 1,
        # and the others hold the same values in another order.
        start = 1 if kind == "view" else 0
        base_values = np.repeat(values, 2, axis=-1)
        base_values[..., 1 - start::2] = values.ravel()[::-1].reshape(shape)
        base = make(base_values, dtype)
        return base[..., start::2], base if kind == "view" else None
    if kind == "view":  # a 0-d view: one element of a 1-d base
        base = make(np.stack([values, values]), dtype)
        return base[1], base
    if kind == "expanded":
        d = next(i for i, s in enumerate(shape) if s > 1)
        return make(np.take(values, [0], axis=d), dtype).expand(list(shape)), None
    return make(values, dtype), None


def _index_values(shape, self_shape, dim, rng):
    """Valid indices into self: along `dim` (for an index of self's rank, each row along it),
    or into self flattened; unique where they fit, so that writes never collide."""
    if dim is None:
        n, axis = int(np.prod(self_shape)), None
    else:
        d = dim % max(len(self_shape), 1)
        n = self_shape[d] if self_shape else 1
        axis = d if len(shape) == len(self_shape) and shape else None
    count = int(np.prod(shape)) if axis is None else shape[axis]
    if n == 0:  # nothing to index: 0 is out of range, and the call must raise if it reads any
        return np.zeros(shape, dtype=np.int64)
    if count > n:
        return rng.integers(0, n, size=shape)
    if axis is None:
        return rng.permutation(n)[:count].reshape(shape)
    keys = rng.random(shape[:axis] + (n,) + shape[axis + 1:])
    return np.take(np.argsort(keys, axis=axis), np.arange(count), axis=axis)


@dataclass
class Call:
    """One call of an op, realized: its wick arguments and the reference's."""
    sig: Tuple[P, ...]
    given: Dict[str, object]  # the wick value of each argument the call passes
    reference: Dict[str, object]  # every parameter's value for the reference
    # slot key (see _slots) -> (tensor, values)
    inputs: Dict[object, Tuple[object, np.ndarray]] = field(default_factory=dict)
    base: Optional[object] = None  # the base of an in-place view
    result_half: Optional[str] = None  # the half dtype a float32 reference result stands for


def _constants(case, dtype):
    """Non-default pointwise constants where the dtype allows, so that they are known to reach the kernel: an
    optional float left None by default (logit's eps) gets a small fraction."""
    def given(default):
        if default is None:
            return 0.125
        return default if dtype == "bool" or isinstance(default, bool) else default + 1
    return {name: given(default) for name, default in case.pointwise.constants.items()}


def realize(case, sample, dtype, layout, rng):
    sig = case.signatures[sample.signature]
    args = _reshape_sample(sig, sample.args, layout)
    if case.pointwise:
        args.update(_constants(case, dtype))
    if not any(p.role in TENSOR_ROLES for p in sig):  # a factory: the dtype under test is its dtype=
        args.update({p.name: dtype for p in sig if p.role == "dtype" and p.name not in args})
    slots = _slots(sig, args)
    kinds = _tensor_kinds(case, slots, layout)
    call = Call(sig, {}, {})
    dtype_args = [args[p.name] for p in sig if p.role == "dtype" and args.get(p.name) is not None]
    call.result_half = dtype_args[0] if dtype_args else dtype
    dim = next((args[p.name] for p in sig if p.name == "dim" and isinstance(args.get(p.name), int)), None)
    built = {}  # slot key -> (wick tensor, the reference's array)
    for key, role, shape in slots:
        # An element of `indices` indexes the dim of its position; an `index`, along `dim`.
        index_dim = key[1] if isinstance(key, tuple) else dim
        built[key] = _build(case, call, key, role, shape, dtype, kinds[key], index_dim, rng)
    for p in sig:
        if p.name not in args:
            call.reference[p.name] = p.default
        elif p.name in built:
            call.given[p.name], call.reference[p.name] = built[p.name]
        elif p.role in LIST_ROLES and args[p.name] is not None:
            elements = [built.get((p.name, i), (None, None)) for i in range(len(args[p.name]))]
            call.given[p.name] = [t for t, _ in elements]
            call.reference[p.name] = [r for _, r in elements]
        else:
            value = args[p.name]
            call.given[p.name] = wdtype(value) if p.role == "dtype" and value is not None else value
            call.reference[p.name] = NUMPY_DTYPE[value] if p.role == "dtype" and value is not None else value
    if layout == "scalar_operand":  # the last operand as a Python number, which keeps the tensor's dtype
        last = [p for p in sig if p.role == "tensor"][-1].name
        number = 2 if dtype not in FLOATS else 1.5
        call.given[last] = number
        call.reference[last] = np.full(call.reference[last].shape, number).astype(call.reference[last].dtype)
        del call.inputs[last]
    return call


def _build(case, call, key, role, shape, dtype, kind, index_dim, rng):
    """One tensor of the call, recorded among its inputs: the wick tensor and the reference's array."""
    if role == "index":
        values, tensor_dtype = _index_values(shape, call.inputs["self"][1].shape, index_dim, rng), "int64"
    elif role == "mask":
        values, tensor_dtype = rng.integers(0, 2, size=shape).astype(bool), "bool"
    else:
        values, tensor_dtype = random_values(dtype, shape, rng, case.domain), dtype
    t, base = _lay_out(np.asarray(values), tensor_dtype, kind)
    assert tuple(t.shape) == tuple(shape)
    exact = to_numpy(t)
    call.inputs[key] = (t, exact)
    if base is not None:
        call.base = base
    return t, exact.astype(reference_dtype(compute_dtype(case, dtype))) if role == "tensor" else exact


# --- calling and judging ------------------------------------------------------------------------------

def _invoke(case, call, layout, out=None):
    """Calls the op in the form `layout` asks for."""
    positional = [call.given[p.name] for p in call.sig if p.name in call.given and p.default is REQUIRED and not p.kw]
    keywords = {p.name: call.given[p.name] for p in call.sig
                if p.name in call.given and (p.default is not REQUIRED or p.kw)}
    if out is not None:
        return getattr(wick, case.name)(*positional, **keywords, out=out)
    if layout in ("inplace", "inplace_view") and case.inplace:
        return getattr(positional[0], case.name + "_")(*positional[1:], **keywords)
    if layout == "method" or not case.function:
        return getattr(positional[0], case.name)(*positional[1:], **keywords)
    return getattr(wick, case.name)(*positional, **keywords)


def _reference(case, call, returns, dtype):
    """NumPy's answer, from the exact values the wick inputs hold: one array per tensor the op returns.
    The reference may ask which wick dtype its tensors hold (numpy_ref.tensors_of)."""
    with np.errstate(all="ignore"), warnings.catch_warnings(), numpy_ref.tensors_of(compute_dtype(case, dtype)):
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = case.reference(**call.reference)
    if returns == "Tensor":
        return [np.asanyarray(ref)]
    assert isinstance(ref, (tuple, list)), f"the reference of a {returns} return gives a {type(ref).__name__}"
    assert returns == "Tensor[]" or len(ref) == len(returns), f"the reference gives {len(ref)} of {returns}"
    return [np.asanyarray(r) for r in ref]


def _expected_dtype(case, dtype, ref, call):
    if case.pointwise:
        return "bool" if case.pointwise.output == "bool" else compute_dtype(case, dtype)
    tagged = getattr(ref, "wick_dtype", None)  # numpy_ref.bfloat16() results
    if tagged:
        return tagged
    name = ref.dtype.name
    if name == "float32" and call.result_half in ("float16", "bfloat16"):
        return call.result_half  # computed in float32, see reference.reference_dtype
    assert name in DTYPES, f"the reference gives {name}, which wick does not have"
    return name


def _refused(case, call, layout):
    """The reference refused the call: wick must refuse it too, with a user error."""
    with pytest.raises((IndexError, ValueError, RuntimeError)):
        _invoke(case, call, layout)


def check(case, dtype, layout):
    rng = np.random.default_rng(zlib.crc32(f"{case.name}-{dtype}-{layout}".encode()))
    if layout == "unsupported":
        call = realize(case, case.samples[0], dtype, "contiguous", rng)
        # TypeError is wick's refusal of a dtype; a few are PyTorch's own RuntimeErrors instead
        # ("sub(): Subtraction, the `-` operator, with two bool tensors is not supported...").
        with pytest.raises((TypeError, RuntimeError), match=re.escape(case.name.rstrip("_"))):
            _invoke(case, call, "contiguous")
        return
    for sample in case.samples:
        try:
            _check_sample(case, sample, dtype, layout, rng)
        except AssertionError as e:
            raise AssertionError(f"sample {sample.args}: {e}") from None
        except Exception as e:
            e.add_note(f"in sample {sample.args}")
            raise


def _check_sample(case, sample, dtype, layout, rng):
    call = realize(case, sample, dtype, layout, rng)
    returns = case.returns[sample.signature]
    try:
        refs = _reference(case, call, returns, dtype)
    except (ValueError, IndexError, TypeError, RuntimeError):
        if layout not in RESHAPING:
            raise  # the sample itself is wrong
        _refused(case, call, layout)
        return
    expected = [_expected_dtype(case, dtype, ref, call) for ref in refs]
    writes = case.mutates or layout in ("inplace", "inplace_view")
    reshapes = writes and not case.mutates and _is_view_op(case, call, refs[0].shape)
    if writes and not reshapes and (expected[0] != dtype or refs[0].shape != tuple(call.given["self"].shape)):
        with pytest.raises(RuntimeError, match="can't be cast" if expected[0] != dtype else ""):
            _invoke(case, call, layout)
        return
    base_before = to_numpy(call.base) if call.base is not None else None

    out = None
    if layout == "out":
        outs = [wick.empty(0, dtype=wdtype(e)) for e in expected]
        out = outs[0] if returns == "Tensor" else tuple(outs)
    result = _invoke(case, call, layout, out)
    parts = _parts(result, returns, len(refs))
    if out is not None:
        assert all(part is o for part, o in zip(parts, outs)), "the result is not out="
    if writes:
        assert result is call.given["self"]

    for i, (part, ref, want) in enumerate(zip(parts, refs, expected)):
        what = f"{returns[i]}: " if isinstance(returns, tuple) else f"[{i}]: " if returns == "Tensor[]" else ""
        assert part.dtype is wdtype(want), f"{what}{part.dtype} != {want}"
        assert tuple(part.shape) == ref.shape, f"{what}shape {tuple(part.shape)} != {ref.shape}"
        if isinstance(returns, tuple) and returns[i] == "indices" and "values" in returns:
            _check_indices(call, part, ref)
        else:
            assert_close(part, ref, want)
    if returns == "Tensor[]" and "self" in call.inputs:  # Note [List results]
        own = root(call.inputs["self"][0])
        assert all(root(part) is own for part in parts), "an element is not a view of self"
    if base_before is not None and not reshapes:  # the rest of the base is untouched
        want = base_before.copy()
        if want.ndim == 1 and refs[0].ndim == 0:
            want[1] = refs[0]
        else:
            want[..., 1::2] = refs[0]
        assert_close(call.base, want, dtype)
    for key, (t, values) in call.inputs.items():
        if not (writes and key == "self"):
            name = key if isinstance(key, str) else f"{key[0]}[{key[1]}]"
            assert np.array_equal(to_numpy(t), values, equal_nan=values.dtype.kind == "f"), \
                f"the op wrote its input '{name}'"


def _is_view_op(case, call, shape):
    """Whether the op's result is a view of self of another shape: then its in-place form (x.t_()) gives self that
    geometry, writing nothing, where another in-place op must keep self's shape."""
    if shape == tuple(call.given["self"].shape):
        return False
    result = _invoke(case, call, "function" if case.function else "method")
    return isinstance(result, wick.Tensor) and root(result) is root(call.given["self"])


def _parts(result, returns, count):
    """The tensors of a result: itself, the fields of a named tuple, or the elements of a tuple."""
    if returns == "Tensor":
        return [result]
    if returns == "Tensor[]":
        assert isinstance(result, tuple), f"a Tensor[] is returned as a tuple, not {type(result).__name__}"
        assert len(result) == count, f"{len(result)} tensors, not {count}"
        return list(result)
    assert getattr(result, "_fields", None) == returns, f"{result!r} is not a named tuple of {returns}"
    return list(result)


def _check_indices(call, got, want):
    """Indices along `dim` of `self` pick what the reference's pick (Note [Tied indices])."""
    got = to_numpy(got)
    if np.array_equal(got, want):
        return
    values, dim = call.inputs["self"][1], call.reference["dim"]
    line = values.reshape(1) if values.ndim == 0 else values
    d = dim % line.ndim
    if got.ndim < line.ndim:  # keepdim=False
        got, want = np.expand_dims(got, d), np.expand_dims(want, d)
    in_range = got.size == 0 or (got.min() >= 0 and got.max() < line.shape[d])
    assert in_range and np.array_equal(np.take_along_axis(line, got, d), np.take_along_axis(line, want, d),
                                       equal_nan=line.dtype.kind == "f"), \
        f"indices: {got.tolist()} pick other elements than {want.tolist()}"
