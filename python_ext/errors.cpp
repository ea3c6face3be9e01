// python_ext/errors.cpp: C++ exceptions and warnings into Python ones. See Note [Error translation].
#include "errors.h"

#include <exception>
#include <new>
#include <string>
#include <vector>

namespace wick {
namespace python {
namespace {

// Note [Op names in messages]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The op's name is added to an error message in one place: here. Every
// generated binding runs inside guarded("<binding name>", ...), and set_error
// prefixes "<binding name>(): " to the message of the C++ exception it
// translates: `wick.mm(a, b)` raises "mm(): mat1 and mat2 shapes cannot be
// multiplied (2x3 and 2x3)". The name is the one the user called, whichever
// core function made the check (`a @ b` says matmul(), `x.add_(y)` add_()).
// So no message thrown in core/ or python_ext/ names its op, and no helper
// takes the op's name only to write it into one: core's C++ API gives
// messages without op names, as PyTorch's C++ API does. Glue that is not an
// op call (x[...], properties, the tensor constructors) passes nullptr and
// gets no prefix, as in PyTorch. Warnings are issued, not translated: a
// helper that warns (detail::prepare_out) takes the op's name and writes it
// into the warning itself.
void set_error(PyObject* type, const char* op, const char* msg) {
  if (op) {
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
  } catch (const BufferError& e) {
    set_error(PyExc_BufferError, op, e.what());
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
