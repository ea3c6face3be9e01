// python_ext/storage_object.cpp: wick._C._StorageBase (wick.UntypedStorage) and the tensor functions on storages.
#include "storage_object.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "device_object.h"
#include "dtype_object.h"
#include "errors.h"
#include "legacy_tensors.h"
#include "owned_ref.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/ops/empty.h"
#include "wick/overflow.h"

namespace wick {
namespace python {
namespace {

// See Note [Storage objects].
PyTypeObject* untyped_class = &StorageBaseType;
PyObject* typed_class = nullptr;

// Copies bytes between the memory of storages on any devices; the ranges may overlap on the CPU.
void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  if (nbytes == 0) return;
  if (dst_device.is_cpu() && src_device.is_cpu()) std::memmove(dst, src, nbytes);
  else cuda_runtime::copy_bytes(dst, dst_device, src, src_device, nbytes);
}

Storage copy_of(const Storage& s, Device device) {
  Storage copy = allocate_storage(s->nbytes(), device);
  copy_bytes(copy->data(), device, s->data(), s->device(), s->nbytes());
  return copy;
}

PyObject* wrap_as(PyTypeObject* type, Storage storage) {
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) throw python_error();
  new (&reinterpret_cast<PyStorage*>(obj)->cdata) Storage(std::move(storage));
  return obj;
}

const Storage& self_storage(PyObject* self) { return unpack_storage(self); }

// An int that is no bool, as PyTorch's storages take for sizes, indices and byte values.
bool is_int(PyObject* obj) { return PyLong_Check(obj) && !PyBool_Check(obj); }

int64_t to_int64(PyObject* obj) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (v == -1 && PyErr_Occurred()) throw python_error();
  WICK_CHECK(!overflow, "Overflow when unpacking long");
  return v;
}

// As PyTorch casts an int into a byte: modulo 256.
uint8_t to_byte(PyObject* obj) { return uint8_t(to_int64(obj)); }

// The storage of the bytes of a sequence of ints, read once into a tuple (Note [Reading nested data]).
Storage storage_of_bytes(PyObject* seq, Device device) {
  const OwnedRef items(PySequence_Tuple(seq));
  const Py_ssize_t n = PyTuple_GET_SIZE(items.get());
  Storage host = allocate_storage(size_t(n), kCPU);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PyTuple_GET_ITEM(items.get(), i);
    WICK_CHECK(is_int(item), "UntypedStorage(): tried to construct a storage from a sequence (",
               Py_TYPE(seq)->tp_name, "), but one of the items was of type ", Py_TYPE(item)->tp_name,
               " instead of int");
    static_cast<uint8_t*>(host->data())[i] = to_byte(item);
  }
  return device.is_cpu() ? host : copy_of(host, device);
}

// UntypedStorage(size=0 | sequence of ints, /, *, device=None).
PyObject* storage_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return guarded(nullptr, [&]() -> PyObject* {
    static const char* keywords[] = {"", "device", nullptr};
    PyObject* data = nullptr;
    PyObject* device_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$O:UntypedStorage", const_cast<char**>(keywords), &data,
                                     &device_arg)) {
      throw python_error();
    }
    const Device device = device_arg == Py_None ? kCPU : to_device(device_arg);
    if (!data) return wrap_as(type, allocate_storage(0, device));
    if (is_int(data)) {
      const int64_t n = to_int64(data);
      WICK_CHECK(n >= 0, "Trying to create a storage of negative size ", n);
      return wrap_as(type, allocate_storage(size_t(n), device));
    }
    WICK_CHECK(PySequence_Check(data), "UntypedStorage(): Expected a sequence type, but got ", Py_TYPE(data)->tp_name);
    return wrap_as(type, storage_of_bytes(data, device));
  });
}

void storage_dealloc(PyObject* self) {
  reinterpret_cast<PyStorage*>(self)->cdata.~Storage();
  Py_TYPE(self)->tp_free(self);
}

// The byte index `index` of self, wrapped as Python wraps a negative one; IndexError out of range.
size_t byte_index(PyObject* self, PyObject* index) {
  WICK_CHECK_TYPE(is_int(index), "can't index a wick.UntypedStorage with ", Py_TYPE(index)->tp_name);
  const int64_t i = to_int64(index);
  const int64_t n = int64_t(self_storage(self)->nbytes());
  WICK_CHECK_INDEX(i >= -n && i < n, "index ", i, " out of range for storage of size ", n);
  return size_t(i < 0 ? i + n : i);
}

