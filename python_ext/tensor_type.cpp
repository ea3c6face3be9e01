// python_ext/tensor_type.cpp: wick._C.TensorBase: lifetime, identity, properties and indexing slots.
#include "tensor_type.h"

#include <structmember.h>

#include <new>

#include "arg_parser.h"
#include "autograd.h"
#include "device_object.h"
#include "dtype_object.h"
#include "errors.h"
#include "indexing.h"
#include "interop.h"
#include "operators.h"
#include "size_object.h"
#include "tensor_new.h"
#include "wick/autograd/variable.h"
#include "wrap.h"

namespace wick {
namespace python {

extern PyMethodDef tensor_methods[];  // generated/python/method_tables.cpp

PyTypeObject* tensor_class = &TensorBaseType;

namespace {

PyObject* tensor_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return guarded(nullptr, [&] { return legacy_new(type, default_float(), args, kwargs); });
}

// See Note [Python object slot]. Called when Python drops its last reference:
// if C++ still holds the tensor, the object is resurrected and handed to the
// TensorImpl, which then owns it (and so its __dict__) until the next wrap().
bool try_preserve(PyObject* self) {
  Tensor& t = reinterpret_cast<PyTensor*>(self)->cdata;
  if (!t.defined() || t.impl()->pyobj() != self || t.impl()->use_count() == 1) return false;
  Py_SET_REFCNT(self, 1);  // now the TensorImpl's reference
  t.impl()->set_owns_pyobj(true);
  Tensor released = std::move(t);  // the object no longer owns the TensorImpl
  return true;  // `released` may drop the last reference; self is not touched again
}

// The TensorImpl that owned `obj` is gone; its handle in the object is already empty.
void release_pyobj(void* obj) {
  const PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF(static_cast<PyObject*>(obj));
  PyGILState_Release(state);
}

void tensor_dealloc(PyObject* self);

// Clears the __slots__ a Python class added.
void clear_slots(PyTypeObject* type, PyObject* self) {
  // A heap type's __slots__ members follow its type object (CPython's PyHeapType_GET_MEMBERS).
  PyMemberDef* member =
      reinterpret_cast<PyMemberDef*>(reinterpret_cast<char*>(type) + Py_TYPE(type)->tp_basicsize);
  for (Py_ssize_t i = 0; i < Py_SIZE(type); ++i, ++member) {
    if (member->type == T_OBJECT_EX && !(member->flags & READONLY)) {
      PyObject** slot = reinterpret_cast<PyObject**>(reinterpret_cast<char*>(self) + member->offset);
      Py_CLEAR(*slot);
    }
  }
}

// Whether a subclass instance that Python dropped lives on: brought back by its
// __del__, or preserved. It comes in untracked by the garbage collector, and
// leaves tracked if it lives on.
//
// __del__ runs when Python drops its last reference, before preservation, so
// that it always sees a tensor: a preserved object gives its TensorImpl up, and
// when that dies and releases the object, __del__ has already run (CPython runs
// it once), so nothing can bring the object back without a tensor.
bool lives_on(PyObject* self) {
  if (Py_TYPE(self)->tp_finalize) {
    PyObject_GC_Track(self);
    if (PyObject_CallFinalizerFromDealloc(self) < 0) return true;  // __del__ resurrected it
    PyObject_GC_UnTrack(self);
  }
  if (!try_preserve(self)) return false;
  PyObject_GC_Track(self);
  return true;
}

// The deallocator of every Python subclass (wick.Tensor among them), in place
// of CPython's subtype_dealloc, which would clear __dict__ before preservation
// could keep it. It does what subtype_dealloc does for a GC type, the trashcan
// included: that defers deallocations nested too deep (a chain of tensors
// through their __slots__) instead of overflowing the C stack.
void subclass_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  Py_TRASHCAN_BEGIN(self, subclass_dealloc)
  if (!lives_on(self)) {
    if (type->tp_weaklistoffset) PyObject_ClearWeakRefs(self);
    for (PyTypeObject* t = type; t != &TensorBaseType; t = t->tp_base) clear_slots(t, self);
    if (PyObject** dict = _PyObject_GetDictPtr(self)) Py_CLEAR(*dict);
    tensor_dealloc(self);
    Py_DECREF(type);  // instances of heap types own a reference to their type
  }
  Py_TRASHCAN_END
}

void tensor_dealloc(PyObject* self) {
  if (Py_IS_TYPE(self, &TensorBaseType) && try_preserve(self)) return;
  PyObject_GC_UnTrack(self);
  PyTensor* tensor = reinterpret_cast<PyTensor*>(self);
  Tensor& t = tensor->cdata;
  if (t.defined() && t.impl()->pyobj() == self) t.impl()->set_pyobj(nullptr);
  t.~Tensor();
  PyObject* base = tensor->base_ref;  // dropped last: it may run Python code
  Py_TYPE(self)->tp_free(self);
  Py_XDECREF(base);
}

// See Note [Views hold their base's Python object]; subtype_traverse and
// subtype_clear deal with the __dict__ and slots of Python subclasses.
// A tensor that alone owns its TensorImpl, whose grad_fn it alone owns, also holds what that node
// holds in Python: a Function's backward, whose ctx may keep the tensor (save_for_backward of an output),
// a cycle through C++ that the collector could not see otherwise.
int tensor_traverse(PyObject* self, visitproc visit, void* arg) {
  PyTensor* tensor = reinterpret_cast<PyTensor*>(self);
  Py_VISIT(tensor->base_ref);
  const Tensor& t = tensor->cdata;
  const autograd::AutogradMeta* meta = t.defined() && t.impl()->use_count() == 1 ? autograd::meta_of(t) : nullptr;
  if (meta && meta->grad_fn && meta->grad_fn.use_count() == 1) {
    Py_VISIT(static_cast<PyObject*>(meta->grad_fn->python_object()));
  }
  return 0;
}

int tensor_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<PyTensor*>(self)->base_ref);
  return 0;
}

