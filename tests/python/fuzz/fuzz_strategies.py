"""tests/python/fuzz/fuzz_strategies.py: Hypothesis strategies for the fuzz suites, drawn from the declarations.

What an op takes comes from the generator itself (`bindings()`, `op_cases()`): the
declarations are parsed with codegen's own loader and model, and nothing here lists ops
by hand. The adapter is the functions under "declarations"; the rest sees only the
small records and the test table they return, so a redesign of the model changes those alone.

The strategies draw recipes (fuzz_recipes.py), which a forked child builds and calls.
"""
import functools
import itertools
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Tuple

from hypothesis import strategies as st

import declared
from fuzz_recipes import DTYPES, HOSTILE


def examples(ci_count):
    """How many examples a test draws: `ci_count` (CI), or WICK_FUZZ_EXAMPLES to run longer locally."""
    return int(os.environ.get("WICK_FUZZ_EXAMPLES") or ci_count)


# --- declarations (the only code that knows codegen's model) ---------------------------------------------

@dataclass(frozen=True)
class Param:
    name: str
    base: str  # Tensor, Scalar, int, float, bool, ScalarType, Device, str, object
    is_list: bool
    optional: bool
    elem_optional: bool  # Tensor?[]
    has_default: bool
    kw_only: bool
    role: str = "value"  # what the generated tests take it for (codegen/testplan.py): dim, size, tensor...


@dataclass(frozen=True)
class Binding:
    name: str
    method: bool  # a Tensor method (self is not among the params), else a wick function
    overloads: Tuple[Tuple[Param, ...], ...]
    group: str = ""  # the declaration file it comes from: "shape" for declarations/shape.yaml


@functools.lru_cache(maxsize=None)
def bindings():
    """Every generated Tensor method and wick function, with its overloads as Python sees them."""
    decls = declared.declarations()
    from codegen import schema, testplan
    from codegen.api import python as api
    methods, functions = api.bindings(decls)
    return tuple(Binding(b.name, b.method, tuple(
        tuple(Param(p.name, schema.base_of(p.type).value, schema.is_list(p.type), schema.is_optional(p.type),
                    str(p.type) == "Tensor?[]", p.default is not None, p.kwarg_only, testplan.role(p).value)
              for p in o.params) for o in b.overloads),
        Path(b.decl.loc.file).stem) for b in methods + functions)


def reference_cases():
    """{name: opcheck.Case} for every op with a NumPy reference (tests/python/declared.py)."""
    return {c.name: c for c in declared.cases()}


@functools.lru_cache(maxsize=None)
def op_cases():
    """{name: (opcheck.Case, kind)} for the ops with a NumPy reference that are pointwise or reductions."""
    decls = declared.declarations()
    from codegen.model import Pointwise
    kinds = {d.name: "pointwise" if isinstance(d.impl, Pointwise) else "reduction" for d in decls
             if isinstance(d.impl, Pointwise) or Path(d.loc.file).name == "reductions.yaml"}
    return {name: (case, kinds[name]) for name, case in reference_cases().items() if name in kinds}


# --- values ------------------------------------------------------------------------------------------

def lit(value):
    return ("lit", value)


# Ints at the edges of every width the bindings convert to, and around 2**63 where sizes overflow.
EDGE_INTS = (2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 32, 2 ** 53 + 1, 2 ** 62, 2 ** 62 + 1, 2 ** 63 - 1, 2 ** 63,
             -2 ** 63, -2 ** 63 + 1, -2 ** 63 - 1, 2 ** 64, -2 ** 64, 10 ** 30, -(2 ** 62))
EDGE_FLOATS = (0.0, -0.0, 0.5, -2.5, 3.0, math.nan, math.inf, -math.inf, 1e308, 5e-324, 2.0 ** 63, -2.0 ** 63,
               2.0 ** 64, 1e30, 255.5, -1.0)
STRINGS = ("", "cpu", "cuda", "cuda:0", "cuda:-1", "cuda:99999999999999999999", "meta", "floor", "trunc", "float32",
           "a\x00b", "\udcff", "🙂" * 3)
