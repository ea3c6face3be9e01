// python_ext/dlpack.cpp: DLPack export (_C._to_dlpack, behind Tensor.__dlpack__) and wick.from_dlpack.
#include <Python.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "dlpack.h"
#include "arg_parser.h"
#include "errors.h"
#include "interop.h"
#include "tensor_type.h"
#include "wick/core_ops.h"

namespace wick {
namespace python {
namespace {

// Note [DLPack lifetime]
// ~~~~~~~~~~~~~~~~~~~~~~
// Export: a capsule owns one managed tensor (legacy DLManagedTensor under
// "dltensor", or DLManagedTensorVersioned under "dltensor_versioned") whose
// manager_ctx is an Exported holding a reference to the storage and the
// shape and strides arrays the DLTensor points at. A consumer that takes it
// over renames the capsule "used_..." and calls the managed deleter when done
// (from any thread); the capsule's destructor calls the deleter only when the
// capsule still has its original name, i.e. when nobody took it over. The
// deleter drops the storage reference; if that storage borrows Python memory
// its own deleter takes the GIL (See Note [Releasing Python memory from core]).
//
// Import: from_dlpack builds a Storage over the producer's memory whose
// deleter calls the managed tensor's deleter under the GIL (producers such as
// NumPy release Python objects there), and renames the capsule only once that
// Storage owns the managed tensor, so that exactly one of the two calls it.

template <typename Managed>
struct Exported {
  Managed managed{};
  Storage storage;
  DimVector shape;
  DimVector strides;
};

template <typename Managed>
void delete_exported(Managed* self) {
  delete static_cast<Exported<Managed>*>(self->manager_ctx);
}

template <typename Managed>
constexpr bool is_versioned = std::is_same_v<Managed, DLManagedTensorVersioned>;

// A valid address for tensors of zero bytes: some consumers refuse a null data pointer.
alignas(256) char empty_data[256];

DLDataType dl_dtype(DType d) {
  switch (d) {
    case DType::Bool: return {kDLBool, 8, 1};
    case DType::UInt8: return {kDLUInt, 8, 1};
    case DType::Int8: return {kDLInt, 8, 1};
    case DType::Int16: return {kDLInt, 16, 1};
    case DType::Int32: return {kDLInt, 32, 1};
    case DType::Int64: return {kDLInt, 64, 1};
    case DType::Float16: return {kDLFloat, 16, 1};
    case DType::BFloat16: return {kDLBfloat, 16, 1};
    case DType::Float32: return {kDLFloat, 32, 1};
    case DType::Float64: return {kDLFloat, 64, 1};
  }
  WICK_INTERNAL_ASSERT(false, "unknown dtype");
  return {};
}

DType from_dl_dtype(DLDataType t) {
  WICK_CHECK_TYPE(t.lanes == 1, "unsupported DLPack dtype with ", t.lanes, " lanes (only 1 is supported)");
  const int code = t.code, bits = t.bits;
  if (code == kDLBool && bits == 8) return DType::Bool;
  if (code == kDLUInt && bits == 8) return DType::UInt8;
  if (code == kDLInt && bits == 8) return DType::Int8;
  if (code == kDLInt && bits == 16) return DType::Int16;
  if (code == kDLInt && bits == 32) return DType::Int32;
  if (code == kDLInt && bits == 64) return DType::Int64;
  if (code == kDLFloat && bits == 16) return DType::Float16;
  if (code == kDLBfloat && bits == 16) return DType::BFloat16;
  if (code == kDLFloat && bits == 32) return DType::Float32;
  if (code == kDLFloat && bits == 64) return DType::Float64;
  detail::fail<TypeError>("unsupported DLPack dtype (type code ", code, ", ", bits,
                          " bits); wick supports bool, uint8, int8..int64, float16, bfloat16, float32 and float64");
}

Device from_dl_device(DLDevice d) {
  if (d.device_type == kDLCPU || d.device_type == kDLCUDAHost) return kCPU;  // pinned memory is host memory
  if (d.device_type == kDLCUDA) {
    WICK_CHECK(WICK_WITH_CUDA, "a DLPack tensor on CUDA device ", d.device_id, ", but wick was built without CUDA");
    WICK_CHECK_VALUE(d.device_id >= 0 && d.device_id <= INT16_MAX, "bad CUDA device id ", d.device_id);
    return Device{DeviceType::CUDA, int16_t(d.device_id)};
  }
  detail::fail<NotImplementedError>("a DLPack tensor on device type ", int(d.device_type),
                                    "; wick supports only CPU (1), CUDA (2) and CUDA host (3) memory");
}

template <typename Managed>
Managed* export_tensor(const Tensor& t, bool copied) {
  (void)copied;  // only the versioned struct can say so
  auto ctx = std::make_unique<Exported<Managed>>();
  ctx->storage = t.storage();
  ctx->shape = t.sizes().vec();
  ctx->strides = t.strides().vec();
  Managed& m = ctx->managed;
  DLTensor& dl = m.dl_tensor;
  dl.data = t.data_ptr() ? static_cast<void*>(t.data_ptr()) : empty_data;
  dl.device = t.device().is_cuda() ? DLDevice{kDLCUDA, t.device().index} : DLDevice{kDLCPU, 0};
  dl.ndim = int32_t(t.dim());
  dl.dtype = dl_dtype(t.dtype());
  dl.shape = ctx->shape.data();
  dl.strides = ctx->strides.data();
  dl.byte_offset = 0;
  if constexpr (is_versioned<Managed>) {
    m.version = {kDLPackMajorVersion, kDLPackMinorVersion};
    m.flags = copied ? kDLPackFlagIsCopied : 0;
  }
  m.manager_ctx = ctx.get();
  m.deleter = &delete_exported<Managed>;
  return &ctx.release()->managed;
}

template <typename Managed>
void capsule_destructor(PyObject* capsule) {
  const char* name = is_versioned<Managed> ? kDLTensorVersionedName : kDLTensorName;
  if (!PyCapsule_IsValid(capsule, name)) return;  // taken over by a consumer, which calls the deleter
  Managed* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (m->deleter) m->deleter(m);
}

template <typename Managed>
PyObject* make_capsule(const Tensor& t, bool copied) {
  Managed* m = export_tensor<Managed>(t, copied);
  PyObject* capsule = PyCapsule_New(m, is_versioned<Managed> ? kDLTensorVersionedName : kDLTensorName,
                                    &capsule_destructor<Managed>);
  if (!capsule) {
    m->deleter(m);
    throw python_error();
  }
  return capsule;
}

// _to_dlpack(tensor, versioned, copied): the capsule Tensor.__dlpack__ returns.
PyObject* to_dlpack(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
  return guarded("__dlpack__", [&]() -> PyObject* {
    WICK_CHECK_TYPE(nargs == 3 && is_tensor(args[0]), "_to_dlpack(tensor, versioned, copied)");
    const Tensor& t = unpack_tensor(args[0]);
    const int versioned = PyObject_IsTrue(args[1]), copied = PyObject_IsTrue(args[2]);
    if (versioned < 0 || copied < 0) throw python_error();
    return versioned ? make_capsule<DLManagedTensorVersioned>(t, copied) : make_capsule<DLManagedTensor>(t, copied);
  });
}

template <typename Managed>
void release_imported(void* /*data*/, void* ctx) {
  with_gil([ctx] {
    Managed* m = static_cast<Managed*>(ctx);
    m->deleter(m);
  });
}

// A tensor over the memory of `m`, which it then owns; renames `capsule` to `used_name`.
template <typename Managed>
Tensor import_managed(Managed* m, PyObject* capsule, const char* used_name) {
  const DLTensor& dl = m->dl_tensor;
  const DType dtype = from_dl_dtype(dl.dtype);
  const Device device = from_dl_device(dl.device);
  WICK_CHECK_VALUE(dl.ndim >= 0 && (dl.ndim == 0 || dl.shape), "invalid DLTensor: ndim ", dl.ndim,
                   dl.shape ? "" : " with no shape");
  const int64_t itemsize = wick::itemsize(dtype);
  DimVector sizes(dl.shape, dl.shape + dl.ndim);
  for (int64_t s : sizes) WICK_CHECK_VALUE(s >= 0, "invalid DLTensor: negative size in ", shape_str(sizes));
  const int64_t numel = checked_numel(sizes);
  DimVector strides = dl.strides ? DimVector(dl.strides, dl.strides + dl.ndim) : contiguous_strides(sizes);
  int64_t last = 0;  // offset of the furthest element, in elements
  for (size_t d = 0; d < sizes.size(); ++d) {
    WICK_CHECK_VALUE(strides[d] >= 0, "the DLPack tensor has a negative stride (strides ", shape_str(strides),
                     "), which wick does not support; make a contiguous copy first");
    int64_t reach = 0;
    WICK_CHECK_VALUE(sizes[d] == 0 || (!__builtin_mul_overflow(sizes[d] - 1, strides[d], &reach) &&
                                       !__builtin_add_overflow(last, reach, &last)),
                     "invalid DLTensor: strides ", shape_str(strides), " overflow");
  }
  size_t nbytes = 0;
  if (numel > 0) {
    WICK_CHECK_VALUE(!__builtin_mul_overflow(size_t(last) + 1, size_t(itemsize), &nbytes),
                     "invalid DLTensor: too large");
    WICK_CHECK_VALUE(dl.data, "invalid DLTensor: null data for ", numel, " elements");
  }
  char* data = static_cast<char*>(dl.data) + dl.byte_offset;
  WICK_CHECK_VALUE(numel == 0 || reinterpret_cast<uintptr_t>(data) % uintptr_t(itemsize) == 0,
                   "the DLPack tensor's data is not aligned to its element size (", itemsize, " bytes)");
  // See Note [DLPack lifetime]: from here on the storage calls the deleter, never the capsule.
  Storage storage =
      Storage::make(data, nbytes, device, m->deleter ? &release_imported<Managed> : nullptr, static_cast<void*>(m));
  const int renamed = PyCapsule_SetName(capsule, used_name);
  WICK_INTERNAL_ASSERT(renamed == 0, "could not rename a DLPack capsule");
  return make_tensor(std::move(storage), dtype, std::move(sizes), std::move(strides), 0);
}

Tensor import_capsule(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kDLTensorVersionedName)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, kDLTensorVersionedName));
    if (m->version.major != kDLPackMajorVersion) {
      detail::fail<BufferError>("the capsule holds DLPack ", unsigned(m->version.major), ".",
                                unsigned(m->version.minor), "; wick reads DLPack ", unsigned(kDLPackMajorVersion),
                                ".x");
    }
    if ((m->flags & kDLPackFlagReadOnly) &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "from_dlpack(): the DLPack tensor is read-only, and wick does not support non-writable "
                     "tensors: do not write to the result",
                     1) < 0) {
      throw python_error();
    }
    return import_managed(m, capsule, kUsedDLTensorVersionedName);
  }
  if (PyCapsule_IsValid(capsule, kDLTensorName)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kDLTensorName));
    return import_managed(m, capsule, kUsedDLTensorName);
  }
  const char* name = PyCapsule_GetName(capsule);
  if (!name && PyErr_Occurred()) throw python_error();
  const std::string got = name ? name : "";
  WICK_CHECK_VALUE(got != kUsedDLTensorName && got != kUsedDLTensorVersionedName,
                   "this DLPack capsule was already consumed; a capsule can be imported only once");
  detail::fail<TypeError>("expected a DLPack capsule named 'dltensor' or 'dltensor_versioned', got a capsule named '",
                          got, "'");
}

