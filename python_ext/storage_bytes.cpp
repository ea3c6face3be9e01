// python_ext/storage_bytes.cpp: a tensor's storage as raw bytes and back (wick.save, wick.load, pickling).
#include <Python.h>

#include <cstdint>
#include <string>

#include "dtype_object.h"
#include "errors.h"
#include "interop.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/overflow.h"

namespace wick {
namespace python {
namespace {

// Note [Storage bytes]
// ~~~~~~~~~~~~~~~~~~~~
// Storages are untyped bytes shared by every view, so wick/serialization.py
// writes each storage once, as bytes, and each tensor as its geometry over
// one: dtype, sizes, strides and offset in elements. _storage_bytes(t) gives
// the whole storage of t as a 1-D uint8 tensor (offset 0, nbytes elements)
// and a key that is the same for every tensor of that storage while it lives.
// _tensor_over_bytes() goes back: a tensor of the given geometry over the
// storage of such a byte tensor. Its geometry comes from a file or a pickle,
// so every number is checked here, in checked arithmetic, before a tensor
// exists: non-negative sizes, strides and offset, an element count that fits
// in int64, every addressed byte inside the storage (an empty tensor's offset
// too, so that its data pointer stays inside), and an element address that
// is aligned for the dtype. A tensor that passes may be read and written like
// any other; one that does not is refused with a RuntimeError or ValueError.

// The tensor that is the whole of its storage as bytes, as _storage_bytes gives it; ValueError otherwise.
const Tensor& whole_storage_bytes(PyObject* obj) {
  WICK_CHECK_TYPE(is_tensor(obj), "expected the uint8 tensor of a storage's bytes, got ", Py_TYPE(obj)->tp_name);
  const Tensor& t = unpack_tensor(obj);
  WICK_CHECK_VALUE(t.dtype() == DType::UInt8 && t.dim() == 1 && t.storage_offset() == 0 &&
                       (t.numel() <= 1 || t.stride(0) == 1) && uint64_t(t.numel()) == t.storage()->nbytes(),
                   "expected a 1-D uint8 tensor over the whole of its storage, got a ", dtype_name(t.dtype()),
                   " tensor of sizes ", shape_str(t.sizes()), " at offset ", t.storage_offset(), " over ",
                   t.storage()->nbytes(), " bytes");
  return t;
}

// The ints of a tuple; ValueError for a negative one. Exact ints only, so no Python code runs.
DimVector non_negative_ints(PyObject* tuple, const char* what) {
  WICK_CHECK_TYPE(PyTuple_Check(tuple), what, " must be a tuple of ints, got ", Py_TYPE(tuple)->tp_name);
  DimVector values;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); ++i) {
    PyObject* item = PyTuple_GET_ITEM(tuple, i);
    WICK_CHECK_TYPE(PyLong_CheckExact(item), what, " must be a tuple of ints, got a ", Py_TYPE(item)->tp_name);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (v == -1 && PyErr_Occurred()) throw python_error();
    WICK_CHECK_VALUE(overflow == 0 && v >= 0, what, " must be non-negative ints that fit in int64, got ",
                     overflow ? "an int past int64" : std::to_string(v));
    values.push_back(v);
  }
  return values;
}

// _storage_bytes(tensor) -> (uint8 tensor, key): see Note [Storage bytes].
PyObject* storage_bytes(PyObject* /*module*/, PyObject* arg) {
  return guarded(nullptr, [&]() -> PyObject* {
    WICK_CHECK_TYPE(is_tensor(arg), "_storage_bytes(tensor): expected a tensor, got ", Py_TYPE(arg)->tp_name);
    const Storage& storage = unpack_tensor(arg).storage();
    // Storage is memory a process holds: its size fits in int64 (Note [Checked size arithmetic]).
    const int64_t nbytes = int64_t(storage->nbytes());
    PyObject* bytes = wrap(make_tensor(storage, DType::UInt8, {nbytes}, {1}, 0));
    if (!bytes) return nullptr;
    return Py_BuildValue("(NN)", bytes, PyLong_FromVoidPtr(storage.get()));
  });
}

// _tensor_over_bytes(bytes, dtype, size, stride, storage_offset): see Note [Storage bytes].
PyObject* tensor_over_bytes(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
  return guarded(nullptr, [&]() -> PyObject* {
    WICK_CHECK_TYPE(nargs == 5 && is_dtype(args[1]), "_tensor_over_bytes(bytes, dtype, size, stride, storage_offset)");
    const Tensor& bytes = whole_storage_bytes(args[0]);
    const DType dtype = reinterpret_cast<PyDType*>(args[1])->dtype;
    DimVector sizes = non_negative_ints(args[2], "size");
    DimVector strides = non_negative_ints(args[3], "stride");
    WICK_CHECK_TYPE(PyLong_CheckExact(args[4]), "storage_offset must be an int, got ", Py_TYPE(args[4])->tp_name);
    int overflow = 0;
    const int64_t offset = PyLong_AsLongLongAndOverflow(args[4], &overflow);
    if (offset == -1 && PyErr_Occurred()) throw python_error();
    WICK_CHECK_VALUE(overflow == 0 && offset >= 0, "storage_offset must be a non-negative int that fits in int64");
    WICK_CHECK_VALUE(sizes.size() == strides.size(), "size has ", sizes.size(), " dims but stride has ",
                     strides.size());

    const std::optional<int64_t> numel = numel_checked(sizes);
    WICK_CHECK(numel, "the sizes ", shape_str(sizes), " have more elements than int64 holds");
    // The element past the furthest one addressed (the offset itself for an empty tensor).
    std::optional<int64_t> end = *numel == 0 ? offset : add_checked(offset, 1);
    for (size_t d = 0; *numel > 0 && d < sizes.size() && end; ++d) end = offset_checked(*end, sizes[d] - 1, strides[d]);
    const int64_t itemsize = wick::itemsize(dtype);
    const std::optional<int64_t> end_bytes = end ? mul_checked(*end, itemsize) : std::nullopt;
    const int64_t nbytes = bytes.numel();
    WICK_CHECK(end_bytes && *end_bytes <= nbytes, "a ", dtype_name(dtype), " tensor of sizes ", shape_str(sizes),
               ", strides ", shape_str(strides), " and storage offset ", offset,
               " reaches outside its storage of ", nbytes, " bytes");
    WICK_CHECK_VALUE(reinterpret_cast<uintptr_t>(bytes.storage()->data()) % uintptr_t(itemsize) == 0,
                     "the storage's memory is not aligned for ", dtype_name(dtype), " elements");
    return wrap(make_tensor(bytes.storage(), dtype, std::move(sizes), std::move(strides), offset));
  });
}

}  // namespace

PyMethodDef storage_bytes_functions[] = {
    {"_storage_bytes", storage_bytes, METH_O,
     "_storage_bytes(tensor, /)\n--\n\n"
     "The whole storage of `tensor` as a 1-D uint8 tensor, and a key shared by the tensors of that storage."},
    {"_tensor_over_bytes", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(tensor_over_bytes)),
     METH_FASTCALL,
     "_tensor_over_bytes(bytes, dtype, size, stride, storage_offset, /)\n--\n\n"
     "A tensor of this geometry over the storage of `bytes` (as _storage_bytes gives it), every bound checked."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
