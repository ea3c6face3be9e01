// python_ext/size_object.h: wick.Size, as torch.Size: the tuple of ints that x.shape and x.size() return.
#pragma once

#include <Python.h>

#include "wick/array_ref.h"

namespace wick {
namespace python {

extern PyTypeObject SizeType;

// A new wick.Size of `sizes`; throws python_error when Python runs out of memory.
PyObject* wrap_size(IntArrayRef sizes);

// Adds wick._C.Size.
bool init_size_type(PyObject* module);

}  // namespace python
}  // namespace wick
