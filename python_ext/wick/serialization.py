"""wick.save and wick.load: tensors, and containers of them, as a zip of raw storages read back without running code.

Note [wick.save file format]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
A file from wick.save is a zip archive (stdlib zipfile, entries stored, not
compressed) laid out as PyTorch's torch.save lays out its own:

    archive/version     b"1\\n": the format version; wick.load refuses any other
    archive/byteorder   b"little": the byte order of every storage's bytes
    archive/data.pkl    the object, pickled (protocol 4); each tensor is the call
                        _rebuild_tensor(storage, dtype name, storage_offset, size, stride)
                        (with its attributes as pickle's state), each storage the
                        persistent id ("storage", key, location, nbytes)
    archive/data/<key>  the raw bytes of one storage, whole (nbytes of them)

Each storage is written once, however many tensors view it, so tensors that
share a storage when saved share one when loaded (a slice still writes through
to the tensor it was cut from). A view saves its whole storage, as in PyTorch:
save x[0].clone() to save one row of a large x. The location is the storage's
device ("cpu", "cuda:0"); map_location sends it elsewhere when loading. The
object may hold tensors, dicts (OrderedDict too), lists and tuples, and int,
float, bool, str, bytes and None; save refuses anything else, and subclasses
of wick.Tensor, which load would have to import.

Note [Loading runs no code]
~~~~~~~~~~~~~~~~~~~~~~~~~~~
An unpickler calls whatever global a pickle names (os.system, with arguments
of the pickle's choosing), so wick.load reads every pickle with _Unpickler,
whose find_class returns only the few globals wick itself writes and refuses
any other with an UnpicklingError that names it, before anything runs. Every
value that then reaches a rebuild function comes from the file and is checked
before a tensor exists: the types here, the geometry in C++ (Note [Storage
bytes] in python_ext/storage_bytes.cpp). Entries must be stored uncompressed
and claim no more bytes, all together, than the file holds, so a file cannot
make wick.load allocate more than its own size. A file that is not a
zip archive is read as a bare pickle through the same unpickler: what
pickle.dump writes for wick tensors (Note [Pickled tensors]) and containers.

Note [Pickled tensors]
~~~~~~~~~~~~~~~~~~~~~~
pickle.dumps(t) carries the bytes t reaches (from its first element to past
its last: the whole storage only when t covers it) and its geometry over
them: dtype, sizes, strides (a transposed tensor comes back transposed and an
expanded one expanded) and offset 0, with its device, its class when that is
a subclass, and its attributes. One pickle does not know which other tensors
of the same storage it holds, so each tensor gets its own copy of its bytes;
wick.save keeps storages shared. A CUDA tensor's bytes go through the CPU and
come back to its device.
"""
import collections
import contextlib
import functools
import io
import os
import pickle
import sys
import zipfile

from wick import _C

