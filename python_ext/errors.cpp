// python_ext/errors.cpp: C++ exceptions and warnings into Python ones. See Note [Error translation].
#include "errors.h"

#include <exception>
#include <new>

namespace wick {
namespace python {

// Note [GIL]
// ~~~~~~~~~~
// Wrappers convert every argument to C++ values before they release the GIL
// and wrap results only after they take it back, so no Python object is
// touched without it. Core never calls into Python; its warnings are queued
// (WarningBuffer) and issued with the GIL held.

void translate_exception() {
  try {
    throw;
  } catch (const python_error&) {
    // Already set.
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const OutOfMemoryError& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

bool WarningBuffer::issue() {
  set_warning_handler(previous_);
  bool ok = true;
  for (const Queued& w : queued_) {
    PyObject* category = w.kind == WarningKind::Deprecation ? PyExc_DeprecationWarning : PyExc_UserWarning;
    if (ok && PyErr_WarnEx(category, w.msg.c_str(), 1) < 0) ok = false;
  }
  queued_.clear();
  return ok;
}

PyObject* WarningBuffer::finish(PyObject* result) {
  if (queued_.empty()) return result;
  if (!result) {
    // The call failed already: its exception wins; warnings are still shown.
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (!issue()) PyErr_Clear();
    PyErr_Restore(type, value, traceback);
    return nullptr;
  }
  if (issue()) return result;
  Py_DECREF(result);
  return nullptr;
}

int WarningBuffer::finish(int result) {
  if (queued_.empty()) return result;
  PyObject* marker = result < 0 ? nullptr : Py_NewRef(Py_None);
  PyObject* out = finish(marker);
  if (!out) return -1;
  Py_DECREF(out);
  return result;
}

}  // namespace python
}  // namespace wick