PyObject* storage_getitem(PyObject* self, PyObject* index) {
  return guarded(nullptr, [&]() -> PyObject* {
    const size_t i = byte_index(self, index);
    const Storage& s = self_storage(self);
    uint8_t value;
    copy_bytes(&value, kCPU, static_cast<const uint8_t*>(s->data()) + i, s->device(), 1);
    return PyLong_FromLong(value);
  });
}

int storage_setitem(PyObject* self, PyObject* index, PyObject* value) {
  return guarded(nullptr, [&]() -> int {
    WICK_CHECK_TYPE(value, "storage items cannot be deleted");
    WICK_CHECK_TYPE(is_int(index), "can't index a wick.UntypedStorage with ", Py_TYPE(index)->tp_name);
    // As PyTorch 1.13, which reads a negative index from the end but refuses to write at one.
    const int64_t i = to_int64(index);
    const int64_t n = int64_t(self_storage(self)->nbytes());
    WICK_CHECK(i >= 0 && i < n, "index ", i, " out of bounds for storage of size ", n);
    WICK_CHECK(PyLong_Check(value), "can only set storage content with a int types, but got ",
               Py_TYPE(value)->tp_name, " instead");
    const uint8_t byte = to_byte(value);
    const Storage& s = self_storage(self);
    copy_bytes(static_cast<uint8_t*>(s->data()) + i, s->device(), &byte, kCPU, 1);
    s->bump_version();
    return 0;
  });
}

Py_ssize_t storage_length(PyObject* self) { return Py_ssize_t(self_storage(self)->nbytes()); }

PyObject* storage_nbytes(PyObject* self, PyObject*) { return PyLong_FromSize_t(self_storage(self)->nbytes()); }
PyObject* storage_element_size(PyObject*, PyObject*) { return PyLong_FromLong(1); }
PyObject* storage_data_ptr(PyObject* self, PyObject*) {
  return PyLong_FromVoidPtr(self_storage(self)->data());
}

PyObject* storage_tolist(PyObject* self, PyObject*) {
  return guarded(nullptr, [&]() -> PyObject* {
    const Storage& s = self_storage(self);
    std::vector<uint8_t> bytes(s->nbytes());
    copy_bytes(bytes.data(), kCPU, s->data(), s->device(), bytes.size());
    OwnedRef list(PyList_New(Py_ssize_t(bytes.size())));
    for (size_t i = 0; i < bytes.size(); ++i) PyList_SET_ITEM(list.get(), Py_ssize_t(i), PyLong_FromLong(bytes[i]));
    return list.release();
  });
}

PyObject* storage_fill(PyObject* self, PyObject* value) {
  return guarded(nullptr, [&]() -> PyObject* {
    WICK_CHECK_TYPE(is_int(value), "fill_(): expected an int, got ", Py_TYPE(value)->tp_name);
    const uint8_t byte = to_byte(value);
    const Storage& s = self_storage(self);
    if (s->device().is_cpu()) {
      if (s->nbytes()) std::memset(s->data(), byte, s->nbytes());
    } else {
      copy_bytes(s->data(), s->device(), std::vector<uint8_t>(s->nbytes(), byte).data(), kCPU, s->nbytes());
    }
    s->bump_version();
    return Py_NewRef(self);
  });
}

// copy_(source, non_blocking=False): the bytes of another storage of the same size, from any device.
PyObject* storage_copy(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded(nullptr, [&]() -> PyObject* {
    static const char* keywords[] = {"source", "non_blocking", nullptr};
    PyObject* source = nullptr;
    int non_blocking = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p:copy_", const_cast<char**>(keywords), &source,
                                     &non_blocking)) {
      throw python_error();
    }
    const std::optional<StorageArg> arg = storage_arg(source);
    WICK_CHECK_TYPE(arg, "copy_(): expected a storage, got ", Py_TYPE(source)->tp_name);
    const Storage& s = self_storage(self);
    WICK_CHECK(arg->storage->nbytes() == s->nbytes(), "size does not match");
    copy_bytes(s->data(), s->device(), arg->storage->data(), arg->storage->device(), s->nbytes());
    s->bump_version();
    return Py_NewRef(self);
  });
}

