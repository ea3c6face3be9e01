// python_ext/owned_ref.h: a new reference to a Python object, released on scope exit.
#pragma once

#include <Python.h>

#include <utility>

#include "errors.h"

namespace wick {
namespace python {

// Takes a new reference, as C API calls return them: a null one means a Python
// exception is set, and is thrown as python_error.
class OwnedRef {
 public:
  explicit OwnedRef(PyObject* obj) : obj_(obj) {
    if (!obj_) throw python_error();
  }
  ~OwnedRef() { Py_XDECREF(obj_); }
  OwnedRef(const OwnedRef&) = delete;
  OwnedRef& operator=(const OwnedRef&) = delete;

  PyObject* get() const { return obj_; }
  // Hands the reference to the caller.
  PyObject* release() { return std::exchange(obj_, nullptr); }

 private:
  PyObject* obj_;
};

}  // namespace python
}  // namespace wick
