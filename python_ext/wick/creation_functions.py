"""wick.creation_functions: tensors made over memory that already exists, as PyTorch's asarray and frombuffer.

    >>> import array
    >>> data = array.array("i", [1, 2, 3])
    >>> t = wick.frombuffer(data, dtype=wick.int32)
    >>> t[0] = 7
    >>> data[0]
    7

Both share memory wherever they can: a wick tensor is itself, a NumPy array and any object with the buffer
protocol are viewed in place (wick.from_numpy over NumPy's view of the memory, which keeps the owner alive), and an
object with __dlpack__ (a PyTorch tensor, a CuPy array) is taken through wick.from_dlpack.
"""
import warnings

from wick import _C
from wick._arguments import _argument_error, _bool, _dtype, _int, _scalar_type
from wick.contractions import _warn_once

__all__ = ["asarray", "frombuffer"]
METHODS: tuple = ()

# NumPy's dtype names of wick's dtypes; bfloat16 has none (NumPy lacks it).
_NUMPY_NAMES = {_C.bool: "bool", _C.uint8: "uint8", _C.int8: "int8", _C.int16: "int16", _C.int32: "int32",
                _C.int64: "int64", _C.float16: "float16", _C.float32: "float32", _C.float64: "float64"}
_NOT_WRITABLE_NUMPY = "The given NumPy array is not writable"


def _over_numpy(array):
    """wick.from_numpy(array), its warning about a read-only array left to the caller."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_NOT_WRITABLE_NUMPY, category=UserWarning)
        return _C.from_numpy(array)


def _buffer_view(buffer):
    """A memoryview of buffer, with PyTorch's errors for an object that has none or whose memory is not one
    contiguous block."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    if not view.c_contiguous:
        raise RuntimeError("could not retrieve buffer from object")
    return view


def _frombuffer(buffer, dtype, count, offset):
    """A 1-d tensor of dtype over count elements of buffer's memory from byte offset (all the rest when count is
    -1), with PyTorch's checks."""
    view = _buffer_view(buffer)
    length, itemsize = view.nbytes, dtype.itemsize
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({length} "
                         "bytes) minus 1")
    if count < 0:
        if (length - offset) % itemsize:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
                             f"multiple of element size ({itemsize})")
        count = (length - offset) // itemsize
    elif count * itemsize > length - offset:  # Python's ints: no overflow
        raise ValueError(f"requested buffer length ({count} * {itemsize} bytes) after offset ({offset} bytes) must "
                         f"not be greater than actual buffer length ({length} bytes)")
    if dtype not in _NUMPY_NAMES:
        raise TypeError(f"frombuffer(): wick cannot view memory as {dtype} without a copy (NumPy has no such dtype)")
    if view.readonly:
        _warn_once("The given buffer is not writable, and PyTorch does not support non-writable tensors. This means "
                   "you can write to the underlying (supposedly non-writable) buffer using the tensor. You may want "
                   "to copy the buffer to protect its data or make it writable before converting it to a tensor. "
                   "This type of warning will be suppressed for the rest of this program.")
    import numpy  # only here: wick does not need NumPy until memory is viewed through it

    # NumPy's array holds the memoryview, which holds the buffer's owner; the tensor holds the array.
    return _over_numpy(numpy.frombuffer(view.cast("B"), dtype=_NUMPY_NAMES[dtype], count=count, offset=offset))


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False) -> Tensor

    A 1-d tensor of dtype over the memory of buffer (any object with the buffer protocol, such as bytearray,
    array.array or memoryview): count elements (all that fit when -1) from byte offset. It shares the memory
    (writes show in buffer; the tensor keeps buffer alive) and warns once when buffer is read-only, as bytes is.
    The memory must be aligned to dtype's size, and bfloat16 cannot be viewed (wick makes the tensor through
    NumPy); as bool, the bytes should be 0 or 1 (wick reads them as they are, as it reads NumPy's bools).
    """
    dtype = _dtype("frombuffer", dtype)
    if dtype is None:
        raise _argument_error("frombuffer", "dtype", None, "wick.dtype", dtype)
    count, offset = _int("frombuffer", "count", None, count), _int("frombuffer", "offset", None, offset)
    requires_grad = _bool("frombuffer", "requires_grad", None, requires_grad)
    return _frombuffer(buffer, dtype, count, offset).requires_grad_(requires_grad)


def _is_numpy(obj):
    """Whether obj is NumPy's (an array or a scalar), without importing NumPy."""
    return type(obj).__module__ == "numpy"


def _is_buffer(obj):
    """Whether PyTorch's asarray reads obj through the buffer protocol: it has one and is not NumPy's (a NumPy
    scalar is a number here, not its one-element buffer read as the default dtype, as PyTorch 1.13 reads it)."""
    if _is_numpy(obj):
        return False
    try:
        memoryview(obj).release()
    except TypeError:
        return False
    return True


def _shared(obj, dtype):
    """obj as a tensor over its own memory, as PyTorch's asarray looks for one (a buffer read as dtype, or the
    default dtype), and whether it is a read-only NumPy array; (None, False) for an object that has no memory to
    share (a number, a sequence)."""
    if isinstance(obj, _C.TensorBase):
        return obj, False
    if _is_numpy(obj) and type(obj).__name__ == "ndarray":
        return _over_numpy(obj), not obj.flags.writeable
    if _is_buffer(obj):
        return _frombuffer(obj, dtype or _C._get_default_dtype(), -1, 0), False
    if hasattr(obj, "__dlpack__"):
        return _C.from_dlpack(obj), False
    return None, False


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False) -> Tensor

    obj as a tensor, sharing its memory where it can: a wick tensor is itself; a NumPy array, and an object with
    the buffer protocol (read as the default dtype unless dtype says otherwise), are viewed in place; an object
    with __dlpack__ is taken through DLPack. Where dtype or device differs, that tensor is copied unless
    copy=False, which raises ValueError instead; copy=True always copies. Anything else (numbers, nested
    sequences) is copied into a new tensor, inferring its dtype unless given; copy=False refuses it.
    requires_grad sets the result's flag, as PyTorch does even on a shared tensor (a tensor that is not a leaf
    and must not require grad comes back detached).
    """
    dtype = _dtype("asarray", dtype)
    if copy is not None:
        copy = _bool("asarray", "copy", None, copy)
    requires_grad = _bool("asarray", "requires_grad", None, requires_grad)
    device = None if device is None else _C.device(device)
    tensor, read_only = _shared(obj, dtype)
    if tensor is None:
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        return _C.tensor(obj, dtype=dtype, device=device).requires_grad_(requires_grad)
    wrong_device = device is not None and device != tensor.device
    wrong_dtype = dtype is not None and dtype != tensor.dtype
    if copy is False:
        if wrong_device:
            raise ValueError(f"can't alias tensor from device '{tensor.device}' to '{device}'.")
        if wrong_dtype:
            raise ValueError(f"can't alias tensor with dtype '{_scalar_type(tensor.dtype)}' into dtype "
                             f"'{_scalar_type(dtype)}'.")
    if wrong_device or wrong_dtype:
        tensor = tensor.to(device or tensor.device, dtype or tensor.dtype, copy=bool(copy))
    elif copy:
        tensor = tensor.clone()
    elif read_only:
        _warn_once("The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                   "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                   "to protect its data or make it writable before converting it to a tensor. This type of warning "
                   "will be suppressed for the rest of this program.")
    if tensor.is_leaf:
        return tensor.requires_grad_(requires_grad)
    return tensor if requires_grad else tensor.detach()