PyObject* storage_clone(PyObject* self, PyObject*) {
  return guarded(nullptr, [&] {
    const Storage& s = self_storage(self);
    return wrap_as(Py_TYPE(self), copy_of(s, s->device()));
  });
}

PyObject* storage_cpu(PyObject* self, PyObject*) {
  return guarded(nullptr, [&] {
    const Storage& s = self_storage(self);
    return s->device().is_cpu() ? Py_NewRef(self) : wrap_as(Py_TYPE(self), copy_of(s, kCPU));
  });
}

PyObject* storage_is_shared(PyObject* self, PyObject*) { return PyBool_FromLong(self_storage(self)->is_shared()); }

PyObject* storage_share_memory(PyObject* self, PyObject*) {
  return guarded(nullptr, [&] {
    self_storage(self)->share_memory();  // See Note [Shared memory storage]
    return Py_NewRef(self);
  });
}

PyObject* storage_shared_fd(PyObject* self, PyObject*) { return PyLong_FromLong(self_storage(self)->shared_fd()); }

// _new_shared_fd(fd, nbytes): a storage over the shared-memory file `fd` (which the caller keeps).
PyObject* storage_new_shared_fd(PyObject* cls, PyObject* args) {
  return guarded(nullptr, [&]() -> PyObject* {
    PyObject* fd = nullptr;
    PyObject* nbytes = nullptr;
    if (!PyArg_ParseTuple(args, "OO:_new_shared_fd", &fd, &nbytes)) throw python_error();
    WICK_CHECK_TYPE(is_int(fd) && is_int(nbytes), "_new_shared_fd(fd, nbytes) takes two ints");
    const int64_t fd_value = to_int64(fd), size = to_int64(nbytes);
    WICK_CHECK(fd_value >= 0 && fd_value <= INT32_MAX && size >= 0, "_new_shared_fd(): bad fd ", fd_value,
               " or size ", size);
    return wrap_as(reinterpret_cast<PyTypeObject*>(cls), StorageImpl::from_shared_fd(int(fd_value), size_t(size)));
  });
}

PyObject* storage_get_device(PyObject* self, void*) {
  return guarded(nullptr, [&] { return device_object(self_storage(self)->device()); });
}
PyObject* storage_get_is_cuda(PyObject* self, void*) { return PyBool_FromLong(self_storage(self)->device().is_cuda()); }

