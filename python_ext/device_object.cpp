// python_ext/device_object.cpp: wick.device("cuda:1"), its fields, equality and hashing.
#include "device_object.h"

#include "errors.h"

namespace wick {
namespace python {
namespace {

PyObject* device_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return guarded(nullptr, [&]() -> PyObject* {
    static const char* kwlist[] = {"type", "index", nullptr};
    PyObject* spec = nullptr;
    PyObject* index = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:device", const_cast<char**>(kwlist), &spec, &index)) {
      return nullptr;
    }
    Device d = to_device(spec);
    if (index != Py_None) {
      const long i = PyLong_AsLong(index);
      if (i == -1 && PyErr_Occurred()) return nullptr;
      WICK_CHECK_VALUE(d.is_cuda() || i == 0, "the cpu device has only index 0");
      WICK_CHECK_VALUE(i >= 0 && i < 32768, "invalid device index ", i);
      d.index = int16_t(i);
    }
    PyObject* obj = type->tp_alloc(type, 0);
    if (obj) reinterpret_cast<PyDevice*>(obj)->device = d;
    return obj;
  });
}

const Device& get(PyObject* self) { return reinterpret_cast<PyDevice*>(self)->device; }

PyObject* device_repr(PyObject* self) {
  const Device& d = get(self);
  if (d.is_cpu()) return PyUnicode_FromString("device(type='cpu')");
  return PyUnicode_FromFormat("device(type='cuda', index=%d)", int(d.index));
}

PyObject* device_str(PyObject* self) { return PyUnicode_FromString(get(self).str().c_str()); }

PyObject* device_type(PyObject* self, void*) { return PyUnicode_FromString(get(self).is_cpu() ? "cpu" : "cuda"); }

PyObject* device_index(PyObject* self, void*) {
  if (get(self).is_cpu()) Py_RETURN_NONE;
  return PyLong_FromLong(get(self).index);
}

PyObject* device_richcompare(PyObject* a, PyObject* b, int op) {
  if (!Py_IS_TYPE(b, &DeviceType) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  const bool equal = get(a) == get(b);
  return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

Py_hash_t device_hash(PyObject* self) { return Py_hash_t(get(self).type) * 65536 + get(self).index + 1; }

PyObject* device_reduce(PyObject* self, PyObject*) {
  return Py_BuildValue("(O(s))", reinterpret_cast<PyObject*>(&DeviceType), get(self).str().c_str());
}

PyGetSetDef device_getset[] = {
    {"type", device_type, nullptr, "'cpu' or 'cuda'.", nullptr},
    {"index", device_index, nullptr, "The CUDA device number, or None for the CPU.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef device_methods[] = {
    {"__reduce__", device_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject DeviceType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick.device";
  t.tp_basicsize = sizeof(PyDevice);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "device(type, index=None): where a tensor lives, 'cpu' or 'cuda:N'.";
  t.tp_new = device_new;
  t.tp_repr = device_repr;
  t.tp_str = device_str;
  t.tp_hash = device_hash;
  t.tp_richcompare = device_richcompare;
  t.tp_getset = device_getset;
  t.tp_methods = device_methods;
  return t;
}();

PyObject* device_object(Device d) {
  PyObject* obj = DeviceType.tp_alloc(&DeviceType, 0);
  if (!obj) throw python_error();
  reinterpret_cast<PyDevice*>(obj)->device = d;
  return obj;
}

Device to_device(PyObject* obj) {
  if (Py_IS_TYPE(obj, &DeviceType)) return get(obj);
  if (PyUnicode_Check(obj)) {
    const char* s = PyUnicode_AsUTF8(obj);
    if (!s) throw python_error();
    return Device::parse(s);
  }
  detail::fail<TypeError>("expected a wick.device or a device string, got ", Py_TYPE(obj)->tp_name);
}

bool init_device_type(PyObject* module) {
  if (PyType_Ready(&DeviceType) < 0) return false;
  return PyModule_AddObjectRef(module, "device", reinterpret_cast<PyObject*>(&DeviceType)) == 0;
}

}  // namespace python
}  // namespace wick
