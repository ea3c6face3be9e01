// python_ext/memory_format_object.cpp: wick.memory_format (memory_format_object.h).
#include "memory_format_object.h"

namespace wick {
namespace python {
namespace {

PyObject* memory_format_repr(PyObject* self) {
  return PyUnicode_FromFormat("wick.%s", memory_format_name(to_memory_format(self)));
}

// Pickled by name: the object of that name in the wick module, as PyTorch pickles its own.
PyObject* memory_format_reduce(PyObject* self, PyObject* /*unused*/) {
  return PyUnicode_FromString(memory_format_name(to_memory_format(self)));
}

PyMethodDef memory_format_methods[] = {
    {"__reduce__", memory_format_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

// No tp_new: the four objects are the only ones, compared by identity.
PyTypeObject MemoryFormatType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick.memory_format";
  t.tp_basicsize = sizeof(PyMemoryFormat);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "How a new tensor lays out its dims in memory: wick.contiguous_format, wick.preserve_format, "
             "wick.channels_last or wick.channels_last_3d.";
  t.tp_repr = memory_format_repr;
  t.tp_methods = memory_format_methods;
  return t;
}();

bool init_memory_format_type(PyObject* module) {
  if (PyType_Ready(&MemoryFormatType) < 0 ||
      PyModule_AddObjectRef(module, "memory_format", reinterpret_cast<PyObject*>(&MemoryFormatType)) < 0) {
    return false;
  }
  for (MemoryFormat format : {MemoryFormat::Contiguous, MemoryFormat::Preserve, MemoryFormat::ChannelsLast,
                              MemoryFormat::ChannelsLast3d}) {
    PyObject* obj = MemoryFormatType.tp_alloc(&MemoryFormatType, 0);
    if (!obj) return false;
    reinterpret_cast<PyMemoryFormat*>(obj)->format = format;
    const int added = PyModule_AddObjectRef(module, memory_format_name(format), obj);
    Py_DECREF(obj);
    if (added < 0) return false;
  }
  return true;
}

}  // namespace python
}  // namespace wick
