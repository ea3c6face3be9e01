"""tests/python/fuzz/fuzz_recipes.py: the values the fuzz suites pass, built from picklable recipes.

The strategies (fuzz_strategies.py) draw recipes in the test process; a forked child
(fuzz_child.py) builds the values and makes the call, so that nothing the call does can
take the test run down. A recipe is a tuple whose first item says what it builds:

    ("lit", v)                         v itself: an int, float, bool, None, str, bytes, slice, Ellipsis
    ("dtype", name), ("device", text)  wick.<name>, wick.device(text)
    ("memory_format", name)            wick.<name>: contiguous_format, channels_last ...
    ("generator", seed)                wick.Generator().manual_seed(seed)
    ("np_scalar", type, v)             numpy.<type>(v)
    ("np_array", type, shape, layout)  a small NumPy array: arange(...) cast to <type>; layout c, reversed or 0-d view
    ("np_object", kind)                an object array: self-containing, holding None, holding ints
    ("tensor", dtype, shape, layout)   a wick tensor (layout: c, t, s, e, sub; see tensor())
    ("special", dtype, shape)          a float tensor holding NaN, inf and -inf
    ("list", items), ("tuple", items)  containers of recipes
    ("deep", depth)                    a list nested `depth` deep
    ("self_list",)                     a list that contains itself
    ("hostile", kind)                  an object that runs Python code when read: HOSTILE below

A hostile object that mutates "its list" mutates the innermost list being built around it.
`describe(recipe)` writes a recipe as the Python expression a reproducer would use.
"""
import math

import numpy as np

import wick

DTYPES = ("float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")


class HostileError(Exception):
    """Raised by a hostile object: the call must let it propagate, or raise one of EXPECTED."""


class _Owned:
    def __init__(self, owner):
        self.owner = owner  # the list it sits in, or None

    def __repr__(self):
        return f"{type(self).__name__}(<its list>)"


class IndexClears(_Owned):
    """An int whose __index__ empties the list it sits in."""

    def __index__(self):
        if self.owner is not None:
            self.owner.clear()
        return 1


class IndexGrows(_Owned):
    """An int whose __index__ appends to the list it sits in."""

    def __index__(self):
        if self.owner is not None:
            self.owner.extend([1] * 64)
        return 1


class IndexRaises(_Owned):
    def __index__(self):
        raise HostileError("__index__")


class IndexHuge(_Owned):
    def __index__(self):
        return 2 ** 64


class IndexNotInt(_Owned):
    def __index__(self):
        return 1.5  # CPython refuses it: TypeError


class FloatClears(_Owned):
    """A number whose __float__ empties the list it sits in."""

    def __float__(self):
        if self.owner is not None:
            self.owner.clear()
        return 1.0


class FloatGrows(_Owned):
    def __float__(self):
        if self.owner is not None:
            self.owner.extend([1.0] * 64)
        return 1.0


class FloatRaises(_Owned):
    def __float__(self):
        raise HostileError("__float__")


class LenGrows(_Owned):
    """A sequence that is one longer each time its length is asked."""

    def __init__(self, owner):
        super().__init__(owner)
        self.n = 1

    def __len__(self):
        self.n += 1
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return 1


class LenClears(_Owned):
    """A sequence whose __len__ empties the list it sits in (a number check may ask its length)."""

    def __len__(self):
        if self.owner is not None:
            self.owner.clear()
        return 1

    def __getitem__(self, i):
        if i != 0:
            raise IndexError(i)
        return 1


class LenLies(_Owned):
    """A sequence whose length says 3 and that holds 1."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i != 0:
            raise IndexError(i)
        return 1


class LenRaises(_Owned):
    def __len__(self):
        raise HostileError("__len__")

    def __getitem__(self, i):
        return 1


class LenHuge(_Owned):
    def __len__(self):
        return 2 ** 62

    def __getitem__(self, i):
        return 1


class GetitemGrows(_Owned):
    """A sequence of two whose __getitem__ appends to the list it sits in."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if not 0 <= i < 2:
            raise IndexError(i)
        if self.owner is not None:
            self.owner.append([1, 1])
        return 1


