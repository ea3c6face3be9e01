// python_ext/memory_format_object.h: wick.memory_format, as torch.memory_format, and its four objects
// wick.contiguous_format, preserve_format, channels_last and channels_last_3d (wick/memory_format.h).
#pragma once

#include <Python.h>

#include "wick/memory_format.h"

namespace wick {
namespace python {

struct PyMemoryFormat {
  PyObject_HEAD
  MemoryFormat format;
};

extern PyTypeObject MemoryFormatType;

inline bool is_memory_format(PyObject* obj) { return Py_IS_TYPE(obj, &MemoryFormatType); }
// The format of a wick.memory_format (is_memory_format(obj)).
inline MemoryFormat to_memory_format(PyObject* obj) { return reinterpret_cast<PyMemoryFormat*>(obj)->format; }

// Adds wick._C.memory_format and its four objects.
bool init_memory_format_type(PyObject* module);

}  // namespace python
}  // namespace wick
