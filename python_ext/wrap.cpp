// python_ext/wrap.cpp: Scalars and size lists into Python numbers and tuples.
#include "wrap.h"

#include "errors.h"

namespace wick {
namespace python {

PyObject* wrap(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return PyBool_FromLong(s.to_bool());
    case Scalar::Kind::Int: return PyLong_FromLongLong(s.to_int64());
    case Scalar::Kind::Float: return PyFloat_FromDouble(s.to_double());
  }
  return nullptr;
}

PyObject* wrap(const DimVector& v) {
  PyObject* tuple = PyTuple_New(Py_ssize_t(v.size()));
  if (!tuple) throw python_error();
  for (size_t i = 0; i < v.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(v[i]);
    if (!item) {
      Py_DECREF(tuple);
      throw python_error();
    }
    PyTuple_SET_ITEM(tuple, Py_ssize_t(i), item);
  }
  return tuple;
}

}  // namespace python
}  // namespace wick
