// python_ext/errors.cpp: C++ exceptions and warnings into Python ones. See Note [Error translation].
#include "errors.h"

#include <cctype>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace wick {
namespace python {
namespace {

// Whether `msg` starts with "name(", naming the op it came from.
bool names_an_op(const char* msg) {
  const char* p = msg;
  while (std::isalnum(static_cast<unsigned char>(*p)) || *p == '_' || *p == '.') ++p;
  return p != msg && *p == '(';
}

void set_error(PyObject* type, const char* op, const char* msg) {
  if (op && !names_an_op(msg)) {
    PyErr_Format(type, "%s(): %s", op, msg);
  } else {
    PyErr_SetString(type, msg);
  }
}

struct Queued {
  WarningKind kind;
  std::string msg;
};
thread_local std::vector<Queued> queued;

class QueueingHandler : public WarningHandler {
 public:
  void process(WarningKind kind, const std::string& msg) override {
    queued.push_back({kind, msg});
    pending_warnings.fetch_add(1, std::memory_order_relaxed);
  }
};
QueueingHandler queueing_handler;

// Issues and clears this thread's queue; false if a warning raised (its exception is set).
bool issue_queued() {
  std::vector<Queued> mine;
  mine.swap(queued);
  pending_warnings.fetch_sub(int(mine.size()), std::memory_order_relaxed);
  for (const Queued& w : mine) {
    PyObject* category = w.kind == WarningKind::Deprecation ? PyExc_DeprecationWarning : PyExc_UserWarning;
    if (PyErr_WarnEx(category, w.msg.c_str(), 1) < 0) return false;
  }
  return true;
}

}  // namespace

std::atomic<int> pending_warnings{0};

void install_warning_handler() { set_default_warning_handler(&queueing_handler); }

void translate_exception(const char* op) {
  try {
    throw;
  } catch (const python_error&) {
    // Already set.
  } catch (const IndexError& e) {
    set_error(PyExc_IndexError, op, e.what());
  } catch (const ValueError& e) {
    set_error(PyExc_ValueError, op, e.what());
  } catch (const TypeError& e) {
    set_error(PyExc_TypeError, op, e.what());
  } catch (const NotImplementedError& e) {
    set_error(PyExc_NotImplementedError, op, e.what());
  } catch (const OutOfMemoryError& e) {
    set_error(PyExc_MemoryError, op, e.what());
  } catch (const Error& e) {
    set_error(PyExc_RuntimeError, op, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    set_error(PyExc_RuntimeError, op, e.what());
  } catch (...) {
    set_error(PyExc_RuntimeError, op, "unknown C++ exception");
  }
}

PyObject* issue_warnings(PyObject* result) {
  if (queued.empty()) return result;  // another thread's warnings
  if (!result) {
    // The call failed already: its exception wins; the warnings are still shown.
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (!issue_queued()) PyErr_Clear();
    PyErr_Restore(type, value, traceback);
    return nullptr;
  }
  if (issue_queued()) return result;
  Py_DECREF(result);
  return nullptr;
}

Py_ssize_t issue_warnings(Py_ssize_t result) {
  PyObject* marker = result < 0 ? nullptr : Py_NewRef(Py_None);
  PyObject* out = issue_warnings(marker);
  if (!out) return -1;
  Py_DECREF(out);
  return result;
}

}  // namespace python
}  // namespace wick
