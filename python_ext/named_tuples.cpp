// python_ext/named_tuples.cpp: the types of wick.return_types, collections.namedtuple classes with PyTorch's repr.
//
// They are namedtuples rather than structseqs (PyTorch's choice) so that the
// runtime is what the stubs say (a typing.NamedTuple per type, _asdict and
// _make included); a result is made as tuple.__new__ makes a tuple subclass's
// instance, by tp_alloc and setting the items, without a call into Python.
#include "named_tuples.h"

#include "errors.h"

namespace wick {
namespace python {
namespace {

// One reference to each type, held for the life of the process, in the order of ReturnType.
PyTypeObject* types[kNumReturnTypes];

const ReturnTypeSpec& spec_of(PyTypeObject* type) {
  for (int i = 0; i < kNumReturnTypes; ++i) {
    if (types[i] == type) return kReturnTypeSpecs[i];
  }
  WICK_INTERNAL_ASSERT(false, "not a type of wick.return_types: ", type->tp_name);
}

// As torch.return_types: one field a line,
//   wick.return_types.max(
//   values=tensor([3., 5.]),
//   indices=tensor([0, 1]))
PyObject* named_tuple_repr(PyObject* self, PyObject* /*unused*/) {
  const ReturnTypeSpec& spec = spec_of(Py_TYPE(self));
  PyObject* text = PyUnicode_FromFormat("wick.return_types.%s(", spec.name);
  for (int i = 0; text && i < spec.nfields; ++i) {  // AppendAndDel clears text on failure
    PyUnicode_AppendAndDel(&text, PyUnicode_FromFormat("%s\n%s=%R", i ? "," : "", spec.fields[i],
                                                       PyTuple_GET_ITEM(self, i)));
  }
  if (text) PyUnicode_AppendAndDel(&text, PyUnicode_FromString(")"));
  return text;
}

PyMethodDef repr_def = {"__repr__", named_tuple_repr, METH_NOARGS, "Return repr(self)."};

// collections.namedtuple(spec.name, spec.fields, module="wick.return_types"), with the repr above.
PyObject* make_type(PyObject* namedtuple, const ReturnTypeSpec& spec) {
  PyObject* fields = PyTuple_New(spec.nfields);
  if (!fields) return nullptr;
  for (int i = 0; i < spec.nfields; ++i) {
    PyObject* name = PyUnicode_FromString(spec.fields[i]);
    if (!name) {
      Py_DECREF(fields);
      return nullptr;
    }
    PyTuple_SET_ITEM(fields, i, name);
  }
  PyObject* type = PyObject_CallFunction(namedtuple, "sN", spec.name, fields);
  if (!type) return nullptr;
  // Pickle finds the type as the attribute spec.name of wick.return_types.
  PyObject* module = PyUnicode_FromString("wick.return_types");
  PyObject* doc = PyUnicode_FromString(spec.doc);
  PyObject* repr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(type), &repr_def);
  const bool ok = module && doc && repr && PyObject_SetAttrString(type, "__module__", module) == 0 &&
                  PyObject_SetAttrString(type, "__doc__", doc) == 0 &&
                  PyObject_SetAttrString(type, "__repr__", repr) == 0;
  Py_XDECREF(module);
  Py_XDECREF(doc);
  Py_XDECREF(repr);
  if (!ok) Py_CLEAR(type);
  return type;
}

}  // namespace

bool init_return_types(PyObject* module) {
  PyObject* collections = PyImport_ImportModule("collections");
  if (!collections) return false;
  PyObject* namedtuple = PyObject_GetAttrString(collections, "namedtuple");
  Py_DECREF(collections);
  PyObject* dict = namedtuple ? PyDict_New() : nullptr;
  bool ok = dict != nullptr;
  for (int i = 0; ok && i < kNumReturnTypes; ++i) {
    PyObject* type = make_type(namedtuple, kReturnTypeSpecs[i]);
    ok = type && PyDict_SetItemString(dict, kReturnTypeSpecs[i].name, type) == 0;
    types[i] = reinterpret_cast<PyTypeObject*>(type);  // the reference kept for the process
  }
  ok = ok && PyModule_AddObjectRef(module, "_return_types", dict) == 0;
  Py_XDECREF(dict);
  Py_XDECREF(namedtuple);
  return ok;
}

PyObject* new_named_tuple(ReturnType type) {
  PyTypeObject* t = types[int(type)];
  PyObject* result = t->tp_alloc(t, kReturnTypeSpecs[int(type)].nfields);
  if (!result) throw python_error();
  return result;
}

PyObject* wrap_out_tuple(ReturnType type, PyObject* out) {
  PyObject* result = new_named_tuple(type);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(out); ++i) {
    PyTuple_SET_ITEM(result, i, Py_NewRef(PyTuple_GET_ITEM(out, i)));
  }
  return result;
}

void check_out_tuple(PyObject* out, size_t n) {
  WICK_CHECK_TYPE(PyTuple_Check(out), "argument 'out' must be tuple of Tensors, not ", Py_TYPE(out)->tp_name);
  WICK_CHECK_TYPE(size_t(PyTuple_GET_SIZE(out)) == n, "argument 'out' must be a tuple of ", n,
                  " Tensors, not of ", PyTuple_GET_SIZE(out));
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(out); ++i) {
    PyObject* item = PyTuple_GET_ITEM(out, i);
    WICK_CHECK_TYPE(is_tensor(item), "argument 'out' must be tuple of Tensors, but item ", i, " is ",
                    Py_TYPE(item)->tp_name);
  }
}

}  // namespace python
}  // namespace wick