const Tensor& self_tensor(PyObject* self) { return unpack_tensor(self); }

PyObject* get_shape(PyObject* self, void*) {
  return guarded(nullptr, [&] { return wrap_size(self_tensor(self).sizes()); });
}
PyObject* get_dtype(PyObject* self, void*) { return Py_NewRef(dtype_object(self_tensor(self).dtype())); }
PyObject* get_device(PyObject* self, void*) {
  return guarded(nullptr, [&] { return device_object(self_tensor(self).device()); });
}
PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLongLong(self_tensor(self).dim()); }
PyObject* get_is_cuda(PyObject* self, void*) { return PyBool_FromLong(self_tensor(self).device().is_cuda()); }
PyObject* get_itemsize(PyObject* self, void*) { return PyLong_FromLongLong(self_tensor(self).itemsize()); }
PyObject* get_base(PyObject* self, void*) {
  PyTensor* tensor = reinterpret_cast<PyTensor*>(self);
  if (!tensor->base_ref && tensor->cdata.defined() && tensor->cdata.impl()->base()) {
    // Dropped by tp_clear, and the object lived on.
    tensor->base_ref = guarded(nullptr, [&] { return wrap(tensor->cdata.base()); });
    if (!tensor->base_ref) return nullptr;
  }
  return Py_NewRef(tensor->base_ref ? tensor->base_ref : Py_None);
}

PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, nullptr, "The sizes of the tensor, as a wick.Size.", nullptr},
    {"dtype", get_dtype, nullptr, "The element type.", nullptr},
    {"device", get_device, nullptr, "Where the elements live.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of dims.", nullptr},
    {"is_cuda", get_is_cuda, nullptr, "Whether the tensor lives on a CUDA device.", nullptr},
    {"itemsize", get_itemsize, nullptr, "The size of one element in bytes.", nullptr},
    {"_base", get_base, nullptr, "The tensor this one is a view of, or None.", nullptr},
    {"requires_grad", get_requires_grad, set_requires_grad,
     "Whether autograd computes a gradient for this tensor (set it on leaves).", nullptr},
    {"grad", get_grad, set_grad, "The gradient backward() accumulated into this leaf, or None.", nullptr},
    {"grad_fn", get_grad_fn, nullptr, "The node of the op that made this tensor, or None for a leaf.", nullptr},
    {"is_leaf", get_is_leaf, nullptr, "Whether no recorded op made this tensor.", nullptr},
    {"_version", get_version, nullptr, "How many times the tensor's memory was written in place.", nullptr},
    {"retains_grad", get_retains_grad, nullptr, "Whether this non-leaf keeps its gradient in .grad.", nullptr},
    {"output_nr", get_output_nr, nullptr, "Which result of its grad_fn's op this tensor is.", nullptr},
    {"data", get_data, set_data,
     "The tensor without its history (as detach()); assigning a tensor of the same dtype and device makes this "
     "tensor use its memory.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

Py_ssize_t tensor_length(PyObject* self) {
  return guarded(nullptr, [&]() -> Py_ssize_t {
    const Tensor& t = self_tensor(self);
    WICK_CHECK_TYPE(t.dim() > 0, "len() of a 0-d tensor");
    return Py_ssize_t(t.sizes()[0]);
  });
}

PyMappingMethods tensor_as_mapping = {tensor_length, tensor_getitem, tensor_setitem};

// By identity, although == is elementwise (a richcompare slot alone would leave tensors unhashable).
Py_hash_t hash_identity(PyObject* self) { return _Py_HashPointer(self); }

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
  t.tp_clear = tensor_clear;
  t.tp_getset = tensor_getset;
  t.tp_as_mapping = &tensor_as_mapping;
  t.tp_as_number = &tensor_as_number;  // python_ext/operators.cpp
  t.tp_richcompare = tensor_richcompare;
  t.tp_hash = hash_identity;
  t.tp_as_buffer = &tensor_as_buffer;  // python_ext/buffer.cpp
  t.tp_methods = tensor_methods;
  return t;
}();

