// python_ext/size_object.cpp: wick.Size (size_object.h).
//
// A tuple subclass that adds nothing to a tuple's layout: its items are Python ints, set
// with PyTuple_SET_ITEM as a tuple's. Slicing, + and * give a wick.Size again, as
// torch.Size's do; everything else (hash, comparison with tuples, iteration) is a tuple's.
#include "size_object.h"

#include "errors.h"
#include "owned_ref.h"
#include "python_impls.h"

namespace wick {
namespace python {
namespace {

// A new `type` (wick.Size or a subclass) holding the items of the tuple `items`.
PyObject* size_of_items(PyTypeObject* type, PyObject* items) {
  const Py_ssize_t n = PyTuple_GET_SIZE(items);
  PyObject* size = type->tp_alloc(type, n);
  if (!size) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(size, i, Py_NewRef(PyTuple_GET_ITEM(items, i)));
  return size;
}

// Wraps what a tuple slot returned into a wick.Size when it is a plain tuple (a slice, a concatenation).
PyObject* as_size(PyObject* result) {
  if (!result || !PyTuple_CheckExact(result)) return result;
  PyObject* size = size_of_items(&SizeType, result);
  Py_DECREF(result);
  return size;
}

// wick.Size(iterable=()): each item becomes an int through __index__, as torch.Size's do.
PyObject* size_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* iterable = nullptr;
  if (kwargs && PyDict_GET_SIZE(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "wick.Size() takes no keyword arguments");
    return nullptr;
  }
  if (!PyArg_UnpackTuple(args, "Size", 0, 1, &iterable)) return nullptr;
  return guarded(nullptr, [&] {
    // The tuple is ours: __index__ below may run any Python code, but cannot change it.
    OwnedRef items(iterable ? PySequence_Tuple(iterable) : PyTuple_New(0));
    const Py_ssize_t n = PyTuple_GET_SIZE(items.get());
    OwnedRef ints(PyTuple_New(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* item = PyTuple_GET_ITEM(items.get(), i);
      PyObject* value = PyIndex_Check(item) ? PyNumber_Index(item) : nullptr;
      if (!value) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
          PyErr_Clear();
          PyErr_Format(PyExc_TypeError, "wick.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                       Py_TYPE(item)->tp_name);
        }
        throw python_error();
      }
      PyTuple_SET_ITEM(ints.get(), i, value);
    }
    return size_of_items(type, ints.get());
  });
}

PyObject* size_repr(PyObject* self) {
  if (PyTuple_GET_SIZE(self) == 0) return PyUnicode_FromString("wick.Size([])");
  return guarded(nullptr, [&] {
    OwnedRef list(PySequence_List(self));
    return PyUnicode_FromFormat("wick.Size(%R)", list.get());
  });
}

PyObject* size_subscript(PyObject* self, PyObject* key) {
  PyObject* item = PyTuple_Type.tp_as_mapping->mp_subscript(self, key);
  return PySlice_Check(key) ? as_size(item) : item;
}

PyObject* size_concat(PyObject* self, PyObject* other) {
  return as_size(PyTuple_Type.tp_as_sequence->sq_concat(self, other));
}

PyObject* size_repeat(PyObject* self, Py_ssize_t times) {
  return as_size(PyTuple_Type.tp_as_sequence->sq_repeat(self, times));
}

// The product of the sizes, as a Python int: exact whatever the items.
PyObject* size_numel(PyObject* self, PyObject* /*unused*/) {
  PyObject* product = PyLong_FromLong(1);
  for (Py_ssize_t i = 0; product && i < PyTuple_GET_SIZE(self); ++i) {
    PyObject* next = PyNumber_Multiply(product, PyTuple_GET_ITEM(self, i));
    Py_DECREF(product);
    product = next;
  }
  return product;
}

// Pickled as wick.Size(tuple(self)).
PyObject* size_reduce(PyObject* self, PyObject* /*unused*/) {
  return guarded(nullptr, [&] {
    OwnedRef items(PySequence_Tuple(self));
    return Py_BuildValue("(O(O))", reinterpret_cast<PyObject*>(Py_TYPE(self)), items.get());
  });
}

PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, "numel($self, /)\n--\n\nThe number of elements of a tensor of these sizes."},
    {"__reduce__", size_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

// The slots set here override the tuple's; PyType_Ready fills the rest from it.
PySequenceMethods size_as_sequence = [] {
  PySequenceMethods m{};
  m.sq_concat = size_concat;
  m.sq_repeat = size_repeat;
  return m;
}();
PyMappingMethods size_as_mapping = [] {
  PyMappingMethods m{};
  m.mp_subscript = size_subscript;
  return m;
}();

}  // namespace

PyTypeObject SizeType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick.Size";
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  t.tp_doc = "Size(iterable=(), /)\n--\n\nThe sizes of a tensor: a tuple of ints, as x.shape and x.size() return.";
  t.tp_repr = size_repr;
  t.tp_as_sequence = &size_as_sequence;
  t.tp_as_mapping = &size_as_mapping;
  t.tp_methods = size_methods;
  t.tp_base = &PyTuple_Type;
  t.tp_new = size_new;
  return t;
}();

PyObject* wrap_size(IntArrayRef sizes) {
  PyObject* size = SizeType.tp_alloc(&SizeType, Py_ssize_t(sizes.size()));
  if (!size) throw python_error();
  for (size_t i = 0; i < sizes.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(sizes[i]);
    if (!item) {
      Py_DECREF(size);  // with the items set so far; the rest are null, which tuple_dealloc skips
      throw python_error();
    }
    PyTuple_SET_ITEM(size, Py_ssize_t(i), item);
  }
  return size;
}

namespace impl {

PyObject* size(const Tensor& self) { return wrap_size(self.sizes()); }
int64_t size(const Tensor& self, int64_t dim) { return self.size(dim); }

}  // namespace impl

bool init_size_type(PyObject* module) {
  return PyType_Ready(&SizeType) == 0 &&
         PyModule_AddObjectRef(module, "Size", reinterpret_cast<PyObject*>(&SizeType)) == 0;
}

}  // namespace python
}  // namespace wick
