"""wick.save_file and wick.load_file: the safetensors format, under safetensors.torch's names.

Note [safetensors]
~~~~~~~~~~~~~~~~~~
The published format: an 8-byte little-endian unsigned header size N, N bytes
of a UTF-8 JSON object, then the byte buffer. The object maps each tensor's
name to {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, offsets
into the buffer, and may hold "__metadata__", a map of str to str. A tensor's
bytes are row-major, contiguous and little-endian. Nothing in the file runs.

save_file writes as the reference writer does: compact JSON, "__metadata__"
first, the tensors ordered by dtype (the widest types first, so that every
tensor is aligned to its element size in the buffer) and then by name, the
header padded with spaces to a multiple of 8 bytes. A non-contiguous tensor
is written contiguous. Tensors whose bytes overlap (a tensor and a view of
it) are refused, as safetensors.torch refuses them: the file cannot say that
they share memory, and loading would give two tensors that no longer do.

load_file checks what the reference reader checks, before it reads a byte of
the buffer: the header size within the file and at most 100 MB; the header a
valid UTF-8 JSON object that starts with "{" and names no key twice;
"__metadata__" a map of str to str; each entry a known dtype, a shape of
non-negative ints and offsets with end - begin the tensor's size in bytes;
and the tensors' byte ranges, in order, covering the buffer exactly, without
a gap or an overlap. Each tensor is then read into a storage of its own.
"""
import json
import os
import struct

from wick import _C
from wick.serialization import _byte_range, _byte_span, _check_byteorder, _storage_on, _tensor_over

# safetensors' names of wick's dtypes, in the reference implementation's order of its dtypes.
_DTYPES = {"BOOL": "bool", "U8": "uint8", "I8": "int8", "I16": "int16", "F16": "float16", "BF16": "bfloat16",
          "I32": "int32", "F32": "float32", "F64": "float64", "I64": "int64"}
_NAMES = {getattr(_C, name): code for code, name in _DTYPES.items()}
_RANK = {code: i for i, code in enumerate(_DTYPES)}
_MAX_HEADER_SIZE = 100_000_000
_INT64_MAX = 2**63 - 1


def _overlapping(tensors):
    """The groups of names whose tensors' bytes overlap, as safetensors.torch finds them."""
    spans = {}  # storage -> [(first byte, end byte, name)]
    for name, t in tensors.items():
        if t.numel() > 0:
            spans.setdefault(_C._storage_bytes(t)[1], []).append((*_byte_span(t), name))
    groups = []
    for ranges in spans.values():
        group, reach = [], -1
        for first, end, name in sorted(ranges):
            if first >= reach:
                groups.append(group)
                group = []
            group.append(name)
            reach = max(reach, end)
        groups.append(group)
    return [sorted(g) for g in groups if len(g) > 1]


def _check_strings(mapping, what):
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise TypeError(f"{what} must be a dict of str to str, got {mapping!r}")