PyObject* wrap_as(PyTypeObject* type, Tensor t) {
  if (!t.defined()) Py_RETURN_NONE;
  if (void* existing = t.impl()->pyobj()) {
    PyObject* obj = static_cast<PyObject*>(existing);
    if (!t.impl()->owns_pyobj()) return Py_NewRef(obj);
    // A preserved object comes back: it owns the TensorImpl again, and the
    // TensorImpl's reference to it becomes the caller's.
    t.impl()->set_owns_pyobj(false);
    reinterpret_cast<PyTensor*>(obj)->cdata = std::move(t);
    return obj;
  }
  // For Python subclasses, object.__new__ allocates: unlike a bare tp_alloc it
  // also sets up the inline attribute values, without which CPython 3.11 cannot
  // specialise method lookups on the instance (x.dim() would cost twice as much).
  PyObject* base = t.impl()->base() ? wrap(t.base()) : nullptr;  // Note [Views hold their base's Python object]
  static PyObject* const no_args = PyTuple_New(0);
  PyObject* obj = (type->tp_flags & Py_TPFLAGS_HEAPTYPE) ? PyBaseObject_Type.tp_new(type, no_args, nullptr)
                                                        : type->tp_alloc(type, 0);
  if (!obj) {
    Py_XDECREF(base);
    throw python_error();
  }
  TensorImpl* impl = t.impl();
  PyTensor* tensor = reinterpret_cast<PyTensor*>(obj);
  new (&tensor->cdata) Tensor(std::move(t));
  tensor->base_ref = base;
  impl->set_pyobj(obj);
  return obj;
}

PyObject* wrap(Tensor t) { return wrap_as(tensor_class, std::move(t)); }

PyObject* init_subclass(PyObject* /*module*/, PyObject* cls) {
  PyTypeObject* type = reinterpret_cast<PyTypeObject*>(cls);
  if (!PyType_Check(cls) || !PyType_IsSubtype(type, &TensorBaseType) || !(type->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
    PyErr_SetString(PyExc_TypeError, "_init_subclass() expects a Python subclass of TensorBase");
    return nullptr;
  }
  type->tp_dealloc = subclass_dealloc;
  Py_RETURN_NONE;
}

// Note [Methods on wick.Tensor]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CPython 3.11 specialises a call like x.dim() only when the method's
// descriptor was made for exactly the type of x; otherwise every call takes
// the generic path, which costs about as much again as the whole call. The
// generated methods live on TensorBase while tensors are wick.Tensor, so
// wick.Tensor gets descriptors of its own for each of them that it inherits
// unchanged (a method defined in Python there keeps precedence). Python
// subclasses of wick.Tensor take the generic path, which is always correct.
bool own_methods(PyTypeObject* type) {
  for (PyMethodDef* def = tensor_methods; def->ml_name; ++def) {
    PyObject* name = PyUnicode_InternFromString(def->ml_name);
    if (!name) return false;
    PyObject* found = _PyType_Lookup(type, name);  // borrowed
    const bool inherited = found && Py_IS_TYPE(found, &PyMethodDescr_Type) &&
                           reinterpret_cast<PyMethodDescrObject*>(found)->d_method == def;
    PyObject* descr = inherited ? PyDescr_NewMethod(type, def) : nullptr;
    const bool ok = !inherited || (descr && PyObject_SetAttr(reinterpret_cast<PyObject*>(type), name, descr) == 0);
    Py_XDECREF(descr);
    Py_DECREF(name);
    if (!ok) return false;
  }
  return true;
}

PyObject* set_tensor_class(PyObject* module, PyObject* cls) {
  PyObject* ok = init_subclass(module, cls);
  if (!ok) return nullptr;
  Py_DECREF(ok);
  PyTypeObject* type = reinterpret_cast<PyTypeObject*>(cls);
  if (!own_methods(type)) return nullptr;
  Py_INCREF(cls);
  tensor_class = type;
  Py_RETURN_NONE;
}

bool init_tensor_type(PyObject* module) {
  if (PyType_Ready(&TensorBaseType) < 0) return false;
  TensorImpl::set_pyobj_release_hook(release_pyobj);
  return PyModule_AddObjectRef(module, "TensorBase", reinterpret_cast<PyObject*>(&TensorBaseType)) == 0;
}

}  // namespace python
}  // namespace wick
