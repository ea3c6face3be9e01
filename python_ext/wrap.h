// python_ext/wrap.h: C++ results into Python objects, one overload per declared return type.
#pragma once

#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "tensor_type.h"
#include "wick/array_ref.h"
#include "wick/scalar.h"

namespace wick {
namespace python {

enum class ReturnType : uint16_t;  // generated/python/return_types.h

PyObject* wrap(const Scalar& s);
PyObject* wrap(const DimVector& v);  // a tuple of ints
PyObject* wrap(std::vector<Tensor> tensors);  // a tuple of tensors, as PyTorch returns split()
inline PyObject* wrap(int64_t v) { return PyLong_FromLongLong(v); }
inline PyObject* wrap(bool v) { return PyBool_FromLong(v); }
inline PyObject* wrap(double v) { return PyFloat_FromDouble(v); }

// A tuple of the n tensors of `items`.
PyObject* wrap_tuple(const Tensor* items, size_t n);
// A tuple return: a named tuple of wick.return_types holding the n tensors of `fields`.
PyObject* wrap(ReturnType type, const Tensor* fields, size_t n);
template <typename... Ts>
PyObject* wrap(ReturnType type, std::tuple<Ts...> values) {
  return std::apply([type](Ts&... v) {
    const Tensor fields[] = {std::move(v)...};
    return wrap(type, fields, sizeof...(Ts));
  }, values);
}

}  // namespace python
}  // namespace wick
