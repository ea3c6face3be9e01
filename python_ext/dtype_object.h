// python_ext/dtype_object.h: wick.dtype objects (wick.float32, ...), one per DType.
#pragma once

#include <Python.h>

#include <optional>

#include "wick/dtype.h"

namespace wick {
namespace python {

struct PyDType {
  PyObject_HEAD
  DType dtype;
};

extern PyTypeObject DTypeType;

inline bool is_dtype(PyObject* obj) { return Py_IS_TYPE(obj, &DTypeType); }
// What a dtype argument may be: a wick.dtype, or Python's float, int or bool, which stand for float64,
// int64 and bool as in PyTorch (zeros(2, dtype=float), x.to(int)); nullopt for anything else.
inline std::optional<DType> dtype_argument(PyObject* obj) {
  if (is_dtype(obj)) return reinterpret_cast<PyDType*>(obj)->dtype;
  if (obj == reinterpret_cast<PyObject*>(&PyFloat_Type)) return DType::Float64;
  if (obj == reinterpret_cast<PyObject*>(&PyLong_Type)) return DType::Int64;
  if (obj == reinterpret_cast<PyObject*>(&PyBool_Type)) return DType::Bool;
  return std::nullopt;
}
// The singleton for `d` (borrowed).
PyObject* dtype_object(DType d);

bool init_dtype_type(PyObject* module);

extern PyMethodDef dtype_functions[];  // wick._C._get_default_dtype and _set_default_dtype

}  // namespace python
}  // namespace wick