NP_INT_TYPES = ("int8", "uint8", "int16", "int32", "int64", "uint64", "intc")
NP_FLOAT_TYPES = ("float16", "float32", "float64", "longdouble")
HOSTILE_INDEX = ("IndexClears", "IndexGrows", "IndexRaises", "IndexHuge", "IndexNotInt")
HOSTILE_FLOAT = ("FloatClears", "FloatGrows", "FloatRaises")
HOSTILE_SEQUENCE = ("LenGrows", "LenClears", "LenLies", "LenRaises", "LenHuge", "GetitemGrows")
HOSTILE_ARRAY = ("ArrayInterface", "ArrayInterfaceRaises", "ArrayMethod", "ArrayMethodLies")
assert set(HOSTILE) == {*HOSTILE_INDEX, *HOSTILE_FLOAT, *HOSTILE_SEQUENCE, *HOSTILE_ARRAY}

small_ints = st.integers(-3, 6).map(lit)
edge_ints = st.sampled_from(EDGE_INTS).map(lit)
ints = st.one_of(small_ints, edge_ints)
floats = st.sampled_from(EDGE_FLOATS).map(lit)
bools = st.booleans().map(lit)
none = st.just(lit(None))
strings = st.sampled_from(STRINGS).map(lit)
dtypes = st.sampled_from(DTYPES).map(lambda d: ("dtype", d))
devices = st.sampled_from(("cpu", "cuda", "cuda:1", "cpu:0")).map(lambda d: ("device", d))
generators = st.integers(0, 2**64 - 1).map(lambda seed: ("generator", seed))
memory_formats = st.sampled_from(("contiguous_format", "preserve_format", "channels_last", "channels_last_3d")).map(
    lambda name: ("memory_format", name))
np_ints = st.tuples(st.just("np_scalar"), st.sampled_from(NP_INT_TYPES), st.integers(0, 5))
np_floats = st.tuples(st.just("np_scalar"), st.sampled_from(NP_FLOAT_TYPES),
                      st.sampled_from((0.0, 2.0, -1.5, math.nan)))
np_others = st.sampled_from([("np_scalar", "bool_", True), ("np_scalar", "clongdouble", 1 + 2j),
                             ("np_scalar", "complex128", 1j), ("np_scalar", "uint64", 2 ** 64 - 1),
                             ("np_scalar", "datetime64", "2020-01-01"), ("np_scalar", "str_", "a")])
np_zero_d = st.tuples(st.just("np_array"), st.sampled_from(NP_INT_TYPES + NP_FLOAT_TYPES + ("bool_", "clongdouble")),
                      st.just(()), st.just("c"))
np_arrays = st.tuples(st.just("np_array"),
                      st.sampled_from(("int64", "int32", "bool_", "float32", "longdouble", "uint64")),
                      st.lists(st.integers(0, 3), max_size=3).map(tuple), st.sampled_from(("c", "reversed", "0d_view")))
np_objects = st.sampled_from(("self", "self_0d", "none_0d", "ints", "long_0d", "clong_0d")).map(
    lambda k: ("np_object", k))
numpy_values = st.one_of(np_ints, np_floats, np_others, np_zero_d, np_arrays, np_objects)
hostile_index = st.sampled_from(HOSTILE_INDEX).map(lambda k: ("hostile", k))
hostile_float = st.sampled_from(HOSTILE_FLOAT).map(lambda k: ("hostile", k))
hostile_any = st.sampled_from(sorted(HOSTILE)).map(lambda k: ("hostile", k))
subclassed = st.one_of(st.integers(-1, 3).map(lambda v: ("int_subclass", v)),
                       st.sampled_from((1.5, math.nan)).map(lambda v: ("float_subclass", v)))