PyMethodDef storage_methods[] = {
    {"nbytes", storage_nbytes, METH_NOARGS, "nbytes($self, /)\n--\n\nThe size of the storage in bytes."},
    {"size", storage_nbytes, METH_NOARGS, "size($self, /)\n--\n\nThe size of the storage in bytes, as nbytes()."},
    {"element_size", storage_element_size, METH_NOARGS, "element_size($self, /)\n--\n\n1: elements are bytes."},
    {"data_ptr", storage_data_ptr, METH_NOARGS,
     "data_ptr($self, /)\n--\n\nThe address of the first byte (0 for a storage of no bytes)."},
    {"tolist", storage_tolist, METH_NOARGS, "tolist($self, /)\n--\n\nThe bytes as a list of ints."},
    {"fill_", storage_fill, METH_O, "fill_($self, value, /)\n--\n\nSets every byte to value (modulo 256)."},
    {"copy_", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(storage_copy)),
     METH_VARARGS | METH_KEYWORDS,
     "copy_($self, source, non_blocking=False)\n--\n\nCopies the bytes of a storage of the same size."},
    {"clone", storage_clone, METH_NOARGS, "clone($self, /)\n--\n\nA copy of the bytes on the same device."},
    {"cpu", storage_cpu, METH_NOARGS, "cpu($self, /)\n--\n\nself on the CPU, else a copy there."},
    {"is_shared", storage_is_shared, METH_NOARGS,
     "is_shared($self, /)\n--\n\nWhether the bytes are in shared memory (always for CUDA)."},
    {"share_memory_", storage_share_memory, METH_NOARGS,
     "share_memory_($self, /)\n--\n\nMoves the bytes into shared memory, seen by every tensor on the storage and by "
     "processes forked afterwards; nothing for CUDA or when already shared."},
    {"_shared_fd", storage_shared_fd, METH_NOARGS,
     "_shared_fd($self, /)\n--\n\nThe file descriptor of the shared memory, -1 when not shared."},
    {"_new_shared_fd", storage_new_shared_fd, METH_VARARGS | METH_CLASS,
     "_new_shared_fd(fd, nbytes, /)\n--\n\nA storage over nbytes of a shared-memory file descriptor (duplicated)."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef storage_getset[] = {
    {"device", storage_get_device, nullptr, "Where the bytes live.", nullptr},
    {"is_cuda", storage_get_is_cuda, nullptr, "Whether the bytes live on a CUDA device.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMappingMethods storage_as_mapping = {storage_length, storage_getitem, storage_setitem};

// _set_storage_classes(untyped, typed): see Note [Storage objects].
PyObject* set_storage_classes(PyObject*, PyObject* args) {
  PyObject* untyped = nullptr;
  PyObject* typed = nullptr;
  if (!PyArg_ParseTuple(args, "O!O!:_set_storage_classes", &PyType_Type, &untyped, &PyType_Type, &typed)) {
    return nullptr;
  }
  if (!PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(untyped), &StorageBaseType)) {
    PyErr_SetString(PyExc_TypeError, "_set_storage_classes(): the untyped class must subclass _StorageBase");
    return nullptr;
  }
  Py_INCREF(untyped);
  untyped_class = reinterpret_cast<PyTypeObject*>(untyped);
  Py_XSETREF(typed_class, Py_NewRef(typed));
  Py_RETURN_NONE;
}

const Tensor& tensor_arg(PyObject* obj, const char* what) {
  WICK_CHECK_TYPE(is_tensor(obj), what, " must be a Tensor, not ", Py_TYPE(obj)->tp_name);
  return unpack_tensor(obj);
}

// A tuple of ints (no bools), read without running Python code.
DimVector int_tuple(PyObject* obj, const char* what) {
  WICK_CHECK_TYPE(PyTuple_Check(obj), what, " must be a tuple of ints, not ", Py_TYPE(obj)->tp_name);
  DimVector values;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(obj); ++i) {
    PyObject* item = PyTuple_GET_ITEM(obj, i);
    WICK_CHECK_TYPE(is_int(item), what, " must be a tuple of ints, but got an element of type ",
                    Py_TYPE(item)->tp_name);
    values.push_back(to_int64(item));
  }
  return values;
}

PyObject* tensor_untyped_storage(PyObject*, PyObject* arg) {
  return guarded(nullptr, [&] { return wrap_storage(tensor_arg(arg, "self").storage()); });
}

// _tensor_set_(self, source, storage_offset, size, stride): Tensor.set_ once wick/storage.py has sorted out its
// overloads. source None: empty; a tensor (the rest None); or a storage, with storage_offset an int and size and
// stride tuples or None (the whole storage, contiguous). See Note [set_].
PyObject* tensor_set(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  return guarded("set_", [&]() -> PyObject* {
    WICK_CHECK_TYPE(nargs == 5, "_tensor_set_(self, source, storage_offset, size, stride)");
    const Tensor& self = tensor_arg(args[0], "self");
    PyObject* source = args[1];
    if (source == Py_None) {
      set_(self);
    } else if (is_tensor(source)) {
      WICK_CHECK_TYPE(args[2] == Py_None && args[3] == Py_None && args[4] == Py_None,
                      "set_(Tensor source) takes no geometry; use set_(source.untyped_storage(), ...)");
      set_(self, unpack_tensor(source));
    } else {
      const std::optional<StorageArg> arg = storage_arg(source);
      WICK_CHECK_TYPE(arg, "source must be a Tensor or a storage, not ", Py_TYPE(source)->tp_name);
      Storage storage = storage_for(*arg, self.dtype());
      WICK_CHECK_TYPE(args[2] == Py_None || is_int(args[2]), "storage_offset must be an int, not ",
                      Py_TYPE(args[2])->tp_name);
      const int64_t offset = args[2] == Py_None ? 0 : to_int64(args[2]);
      // Storage is memory a process holds: its size fits in int64 (Note [Checked size arithmetic]).
      const DimVector sizes = args[3] == Py_None ? DimVector{int64_t(storage->nbytes()) / self.itemsize()}
                                                 : int_tuple(args[3], "size");
      std::optional<DimVector> strides;
      if (args[4] != Py_None) strides = int_tuple(args[4], "stride");
      set_(self, std::move(storage), offset, sizes, strides ? std::optional<IntArrayRef>(*strides) : std::nullopt);
    }
    return Py_NewRef(args[0]);
  });
}

// _tensor_is_set_to(self, other): whether both are the same geometry over the same storage, as PyTorch.
PyObject* tensor_is_set_to(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  return guarded("is_set_to", [&]() -> PyObject* {
    WICK_CHECK_TYPE(nargs == 2, "is_set_to(tensor) takes one argument");
    const Tensor& a = tensor_arg(args[0], "self");
    const Tensor& b = tensor_arg(args[1], "tensor");
    return PyBool_FromLong(a.storage() == b.storage() && a.storage_offset() == b.storage_offset() &&
                           a.sizes() == b.sizes() && a.strides() == b.strides());
  });
}

}  // namespace

