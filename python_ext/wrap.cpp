// python_ext/wrap.cpp: Scalars, size lists, tensor lists and tuple returns into Python numbers and tuples.
#include "wrap.h"

#include <utility>

#include "errors.h"
#include "named_tuples.h"

namespace wick {
namespace python {
namespace {

// A tuple of n items, item(i) making each (a new reference, or nullptr with an exception set).
template <typename Item>
PyObject* tuple_of(size_t n, Item item) {
  PyObject* tuple = PyTuple_New(Py_ssize_t(n));
  if (!tuple) throw python_error();
  for (size_t i = 0; i < n; ++i) {
    PyObject* obj = item(i);
    if (!obj) {
      Py_DECREF(tuple);
      throw python_error();
    }
    PyTuple_SET_ITEM(tuple, Py_ssize_t(i), obj);
  }
  return tuple;
}

}  // namespace

PyObject* wrap(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return PyBool_FromLong(s.to_bool());
    case Scalar::Kind::Int: return PyLong_FromLongLong(s.to_int64());
    case Scalar::Kind::Float: return PyFloat_FromDouble(s.to_double());
  }
  return nullptr;
}

PyObject* wrap(const DimVector& v) {
  return tuple_of(v.size(), [&](size_t i) { return PyLong_FromLongLong(v[i]); });
}

PyObject* wrap(std::vector<Tensor> tensors) {
  return tuple_of(tensors.size(), [&](size_t i) { return wrap(std::move(tensors[i])); });
}

namespace {

// Fills a new tuple, or named tuple, of n unset items with the tensors; releases it when one fails to wrap.
PyObject* fill(PyObject* tuple, const Tensor* items, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    PyObject* item;
    try {
      item = wrap(items[i]);
    } catch (...) {
      Py_DECREF(tuple);  // with the items set so far
      throw;
    }
    PyTuple_SET_ITEM(tuple, Py_ssize_t(i), item);  // a named tuple is a tuple
  }
  return tuple;
}

}  // namespace

PyObject* wrap_tuple(const Tensor* items, size_t n) {
  PyObject* tuple = PyTuple_New(Py_ssize_t(n));
  if (!tuple) throw python_error();
  return fill(tuple, items, n);
}

PyObject* wrap(ReturnType type, const Tensor* fields, size_t n) { return fill(new_named_tuple(type), fields, n); }

}  // namespace python
}  // namespace wick