shapes = st.lists(st.integers(0, 4), max_size=3).map(tuple)
tensors = st.tuples(st.just("tensor"), st.sampled_from(DTYPES), shapes, st.sampled_from(("c", "t", "s", "e", "sub")))
tensors_0d = st.tuples(st.just("tensor"), st.sampled_from(DTYPES), st.just(()), st.sampled_from(("c", "sub")))
specials = st.tuples(st.just("special"), st.sampled_from(("float32", "float64", "float16", "bfloat16")), shapes)
any_tensor = st.one_of(tensors, tensors_0d, specials)
odd_containers = st.one_of(st.integers(1, 3).map(lambda _: ("self_list",)),
                           st.sampled_from((65, 3000)).map(lambda d: ("deep", d)))

scalars = st.one_of(ints, floats, bools, tensors_0d, np_ints, np_floats, np_zero_d, hostile_index, hostile_float,
                    subclassed)
leaves = st.one_of(ints, floats, bools, none, strings, dtypes, tensors, tensors_0d, numpy_values, hostile_any,
                   subclassed, st.just(lit(Ellipsis)), st.just(lit(slice(None, None, 2))))


def containers(items, max_size=5):
    return st.tuples(st.sampled_from(("list", "tuple", "list", "growing_list")), st.lists(items, max_size=max_size))


# int[]: the lists whose elements can run Python code while the list is read.
int_items = st.one_of(small_ints, edge_ints, hostile_index, np_ints, tensors_0d, bools, subclassed, hostile_any)
int_lists = st.one_of(containers(st.one_of(small_ints, hostile_index)), containers(int_items), ints, hostile_index)
tensor_lists = containers(st.one_of(tensors, tensors, tensors_0d, none, hostile_any, ints), max_size=4)
# Anything at all, nested: the data of wick.tensor(), and the value of an `object` parameter.
anything = st.recursive(st.one_of(leaves, odd_containers), lambda inner: containers(inner), max_leaves=8)

BY_TYPE = {
    "Tensor": any_tensor,
    "Scalar": scalars,
    "int": st.one_of(ints, bools, np_ints, np_zero_d, tensors_0d, hostile_index, subclassed),
    "float": st.one_of(floats, ints, np_floats, np_zero_d, hostile_float, subclassed),
    "bool": st.one_of(bools, st.just(("np_scalar", "bool_", False)), st.sampled_from((0, 1)).map(lit)),
    "ScalarType": st.one_of(dtypes, strings),
    "Device": st.one_of(devices, strings, ints),
    "Generator": st.one_of(generators, ints, strings, hostile_any),
    "MemoryFormat": st.one_of(memory_formats, dtypes, strings, hostile_any),
    "str": strings,
    "object": anything,
}


def right_value(p: Param):
    """A value of the parameter's type, or close to it (edges, NumPy values, hostile ones)."""
    if p.base == "Tensor" and p.is_list:
        strategy = tensor_lists
    elif p.base == "int" and p.is_list:
        strategy = int_lists
    else:
        strategy = BY_TYPE[p.base]
    return st.one_of(strategy, none) if p.optional else strategy


MUTATIONS = ("none",) * 6 + ("drop", "extra", "unknown_kw", "duplicate_kw", "kw_only_positionally")


@st.composite
def call_recipes(draw, b: Binding, selves=st.one_of(any_tensor, tensors)):
    """A call of one binding: an overload's parameters, each given a value of its type (mostly) or
    any value, positionally or by name, and then perhaps broken: an argument dropped or added, an
    unknown or repeated keyword, a keyword-only one given by position."""
    params = draw(st.sampled_from(b.overloads)) if b.overloads else None
    args, kwargs = [], []
    if params is None:  # no declaration: any few values
        args = draw(st.lists(st.one_of(leaves, anything), max_size=3))
    else:
        by_name = False
        for p in params:
            if p.has_default and draw(st.booleans()):
                continue
            value = draw(right_value(p) if draw(st.integers(0, 4)) else anything)
            by_name = by_name or p.kw_only or (p.has_default and draw(st.booleans()))
            (kwargs.append((p.name, value)) if by_name else args.append(value))
        mutation = draw(st.sampled_from(MUTATIONS))
        if mutation == "drop" and (args or kwargs):
            (args.pop(draw(st.integers(0, len(args) - 1))) if args else kwargs.pop())
        elif mutation == "extra":
            args.append(draw(leaves))
        elif mutation == "unknown_kw":
            kwargs.append((draw(st.sampled_from(("bogus", "dim ", "Dim", "self", "input"))), draw(leaves)))
        elif mutation == "duplicate_kw" and params and args:
            kwargs.append((params[draw(st.integers(0, min(len(args), len(params)) - 1))].name, draw(leaves)))
        elif mutation == "kw_only_positionally":
            args.extend(v for _, v in kwargs)
            kwargs = []
    spec = ("method", b.name, draw(selves)) if b.method else ("function", b.name)
    return spec, tuple(args), tuple(kwargs)


