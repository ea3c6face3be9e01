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

PyObject* dtype_is_signed(PyObject* self, void*) {
  const DType d = reinterpret_cast<PyDType*>(self)->dtype;
  return PyBool_FromLong(d != DType::Bool && d != DType::UInt8);
}

PyObject* dtype_false(PyObject*, void*) { Py_RETURN_FALSE; }

PyObject* dtype_itemsize(PyObject* self, void*) {
  return PyLong_FromLong(itemsize(reinterpret_cast<PyDType*>(self)->dtype));
}

PyObject* dtype_reduce(PyObject* self, PyObject*) {
  // Singletons pickle by name: unpickling yields the same object.
  return PyUnicode_FromString(dtype_name(reinterpret_cast<PyDType*>(self)->dtype));
}

PyGetSetDef dtype_getset[] = {
    {"is_floating_point", dtype_is_floating_point, nullptr, "Whether this is a floating-point dtype.", nullptr},
    {"is_signed", dtype_is_signed, nullptr, "Whether its values may be negative.", nullptr},
    {"is_complex", dtype_false, nullptr, "Whether this is a complex dtype: wick has none.", nullptr},
    {"itemsize", dtype_itemsize, nullptr, "The size of one element in bytes.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

PyObject* get_default_dtype(PyObject*, PyObject*) { return Py_NewRef(dtype_object(default_float())); }

PyObject* set_default_dtype(PyObject*, PyObject* arg) {
  if (!is_dtype(arg)) {
    PyErr_Format(PyExc_TypeError, "_set_default_dtype(): argument must be wick.dtype, not %s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  const DType d = reinterpret_cast<PyDType*>(arg)->dtype;
  if (!is_floating(d)) {
    PyErr_SetString(PyExc_TypeError, "only floating-point types are supported as the default type");
    return nullptr;
  }
  set_default_float(d);
  Py_RETURN_NONE;
}

}  // namespace

// Private: wick.get_default_dtype and wick.set_default_dtype (wick/type_info.py) call them.
PyMethodDef dtype_functions[] = {
    {"_get_default_dtype", get_default_dtype, METH_NOARGS, "_get_default_dtype() -> wick.dtype"},
    {"_set_default_dtype", set_default_dtype, METH_O, "_set_default_dtype(dtype) -> None"},
    {nullptr, nullptr, 0, nullptr},
};

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
