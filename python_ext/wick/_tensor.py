"""wick.Tensor: the C type wick._C.TensorBase, plus what is easiest said in Python."""
import warnings

from wick import (_C, autograd, contractions, index_functions, pointwise_functions, reduction_functions, sampling,
                  scan_functions, serialization, shape_functions)
from wick._arguments import _tensor


class Tensor(_C.TensorBase):
    """A multi-dimensional array of one dtype on one device.

    wick.Tensor(2, 3) is uninitialised float32 of shape (2, 3); wick.Tensor([1, 2])
    copies data into float32. Prefer wick.tensor(data), wick.zeros(...) and friends.
    """

    __module__ = "wick"
    __hash__ = object.__hash__  # identity, although == is elementwise
    __array_priority__ = 1000  # NumPy defers to the tensor's operators: np.float32(2) + x is a tensor

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _C._init_subclass(cls)

    def __repr__(self):
        return _C._tensor_repr(self)

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError(f"Boolean value of Tensor with {self.numel()} values is ambiguous")
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())  # a bool tensor indexes as 0 or 1

    def __format__(self, format_spec):
        # As PyTorch: a 0-d tensor formats as its number (f"{x:.2f}"); any other tensor, and a subclass's, only
        # with an empty spec, as its str().
        if self.dim() == 0 and type(self) is Tensor:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def __contains__(self, element):
        return _C.sum(_C.eq(self, element)).item() > 0

    def is_floating_point(self):
        """is_floating_point() -> bool: whether the dtype is a floating-point one."""
        return self.dtype.is_floating_point

    def is_complex(self):
        """is_complex() -> bool: whether the dtype is a complex one; wick has none yet."""
        return False

    def is_signed(self):
        """is_signed() -> bool: whether the dtype holds negative numbers (all but bool and uint8)."""
        return self.dtype.is_signed

    def where(self, condition, other):
        """where(condition, other) -> Tensor: wick.where(condition, self, other), with other a tensor."""
        _tensor("where", "condition", 1, condition)
        return _C.where(condition, self, _tensor("where", "other", 2, other))

    def element_size(self):
        """element_size() -> int: the size of one element, in bytes."""
        return self.dtype.itemsize

    def nelement(self):
        """nelement() -> int: an alias of numel()."""
        return self.numel()

    @property
    def T(self):
        return self.permute(tuple(range(self.dim() - 1, -1, -1)))

    @property
    def H(self):
        """This matrix (2-D only) conjugated and transposed: a view, the same as T for wick's real dtypes."""
        if self.dim() != 2:
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor."
                               + (" For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""))
        return self.transpose(0, 1)

    @property
    def mT(self):
        """The matrices of this tensor transposed: a view with the last two dims swapped."""
        return _transposed_matrices(self, "mT")

    @property
    def mH(self):
        """The matrices of this tensor conjugated and transposed: a view, the same as mT for wick's real dtypes."""
        return _transposed_matrices(self, "mH")

    def adjoint(self):
        """adjoint() -> Tensor: the matrices conjugated and transposed, as tensor.mH."""
        return _transposed_matrices(self, "adjoint()")

    def view_as(self, other):
        """view_as(other) -> Tensor: self.view(other.size())."""
        return self.view(_tensor("view_as", "other", 1, other).shape)

    def reshape_as(self, other):
        """reshape_as(other) -> Tensor: self.reshape(other.size())."""
        return self.reshape(_tensor("reshape_as", "other", 1, other).shape)

    def type_as(self, other):
        """type_as(other) -> Tensor: this tensor in other's dtype and on its device (itself when both match)."""
        return self.to(_tensor("type_as", "other", 1, other))

    # Tensors of this one's dtype and on its device unless told otherwise (PyTorch's Tensor.new_*).
    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        """new_empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor: uninitialised."""
        return _C.empty(*size, **self._like(dtype, device, requires_grad))

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        """new_zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor: filled with 0."""
        return _C.zeros(*size, **self._like(dtype, device, requires_grad))

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        """new_ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor: filled with 1."""
        return _C.ones(*size, **self._like(dtype, device, requires_grad))

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        """new_full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor"""
        return _C.full(size, fill_value, **self._like(dtype, device, requires_grad))

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        """new_tensor(data, *, dtype=None, device=None, requires_grad=False) -> Tensor

        A copy of data (a tensor's too, detached from its graph) in this tensor's dtype unless dtype is given.
        """
        if isinstance(data, _C.TensorBase):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() or "
                          "sourceTensor.clone().detach().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data.detach()
        return _C.tensor(data, **self._like(dtype, device, requires_grad))

    def _like(self, dtype, device, requires_grad):
        return {"dtype": self.dtype if dtype is None else dtype, "device": self.device if device is None else device,
                "requires_grad": requires_grad}

    # Autograd (wick/autograd): the engine and the hooks are core's.
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """backward(gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None

        Accumulates the gradient of this tensor into the .grad of the leaves of its graph
        (or of `inputs`). `gradient` may be left out for a tensor of one element.
        """
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def requires_grad_(self, requires_grad=True):
        """requires_grad_(requires_grad=True) -> Tensor

        Marks this leaf as needing a gradient (or not), in place.
        """
        self.requires_grad = requires_grad
        return self

    def retain_grad(self):
        """retain_grad() -> None

        Keeps the gradient of this non-leaf in its .grad after backward().
        """
        _C._retain_grad(self)

    def register_hook(self, hook):
        """register_hook(hook) -> RemovableHandle

        Calls hook(grad) with this tensor's gradient each time one is computed; a tensor it
        returns replaces the gradient. The handle's remove() takes the hook off.
        """
        return RemovableHandle(self, _C._register_hook(self, hook))

    # NumPy and DLPack see the tensor's own memory: nothing here copies unless asked
    # (python_ext/buffer.cpp and dlpack.cpp hold the lifetime rules).
    def numpy(self, *, force=False):
        """numpy(*, force=False) -> numpy.ndarray

        An ndarray over the tensor's memory, without a copy: writes to either show in
        the other. CPU tensors only (force=True copies a CUDA tensor to the CPU first);
        NumPy has no bfloat16, so convert such a tensor with .to(wick.float32).
        """
        import numpy

        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        t = self.detach() if force else self
        t = t.cpu() if force and t.is_cuda else t
        if t.is_cuda:
            raise TypeError(f"can't convert {t.device} device type tensor to numpy. "
                            "Use Tensor.cpu() to copy the tensor to host memory first.")
        if t.dtype is _C.bfloat16:
            raise TypeError("can't convert a bfloat16 tensor to numpy: NumPy has no bfloat16. "
                            "Convert it first with .to(wick.float32).")
        return numpy.asarray(memoryview(t))

    def __array__(self, dtype=None, copy=None):
        import numpy

        array = self.numpy()
        if dtype is not None and numpy.dtype(dtype) != array.dtype:
            if copy is False:
                raise ValueError(f"Unable to avoid copy while creating an array as requested: "
                                 f"a {self.dtype} tensor as numpy.{numpy.dtype(dtype)} needs a conversion")
            return array.astype(dtype)
        return array.copy() if copy else array

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        """__dlpack__(stream=None, *, max_version=None, dl_device=None, copy=None) -> capsule

        The tensor as a DLPack capsule sharing its memory: the versioned kind
        ("dltensor_versioned", DLPack 1.0) when max_version allows major version 1, else
        the legacy "dltensor". copy=True exports a copy; dl_device=(1, 0) copies a CUDA
        tensor to the CPU unless copy=False. Wick runs CUDA kernels on the legacy default
        stream, which orders them before work on any blocking stream the consumer names.
        """
        for name, value in (("max_version", max_version), ("dl_device", dl_device)):
            if value is not None and not (isinstance(value, tuple) and len(value) == 2
                                          and all(isinstance(v, int) for v in value)):
                raise TypeError(f"__dlpack__(): {name} must be a tuple of two ints, got {value!r}")
        if self.is_cuda:
            if stream is not None and (not isinstance(stream, int) or stream == 0 or stream < -1):
                raise ValueError(f"__dlpack__(): stream must be None, -1 or a CUDA stream (never 0), got {stream!r}")
        elif stream is not None:
            raise ValueError(f"__dlpack__(): stream must be None for a CPU tensor, got {stream!r}")
        versioned = max_version is not None and max_version[0] >= 1
        source, copied = self, False
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            if tuple(dl_device) != (1, 0) or copy is False:
                raise BufferError(f"__dlpack__(): a {self.device} tensor cannot be exported to DLPack device "
                                  f"{tuple(dl_device)}" + (" without a copy" if copy is False else ""))
            source, copied = self.cpu(), True
        if copy and not copied:
            source, copied = self.clone(), True
        return _C._to_dlpack(source, versioned, copied)

    def __dlpack_device__(self):
        """(device_type, device_id) as DLPack numbers them: (1, 0) for the CPU, (2, n) for cuda:n."""
        device = self.device
        return (2, device.index) if device.type == "cuda" else (1, 0)

    # Pickling carries the tensor's bytes and its geometry over them (Note [Pickled tensors] in
    # wick/serialization.py). The attributes are pickle's state, set once the tensor exists, so that
    # they may refer to the tensor itself.
    def __reduce_ex__(self, protocol):
        cls = None if type(self) is Tensor else type(self)
        return serialization._rebuild, (*serialization._reduce_tensor(self), cls), self.__dict__ or None


def _transposed_matrices(tensor, name):
    # mT, mH and adjoint(): PyTorch 1.13 also gives a 0-d tensor back unchanged (deprecated there); wick refuses
    # it, as later PyTorch does.
    if tensor.dim() < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got {tensor.dim()}-D "
                           "tensor.")
    return tensor.transpose(-2, -1)


class RemovableHandle:
    """What register_hook() returns: remove() takes the hook off the tensor."""

    def __init__(self, tensor, handle):
        self._tensor, self._handle = tensor, handle

    def remove(self):
        if self._handle is not None:
            _C._remove_hook(self._tensor, self._handle)
            self._tensor = self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


# Methods that are Python functions of the package with the tensor first: x.tile(dims) is wick.tile(x, dims).
for _module in (shape_functions, index_functions, reduction_functions, scan_functions, contractions, sampling,
                pointwise_functions):
    for _name in _module.METHODS:
        setattr(Tensor, _name, getattr(_module, _name))

_C._set_tensor_class(Tensor)
