// python_ext/tensor_type.cpp: wick._C.TensorBase: lifetime, identity, properties and indexing slots.
#include "tensor_type.h"

#include <new>

#include "arg_parser.h"
#include "device_object.h"
#include "dtype_object.h"
#include "errors.h"
#include "indexing.h"
#include "tensor_new.h"
#include "wrap.h"

namespace wick {
namespace python {

extern PyMethodDef tensor_methods[];  // generated/python/tensor_methods.cpp

namespace {

// The class new tensors get: wick.Tensor once wick/__init__.py registers it.
PyTypeObject* tensor_class = &TensorBaseType;

PyObject* tensor_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return guarded([&] { return legacy_new(type, kDefaultFloat, args, kwargs); });
}

void tensor_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  Tensor& t = reinterpret_cast<PyTensor*>(self)->cdata;
  if (t.defined() && t.impl()->pyobj() == self) t.impl()->set_pyobj(nullptr);
  t.~Tensor();
  Py_TYPE(self)->tp_free(self);
}

// A tensor holds no Python references; subtype_traverse visits the __dict__
// and the type of Python subclasses.
int tensor_traverse(PyObject* /*self*/, visitproc /*visit*/, void* /*arg*/) { return 0; }

const Tensor& self_tensor(PyObject* self) { return unpack_tensor(self); }

PyObject* get_shape(PyObject* self, void*) {
  return guarded([&] { return wrap(self_tensor(self).sizes().vec()); });
}
PyObject* get_dtype(PyObject* self, void*) { return Py_NewRef(dtype_object(self_tensor(self).dtype())); }
PyObject* get_device(PyObject* self, void*) {
  return guarded([&] { return device_object(self_tensor(self).device()); });
}
PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLongLong(self_tensor(self).dim()); }
PyObject* get_is_cuda(PyObject* self, void*) { return PyBool_FromLong(self_tensor(self).device().is_cuda()); }
PyObject* get_itemsize(PyObject* self, void*) { return PyLong_FromLongLong(self_tensor(self).itemsize()); }

PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, nullptr, "The sizes of the tensor, as a tuple.", nullptr},
    {"dtype", get_dtype, nullptr, "The element type.", nullptr},
    {"device", get_device, nullptr, "Where the elements live.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of dims.", nullptr},
    {"is_cuda", get_is_cuda, nullptr, "Whether the tensor lives on a CUDA device.", nullptr},
    {"itemsize", get_itemsize, nullptr, "The size of one element in bytes.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

Py_ssize_t tensor_length(PyObject* self) {
  return guarded([&]() -> Py_ssize_t {
    const Tensor& t = self_tensor(self);
    WICK_CHECK_TYPE(t.dim() > 0, "len() of a 0-d tensor");
    return Py_ssize_t(t.sizes()[0]);
  });
}

PyMappingMethods tensor_as_mapping = {tensor_length, tensor_getitem, tensor_setitem};

}  // namespace

PyTypeObject TensorBaseType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick._C.TensorBase";
  t.tp_basicsize = sizeof(PyTensor);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
  t.tp_doc = "The C type behind wick.Tensor.";
  t.tp_new = tensor_new;
  t.tp_dealloc = tensor_dealloc;
  t.tp_traverse = tensor_traverse;
  t.tp_getset = tensor_getset;
  t.tp_as_mapping = &tensor_as_mapping;
  t.tp_methods = tensor_methods;
  return t;
}();

PyObject* wrap_as(PyTypeObject* type, Tensor t) {
  if (!t.defined()) Py_RETURN_NONE;
  if (void* existing = t.impl()->pyobj()) return Py_NewRef(static_cast<PyObject*>(existing));
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) throw python_error();
  TensorImpl* impl = t.impl();
  new (&reinterpret_cast<PyTensor*>(obj)->cdata) Tensor(std::move(t));
  impl->set_pyobj(obj);
  return obj;
}

PyObject* wrap(Tensor t) { return wrap_as(tensor_class, std::move(t)); }

PyObject* set_tensor_class(PyObject* /*module*/, PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &TensorBaseType)) {
    PyErr_SetString(PyExc_TypeError, "_set_tensor_class() expects a subclass of TensorBase");
    return nullptr;
  }
  Py_INCREF(cls);
  tensor_class = reinterpret_cast<PyTypeObject*>(cls);
  Py_RETURN_NONE;
}

bool init_tensor_type(PyObject* module) {
  if (PyType_Ready(&TensorBaseType) < 0) return false;
  return PyModule_AddObjectRef(module, "TensorBase", reinterpret_cast<PyObject*>(&TensorBaseType)) == 0;
}

}  // namespace python
}  // namespace wick
