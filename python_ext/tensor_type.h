// python_ext/tensor_type.h: the Python object behind every wick.Tensor.
#pragma once

#include <Python.h>

#include "wick/tensor.h"

namespace wick {
namespace python {

// Note [Views hold their base's Python object]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A view's TensorImpl keeps its base's TensorImpl alive, and a base whose
// Python object was dropped keeps that object alive (Note [Python object
// slot]). Were that the only way, `y = x[1:]; x.tag = y` would make a cycle
// the garbage collector cannot see: x -> __dict__ -> y -> (C++) -> x. So the
// Python object of a view also holds a Python reference to its base's object
// (base_ref), which tp_traverse reports and tp_clear drops. A base's object
// then loses its last Python reference only when no Python view of it is
// left; what may keep it alive after that are C++ references alone, which no
// Python object can reach, so no cycle runs through a preserved object.
struct PyTensor {
  PyObject_HEAD
  Tensor cdata;
  PyObject* base_ref;  // the Python object of cdata.base(), or null when cdata is no view
};

// wick._C.TensorBase; wick.Tensor (python_ext/wick/_tensor.py) subclasses it.
extern PyTypeObject TensorBaseType;
// The class new tensors get: wick.Tensor once wick/__init__.py registers it.
extern PyTypeObject* tensor_class;

// Exact wick.Tensor first: the common case, without a walk of the type's MRO.
inline bool is_tensor(PyObject* obj) {
  return Py_IS_TYPE(obj, tensor_class) || PyObject_TypeCheck(obj, &TensorBaseType);
}

// The wick.Tensor wrapped by a Python object known to be one.
inline const Tensor& unpack_tensor(PyObject* obj) { return reinterpret_cast<PyTensor*>(obj)->cdata; }

// Wraps `t` in its Python object: the one it already has (Note [Python object
// slot]), else a new instance of wick.Tensor. Undefined tensors wrap as None.
PyObject* wrap(Tensor t);
// As wrap(), but a tensor without a Python object becomes an instance of `type`.
PyObject* wrap_as(PyTypeObject* type, Tensor t);

bool init_tensor_type(PyObject* module);

}  // namespace python
}  // namespace wick
