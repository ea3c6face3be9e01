// python_ext/tensor_new.h: tensors from Python data, and Python data from tensors.
#pragma once

#include <Python.h>

#include <optional>

#include "wick/device.h"
#include "wick/scalar.h"
#include "wick/tensor.h"

namespace wick {
namespace python {

// A Python number (bool, int, float, or a NumPy scalar of one) as a Scalar.
Scalar to_scalar(PyObject* obj);

// A new CPU tensor holding `data` (a number, nested sequences of numbers, or a
// tensor), of `dtype` or, when none is given, the dtype PyTorch would infer.
Tensor tensor_from_sequence(PyObject* data, std::optional<DType> dtype);

// The legacy constructors: wick.Tensor(2, 3), wick.Tensor([1, 2]), wick.FloatTensor(10).
PyObject* legacy_new(PyTypeObject* type, DType dtype, PyObject* args, PyObject* kwargs);

}  // namespace python
}  // namespace wick