# --- hostile containers: one element at least runs Python code that changes what is being read ---------

@st.composite
def _with_hostile(draw, items, hostile, kinds=("list", "list", "tuple", "growing_list"), max_size=4):
    values = draw(st.lists(items, max_size=max_size))
    values.insert(draw(st.integers(0, len(values))), draw(hostile))
    return draw(st.sampled_from(kinds)), tuple(values)


# Elements whose __index__ or __len__ (which a check for a number may ask) change the list.
_changes_its_list = st.sampled_from(("IndexClears", "IndexGrows", "LenClears")).map(lambda k: ("hostile", k))
hostile_int_lists = _with_hostile(st.one_of(small_ints, subclassed, hostile_index),
                                  st.one_of(hostile_index, _changes_its_list))
hostile_tensor_lists = _with_hostile(st.one_of(tensors, tensors_0d), st.one_of(hostile_any, tensors),
                                     kinds=("growing_list", "list"))
# Data for wick.tensor() and the like: numbers, or rows of them of one length, among which an
# element or a whole row grows, shrinks or lies about its length.
_data_items = st.one_of(small_ints, floats, bools, tensors_0d)


@st.composite
def _hostile_data(draw):
    hostile = draw(st.one_of(hostile_index, hostile_float, hostile_any, st.just(("growing_list", (lit(1), lit(2))))))
    if draw(st.booleans()):
        items = draw(st.lists(_data_items, max_size=3))
        items.insert(draw(st.integers(0, len(items))), hostile)
        return "list", tuple(items)
    cols = draw(st.integers(1, 3))
    rows = draw(st.lists(st.lists(_data_items, min_size=cols, max_size=cols), min_size=1, max_size=3))
    r = draw(st.integers(0, len(rows) - 1))
    if draw(st.booleans()):
        rows[r][draw(st.integers(0, cols - 1))] = hostile
    else:
        rows[r] = hostile
    return "list", tuple(("list", tuple(row)) if isinstance(row, list) else row for row in rows)


hostile_data = _hostile_data()
HOSTILE_BY_TYPE = {"int[]": hostile_int_lists, "Tensor[]": hostile_tensor_lists, "object": hostile_data}


def hostile_slot(p: Param) -> Optional[str]:
    """Which hostile container a parameter reads, if any: `int[]`, `Tensor[]` or `object`."""
    if p.is_list:
        return f"{p.base}[]"
    return "object" if p.base == "object" else None


@st.composite
def hostile_call_recipes(draw, b: Binding, overload: int, name: str, selves=tensors):
    """A call of one overload whose parameter `name` gets a hostile container, and the parameters
    before it values of their types."""
    args, kwargs = [], []
    for p in b.overloads[overload]:
        if p.name == name:
            value = draw(HOSTILE_BY_TYPE[hostile_slot(p)])
        elif not p.has_default:
            value = draw(right_value(p))
        else:
            continue
        (kwargs.append((p.name, value)) if p.kw_only or kwargs or p.has_default else args.append(value))
    spec = ("method", b.name, draw(selves)) if b.method else ("function", b.name)
    return spec, tuple(args), tuple(kwargs)


# --- views: a tensor of a given shape laid out every way a view can be (fuzz_views.build_view) ------------

view_shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)
seeds = st.integers(0, 2 ** 32 - 1)


