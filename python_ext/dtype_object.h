// python_ext/dtype_object.h: wick.dtype objects (wick.float32, ...), one per DType.
#pragma once

#include <Python.h>

#include "wick/dtype.h"

namespace wick {
namespace python {

struct PyDType {
  PyObject_HEAD
  DType dtype;
};

extern PyTypeObject DTypeType;

inline bool is_dtype(PyObject* obj) { return Py_IS_TYPE(obj, &DTypeType); }
// The singleton for `d` (borrowed).
PyObject* dtype_object(DType d);

bool init_dtype_type(PyObject* module);

}  // namespace python
}  // namespace wick
