// python_ext/buffer.cpp: the buffer protocol on TensorBase, and wick.from_numpy over an ndarray's buffer.
#include <Python.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arg_parser.h"
#include "errors.h"
#include "interop.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/overflow.h"

namespace wick {
namespace python {
namespace {

// Note [Buffer export lifetime]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A Py_buffer points into the tensor's storage for as long as its consumer
// holds it (a memoryview, or the ndarray numpy.asarray built over one).
// view->obj keeps the Python tensor alive, but that is not enough: resize_()
// may re-point the tensor at bigger storage and drop the old one. So
// view->internal owns a reference to the storage itself, together with the
// shape and strides arrays the view points at, and bf_releasebuffer frees
// them. No memory is ever copied: writes through the buffer are writes to the
// tensor.
struct ExportedBuffer {
  Storage storage;
  std::vector<Py_ssize_t> shape;
  std::vector<Py_ssize_t> strides;  // in bytes
};

// A valid address for buffers of zero bytes, whose storage has no memory.
alignas(64) char empty_buffer[64];

// PEP 3118 format characters; NumPy reads them back as the same dtype.
const char* buffer_format(DType d) {
  switch (d) {
    case DType::Bool: return "?";
    case DType::UInt8: return "B";
    case DType::Int8: return "b";
    case DType::Int16: return "h";
    case DType::Int32: return "i";
    case DType::Int64: return sizeof(long) == 8 ? "l" : "q";  // 'l' is numpy.int64 itself on LP64
    case DType::Float16: return "e";
    case DType::Float32: return "f";
    case DType::Float64: return "d";
    case DType::BFloat16: return nullptr;  // PEP 3118 has no bfloat16
  }
  return nullptr;
}

bool is_f_contiguous(const Tensor& t) {
  if (t.numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= t.sizes()[d];
  }
  return true;
}

[[noreturn]] void buffer_error(const std::string& msg) {
  PyErr_SetString(PyExc_BufferError, msg.c_str());
  throw python_error();
}

int tensor_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  view->obj = nullptr;
  return guarded(nullptr, [&]() -> int {
    const Tensor& t = unpack_tensor(self);
    WICK_CHECK(t.defined(), "buffer of an uninitialised tensor");
    if (!t.device().is_cpu()) {
      buffer_error("a " + t.device().str() + " tensor has no buffer in host memory; copy it with .cpu() first");
    }
    const char* format = buffer_format(t.dtype());
    if (!format) {
      buffer_error(std::string("a ") + dtype_name(t.dtype()) +
                   " tensor has no buffer format (PEP 3118 and NumPy have no bfloat16); convert it first with .to(wick.float32)");
    }
    const bool c_contiguous = t.is_contiguous(), f_contiguous = is_f_contiguous(t);
    if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c_contiguous) {
      buffer_error("the tensor is not C-contiguous; call .contiguous() first");
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f_contiguous) {
      buffer_error("the tensor is not Fortran-contiguous");
    }
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c_contiguous && !f_contiguous) {
      buffer_error("the tensor is not contiguous; call .contiguous() first");
    }
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c_contiguous) {
      buffer_error("the tensor is not C-contiguous and the consumer did not ask for strides");
    }

    auto exported = std::make_unique<ExportedBuffer>();
    exported->storage = t.storage();
    for (int64_t d = 0; d < t.dim(); ++d) {
      exported->shape.push_back(Py_ssize_t(t.sizes()[d]));
      // Strides in bytes fit for a tensor with elements (Note [Checked size arithmetic]); for one
      // without, any stride serves.
      exported->strides.push_back(Py_ssize_t(mul_checked(t.strides()[d], t.itemsize()).value_or(0)));
    }
    const bool nd = (flags & PyBUF_ND) == PyBUF_ND;
    view->buf = t.data_ptr() ? t.data_ptr() : empty_buffer;
    view->len = Py_ssize_t(t.numel() * t.itemsize());
    view->itemsize = Py_ssize_t(t.itemsize());
    view->readonly = 0;
    view->format = (flags & PyBUF_FORMAT) ? const_cast<char*>(format) : nullptr;
    // Without PyBUF_ND the consumer sees the bytes as one flat run (contiguous, checked above).
    view->ndim = nd ? int(t.dim()) : 1;
    view->shape = nd ? exported->shape.data() : nullptr;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? exported->strides.data() : nullptr;
    view->suboffsets = nullptr;
    view->internal = exported.release();
    view->obj = Py_NewRef(self);
    return 0;
  });
}