@st.composite
def view_recipes(draw, shape, dtype, expand=True, depth=3):
    """A view of `shape`: planned from the view back to its base, each op undone in turn.
    `expand=False` for a tensor that is written, which must not have two elements in one place."""
    ops, cur = [], tuple(shape)
    for _ in range(draw(st.integers(0, depth))):
        kind = draw(st.sampled_from(("permute", "slice", "slice", "expand", "select", "unsqueeze")))
        n = len(cur)
        if kind == "permute" and n >= 2:
            perm = tuple(draw(st.permutations(range(n))))
            inner = [0] * n
            for i, p in enumerate(perm):
                inner[p] = cur[i]
            ops.append(("permute", perm))
            cur = tuple(inner)
        elif kind == "slice" and n >= 1:
            d, step, start = draw(st.integers(0, n - 1)), draw(st.integers(1, 3)), draw(st.integers(0, 2))
            stop = start + (cur[d] - 1) * step + 1 if cur[d] else start
            ops.append(("slice", d, start, stop, step))
            cur = cur[:d] + (stop + draw(st.integers(0, 2)),) + cur[d + 1:]
        elif kind == "expand" and expand and n >= 1:
            d = draw(st.integers(0, n - 1))
            ops.append(("expand", cur))
            cur = cur[d + 1:] if draw(st.booleans()) else cur[:d] + (1,) + cur[d + 1:]  # new leading dims, or a 1
        elif kind == "select":
            d, size = draw(st.integers(0, n)), draw(st.integers(1, 3))
            ops.append(("select", d, draw(st.integers(0, size - 1))))
            cur = cur[:d] + (size,) + cur[d:]
        elif kind == "unsqueeze" and 1 in cur:
            d = draw(st.sampled_from([i for i, s in enumerate(cur) if s == 1]))
            ops.append(("unsqueeze", d))
            cur = cur[:d] + cur[d + 1:]
    return "view", dtype, cur, draw(seeds), tuple(reversed(ops))


# --- indices (fuzz_indexing_checks.build_index) ---------------------------------------------------------------------

BOUNDS = (2 ** 62, 2 ** 63 - 1, 2 ** 63, -2 ** 63, -2 ** 63 - 1, 2 ** 64, -(2 ** 64), 10 ** 20)
slice_bounds = st.one_of(st.none(), st.integers(-6, 6), st.sampled_from(BOUNDS))
# Steps: small, huge (where a product with the size overflows), and the zero and negative ones PyTorch refuses.
slice_steps = st.one_of(st.none(), st.integers(1, 3), st.sampled_from((2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 64)),
                        st.sampled_from((0, -1, -2, -2 ** 63)))
# NumPy values as indices: integers are ints; floats, long doubles and object arrays are refused.
NUMPY_INDICES = (("np", "int64", 1, False), ("np", "int32", -1, False), ("np", "int64", 1, True),
                 ("np", "longdouble", 2, False), ("np", "longdouble", 2, True), ("np", "clongdouble", 1, False),
                 ("np", "clongdouble", 1, True), ("np", "float64", 1.0, False), ("np", "object", None, True),
                 ("np", "object", 1, True), ("np", "int64", [0, 1], True), ("np", "bool_", [True, False], True),
                 ("np", "longdouble", [0, 1], True))


def _in_or_out(size, far=True):
    """An index into a dim of `size`: mostly valid, sometimes just out of range, sometimes far."""
    near = st.one_of(st.integers(-size, size - 1) if size else st.integers(-1, 0), st.integers(-size - 2, size + 1))
    return st.one_of(near, st.sampled_from((2 ** 62, -2 ** 63, 2 ** 63 - 1))) if far else near


