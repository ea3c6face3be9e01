"""Storages, as in PyTorch 1.13: wick.UntypedStorage (bytes), wick.TypedStorage (those bytes seen as one dtype)
and the legacy classes wick.FloatStorage, wick.LongStorage, ...

A storage object holds the memory of the tensors on it, and keeps it alive after
they are gone (Note [Storage objects] in python_ext/storage_object.h). Shared
memory: share_memory_() moves the bytes into an anonymous shared-memory file
(Note [Shared memory storage] in core/include/wick/storage.h); a process forked
afterwards writes the same memory, and another process can map it from the file
descriptor `s._shared_fd()` (passed with os.fork(), subprocess's pass_fds or a
Unix socket) with wick.UntypedStorage._new_shared_fd(fd, nbytes).
"""
from wick import _C
from wick._names import LEGACY_TENSORS
from wick._tensor import Tensor
from wick.type_info import get_default_dtype

__all__ = ["UntypedStorage", "TypedStorage"]


class UntypedStorage(_C._StorageBase):
    """UntypedStorage(size=0 | sequence of ints, *, device=None): bytes that tensors of any dtype view."""

    __slots__ = ()
    is_sparse = False
    dtype = None

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self):
        return _repr(self, self.tolist(), f"device={self.device}")

    def untyped(self):
        """untyped() -> UntypedStorage: self."""
        return self

    def type(self):
        """type() -> str: the name of this class."""
        return "wick.storage.UntypedStorage"


def _repr(storage, values, what):
    lines = "\n ".join(str(v) for v in values)
    return f" {lines}\n[{type(storage).__module__}.{type(storage).__qualname__}({what}) of size {len(storage)}]"


class TypedStorage:
    """TypedStorage(size=0 | sequence, *, dtype=None, device=None), or TypedStorage(wrap_storage=..., dtype=...):
    an UntypedStorage seen as elements of one dtype (the default float dtype if none is given)."""

    is_sparse = False

    def __init__(self, *args, wrap_storage=None, dtype=None, device=None):
        if dtype is None:
            dtype = get_default_dtype()
        if not isinstance(dtype, _C.dtype):
            raise TypeError(f"TypedStorage(): dtype must be a wick.dtype, not {type(dtype).__name__}")
        if wrap_storage is not None:
            if args or device is not None:
                raise RuntimeError("TypedStorage(): wrap_storage takes no size, data or device")
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError("TypedStorage(): wrap_storage must be an UntypedStorage, not "
                                f"{type(wrap_storage).__name__}")
            self._untyped_storage, self.dtype = wrap_storage, dtype
            return
        if len(args) > 1:
            raise RuntimeError(f"TypedStorage() takes a size or a sequence, but got {len(args)} arguments")
        data = args[0] if args else 0
        if isinstance(data, int) and not isinstance(data, bool):
            nbytes = data * dtype.itemsize
            if data < 0:
                raise RuntimeError(f"Trying to create a storage of negative size {data}")
            if nbytes >= 2 ** 63:
                raise RuntimeError(f"Storage size calculation overflowed with size={data}")
            self._untyped_storage = UntypedStorage(nbytes, device=device)
        elif isinstance(data, (str, bytes)) or not hasattr(data, "__len__"):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        else:
            values = _C.tensor(data, dtype=dtype, device=device)
            if values.dim() != 1:
                raise RuntimeError(f"TypedStorage(): expected a flat sequence, got one of shape {tuple(values.shape)}")
            self._untyped_storage = values.untyped_storage()
        self.dtype = dtype

    def _view(self):
        """A 1-d tensor over all of the elements (made as wick.Tensor(storage): set_ would bump the version)."""
        return _C._legacy_new(Tensor, self.dtype, self._untyped_storage)

    def _index(self, index):
        if isinstance(index, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"can't index a {type(self)} with {type(index)}")
        n = self.size()
        if not -n <= index < n:
            raise IndexError(f"index {index} out of range for storage of size {n}")
        return index % n

    def __getitem__(self, index):
        return self._view()[self._index(index)].item()

    def __setitem__(self, index, value):
        self._view()[self._index(index)] = value

    def __len__(self):
        return self.size()

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self):
        return _repr(self, self.tolist(), f"dtype={self.dtype!r}, device={self.device}")

    def size(self):
        """size() -> int: the number of elements."""
        return self._untyped_storage.nbytes() // self.dtype.itemsize

    def nbytes(self):
        """nbytes() -> int: the size in bytes."""
        return self._untyped_storage.nbytes()

    def element_size(self):
        """element_size() -> int: the size of one element in bytes."""
        return self.dtype.itemsize

    @property
    def device(self):
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        return self._untyped_storage.is_cuda

    def data_ptr(self):
        """data_ptr() -> int: the address of the first element."""
        return self._untyped_storage.data_ptr()

    def tolist(self):
        """tolist() -> list: the elements as Python numbers."""
        return self._view().tolist()

    def fill_(self, value):
        """fill_(value) -> self: every element set to value."""
        self._view().fill_(value)
        return self

    def copy_(self, source, non_blocking=False):
        """copy_(source, non_blocking=False) -> self: the bytes of a storage of the same size in bytes."""
        self._untyped_storage.copy_(source, non_blocking)
        return self

    def untyped(self):
        """untyped() -> UntypedStorage: the bytes under the elements."""
        return self._untyped_storage

    def clone(self):
        """clone() -> TypedStorage: a copy on the same device."""
        return TypedStorage(wrap_storage=self._untyped_storage.clone(), dtype=self.dtype)

    def cpu(self):
        """cpu() -> TypedStorage: the elements on the CPU (the same memory when they are there)."""
        return TypedStorage(wrap_storage=self._untyped_storage.cpu(), dtype=self.dtype)

    def is_shared(self):
        """is_shared() -> bool: whether the bytes are in shared memory."""
        return self._untyped_storage.is_shared()

    def share_memory_(self):
        """share_memory_() -> self: moves the bytes into shared memory (see the module's docstring)."""
        self._untyped_storage.share_memory_()
        return self

    def type(self):
        """type() -> str: the legacy class name of the dtype, such as 'wick.FloatStorage'."""
        return f"wick.{_LEGACY_NAMES[self.dtype]}"


