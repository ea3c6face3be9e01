// python_ext/errors.h: one boundary between C++ and Python for exceptions, warnings and the GIL.
//
// Note [Error translation]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Every wrapper body runs inside guarded() (the seed's HANDLE_TH_ERRORS): a
// C++ exception becomes the Python exception of the same kind (see
// translate_exception), a python_error means a Python exception is already
// set and propagates untouched. While the body runs, warnings from core are
// queued on the C++ side (the GIL may be released); once the body is done
// they are issued as Python warnings, so `warnings.simplefilter("error")`
// turns them into exceptions that replace the result.
#pragma once

#include <Python.h>

#include <string>
#include <vector>

#include "wick/error.h"

namespace wick {
namespace python {

// Thrown where a Python exception is already set.
struct python_error {};

// Sets the Python exception matching the C++ exception being handled.
void translate_exception();

class WarningBuffer : public WarningHandler {
 public:
  WarningBuffer() : previous_(set_warning_handler(this)) {}
  ~WarningBuffer() override { set_warning_handler(previous_); }
  WarningBuffer(const WarningBuffer&) = delete;
  WarningBuffer& operator=(const WarningBuffer&) = delete;

  void process(WarningKind kind, const std::string& msg) override { queued_.push_back({kind, msg}); }
  // Issues the queued warnings; returns `result`, or nullptr (releasing result) if one raised.
  PyObject* finish(PyObject* result);
  int finish(int result);

 private:
  struct Queued {
    WarningKind kind;
    std::string msg;
  };
  bool issue();  // false if a warning raised
  WarningHandler* previous_;
  std::vector<Queued> queued_;
};

template <typename Body>
inline auto guarded(Body&& body) -> decltype(body()) {
  WarningBuffer warnings;
  decltype(body()) result;
  try {
    result = body();
  } catch (...) {
    translate_exception();
    if constexpr (std::is_pointer_v<decltype(result)>) result = nullptr;
    else result = -1;
  }
  return warnings.finish(result);
}

// Releases the GIL for its lifetime; see Note [GIL] in errors.cpp.
class GilRelease {
 public:
  GilRelease() : state_(PyEval_SaveThread()) {}
  ~GilRelease() { PyEval_RestoreThread(state_); }
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

 private:
  PyThreadState* state_;
};

}  // namespace python
}  // namespace wick
