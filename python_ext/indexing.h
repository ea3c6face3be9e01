// python_ext/indexing.h: x[index] and x[index] = value through the mapping protocol.
#pragma once

#include <Python.h>

namespace wick {
namespace python {

PyObject* tensor_getitem(PyObject* self, PyObject* index);
int tensor_setitem(PyObject* self, PyObject* index, PyObject* value);

}  // namespace python
}  // namespace wick