_LEGACY_NAMES = {getattr(_C, dtype): tensor[:-len("Tensor")] + "Storage" for tensor, dtype in LEGACY_TENSORS}


class _LegacyStorageMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, TypedStorage) and obj.dtype is getattr(cls, "dtype", obj.dtype) and \
            obj.device.type == "cpu"


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """The legacy classes make TypedStorages of their dtype on the CPU; isinstance() counts those as their own."""

    def __new__(cls, *args, wrap_storage=None):
        return TypedStorage(*args, wrap_storage=wrap_storage, dtype=cls.dtype)


def _legacy(name, dtype):
    doc = f"{name}(size=0 | sequence): a TypedStorage of dtype wick.{dtype!r} on the CPU"
    return _LegacyStorageMeta(name, (_LegacyStorage,), {"dtype": dtype, "__module__": "wick", "__doc__": doc})


for _dtype, _name in _LEGACY_NAMES.items():
    globals()[_name] = _legacy(_name, _dtype)
    __all__.append(_name)
del _dtype, _name


# The methods of wick.Tensor on storages.
def untyped_storage(self):
    """untyped_storage() -> UntypedStorage: the bytes under the tensor (the whole storage, for a view too)."""
    return _C._tensor_untyped_storage(self)


def storage(self):
    """storage() -> TypedStorage: the tensor's storage seen as its dtype."""
    return TypedStorage(wrap_storage=_C._tensor_untyped_storage(self), dtype=self.dtype)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _set_signature_error(args):
    got = ", ".join(type(a).__name__ for a in args)
    return TypeError(f"set_() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     " * ()\n * (Storage source)\n * (Storage source, int storage_offset, tuple of ints size, "
                     "tuple of ints stride=None)\n * (Tensor source)\n"
                     " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride=None)")


def set_(self, *args, **kwargs):
    """set_(source=None, storage_offset=0, size=None, stride=None) -> self: re-points the tensor at a storage
    (all of it, or `size` elements with `stride` from `storage_offset`) or at another tensor's memory, or, with no
    argument, at no memory. The geometry must lie inside the storage."""
    names = ("source", "storage_offset", "size", "stride")
    if len(args) > len(names) or set(kwargs) - set(names):
        raise _set_signature_error(args + tuple(kwargs.values()))
    bound = dict(zip(names, args))
    for name, value in kwargs.items():
        if name in bound:
            raise TypeError(f"set_() got multiple values for argument '{name}'")
        bound[name] = value
    source = bound.get("source")
    geometry = [bound.get(n) for n in names[1:]]
    if "source" not in bound:
        if bound:
            raise _set_signature_error(args + tuple(kwargs.values()))
        return _C._tensor_set_(self, None, None, None, None)
    if not isinstance(source, (Tensor, UntypedStorage, TypedStorage)):
        raise _set_signature_error(args + tuple(kwargs.values()))
    offset, size, stride = geometry
    if offset is None and size is None and stride is None:
        return _C._tensor_set_(self, source, None, None, None)
    if not _is_int(offset) or not isinstance(size, (tuple, list)) or not all(_is_int(s) for s in size) or \
            not (stride is None or isinstance(stride, (tuple, list)) and all(_is_int(s) for s in stride)):
        raise _set_signature_error(args + tuple(kwargs.values()))
    if isinstance(source, Tensor):
        if source.dtype != self.dtype:
            raise RuntimeError(f"Expected a tensor of dtype {self.dtype} but got one of {source.dtype}")
        source = _C._tensor_untyped_storage(source)
    return _C._tensor_set_(self, source, offset, tuple(size), None if stride is None else tuple(stride))


def is_set_to(self, tensor):
    """is_set_to(tensor) -> bool: whether both tensors have the same storage, offset, sizes and strides."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"is_set_to(): argument 'tensor' must be Tensor, not {type(tensor).__name__}")
    return _C._tensor_is_set_to(self, tensor)


def is_shared(self):
    """is_shared() -> bool: whether the tensor's memory is in shared memory (always for CUDA)."""
    return _C._tensor_untyped_storage(self).is_shared()


def share_memory_(self):
    """share_memory_() -> self: moves the tensor's storage into shared memory, for every tensor on it."""
    _C._tensor_untyped_storage(self).share_memory_()
    return self


METHODS: tuple = ("untyped_storage", "storage", "set_", "is_set_to", "is_shared", "share_memory_")
for _name in METHODS:
    setattr(Tensor, _name, globals()[_name])
del _name

_C._set_storage_classes(UntypedStorage, TypedStorage)