// Calls obj.__dlpack__(), as a DLPack 1.0 consumer: it asks for a versioned
// capsule and, for a producer that predates the keyword (NumPy < 2, PyTorch
// < 2.4), falls back to the legacy call.
PyObject* call_dlpack(PyObject* obj) {
  PyObject* method = PyObject_GetAttrString(obj, "__dlpack__");
  if (!method) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw python_error();
    PyErr_Clear();
    detail::fail<TypeError>("expected a DLPack capsule or an object with __dlpack__(), got ",
                            Py_TYPE(obj)->tp_name);
  }
  std::unique_ptr<PyObject, void (*)(PyObject*)> owned(method, [](PyObject* o) { Py_DECREF(o); });
  // A CUDA producer orders its work before the legacy default stream (1), where wick runs its kernels.
  PyObject* stream = Py_None;
  if (PyObject_HasAttrString(obj, "__dlpack_device__")) {
    PyObject* device = PyObject_CallMethod(obj, "__dlpack_device__", nullptr);
    if (!device) throw python_error();
    long type = -1;
    if (PyTuple_Check(device) && PyTuple_GET_SIZE(device) == 2) type = PyLong_AsLong(PyTuple_GET_ITEM(device, 0));
    Py_DECREF(device);
    if (type == -1 && PyErr_Occurred()) throw python_error();
    if (type == kDLCUDA) stream = PyLong_FromLong(1);
    else Py_INCREF(stream);
  } else {
    Py_INCREF(stream);
  }
  std::unique_ptr<PyObject, void (*)(PyObject*)> stream_ref(stream, [](PyObject* o) { Py_DECREF(o); });
  PyObject* kwargs = Py_BuildValue("{s:(ii),s:O}", "max_version", int(kDLPackMajorVersion),
                                   int(kDLPackMinorVersion), "stream", stream);
  if (!kwargs) throw python_error();
  PyObject* empty = PyTuple_New(0);
  PyObject* capsule = empty ? PyObject_Call(method, empty, kwargs) : nullptr;
  if (!capsule && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    if (PyDict_DelItemString(kwargs, "max_version") == 0) {
      if (stream == Py_None) PyDict_Clear(kwargs);  // the oldest producers take no arguments at all
      capsule = PyObject_Call(method, empty, kwargs);
    }
  }
  Py_XDECREF(empty);
  Py_DECREF(kwargs);
  if (!capsule) throw python_error();
  return capsule;
}

