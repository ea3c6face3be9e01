// python_ext/named_tuples.h: the types of wick.return_types, and the named tuples that tuple returns become.
//
// See Note [Tuple returns] in codegen/schema.py: generated/python/return_types.h
// lists one ReturnType per op that returns a tuple, with its fields.
#pragma once

#include <Python.h>

#include <array>
#include <cstddef>

#include "return_types.h"
#include "tensor_type.h"

namespace wick {
namespace python {

// Makes the type of every ReturnType and adds them to `module` as the dict
// `_return_types`, which wick/return_types.py re-exports.
bool init_return_types(PyObject* module);

// A new named tuple of `type` whose fields are not set yet; python_error on failure.
PyObject* new_named_tuple(ReturnType type);

// A named tuple of `type` holding the items of `out`, a tuple that unpack_out_tuple accepted.
PyObject* wrap_out_tuple(ReturnType type, PyObject* out);

// Raises TypeError unless `out` is a tuple of n tensors, as out= of a tuple return needs.
void check_out_tuple(PyObject* out, size_t n);

// The tensors of out= for an op that returns a tuple of N tensors.
template <size_t N>
std::array<Tensor, N> unpack_out_tuple(PyObject* out) {
  check_out_tuple(out, N);
  std::array<Tensor, N> result;
  for (size_t i = 0; i < N; ++i) result[i] = unpack_tensor(PyTuple_GET_ITEM(out, Py_ssize_t(i)));
  return result;
}

}  // namespace python
}  // namespace wick