class GrowingList(list):
    """A list whose __getitem__ and __len__ grow it: code that reads it as a list sees other sizes
    than code that reads it as a sequence."""

    def __getitem__(self, i):
        self.append(1)
        return super().__getitem__(i)

    def __len__(self):
        return super().__len__() + 1


class ArrayInterface(_Owned):
    """Not an array, but it says it is one (as NumPy's __array_interface__ protocol lets it)."""

    def __init__(self, owner):
        super().__init__(owner)
        self._array = np.arange(3.0)

    @property
    def __array_interface__(self):
        return self._array.__array_interface__


class ArrayInterfaceRaises(_Owned):
    @property
    def __array_interface__(self):
        raise HostileError("__array_interface__")


class ArrayMethod(_Owned):
    def __array__(self, dtype=None):
        return np.arange(3)


class ArrayMethodLies(_Owned):
    def __array__(self, dtype=None):
        return "not an array"


class IntSubclass(int):
    pass


class FloatSubclass(float):
    pass


HOSTILE = {cls.__name__: cls for cls in (
    IndexClears, IndexGrows, IndexRaises, IndexHuge, IndexNotInt, FloatClears, FloatGrows, FloatRaises, LenGrows,
    LenClears, LenLies, LenRaises, LenHuge, GetitemGrows, ArrayInterface, ArrayInterfaceRaises, ArrayMethod,
    ArrayMethodLies)}


class TensorSubclass(wick.Tensor):
    pass


# --- building ----------------------------------------------------------------------------------------

def tensor(dtype, shape, layout, lib=wick):
    """A tensor of small values: c contiguous, t transposed, s every other element, e expanded
    from size 1 along its first dim, sub an instance of a Tensor subclass. `lib` may be torch,
    whose API builds the same tensor."""
    shape = tuple(shape)
    n = math.prod(shape)
    if layout == "t" and len(shape) >= 2:
        return tensor(dtype, shape[::-1], "c", lib).permute(*reversed(range(len(shape))))
    if layout == "s" and shape:
        return tensor(dtype, shape[:-1] + (2 * shape[-1],), "c", lib)[..., ::2]
    if layout == "e" and shape:
        return tensor(dtype, (1,) + shape[1:], "c", lib).expand(*shape)
    t = (lib.arange(n) % 7 - 2).to(getattr(lib, dtype)).reshape(shape)
    return TensorSubclass(t) if layout == "sub" else t


def special(dtype, shape):
    values = [math.nan, math.inf, -math.inf, -0.0, 1.5][:max(1, math.prod(shape))]
    values = (values * math.prod(shape))[:math.prod(shape)]
    return wick.tensor(values, dtype=getattr(wick, dtype)).reshape(shape)


def np_array(type_name, shape, layout):
    n = math.prod(shape)
    a = (np.arange(n) % 5).astype(type_name).reshape(shape)
    if layout == "reversed" and a.ndim:
        a = a[::-1]
    elif layout == "0d_view":
        a = a.reshape(-1)[:1].reshape(())
    return a


def np_object(kind):
    if kind == "self":
        a = np.empty(2, dtype=object)
        a[0], a[1] = a, 1
        return a
    if kind == "self_0d":
        a = np.empty((), dtype=object)
        a[()] = a
        return a
    if kind == "none_0d":
        return np.array(None, dtype=object)
    if kind == "ints":
        return np.array([1, 2], dtype=object)
    if kind == "long_0d":
        return np.array(2, dtype=np.longdouble)
    if kind == "clong_0d":
        return np.array(1 + 1j, dtype=np.clongdouble)
    raise ValueError(kind)


def deep(depth):
    value = [1]
    for _ in range(depth - 1):
        value = [value]
    return value


