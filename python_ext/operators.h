// python_ext/operators.h: the operator slots of TensorBase (Note [Operators]).
#pragma once

#include <Python.h>

namespace wick {
namespace python {

extern PyNumberMethods tensor_as_number;
PyObject* tensor_richcompare(PyObject* a, PyObject* b, int op);
// Looks up the ops behind the operators; after the module has its functions and TensorBase is ready.
bool init_operators(PyObject* module);

}  // namespace python
}  // namespace wick