# Every wick dtype by its name, which is how files and pickles name it.
_DTYPES = {name: getattr(_C, name) for name in (
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")}

_FORMAT_VERSION = b"1\n"
_PREFIX = "archive/"
_READ_CHUNK = 1 << 24


def _check_byteorder():
    """Wick writes and reads raw bytes as little-endian, which is this host's order unless it says otherwise."""
    if sys.byteorder != "little":
        raise RuntimeError(f"wick saves and loads tensors' bytes as little-endian, and this host is "
                           f"{sys.byteorder}-endian: not supported")


def _dtype_name(dtype):
    return dtype.__reduce__()


def _byte_span(t):
    """The bytes of t's storage from its first element to past its last (strides are never negative), as
    (begin, end); (0, 0) for a tensor without elements."""
    if t.numel() == 0:
        return 0, 0
    first = t.storage_offset()
    end = first + 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
    return first * t.dtype.itemsize, end * t.dtype.itemsize


def _byte_range(t, begin, end):
    """Bytes [begin, end) of t's storage as a 1-D uint8 CPU tensor: a view for a CPU tensor, a copy for another."""
    whole, _ = _C._storage_bytes(t)
    return whole[begin:end].cpu()


def _tensor_over(storage_bytes, dtype, storage_offset, size, stride):
    """A tensor of this geometry, read from a file or a pickle, over a storage's bytes: every part checked."""
    if not isinstance(dtype, str) or dtype not in _DTYPES:
        raise pickle.UnpicklingError(f"unknown dtype {dtype!r}: wick has {', '.join(_DTYPES)}")
    for name, value in (("size", size), ("stride", stride)):
        if not isinstance(value, (tuple, list)):
            raise pickle.UnpicklingError(f"a tensor's {name} must be a tuple of ints, got {type(value).__name__}")
    return _C._tensor_over_bytes(storage_bytes, _DTYPES[dtype], tuple(size), tuple(stride), storage_offset)


def _cuda_checked(device):
    """`device`, once it is known to exist (PyTorch's messages, which name the way out)."""
    if device.type == "cuda":
        if not _C._cuda_is_available():
            raise RuntimeError("Attempting to deserialize object on a CUDA device but wick.cuda.is_available() is "
                               "False. If you are running on a CPU-only machine, please use wick.load with "
                               "map_location=wick.device('cpu') to map your storages to the CPU.")
        count = _C._cuda_device_count()
        if (device.index or 0) >= count:
            raise RuntimeError(f"Attempting to deserialize object on CUDA device {device.index or 0} but "
                               f"wick.cuda.device_count() is {count}. Please use wick.load with map_location "
                               f"to map your storages to an existing device.")
    return device


def _location_map(map_location):
    """map_location as a function from a saved location (a str) to the device to load onto."""
    if map_location is None:
        return _C.device
    if isinstance(map_location, (str, _C.device)):
        target = _C.device(map_location)
        return lambda location: target
    if isinstance(map_location, dict):
        targets = {}
        for key, value in map_location.items():
            if not isinstance(key, str) or not isinstance(value, (str, _C.device)):
                raise TypeError(f"map_location as a dict maps location strings to devices or strings, got "
                                f"{key!r}: {value!r}")
            targets[key] = _C.device(value)
        return lambda location: targets[location] if location in targets else _C.device(location)
    raise TypeError(f"map_location must be None, a str, a wick.device or a dict, got {type(map_location).__name__}")


def _device_for(location, to_device):
    if not isinstance(location, str):
        raise pickle.UnpicklingError(f"a storage's location must be a str, got {location!r}")
    try:
        device = to_device(location)
    except (ValueError, RuntimeError, TypeError) as e:
        raise pickle.UnpicklingError(f"invalid storage location {location!r}: {e}") from e
    return _cuda_checked(device)


def _storage_on(nbytes, device, fill):
    """A new storage of nbytes on `device`, as _storage_bytes gives one; fill(memoryview) writes its bytes."""
    data = _C.empty(nbytes, dtype=_C.uint8)
    fill(memoryview(data))
    return data if device.type == "cpu" else data.to(device)


# --- pickling (Note [Pickled tensors]) ---

def _reduce_tensor(t):
    """The arguments of _rebuild for t, less its class: its first element is at offset 0 of its bytes."""
    _check_byteorder()
    data = bytes(memoryview(_byte_range(t, *_byte_span(t))))
    return data, _dtype_name(t.dtype), str(t.device), 0, tuple(t.shape), t.stride()


def _rebuild(data, dtype, location, storage_offset, size, stride, cls, *, to_device=_C.device):
    """Unpickles a tensor (Note [Pickled tensors]); pickle then sets its attributes. A subclass's __init__ is
    not run, as for any object pickle rebuilds."""
    _check_byteorder()
    if not isinstance(data, (bytes, bytearray)):
        raise pickle.UnpicklingError(f"a pickled tensor's data must be bytes, got {type(data).__name__}")
    if cls is not None and not (isinstance(cls, type) and issubclass(cls, _C.TensorBase)):
        raise pickle.UnpicklingError(f"a pickled tensor's class must be a subclass of wick.Tensor, got {cls!r}")
    device = _device_for(location, to_device)
    storage = _storage_on(len(data), device, lambda view: view.__setitem__(slice(None), data))
    t = _tensor_over(storage, dtype, storage_offset, size, stride)
    return t if cls is None else _C._legacy_new(cls, t.dtype, t)


def _latin1(text, encoding):
    """codecs.encode as pickle protocols 0 to 2 call it for bytes, and only so."""
    if not isinstance(text, str) or encoding != "latin1":
        raise pickle.UnpicklingError(f"_codecs.encode is read only as pickle writes bytes, not with {encoding!r}")
    return text.encode("latin1")


# --- wick.save ---

class _Storage:
    """A storage in a pickle: its bytes as _C._storage_bytes gives them, and its key in the archive."""
    __slots__ = ("bytes", "key")

    def __init__(self, data, key):
        self.bytes, self.key = data, key


def _rebuild_tensor(storage, dtype, storage_offset, size, stride):
    """A tensor loaded by wick.load: see Note [wick.save file format]."""
    if type(storage) is not _Storage:
        raise pickle.UnpicklingError(f"a tensor's storage must be a persistent id, got {type(storage).__name__}")
    return _tensor_over(storage.bytes, dtype, storage_offset, size, stride)


_PLAIN = (dict, list, tuple, str, bytes, int, float, bool, type(None), collections.OrderedDict)


class _Pickler(pickle.Pickler):
    def __init__(self, file):
        super().__init__(file, protocol=4)
        self.storages = {}  # the storage's identity -> its _Storage

    def persistent_id(self, obj):
        if type(obj) is _Storage:
            return ("storage", obj.key, str(obj.bytes.device), obj.bytes.numel())
        return None

    def reducer_override(self, obj):
        if type(obj) in _PLAIN or obj is _rebuild_tensor or obj is collections.OrderedDict:
            return NotImplemented
        if isinstance(obj, _C.TensorBase):
            from wick import Tensor
            if type(obj) is not Tensor:
                raise TypeError(f"wick.save saves wick.Tensor, not its subclass {type(obj).__qualname__}: wick.load "
                                f"never imports classes from a file (t.view(t.shape) is a wick.Tensor over the same storage)")
            data, identity = _C._storage_bytes(obj)
            storage = self.storages.setdefault(identity, _Storage(data, str(len(self.storages))))
            args = (storage, _dtype_name(obj.dtype), obj.storage_offset(), tuple(obj.shape), obj.stride())
            return _rebuild_tensor, args, obj.__dict__ or None
        raise TypeError(f"wick.save cannot save an object of type {type(obj).__qualname__}: it saves tensors, "
                        f"dicts (OrderedDict too), lists and tuples of them, and int, float, bool, str, bytes and None")


def _opened(f, mode):
    """f itself when it is a file object, else the file at that path, opened in `mode`."""
    if isinstance(f, (str, os.PathLike)):
        return open(f, mode)
    if not hasattr(f, "write" if "w" in mode else "read"):
        raise TypeError(f"expected a path (str or os.PathLike) or a binary file object, got {type(f).__name__}")
    return contextlib.nullcontext(f)  # the caller's to close


def _write(archive, name, data):
    # A fixed date: the same object saves to the same bytes.
    archive.writestr(zipfile.ZipInfo(_PREFIX + name, date_time=(1980, 1, 1, 0, 0, 0)), data)


def save(obj, f):
    """save(obj, f) -> None

    Saves `obj` (a tensor, or dicts, lists and tuples of tensors and of int, float, bool, str, bytes and None)
    to `f`, a path or a binary file object; wick.load reads it back, with each storage shared as it was and
    each tensor on its device. The format is a zip archive of the raw bytes of each storage and a pickle of
    the structure, which wick.load reads without running code from it."""
    _check_byteorder()
    structure = io.BytesIO()
    pickler = _Pickler(structure)
    pickler.dump(obj)
    with _opened(f, "wb") as file, zipfile.ZipFile(file, "w", zipfile.ZIP_STORED) as archive:
        _write(archive, "version", _FORMAT_VERSION)
        _write(archive, "byteorder", b"little")
        _write(archive, "data.pkl", structure.getbuffer())
        for storage in pickler.storages.values():
            _write(archive, f"data/{storage.key}", memoryview(storage.bytes.cpu()))


# --- wick.load ---

class _Unpickler(pickle.Unpickler):
    """See Note [Loading runs no code]: globals come from `allowed` alone, storages from `load_storage`."""

    def __init__(self, file, allowed, load_storage):
        super().__init__(file)
        self.allowed, self.load_storage = allowed, load_storage

    def find_class(self, module, name):
        try:
            return self.allowed[module, name]
        except KeyError:
            names = ", ".join(f"{m}.{n}" for m, n in self.allowed)
            raise pickle.UnpicklingError(f"wick.load refuses to load the global {module}.{name}: a file may name "
                                         f"only {names}, and loading never runs code from it") from None

    def persistent_load(self, pid):
        return self.load_storage(pid)

    def load(self):
        try:
            return super().load()
        except (AttributeError, KeyError, IndexError, TypeError, EOFError) as e:
            # What a malformed pickle makes the unpickler do: append to a str, read a memo it never wrote...
            raise pickle.UnpicklingError(f"malformed pickle: {type(e).__name__}: {e}") from e


def _bare_pickle_storage(pid):
    raise pickle.UnpicklingError(f"a bare pickle holds no storages, but names the persistent id {pid!r}")


class _Archive:
    """The entries of a wick.save archive, read as Note [Loading runs no code] says."""

    def __init__(self, file, to_device):
        self.to_device, self.storages = to_device, {}
        self.size = file.seek(0, io.SEEK_END)
        file.seek(0)
        self.zip = zipfile.ZipFile(file)
        names = self.zip.namelist()
        if len(set(names)) != len(names):
            raise RuntimeError("the archive holds two entries of the same name")
        for info in self.zip.infolist():
            if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
                raise RuntimeError(f"the archive's entry {info.filename!r} is compressed; wick.save writes "
                                   f"entries uncompressed")
        claimed = sum(info.file_size for info in self.zip.infolist())
        if claimed > self.size:  # entries that overlap, or a directory that lies
            raise RuntimeError(f"the archive's entries claim {claimed} bytes, more than the file holds ({self.size})")

    def info(self, name):
        try:
            return self.zip.getinfo(_PREFIX + name)
        except KeyError:
            raise RuntimeError(f"the archive has no entry {_PREFIX + name!r}: not a file from wick.save") from None

    def read(self, name):
        return self.zip.read(self.info(name))

    def storage(self, pid):
        if not (type(pid) is tuple and len(pid) == 4 and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}: wick.save writes only "
                                         f"('storage', key, location, nbytes)")
        _, key, location, nbytes = pid
        if not isinstance(key, str) or type(nbytes) is not int or nbytes < 0:
            raise pickle.UnpicklingError(f"invalid storage persistent id {pid!r}")
        if key in self.storages:
            storage, seen = self.storages[key]
            if seen != pid:
                raise pickle.UnpicklingError(f"storage {key!r} is named both as {seen!r} and as {pid!r}")
            return storage
        info = self.info(f"data/{key}")
        if info.file_size != nbytes:
            raise RuntimeError(f"storage {key!r} should hold {nbytes} bytes, but its entry holds {info.file_size}")
        device = _device_for(location, self.to_device)
        with self.zip.open(info) as entry:
            data = _storage_on(nbytes, device, lambda view: _read_into(entry, view, key))
        storage = _Storage(data, key)
        self.storages[key] = storage, pid
        return storage


def _read_into(entry, view, key):
    done = 0
    while done < len(view):
        chunk = entry.read(min(_READ_CHUNK, len(view) - done))
        if not chunk:
            raise RuntimeError(f"storage {key!r} is truncated: {done} of {len(view)} bytes")
        view[done:done + len(chunk)] = chunk
        done += len(chunk)


def _load_archive(file, to_device):
    archive = _Archive(file, to_device)
    with archive.zip:
        version = archive.read("version")
        if version != _FORMAT_VERSION:
            raise RuntimeError(f"unsupported file version {version[:20]!r}: this wick reads version "
                               f"{_FORMAT_VERSION!r}")
        byteorder = archive.read("byteorder")
        if byteorder != b"little":
            raise RuntimeError(f"unsupported byte order {byteorder[:20]!r}: wick writes b'little'")
        allowed = {("wick.serialization", "_rebuild_tensor"): _rebuild_tensor,
                   ("collections", "OrderedDict"): collections.OrderedDict}
        return _Unpickler(io.BytesIO(archive.read("data.pkl")), allowed, archive.storage).load()


def load(f, map_location=None):
    """load(f, map_location=None) -> object

    Loads what wick.save wrote to `f` (a path or a binary file object), without running code from it: a file
    that names any other function is refused with pickle.UnpicklingError, and a malformed one with a
    RuntimeError, ValueError or UnpicklingError. map_location sends storages elsewhere than the device they
    were saved from: a device or a device string for all of them, or a dict from saved locations ("cuda:0")
    to devices. A file that is not a zip archive is read as a bare pickle of wick tensors and containers,
    under the same rules."""
    _check_byteorder()
    to_device = _location_map(map_location)
    with _opened(f, "rb") as file:
        if not (hasattr(file, "seekable") and file.seekable()):
            file = io.BytesIO(file.read())
        start = file.tell()
        magic = file.read(4)
        file.seek(start)
        if magic == b"PK\x03\x04":
            try:
                return _load_archive(file, to_device)
            except (zipfile.BadZipFile, EOFError) as e:
                raise RuntimeError(f"not a valid wick.save archive: {e}") from e
        allowed = {("wick.serialization", "_rebuild"): functools.partial(_rebuild, to_device=to_device),
                   ("collections", "OrderedDict"): collections.OrderedDict,
                   ("_codecs", "encode"): _latin1}
        return _Unpickler(file, allowed, _bare_pickle_storage).load()