PyTypeObject StorageBaseType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick._C._StorageBase";
  t.tp_basicsize = sizeof(PyStorage);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  t.tp_doc = "The C type behind wick.UntypedStorage: bytes shared by the tensors on them.";
  t.tp_new = storage_new;
  t.tp_dealloc = storage_dealloc;
  t.tp_methods = storage_methods;
  t.tp_getset = storage_getset;
  t.tp_as_mapping = &storage_as_mapping;
  return t;
}();

PyObject* wrap_storage(Storage storage) { return wrap_as(untyped_class, std::move(storage)); }

std::optional<StorageArg> storage_arg(PyObject* obj) {
  if (is_storage(obj)) return StorageArg{unpack_storage(obj), std::nullopt};
  if (!typed_class || !PyObject_TypeCheck(obj, reinterpret_cast<PyTypeObject*>(typed_class))) return std::nullopt;
  const OwnedRef untyped(PyObject_GetAttrString(obj, "_untyped_storage"));
  const OwnedRef dtype(PyObject_GetAttrString(obj, "dtype"));
  WICK_CHECK_TYPE(is_storage(untyped.get()) && is_dtype(dtype.get()), "a TypedStorage without an untyped storage "
                  "or a dtype");
  return StorageArg{unpack_storage(untyped.get()), reinterpret_cast<PyDType*>(dtype.get())->dtype};
}

Storage storage_for(const StorageArg& arg, DType dtype) {
  // PyTorch names the dtypes as its scalar types: "Float" for FloatTensor's.
  auto name = [](DType d) {
    const std::string legacy = kLegacyTensorNames[int(d)];
    return legacy.substr(0, legacy.size() - std::strlen("Tensor"));
  };
  WICK_CHECK(!arg.dtype || *arg.dtype == dtype, "Expected a Storage of type ", name(dtype),
             " or an UntypedStorage, but got type ", name(*arg.dtype), " for argument 1 'storage'");
  return arg.storage;
}

bool init_storage_type(PyObject* module) {
  if (PyType_Ready(&StorageBaseType) < 0) return false;
  return PyModule_AddObjectRef(module, "_StorageBase", reinterpret_cast<PyObject*>(&StorageBaseType)) == 0;
}

PyMethodDef storage_functions[] = {
    {"_set_storage_classes", set_storage_classes, METH_VARARGS,
     "_set_storage_classes(untyped, typed, /)\n--\n\nRegisters wick.UntypedStorage and wick.TypedStorage."},
    {"_tensor_untyped_storage", tensor_untyped_storage, METH_O,
     "_tensor_untyped_storage(self, /)\n--\n\nThe storage of a tensor, as a new wick.UntypedStorage."},
    {"_tensor_set_", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(tensor_set)), METH_FASTCALL,
     "_tensor_set_(self, source, storage_offset, size, stride, /)\n--\n\nTensor.set_ (wick/storage.py)."},
    {"_tensor_is_set_to", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(tensor_is_set_to)),
     METH_FASTCALL, "_tensor_is_set_to(self, tensor, /)\n--\n\nTensor.is_set_to."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
