// python_ext/interop.h: zero-copy exchange with NumPy and DLPack (buffer.cpp, dlpack.cpp), and storages as
// raw bytes (storage_bytes.cpp).
#pragma once

#include <Python.h>

#include <optional>

#include "wick/dtype.h"
#include "wick/tensor.h"

namespace wick {
namespace python {

// TensorBase's tp_as_buffer: CPU tensors export their memory (buffer.cpp).
extern PyBufferProcs tensor_as_buffer;

// Whether `obj` is a numpy.ndarray (false while NumPy is not imported).
bool is_ndarray(PyObject* obj);
// The dtype of a NumPy scalar (numpy.float64(1.5), numpy.int8(3)...) as wick's, or nullopt for
// anything else, and for a scalar of a dtype wick lacks (longdouble).
std::optional<DType> numpy_scalar_dtype(PyObject* obj);
// A CPU tensor over an ndarray's memory, which it keeps alive (buffer.cpp; Note [from_numpy lifetime]).
Tensor tensor_from_numpy(PyObject* array);
// A tensor over the memory of an object with __dlpack__() (a PyTorch tensor...) or of a DLPack capsule (dlpack.cpp).
Tensor tensor_from_dlpack(PyObject* obj);
// The memory of another library's tensor (not a wick tensor, with __dlpack__()) as a tensor, through DLPack, or
// through __array__() where its __dlpack__() refuses (PyTorch exports no bool); nullopt for anything else, and
// where both refuse (a PyTorch tensor that requires grad): the caller then reads it as a sequence.
std::optional<Tensor> tensor_from_foreign(PyObject* obj);

// Module functions for wick._C: from_numpy (buffer.cpp); from_dlpack and _to_dlpack (dlpack.cpp);
// _storage_bytes and _tensor_over_bytes (storage_bytes.cpp).
extern PyMethodDef buffer_functions[];
extern PyMethodDef dlpack_functions[];
extern PyMethodDef storage_bytes_functions[];

// Note [Releasing Python memory from core]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A Storage that borrows memory from Python (an ndarray's buffer, an imported
// DLPack tensor whose producer is a Python library) frees it through its
// deleter, and core may drop the last reference on any thread, with or
// without the GIL (a kernel running with the GIL released, a C++ container).
// So every such deleter runs its Python work inside with_gil(): it takes the
// GIL with PyGILState_Ensure (which nests when the GIL is already held), keeps
// any exception in flight untouched, and does nothing once the interpreter has
// been finalised, when leaking is the only safe choice.
template <typename F>
void with_gil(F&& release) {
  if (!Py_IsInitialized()) return;
  const PyGILState_STATE state = PyGILState_Ensure();
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  release();
  if (PyErr_Occurred()) PyErr_WriteUnraisable(nullptr);
  PyErr_Restore(type, value, traceback);
  PyGILState_Release(state);
}

}  // namespace python
}  // namespace wick