def save_file(tensors, filename, metadata=None):
    """save_file(tensors, filename, metadata=None) -> None

    Writes `tensors` (a dict of str to wick.Tensor) to `filename` in the safetensors format, with `metadata`
    (a dict of str to str) in its header. Tensors whose bytes overlap are refused; see Note [safetensors]."""
    _check_byteorder()
    if not isinstance(tensors, dict):
        raise TypeError(f"tensors must be a dict of str to wick.Tensor, got {type(tensors).__name__}")
    for name, t in tensors.items():
        if not isinstance(name, str) or not isinstance(t, _C.TensorBase):
            raise TypeError(f"tensors must be a dict of str to wick.Tensor, got {name!r}: {type(t).__name__}")
    if "__metadata__" in tensors:
        raise ValueError("'__metadata__' is the header's metadata, not a tensor name")
    if metadata is not None:
        _check_strings(metadata, "metadata")
    shared = _overlapping(tensors)
    if shared:
        raise RuntimeError(f"Some tensors share memory, this will lead to duplicate memory on disk and potential "
                           f"differences when loading them again: {shared}. Save copies of them (t.clone()), or "
                           f"only one of them.")
    header = {} if metadata is None else {"__metadata__": metadata}
    order = sorted(tensors, key=lambda name: (-_RANK[_NAMES[tensors[name].dtype]], name))
    offset = 0
    for name in order:
        t = tensors[name]
        nbytes = t.numel() * t.dtype.itemsize
        header[name] = {"dtype": _NAMES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(filename, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name in order:
            t = tensors[name].contiguous()
            f.write(memoryview(_byte_range(t, *_byte_span(t))))


def _unique_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"invalid safetensors header: the key {key!r} appears twice")
        result[key] = value
    return result


def _non_negative_ints(value, count=None):
    return (isinstance(value, list) and (count is None or len(value) == count)
            and all(type(v) is int and 0 <= v <= _INT64_MAX for v in value))


def _entry(name, info):
    """(wick dtype name, shape, begin, end) of a header entry, every part checked."""
    if not isinstance(info, dict):
        raise ValueError(f"invalid safetensors header: tensor {name!r} is {info!r}, not an object")
    missing = {"dtype", "shape", "data_offsets"} - info.keys()
    if missing:
        raise ValueError(f"invalid safetensors header: tensor {name!r} has no {', '.join(sorted(missing))}")
    code, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if code not in _DTYPES:
        raise TypeError(f"tensor {name!r} has the safetensors dtype {code!r}, which wick lacks "
                        f"(wick reads {', '.join(_DTYPES)})")
    if not _non_negative_ints(shape):
        raise ValueError(f"invalid safetensors header: tensor {name!r} has the shape {shape!r}")
    if not _non_negative_ints(offsets, 2) or offsets[0] > offsets[1]:
        raise ValueError(f"invalid safetensors header: tensor {name!r} has the data_offsets {offsets!r}")
    numel = 1
    for n in shape:
        numel *= n
    nbytes = numel * getattr(_C, _DTYPES[code]).itemsize
    if offsets[1] - offsets[0] != nbytes:
        raise ValueError(f"invalid safetensors header: tensor {name!r} of dtype {code} and shape {shape} takes "
                         f"{nbytes} bytes, but its data_offsets {offsets} hold {offsets[1] - offsets[0]}")
    return _DTYPES[code], shape, offsets[0], offsets[1]


def _read_header(f, size):
    """The tensors' entries and the buffer's start, from a file of `size` bytes."""
    prefix = f.read(8)
    if len(prefix) < 8:
        raise ValueError(f"invalid safetensors file: {size} bytes, fewer than the 8 of the header size")
    (n,) = struct.unpack("<Q", prefix)
    if n > _MAX_HEADER_SIZE or 8 + n > size:
        raise ValueError(f"invalid safetensors file: a header of {n} bytes in a file of {size} "
                         f"(at most {_MAX_HEADER_SIZE})")
    text = f.read(n)
    if not text.startswith(b"{"):
        raise ValueError("invalid safetensors header: it does not start with '{'")
    try:
        header = json.loads(text.decode("utf-8"), object_pairs_hook=_unique_keys)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:  # RecursionError: nested too deep
        raise ValueError(f"invalid safetensors header: {e}") from e
    if not isinstance(header, dict):
        raise ValueError("invalid safetensors header: not a JSON object")
    if "__metadata__" in header:
        try:
            _check_strings(header.pop("__metadata__"), "__metadata__")
        except TypeError as e:
            raise ValueError(f"invalid safetensors header: {e}") from None
    entries = {name: _entry(name, info) for name, info in header.items()}
    end = 0
    for name, (_, _, begin, stop) in sorted(entries.items(), key=lambda item: item[1][2:]):
        if begin != end:
            raise ValueError(f"invalid safetensors header: tensor {name!r} starts at byte {begin} of the buffer, "
                             f"where the tensors before it end at {end}: the tensors must cover the buffer "
                             f"exactly, without overlap")
        end = stop
    if 8 + n + end != size:
        raise ValueError(f"invalid safetensors file: the tensors take {end} bytes of a buffer of {size - 8 - n}")
    return entries, 8 + n


def load_file(filename, device="cpu"):
    """load_file(filename, device="cpu") -> dict[str, wick.Tensor]

    The tensors of a safetensors file, each in a storage of its own on `device` (a device, a device string,
    or an int for that CUDA device). Every part of the file is checked first; see Note [safetensors]."""
    _check_byteorder()
    device = _C.device(f"cuda:{device}" if type(device) is int else device)
    with open(filename, "rb") as f:
        entries, start = _read_header(f, os.fstat(f.fileno()).st_size)
        tensors = {}
        for name, (dtype, shape, begin, end) in entries.items():
            f.seek(start + begin)

            def fill(view):
                if f.readinto(view) != len(view):
                    raise ValueError(f"invalid safetensors file: tensor {name!r} is truncated")

            strides, stride = [], 1
            for n in reversed(shape):
                strides.append(stride)
                stride *= max(n, 1)
            tensors[name] = _tensor_over(_storage_on(end - begin, device, fill), dtype, 0, shape, strides[::-1])
    return tensors
