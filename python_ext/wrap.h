// python_ext/wrap.h: C++ results into Python objects, one overload per declared return type.
#pragma once

#include <Python.h>

#include <vector>

#include "tensor_type.h"
#include "wick/array_ref.h"
#include "wick/scalar.h"

namespace wick {
namespace python {

PyObject* wrap(const Scalar& s);
PyObject* wrap(const DimVector& v);  // a tuple of ints
PyObject* wrap(std::vector<Tensor> tensors);  // a tuple of tensors, as PyTorch returns split()
inline PyObject* wrap(int64_t v) { return PyLong_FromLongLong(v); }
inline PyObject* wrap(bool v) { return PyBool_FromLong(v); }
inline PyObject* wrap(double v) { return PyFloat_FromDouble(v); }

}  // namespace python
}  // namespace wick
