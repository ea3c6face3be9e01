"""The checks behind generated/tests/test_generated_ops.py: one op against its NumPy reference.

Each `Case` is a table row the generator writes from a declaration: its signatures,
each parameter with its role (codegen/samples.py), the calls to make (samples), the
dtypes it takes, its forms, and its reference. `check` runs one case, for one dtype,
in one layout, over every sample; `params` says which layouts apply to a case.

Note [Sample roles]
~~~~~~~~~~~~~~~~~~~
A layout rewrites a sample before it is called, and the roles of the parameters say
how: `tensor`, `index` and `mask` parameters are shapes, built here (random values of
the dtype under test, valid int64 indices into `self`, random bools); `dim` and `size`
parameters move with the shapes. In the zero_dim layout every tensor is 0-d, dims
become 0 (or -1) and sizes []; in `one` every size is 1; in `empty` the first size of
the first tensor becomes 0 wherever it appears. NumPy judges the rewritten call: where
the reference refuses it, wick must raise too (a user error, never a crash), and where
it does not, wick must give its answer. The other layouts only lay the same values out
differently: transposed or sliced with a step, expanded with a stride of 0, as a view
written in place, or into out=.
"""
import re
import warnings
import zlib
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Tuple

import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, NUMPY_DTYPE, assert_close, make, random_values, reference_dtype, to_numpy, wdtype

REQUIRED = object()
TENSOR_ROLES = ("tensor", "index", "mask")
# Layouts that change shapes, where NumPy may refuse the call (then wick must raise).
RESHAPING = ("zero_dim", "empty", "one")
# The shapes of up to five pointwise operands that broadcast together to (3, 4).
BROADCAST_SHAPES = [(3, 1), (4,), (1, 4), (4,), (3, 1)]


@dataclass(frozen=True)
class P:
    """A parameter: its name, role (codegen/samples.py), default, and whether it is keyword-only."""
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
    tensors, shaped = bool(roles & set(TENSOR_ROLES)), bool(roles & {"tensor", "index", "mask", "size"})
    data = any(p.role == "tensor" and not (case.mutates and p.name == "self") for sig in case.signatures for p in sig)
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
    shaped = [p for p in sig if p.name in args and args[p.name] is not None and p.role in TENSOR_ROLES + ("size",)]
    if layout == "broadcast":
        operands = [p for p in shaped if p.role == "tensor"]
        args.update({p.name: shape for p, shape in zip(operands, BROADCAST_SHAPES)})
    elif layout == "zero_dim":
        args.update({p.name: () for p in shaped})
        for p in sig:  # a 0-d tensor has the dims 0 and -1; a list keeps its first
            d = args.get(p.name)
            if p.role == "dim" and d is not None:
                args[p.name] = tuple(_zero_dim(i) for i in d[:1]) if isinstance(d, tuple) else _zero_dim(d)
    elif layout == "one":
        args.update({p.name: tuple(1 for _ in args[p.name]) for p in shaped})
    elif layout == "empty":
        size = next((s for p in shaped for s in args[p.name] if s > 0), 0)
        args.update({p.name: tuple(0 if s == size else s for s in args[p.name]) for p in shaped})
    return args


def _tensor_kinds(case, sig, args, layout):
    """How each tensor argument is laid out: contiguous, transposed, stepped, expanded or view."""
    tensors = [p for p in sig if p.role in TENSOR_ROLES and args.get(p.name) is not None]
    kinds = {p.name: "contiguous" for p in tensors}
    if layout == "noncontiguous":  # transposed and sliced with a step, alternately
        for i, p in enumerate(tensors):
            kinds[p.name] = "transposed" if i % 2 == 0 and len(args[p.name]) >= 2 else "stepped"
    elif layout == "expanded":
        p = next((p for p in tensors if p.role == "tensor" and not (case.mutates and p.name == "self")
                  and any(s > 1 for s in args[p.name])), None)
        if p is not None:
            kinds[p.name] = "expanded"
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
    inputs: Dict[str, Tuple[object, np.ndarray]] = field(default_factory=dict)  # tensor name -> (tensor, values)
    base: Optional[object] = None  # the base of an in-place view
    result_half: Optional[str] = None  # the half dtype a float32 reference result stands for