void tensor_releasebuffer(PyObject* /*self*/, Py_buffer* view) {
  delete static_cast<ExportedBuffer*>(view->internal);  // See Note [Buffer export lifetime]
  view->internal = nullptr;
}

// Note [from_numpy lifetime]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// from_numpy() takes the array's buffer (PyObject_GetBuffer), which holds a
// reference to the array in view.obj; the Py_buffer, on the heap, becomes the
// ctx of the new Storage's deleter. The array therefore lives exactly as long
// as some tensor (or view of one) uses its memory, and the deleter gives the
// buffer back under the GIL (See Note [Releasing Python memory from core]).
// Until the Storage exists, a unique_ptr with the same release owns the buffer.
void release_buffer(void* /*data*/, void* ctx) {
  with_gil([ctx] {
    Py_buffer* view = static_cast<Py_buffer*>(ctx);
    PyBuffer_Release(view);
    delete view;
  });
}

struct BufferReleaser {
  void operator()(Py_buffer* view) const { release_buffer(nullptr, view); }
};

// Takes a new reference.
PyObject* attr(PyObject* obj, const char* name) {
  PyObject* value = PyObject_GetAttrString(obj, name);
  if (!value) throw python_error();
  return value;
}

std::string str_of(PyObject* obj) {
  PyObject* s = PyObject_Str(obj);
  if (!s) throw python_error();
  const char* utf8 = PyUnicode_AsUTF8(s);
  std::string out = utf8 ? utf8 : "?";
  Py_DECREF(s);
  if (!utf8) throw python_error();
  return out;
}

struct Ref {  // an owned reference, released on scope exit
  PyObject* p;
  ~Ref() { Py_XDECREF(p); }
};

// The wick dtype of a NumPy dtype object, from its str ("<f4", "|b1", ...); nullopt for one wick lacks.
std::optional<DType> wick_dtype(PyObject* np_dtype) {
  Ref typestr{attr(np_dtype, "str")};
  const std::string s = str_of(typestr.p);
  static const struct { const char* code; DType dtype; } table[] = {
      {"b1", DType::Bool}, {"u1", DType::UInt8}, {"i1", DType::Int8}, {"i2", DType::Int16},
      {"i4", DType::Int32}, {"i8", DType::Int64}, {"f2", DType::Float16}, {"f4", DType::Float32},
      {"f8", DType::Float64},
  };
  for (const auto& entry : table) {
    if (s.size() == 3 && s.compare(1, 2, entry.code) == 0) {
      const char native = PY_LITTLE_ENDIAN ? '<' : '>';
      WICK_CHECK_VALUE(s[0] == '|' || s[0] == '=' || s[0] == native,
                       "given numpy array has byte order different from the native byte order (dtype '", s,
                       "'); conversion between byte orders is not supported (use array.astype(array.dtype."
                       "newbyteorder('=')))");
      return entry.dtype;
    }
  }
  return std::nullopt;
}

// NumPy's module, or null (with no exception) while it is not imported.
PyObject* numpy_module() {
  static PyObject* const name = PyUnicode_InternFromString("numpy");
  if (!name) throw python_error();
  PyObject* numpy = PyImport_GetModule(name);
  if (!numpy && PyErr_Occurred()) throw python_error();
  return numpy;
}

// Whether obj is an instance of numpy.<type_name>; false while NumPy is not imported.
bool is_numpy(PyObject* obj, const char* type_name) {
  Ref numpy{numpy_module()};
  if (!numpy.p) return false;
  Ref type{attr(numpy.p, type_name)};
  const int is_instance = PyObject_IsInstance(obj, type.p);
  if (is_instance < 0) throw python_error();
  return is_instance;
}