@st.composite
def index_recipes(draw, shape, numpy=False):
    """An index for a tensor of `shape`: one item or a tuple of items (ints, slices, None, ...,
    bools, masks, integer tensors and lists; with `numpy`, NumPy values too, a third of the items),
    shaped to fit most of the time."""
    items, d = [], 0
    kinds = ("int", "int", "slice", "slice", "slice", "none", "ellipsis", "bool", "mask", "tensor", "list")
    for _ in range(draw(st.integers(0, 4))):
        size = shape[d] if d < len(shape) else 2
        kind = draw(st.sampled_from(kinds + ("numpy",) * (len(kinds) // 2 if numpy else 0)))
        if kind == "int":
            items.append(lit(draw(_in_or_out(size))))
            d += 1
        elif kind == "slice":
            items.append(lit(slice(draw(slice_bounds), draw(slice_bounds), draw(slice_steps))))
            d += 1
        elif kind in ("none", "ellipsis", "bool"):
            items.append(lit({"none": None, "ellipsis": Ellipsis, "bool": draw(st.booleans())}[kind]))
        elif kind == "mask":
            k = draw(st.integers(0, 2))
            mask_shape = tuple(shape[d:d + k]) if draw(st.integers(0, 5)) else draw(st.lists(st.integers(0, 3),
                                                                                             max_size=2))
            n = math.prod(mask_shape)
            values = draw(st.lists(st.booleans(), min_size=n, max_size=n))
            items.append(("mask", _nest(values, mask_shape)))
            d += len(mask_shape)
        elif kind in ("tensor", "list"):
            index_shape = draw(st.lists(st.integers(0, 3), max_size=2))
            n = math.prod(index_shape)
            values = _nest(draw(st.lists(_in_or_out(size, far=False), min_size=n,
                                         max_size=n)), index_shape)
            dtype = draw(st.sampled_from(("int64", "int32")))
            items.append(("int_tensor", dtype, values) if kind == "tensor" else ("list", values))
            d += 1
        else:
            items.append(draw(st.sampled_from(NUMPY_INDICES)))
            d += 1
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return "tuple", tuple(items)


def _nest(flat, shape):
    """A flat list as nested lists of `shape`."""
    if not shape:
        return flat[0]
    step = math.prod(shape[1:])
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def indexed_shape(shape, index_recipe):
    """The shape NumPy gives array[index] for an array of `shape`, or None where it refuses the index."""
    import warnings

    import numpy as np
    from fuzz_indexing_checks import build_index
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return np.empty(shape, dtype=np.int8)[build_index(index_recipe)[1]].shape
    except (IndexError, ValueError, OverflowError, TypeError):
        return None


# Values every dtype holds exactly (bfloat16 included), none negative where uint8 is assigned to.
_assigned_numbers = st.sampled_from((0, 1, 3, 5, 1.5, 2.25, True, False))


@st.composite
def value_recipes(draw, target, dtype):
    """A value to assign to x[index] of shape `target`: a number, or a tensor or list whose shape
    broadcasts to it (leading dims of size 1 included, as PyTorch strips them)."""
    kind = draw(st.sampled_from(("number", "tensor", "tensor", "list")))
    if kind == "number" or target is None:
        return lit(draw(_assigned_numbers))
    shape = list(target[draw(st.integers(0, len(target))):])
    shape = [1 if draw(st.integers(0, 3)) == 0 else s for s in shape]
    shape = (1,) * draw(st.integers(0, 2)) + tuple(shape)
    if kind == "list" and shape:
        n = math.prod(shape)
        return "list", _nest(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), shape)
    domain = "positive" if dtype == "uint8" else "any"
    return "tensor", draw(view_recipes(shape, draw(st.sampled_from(DTYPES)))), domain


@st.composite
def overlapping_assignments(draw):
    """x[a:a+n] = x[b:b+n]: the value a view of the tensor it is written to."""
    shape = (draw(st.integers(2, 5)),) + draw(st.lists(st.integers(1, 3), max_size=2).map(tuple))
    x = draw(view_recipes(shape, draw(st.sampled_from(DTYPES)), expand=False))
    n = draw(st.integers(1, shape[0] - 1))
    a, b = draw(st.integers(0, shape[0] - n)), draw(st.integers(0, shape[0] - n))
    return x, ("tuple", (lit(slice(a, a + n)),)), ("self", slice(b, b + n))


# --- calls of ops with a NumPy reference (fuzz_op_checks.check_op) ----------------------------------------------

def _sampled(case, name):
    """The values the declaration's samples give parameter `name`."""
    return [dict(s.args)[name] for s in case.samples if name in s.args]


def _broadcasting(draw, shape):
    """A shape that broadcasts to `shape`: leading dims dropped, some others 1."""
    kept = shape[draw(st.integers(0, len(shape))):]
    return tuple(1 if draw(st.integers(0, 3)) == 0 else s for s in kept)


@st.composite
def op_recipes(draw, name):
    """A call of op `name` (op_cases()): a dtype it takes, a form (function, method, in place, out=),
    and its tensors as views of random shapes; a pointwise op's operands broadcast together, or
    overlap as windows of one base; a reduction gets dims in and out of range and the values its
    samples give its other parameters."""
    import opcheck
    case, kind = op_cases()[name]
    dtype = draw(st.sampled_from([d for d in DTYPES if opcheck.compute_dtype(case, d) in case.dtypes]))
    forms = (["function"] * case.function + ["method"] * case.method + ["inplace"] * (case.inplace or case.mutates)
             + ["out"] * case.out)
    form = draw(st.sampled_from(forms))
    writes = form == "inplace" or case.mutates
    recipe = dict(name=name, dtype=dtype, form=form, tensors={}, values={}, shared=None, scalar_last=False)
    if kind == "pointwise":
        recipe["sig"] = 0
        sig = case.signatures[0]
        operands = [p.name for p in sig if p.role == "tensor"]
        shape = draw(view_shapes)
        if len(operands) > 1 and shape and shape[0] and draw(st.integers(0, 3)) == 0:
            extra = draw(st.integers(1, 2))
            offsets = {n: draw(st.integers(0, extra)) for n in operands}
            recipe["shared"] = (dtype, (shape[0] + extra,) + shape[1:], draw(seeds), 0, offsets)
        else:
            for n in operands:
                written = writes and n == "self"
                recipe["tensors"][n] = draw(view_recipes(shape if written else _broadcasting(draw, shape), dtype,
                                                         expand=not written))
            recipe["scalar_last"] = case.pointwise.scalar_operand and dtype != "bool" and draw(st.booleans())
        recipe["values"] = opcheck._constants(case, dtype)
        return recipe
    recipe["sig"] = draw(st.integers(0, len(case.signatures) - 1))
    shape = draw(view_shapes)
    for p in case.signatures[recipe["sig"]]:
        if p.role == "tensor":
            recipe["tensors"][p.name] = draw(view_recipes(shape, dtype, expand=not (writes and p.name == "self")))
            continue
        if p.default is not opcheck.REQUIRED and draw(st.booleans()):
            continue  # its default
        given = _sampled(case, p.name)
        if p.role == "dim":
            n = max(len(shape), 1)
            dims = st.integers(-n - 1, n)
            is_list = any(isinstance(v, tuple) for v in given)
            value = tuple(draw(st.lists(dims, max_size=3))) if is_list else draw(dims)
        else:
            choices = given + ([] if p.default is opcheck.REQUIRED else [p.default])
            value = draw(st.sampled_from(choices)) if choices else draw(st.booleans())
        recipe["values"][p.name] = value
    return recipe


# --- calls whose answer PyTorch gives (fuzz_torch_checks.check_against_torch) ------------------------------------

# Values both libraries build alike: no hostile objects, no subclasses; ints at the edges of int64.
plain_tensors = st.tuples(st.just("tensor"), st.sampled_from(DTYPES), shapes, st.sampled_from(("c", "t", "s", "e")))
# Where a sum or product of sizes, starts, lengths and steps passes 2**63.
OVERFLOW_INTS = (2 ** 62, 2 ** 62 + 1, 2 ** 63 - 1, 2 ** 63 - 2, -2 ** 63, -(2 ** 62), 2 ** 32)
edge_heavy_ints = st.one_of(st.integers(-3, 5), st.sampled_from(OVERFLOW_INTS)).map(lit)
PLAIN_BY_TYPE = {
    "Tensor": st.one_of(plain_tensors, st.tuples(st.just("tensor"), st.sampled_from(DTYPES), st.just(()),
                                                 st.just("c"))),
    "Scalar": st.one_of(edge_heavy_ints, floats, bools),
    "int": edge_heavy_ints,
    "float": st.one_of(floats, edge_heavy_ints),
    "bool": bools,
    "ScalarType": dtypes,
    "Device": st.just(lit("cpu")),
    "Generator": none,  # the default generator: PyTorch's draws differ from Wick's whatever the seed
    "MemoryFormat": memory_formats,
    "str": strings,
    "object": st.one_of(edge_heavy_ints, plain_tensors),
}


# Dims: mostly in range of a tensor of up to 3 dims, so that the call gets past its dim checks.
plain_dims = st.one_of(st.integers(-3, 2), st.integers(-3, 2), edge_heavy_ints.map(lambda r: r[1])).map(lit)


def plain_value(p: Param):
    if p.role == "dim" and not p.is_list:
        return st.one_of(plain_dims, none) if p.optional else plain_dims
    if p.base == "Tensor" and p.is_list:
        strategy = st.tuples(st.sampled_from(("list", "tuple")), st.lists(plain_tensors, min_size=1, max_size=3))
    elif p.is_list:
        strategy = st.one_of(st.tuples(st.sampled_from(("list", "tuple")), st.lists(edge_heavy_ints, max_size=4)),
                             edge_heavy_ints)
    else:
        strategy = PLAIN_BY_TYPE[p.base]
    return st.one_of(strategy, none) if p.optional else strategy


@st.composite
def plain_call_recipes(draw, b: Binding):
    """A call of one overload with values of its parameters' types, ints often at the edges of int64,
    positionally where they may be."""
    params = draw(st.sampled_from(b.overloads))
    args, kwargs = [], []
    for p in params:
        if p.has_default and draw(st.booleans()):
            continue
        value = draw(plain_value(p))
        (kwargs.append((p.name, value)) if p.kw_only or kwargs else args.append(value))
    spec = ("method", b.name, draw(PLAIN_BY_TYPE["Tensor"])) if b.method else ("function", b.name)
    return spec, tuple(args), tuple(kwargs)


def edge_int_mutants(case):
    """The declaration's samples of op `case` (an opcheck.Case), each with one int (or one element of
    an int list) replaced by an int at the edge of int64, on its tensors as they are and emptied
    along their first dim: where a sum or product with a size passes 2**63. Call recipes, as
    plain_call_recipes makes them."""
    import opcheck
    for sample in case.samples:
        sig = case.signatures[sample.signature]
        if any(p.role not in ("tensor", "dim", "value", "size", "dtype") for p in sig if p.name in sample.args):
            continue
        tensors = [p.name for p in sig if p.role == "tensor" and p.name in sample.args]
        for empty in (False, True):
            args = dict(sample.args)
            if empty:
                first = tensors[0]
                if not args[first]:
                    continue
                args[first] = (0,) + tuple(args[first][1:])
            slots = [(p.name, None) for p in sig if p.role != "tensor" and type(args.get(p.name)) is int]
            slots += [(p.name, i) for p in sig if p.role != "tensor" and isinstance(args.get(p.name), tuple)
                      for i, v in enumerate(args[p.name]) if type(v) is int]
            for (name, i), edge in itertools.product(slots, (2 ** 62, 2 ** 62 + 1, 2 ** 63 - 1, -2 ** 63)):
                mutated = dict(args)
                mutated[name] = edge if i is None else mutated[name][:i] + (edge,) + mutated[name][i + 1:]
                yield _sample_call(case, sig, mutated, tensors, opcheck.REQUIRED)


def _sample_call(case, sig, args, tensors, required):
    def recipe(name, value):
        if name in tensors:
            return "tensor", "float64", tuple(value), "c"
        if isinstance(value, tuple):
            return "tuple", tuple(lit(v) for v in value)
        return ("dtype", value) if value in DTYPES else lit(value)

    positional = [recipe(p.name, args[p.name]) for p in sig if p.name in args and p.default is required and not p.kw]
    keywords = tuple((p.name, recipe(p.name, args[p.name])) for p in sig
                     if p.name in args and (p.default is not required or p.kw))
    if case.method:
        return ("method", case.name, positional[0]), tuple(positional[1:]), keywords
    return ("function", case.name), tuple(positional), keywords