def build(recipe, owner=None, lib=wick):
    """The value a recipe describes; hostile objects take `owner`, the list being built around them.
    With `lib` torch, the same value for PyTorch (plain values and tensors only)."""
    tag = recipe[0]
    if tag == "lit":
        return recipe[1]
    if tag in ("dtype", "memory_format"):
        return getattr(lib, recipe[1])
    if tag == "device":
        return wick.device(recipe[1])
    if tag == "generator":
        return lib.Generator().manual_seed(recipe[1])
    if tag == "np_scalar":
        return getattr(np, recipe[1])(recipe[2])
    if tag == "np_array":
        return np_array(*recipe[1:])
    if tag == "np_object":
        return np_object(recipe[1])
    if tag == "tensor":
        return tensor(*recipe[1:], lib=lib)
    if tag == "special":
        return special(*recipe[1:])
    if tag == "list":
        out = []
        out.extend(build(r, out, lib) for r in recipe[1])
        return out
    if tag == "growing_list":
        out = GrowingList()
        out.extend(build(r, out) for r in recipe[1])
        return out
    if tag == "tuple":
        return tuple(build(r, owner, lib) for r in recipe[1])
    if tag == "deep":
        return deep(recipe[1])
    if tag == "self_list":
        out = [1]
        out.append(out)
        return out
    if tag == "hostile":
        return HOSTILE[recipe[1]](owner)
    if tag == "int_subclass":
        return IntSubclass(recipe[1])
    if tag == "float_subclass":
        return FloatSubclass(recipe[1])
    raise ValueError(f"unknown recipe {recipe!r}")


def describe(recipe):
    """A recipe as the expression that builds it (names from this module and NumPy)."""
    tag = recipe[0]
    if tag == "lit":
        v = recipe[1]
        return f"float('{v}')" if isinstance(v, float) and not math.isfinite(v) else repr(v)
    if tag in ("dtype", "memory_format"):
        return f"wick.{recipe[1]}"
    if tag == "device":
        return f"wick.device({recipe[1]!r})"
    if tag == "generator":
        return f"wick.Generator().manual_seed({recipe[1]})"
    if tag == "np_scalar":
        return f"np.{recipe[1]}({recipe[2]!r})"
    if tag == "np_array":
        return f"np_array({recipe[1]!r}, {recipe[2]!r}, {recipe[3]!r})"
    if tag == "np_object":
        return f"np_object({recipe[1]!r})"
    if tag == "tensor":
        return f"tensor({recipe[1]!r}, {recipe[2]!r}, {recipe[3]!r})"
    if tag == "special":
        return f"special({recipe[1]!r}, {recipe[2]!r})"
    if tag in ("list", "growing_list", "tuple"):
        inner = ", ".join(describe(r) for r in recipe[1])
        if tag == "tuple":
            return f"({inner}{',' if len(recipe[1]) == 1 else ''})"
        return f"[{inner}]" if tag == "list" else f"GrowingList([{inner}])"
    if tag == "deep":
        return f"deep({recipe[1]})"
    if tag == "self_list":
        return "<a list that holds itself>"
    if tag == "hostile":
        return f"{recipe[1]}(<its list>)"
    if tag in ("int_subclass", "float_subclass"):
        return f"{'IntSubclass' if tag == 'int_subclass' else 'FloatSubclass'}({recipe[1]!r})"
    return repr(recipe)


# --- calls -------------------------------------------------------------------------------------------

def target(spec, lib=wick):
    """("function", name): wick.<name>; ("method", name, self recipe): a bound method."""
    if spec[0] == "function":
        return getattr(lib, spec[1])
    return getattr(build(spec[2], lib=lib), spec[1])


def describe_call(recipe):
    spec, args, kwargs = recipe
    where = f"wick.{spec[1]}" if spec[0] == "function" else f"{describe(spec[2])}.{spec[1]}"
    shown = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs]
    return f"{where}({', '.join(shown)})"


class InvariantError(Exception):
    """A call returned a tensor whose metadata contradicts itself."""


def call(recipe):
    """Builds and makes one call; returns what it returned, by type. A tensor result is checked:
    its element count is the product of its sizes (a wrapped count reads outside its memory)."""
    spec, args, kwargs = recipe
    fn = target(spec)
    built = [build(a) for a in args]
    kw = {k: build(v) for k, v in kwargs}
    result = fn(*built, **kw)
    for t in (result if isinstance(result, tuple) else (result,)):
        if isinstance(t, wick.Tensor):
            shape = tuple(t.shape)
            if any(s < 0 for s in shape) or t.numel() != math.prod(shape):
                raise InvariantError(f"a result of shape {shape} has numel() {t.numel()}")
            if math.prod(shape) <= 4096 and max(shape, default=0) <= 4096:  # (2**62, 0) has 2**62 rows
                t.tolist()
    return type(result).__name__