// The wick dtype of an ndarray: TypeError for one wick lacks.
DType dtype_of_array(PyObject* array) {
  Ref np_dtype{attr(array, "dtype")};
  if (const std::optional<DType> d = wick_dtype(np_dtype.p)) return *d;
  detail::fail<TypeError>("can't convert np.ndarray of type numpy.", str_of(np_dtype.p),
                  ". The only supported types are: float64, float32, float16, int64, int32, int16, int8, uint8, "
                  "and bool.");
}

}  // namespace

bool is_ndarray(PyObject* obj) { return is_numpy(obj, "ndarray"); }

std::optional<DType> numpy_scalar_dtype(PyObject* obj) {
  if (!is_numpy(obj, "generic")) return std::nullopt;
  Ref np_dtype{attr(obj, "dtype")};
  return wick_dtype(np_dtype.p);
}

Tensor tensor_from_numpy(PyObject* array) {
  const DType dtype = dtype_of_array(array);

  std::unique_ptr<Py_buffer, BufferReleaser> view(new Py_buffer());
  if (PyObject_GetBuffer(array, view.get(), PyBUF_RECORDS_RO) < 0) {
    delete view.release();  // nothing to give back
    throw python_error();
  }
  const int64_t itemsize = wick::itemsize(dtype);
  WICK_INTERNAL_ASSERT(view->itemsize == itemsize, "numpy exported itemsize ", view->itemsize);
  DimVector sizes(view->shape, view->shape + view->ndim);
  DimVector strides = contiguous_strides(sizes);
  int64_t last = 0;  // the element furthest from the first, in elements
  bool empty = false;
  for (int d = 0; d < view->ndim; ++d) {
    const int64_t stride = view->strides ? int64_t(view->strides[d]) : strides[d] * itemsize;
    WICK_CHECK_VALUE(stride >= 0, "At least one stride in the given numpy array is negative, and tensors with "
                     "negative strides are not supported (make a copy of the array with array.copy() first)");
    WICK_CHECK_VALUE(stride % itemsize == 0, "given numpy array strides not a multiple of the element byte size ",
                     "(", itemsize, "); copy the numpy array to reallocate the memory");
    strides[d] = stride / itemsize;
    empty = empty || sizes[d] == 0;
    last += (sizes[d] - 1) * strides[d];
  }
  if (empty) last = -1;
  WICK_CHECK_VALUE(reinterpret_cast<uintptr_t>(view->buf) % uintptr_t(itemsize) == 0,
                   "given numpy array is not aligned to its element size (", itemsize,
                   " bytes); copy the numpy array first");
  if (view->readonly &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "The given NumPy array is not writable, and wick does not support non-writable tensors: "
                   "writing to the tensor writes to the array's memory. Copy the array (or make it writable) "
                   "first to avoid this warning.",
                   1) < 0) {
    throw python_error();
  }
  const size_t nbytes = size_t(last + 1) * size_t(itemsize);
  void* data = view->buf;
  Storage storage = Storage::make(data, nbytes, kCPU, &release_buffer, view.get());
  view.release();  // the storage owns it now
  return make_tensor(std::move(storage), dtype, std::move(sizes), std::move(strides), 0);
}

namespace {

PyObject* from_numpy(PyObject* /*module*/, PyObject* array) {
  return guarded("from_numpy", [&]() -> PyObject* {
    WICK_CHECK_TYPE(is_ndarray(array), "expected np.ndarray (got ", Py_TYPE(array)->tp_name, ")");
    return wrap(tensor_from_numpy(array));
  });
}

}  // namespace

PyBufferProcs tensor_as_buffer = {tensor_getbuffer, tensor_releasebuffer};

PyMethodDef buffer_functions[] = {
    {"from_numpy", from_numpy, METH_O,
     "from_numpy(ndarray, /)\n--\n\n"
     "A tensor sharing memory with a NumPy array: writes to either show in the other, and the array is kept "
     "alive as long as the tensor's storage. Supports bool, uint8, int8, int16, int32, int64, float16, float32 "
     "and float64 arrays with non-negative strides."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
