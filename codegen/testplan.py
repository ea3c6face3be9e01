"""codegen/testplan.py: what the generated tests check of an op, and the arguments they call it with.

An op with a `numpy:` reference is tested against it (tests/python/opcheck.py):
on the dtypes it lists (the others must raise TypeError), with values from its
domain, and with its samples. A sample names some of the op's parameters with a
value each: a Tensor's shape (`[]` for 0-d), a list of shapes for a Tensor[]
(null for a None element of a Tensor?[]), an int, a list of ints, a number, a
bool, a string, a dtype name or null. The parameters it leaves out that have a
default keep it; the others get a value derived from their role, which the name
and type of a parameter decide:

    tensor   a Tensor of the dtype under test
    tensors  a Tensor[] of the dtype under test
    index    an int64 Tensor of valid indices
    indices  a Tensor?[] of int64 Tensors, the i-th indexing dim i of self (a Tensor[] named indices)
    mask     a bool Tensor (a mask, or the condition of where)
    dim      an int or int[] naming dims of self
    size     an int[] of sizes (size, shape, sizes)
    dtype    a ScalarType
    value    anything else

tests/python/opcheck.py lays the tensors out (contiguous, transposed, 0-d, empty...)
and moves dims and sizes along with the shapes; see Note [Sample roles] there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, cast

from codegen.errors import DeclarationError, Location, did_you_mean, shown
from codegen.schema import (DTYPE_NAMES, BaseTy, DType, Named, Param, Signature, base_of, is_list, is_optional,
                            is_tensor)
from codegen.yaml_loader import Node, NodeList


class Role(Named):
    tensor = "tensor"
    tensors = "tensors"
    index = "index"
    indices = "indices"
    mask = "mask"
    dim = "dim"
    size = "size"
    dtype = "dtype"
    value = "value"


class Domain(Named):
    """The values the generated tests draw (tests/python/reference.py, random_values)."""

    any = "any"
    positive = "positive"
    unit = "unit"
    above_one = "above_one"
    probability = "probability"
    nonzero = "nonzero"
    nonfinite = "nonfinite"  # NaN and infinities among the floats
    spd = "spd"  # symmetric positive-definite and well conditioned, in the last two dims


@dataclass(frozen=True)
class Sample:
    signature: int  # the index of the signature it calls
    args: Tuple[Tuple[str, object], ...]  # (parameter, value) in signature order; lists are tuples
    loc: Location


@dataclass(frozen=True)
class TestPlan:
    reference: str  # `numpy:`: an expression in the parameters, np and math, or a function of numpy_ref
    dtypes: Tuple[DType, ...]  # the dtypes it takes; the others must raise TypeError
    domain: Domain
    samples: Tuple[Sample, ...]  # () for a pointwise op, whose operands take one derived shape

    def reference_function(self, sigs: Sequence[Signature]) -> Optional[str]:
        """The function of tests/python/numpy_ref.py that the reference names, if it is no expression."""
        return reference_function(self.reference, sigs)


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def reference_function(reference: str, sigs: Sequence[Signature]) -> Optional[str]:
    """`numpy:` is an expression in the parameters, np and math, or a name that is not a
    parameter: a function of tests/python/numpy_ref.py, called with the parameters by name."""
    name = reference.strip()
    return name if _IDENT.match(name) and all(s.param(name) is None for s in sigs) else None


MASK_NAMES = frozenset({"mask", "condition"})
DIM_NAMES = frozenset({"dim", "dims", "dim0", "dim1", "dim2", "start_dim", "end_dim", "source", "destination",
                       "dimension"})
SIZE_NAMES = frozenset({"size", "shape", "sizes"})
# The dims derived for an op's first, second and third dim parameters.
DERIVED_DIMS = (0, -1, 1)
DERIVED_SHAPE = (3, 4)
DERIVED_SIZES = (2, 6)
# A Tensor[] is three tensors of one shape; a Tensor?[] of indices, one that indexes dim 0.
DERIVED_LIST = (DERIVED_SHAPE,) * 3
DERIVED_INDICES = ((DERIVED_SHAPE[0],),)
# The generated tests run each sample in every layout and dtype: a tensor they make is small.
MAX_ELEMENTS = 1 << 20
_TOO_MANY = f"a sampled tensor holds at most {MAX_ELEMENTS} elements"


def role(param: Param) -> Role:
    """What a parameter is to the generated tests (see the module docstring)."""
    t, base = param.type, base_of(param.type)
    if base == BaseTy.Tensor and is_list(t):
        return Role.indices if param.name == "indices" else Role.tensors
    if is_tensor(t):
        return Role.index if param.name == "index" else Role.mask if param.name in MASK_NAMES else Role.tensor
    if base == BaseTy.int and param.name in DIM_NAMES:
        return Role.dim
    if base == BaseTy.int and is_list(t) and param.name in SIZE_NAMES:
        return Role.size
    if base == BaseTy.ScalarType:
        return Role.dtype
    return Role.value


def _derived(param: Param, dim_index: int) -> object:
    """A value for a parameter without default that no sample gives; None if there is none."""
    r, t = role(param), param.type
    if r in (Role.tensor, Role.index, Role.mask):
        return DERIVED_SHAPE
    if r == Role.tensors:
        return DERIVED_LIST
    if r == Role.indices:
        return DERIVED_INDICES
    if r == Role.dim:
        d = DERIVED_DIMS[dim_index % len(DERIVED_DIMS)]
        return (d,) if is_list(t) else d
    if r == Role.size:
        return DERIVED_SIZES
    if r == Role.dtype:
        return "float64"
    return {BaseTy.Scalar: 2, BaseTy.int: (2,) if is_list(t) else 1, BaseTy.float: 0.5}.get(base_of(t))


def _fits(param: Param, value: object) -> Optional[str]:
    """Why `value` cannot stand for `param` in a sample, or None if it can."""
    t, base = param.type, base_of(param.type)
    if value is None:
        return None if is_optional(t) else f"'{param.name}' is not optional, so it cannot be null"

    def ints(v: object, low: Optional[int] = None) -> bool:
        return isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool)
                                           and (low is None or i >= low) for i in v)

    if base == BaseTy.Tensor and is_list(t):
        if not isinstance(value, list) or not value or not all(v is None or ints(v, 0) for v in value):
            return "a Tensor[] is sampled by a non-empty list of shapes, one per tensor"
        if any(v is not None and _too_many(v) for v in value):
            return _TOO_MANY
        return None if str(t) == "Tensor?[]" or None not in value else "only a Tensor?[] may hold null"
    if base == BaseTy.Tensor:
        if not ints(value, 0):
            return "a Tensor is sampled by its shape: a list of sizes >= 0 ([] for 0-d)"
        return _TOO_MANY if _too_many(cast(List[int], value)) else None
    if base == BaseTy.int and is_list(t):
        if not ints(value):
            return "give a list of ints"
        return _TOO_MANY if role(param) == Role.size and _too_many(cast(List[int], value)) else None
    if base == BaseTy.int:
        return None if isinstance(value, int) and not isinstance(value, bool) else "give an int"
    if base == BaseTy.float:
        return None if isinstance(value, (int, float)) and not isinstance(value, bool) else "give a number"
    if base == BaseTy.Scalar:
        return None if isinstance(value, (int, float)) else "give a number or a bool"
    if base == BaseTy.bool:
        return None if isinstance(value, bool) else "give true or false"
    if base == BaseTy.ScalarType:
        hint = did_you_mean(str(value), DTYPE_NAMES)
        return None if value in DTYPE_NAMES else "give a dtype name" + (f" ({hint})" if hint else "")
    if base == BaseTy.str:
        return None if isinstance(value, str) else "give a string"
    return f"a '{t}' parameter cannot be sampled"


def _too_many(sizes: List[int]) -> bool:
    """Whether a tensor of `sizes` (-1 counting as 1) holds more than MAX_ELEMENTS elements."""
    if 0 in sizes:
        return False
    count = 1
    for size in sizes:  # one at a time: the product of 100,000 sizes is no number to compute
        count *= abs(size)
        if count > MAX_ELEMENTS:
            return True
    return False


def _complete(sigs: Sequence[Signature], index: int, given: Dict[str, object], loc: Location) -> Optional[Sample]:
    """The sample `given` on signature `index`, its required parameters derived; None if one cannot be."""
    args = []
    dims = 0  # the required dim parameters so far
    for p in sigs[index].params:
        if p.name in given:
            value = given[p.name]
        elif p.default is not None:
            continue
        else:
            value = _derived(p, dims)
            if value is None:
                return None
        if role(p) == Role.dim and p.default is None:
            dims += 1
        args.append((p.name, _frozen(value)))
    return Sample(index, tuple(args), loc)


def _frozen(value: object) -> object:
    """`value` with its lists, and theirs, as tuples."""
    return tuple(_frozen(v) for v in value) if isinstance(value, (list, tuple)) else value


def derive(sigs: Sequence[Signature], index: int, loc: Location) -> Optional[Sample]:
    """The sample of signature `index` that gives only what has no default; None if it cannot be derived."""
    return _complete(sigs, index, {}, loc)


def parse_samples(raw: object, loc: Location, name: str, sigs: Sequence[Signature]) -> Tuple[Sample, ...]:
    """The samples of a declaration: those of its `samples:` key (`raw`, at `loc`), or one derived per
    signature when it has none (`raw` is None)."""
    if raw is None:
        derived = [derive(sigs, i, loc) for i in range(len(sigs))]
        found = tuple(s for s in derived if s is not None)
        if not found:
            raise DeclarationError(loc, "no signature takes parameters the generated tests can derive",
                                   name, "give 'samples:' with a value for each parameter without default")
        return found
    if not isinstance(raw, NodeList) or not raw:
        raise DeclarationError(loc, "'samples' must be a non-empty list of mappings from parameter names to values",
                               name)
    samples: List[Sample] = []
    params = {p.name: p for s in sigs for p in s.params}
    for item, item_loc in zip(raw, raw.item_locs):
        if not isinstance(item, Node):
            raise DeclarationError(item_loc, f"a sample is a mapping from parameter names to values, not {shown(item)}",
                                   name)
        for key in item:
            if key not in params:
                raise DeclarationError(item.key_locs[key], f"sample names {shown(key)}, which no signature has", name,
                                       did_you_mean(key, params))
        fitting = [i for i, s in enumerate(sigs) if all(s.param(k) for k in item)]
        if not fitting:
            raise DeclarationError(item_loc, f"no signature takes all of {', '.join(item)}", name)
        # The first signature whose types take every value; else the first one's complaint.
        problems = []
        for i in fitting:
            by_name = {p.name: p for p in sigs[i].params}
            problems.append([(k, why) for k, v in item.items() if (why := _fits(by_name[k], v))])
        if all(problems):
            key, why = problems[0][0]
            raise DeclarationError(item.value_locs[key], f"bad sample value {shown(item[key])} for '{key}': {why}", name)
        fit = [i for i, p in zip(fitting, problems) if not p]
        sample = next((s for s in (_complete(sigs, i, item, item_loc) for i in fit) if s), None)
        if sample is None:
            raise DeclarationError(item_loc, "the sample leaves out a parameter whose value cannot be derived", name,
                                   "give every parameter of type str, Device or object")
        if any((s.signature, s.args) == (sample.signature, sample.args) for s in samples):
            raise DeclarationError(item_loc, "sample given twice", name)
        samples.append(sample)
    return tuple(samples)