def _constants(case, dtype):
    """Non-default pointwise constants where the dtype allows, so that they are known to reach the kernel."""
    return {name: default if dtype == "bool" or isinstance(default, bool) else default + 1
            for name, default in case.pointwise.constants.items()}


def realize(case, sample, dtype, layout, rng):
    sig = case.signatures[sample.signature]
    args = _reshape_sample(sig, sample.args, layout)
    if case.pointwise:
        args.update(_constants(case, dtype))
    if not any(p.role in TENSOR_ROLES for p in sig):  # a factory: the dtype under test is its dtype=
        args.update({p.name: dtype for p in sig if p.role == "dtype" and p.name not in args})
    kinds = _tensor_kinds(case, sig, args, layout)
    call = Call(sig, {}, {})
    dtype_args = [args[p.name] for p in sig if p.role == "dtype" and args.get(p.name) is not None]
    call.result_half = dtype_args[0] if dtype_args else dtype
    dim = next((args[p.name] for p in sig if p.name == "dim" and isinstance(args.get(p.name), int)), None)
    for p in sig:
        if p.name not in args:
            call.reference[p.name] = p.default
            continue
        value = args[p.name]
        if value is None or p.role not in TENSOR_ROLES:
            call.given[p.name] = wdtype(value) if p.role == "dtype" and value is not None else value
            call.reference[p.name] = NUMPY_DTYPE[value] if p.role == "dtype" and value is not None else value
            continue
        if p.role == "index":
            values, tensor_dtype = _index_values(value, call.inputs["self"][1].shape, dim, rng), "int64"
        elif p.role == "mask":
            values, tensor_dtype = rng.integers(0, 2, size=value).astype(bool), "bool"
        else:
            values, tensor_dtype = random_values(dtype, value, rng, case.domain), dtype
        t, base = _lay_out(np.asarray(values), tensor_dtype, kinds[p.name])
        assert tuple(t.shape) == tuple(value)
        exact = to_numpy(t)
        call.given[p.name], call.inputs[p.name] = t, (t, exact)
        call.reference[p.name] = exact.astype(reference_dtype(compute_dtype(case, dtype))) \
            if p.role == "tensor" else exact
        if base is not None:
            call.base = base
    if layout == "scalar_operand":  # the last operand as a Python number, which keeps the tensor's dtype
        last = [p for p in sig if p.role == "tensor"][-1].name
        number = 2 if dtype not in FLOATS else 1.5
        call.given[last] = number
        call.reference[last] = np.full(call.reference[last].shape, number).astype(call.reference[last].dtype)
        del call.inputs[last]
    return call


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


def _reference(case, call):
    """NumPy's answer, from the exact values the wick inputs hold."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asanyarray(case.reference(**call.reference))


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
        with pytest.raises(TypeError, match=re.escape(case.name.rstrip("_"))):
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
    try:
        ref = _reference(case, call)
    except (ValueError, IndexError, TypeError, RuntimeError):
        if layout not in RESHAPING:
            raise  # the sample itself is wrong
        _refused(case, call, layout)
        return
    expected = _expected_dtype(case, dtype, ref, call)
    ref = np.asarray(ref)
    writes = case.mutates or layout in ("inplace", "inplace_view")
    if writes and case.inplace and (expected != dtype or ref.shape != tuple(call.given["self"].shape)):
        with pytest.raises(RuntimeError, match="can't be cast" if expected != dtype else ""):
            _invoke(case, call, layout)
        return
    base_before = to_numpy(call.base) if call.base is not None else None

    out = wick.empty(0, dtype=wdtype(expected)) if layout == "out" else None
    result = _invoke(case, call, layout, out)
    if out is not None:
        assert result is out
    if writes:
        assert result is call.given["self"]

    assert result.dtype is wdtype(expected), f"{result.dtype} != {expected}"
    assert tuple(result.shape) == ref.shape, f"shape {tuple(result.shape)} != {ref.shape}"
    assert_close(result, ref, expected)
    if base_before is not None:  # the rest of the base is untouched
        want = base_before.copy()
        if want.ndim == 1 and ref.ndim == 0:
            want[1] = ref
        else:
            want[..., 1::2] = ref
        assert_close(call.base, want, dtype)
    for name, (t, values) in call.inputs.items():
        if not (writes and name == "self"):
            assert np.array_equal(to_numpy(t), values, equal_nan=values.dtype.kind == "f"), \
                f"the op wrote its input '{name}'"
