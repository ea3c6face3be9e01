// python_ext/storage_object.h: wick._C._StorageBase, the C type behind wick.UntypedStorage.
#pragma once

#include <Python.h>

#include <optional>

#include "wick/dtype.h"
#include "wick/storage.h"

namespace wick {
namespace python {

// Note [Storage objects]
// ~~~~~~~~~~~~~~~~~~~~~~
// A storage object holds a reference to a core StorageImpl, as every tensor on
// it does, so the bytes live while either does (del x leaves x.untyped_storage()
// readable). Each call of x.untyped_storage() makes a new object over the same
// StorageImpl, as in PyTorch 1.13. wick.UntypedStorage (wick/storage.py) is the
// Python class of these objects, and wick.TypedStorage a Python object that holds
// one and a dtype; wick/__init__.py registers both (_set_storage_classes) so that
// C++ can make the one and recognise the other.
struct PyStorage {
  PyObject_HEAD
  Storage cdata;
};

extern PyTypeObject StorageBaseType;

inline bool is_storage(PyObject* obj) { return PyObject_TypeCheck(obj, &StorageBaseType); }
inline const Storage& unpack_storage(PyObject* obj) { return reinterpret_cast<PyStorage*>(obj)->cdata; }
// A new wick.UntypedStorage over `storage`.
PyObject* wrap_storage(Storage storage);

// A storage where PyTorch takes one: an UntypedStorage (no dtype), or a TypedStorage (its dtype).
struct StorageArg {
  Storage storage;
  std::optional<DType> dtype;
};
// Null when `obj` is neither kind; may run Python code (a TypedStorage's attributes).
std::optional<StorageArg> storage_arg(PyObject* obj);
// The storage of `arg` for a tensor of `dtype`: RuntimeError for a TypedStorage of another dtype.
Storage storage_for(const StorageArg& arg, DType dtype);

bool init_storage_type(PyObject* module);
extern PyMethodDef storage_functions[];

}  // namespace python
}  // namespace wick