PyObject* from_dlpack(PyObject* /*module*/, PyObject* obj) {
  return guarded("from_dlpack", [&]() -> PyObject* { return wrap(tensor_from_dlpack(obj)); });
}

}  // namespace

std::optional<Tensor> tensor_from_foreign(PyObject* obj) {
  if (is_tensor(obj) || PyList_Check(obj) || PyTuple_Check(obj)) return std::nullopt;  // what tensor() meets most
  if (PyObject_HasAttrString(obj, "__dlpack__") != 1) return std::nullopt;
  try {
    return tensor_from_dlpack(obj);
  } catch (const python_error&) {
    PyErr_Clear();
  }
  // Its NumPy view, where it has one (PyTorch's bool tensors): an ndarray over the same memory.
  PyObject* array = PyObject_CallMethod(obj, "__array__", nullptr);
  if (!array) {
    PyErr_Clear();
    return std::nullopt;
  }
  std::unique_ptr<PyObject, void (*)(PyObject*)> owned(array, [](PyObject* o) { Py_DECREF(o); });
  if (!is_ndarray(array)) return std::nullopt;
  return tensor_from_numpy(array);
}

Tensor tensor_from_dlpack(PyObject* obj) {
  PyObject* capsule = PyCapsule_CheckExact(obj) ? Py_NewRef(obj) : call_dlpack(obj);
  std::unique_ptr<PyObject, void (*)(PyObject*)> owned(capsule, [](PyObject* o) { Py_DECREF(o); });
  WICK_CHECK_TYPE(PyCapsule_CheckExact(capsule), "__dlpack__() returned ", Py_TYPE(capsule)->tp_name,
                  ", not a DLPack capsule");
  return import_capsule(capsule);
}

PyMethodDef dlpack_functions[] = {
    {"from_dlpack", from_dlpack, METH_O,
     "from_dlpack(ext_tensor, /)\n--\n\n"
     "A tensor sharing memory with `ext_tensor`: an object with __dlpack__() (a NumPy array, a PyTorch "
     "tensor, ...) or a DLPack capsule, legacy ('dltensor') or versioned ('dltensor_versioned'). The "
     "producer's memory stays alive as long as the tensor's storage."},
    {"_to_dlpack", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(to_dlpack)), METH_FASTCALL,
     "_to_dlpack(tensor, versioned, copied, /)\n--\n\n"
     "The DLPack capsule behind Tensor.__dlpack__: versioned ('dltensor_versioned', DLPack 1.0) or legacy."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
