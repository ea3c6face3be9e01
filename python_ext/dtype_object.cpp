// python_ext/dtype_object.cpp: the wick.dtype type and its ten singletons.
#include "dtype_object.h"

#include <string>

namespace wick {
namespace python {
namespace {

PyDType singletons[kNumDTypes];

PyObject* dtype_repr(PyObject* self) {
  return PyUnicode_FromFormat("wick.%s", dtype_name(reinterpret_cast<PyDType*>(self)->dtype));
}

PyObject* dtype_is_floating_point(PyObject* self, void*) {
  return PyBool_FromLong(is_floating(reinterpret_cast<PyDType*>(self)->dtype));
}

PyObject* dtype_itemsize(PyObject* self, void*) {
  return PyLong_FromLong(itemsize(reinterpret_cast<PyDType*>(self)->dtype));
}

PyObject* dtype_reduce(PyObject* self, PyObject*) {
  // Singletons pickle by name: unpickling yields the same object.
  return PyUnicode_FromString(dtype_name(reinterpret_cast<PyDType*>(self)->dtype));
}

PyGetSetDef dtype_getset[] = {
    {"is_floating_point", dtype_is_floating_point, nullptr, "Whether this is a floating-point dtype.", nullptr},
    {"itemsize", dtype_itemsize, nullptr, "The size of one element in bytes.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject DTypeType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick.dtype";
  t.tp_basicsize = sizeof(PyDType);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "The element type of a tensor: wick.float32, wick.int64, ...";
  t.tp_repr = dtype_repr;
  t.tp_getset = dtype_getset;
  t.tp_methods = dtype_methods;
  return t;
}();

PyObject* dtype_object(DType d) { return reinterpret_cast<PyObject*>(&singletons[int(d)]); }

bool init_dtype_type(PyObject* module) {
  if (PyType_Ready(&DTypeType) < 0) return false;
  // Where pickle finds the singletons by name: without it, pickle searches every module for each dtype.
  PyObject* wick = PyUnicode_FromString("wick");
  if (!wick || PyDict_SetItemString(DTypeType.tp_dict, "__module__", wick) < 0) {
    Py_XDECREF(wick);
    return false;
  }
  Py_DECREF(wick);
  for (int i = 0; i < kNumDTypes; ++i) {
    PyObject* obj = reinterpret_cast<PyObject*>(&singletons[i]);
    PyObject_Init(obj, &DTypeType);
    singletons[i].dtype = DType(i);
    if (PyModule_AddObjectRef(module, dtype_name(DType(i)), obj) < 0) return false;
  }
  return PyModule_AddObjectRef(module, "dtype", reinterpret_cast<PyObject*>(&DTypeType)) == 0;
}

}  // namespace python
}  // namespace wick
