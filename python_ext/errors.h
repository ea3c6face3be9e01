// python_ext/errors.h: one boundary between C++ and Python for exceptions, warnings and the GIL.
//
// Note [Error translation]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Every wrapper body runs inside guarded(op, body) (the seed's
// HANDLE_TH_ERRORS): a C++ exception becomes the Python exception of the same
// kind, its message prefixed with "op(): " when op is not null (See Note [Op
// names in messages] in errors.cpp); a python_error means a Python exception
// is already set and propagates untouched. Warnings from core, possibly raised
// with the GIL released, are queued per thread by the handler the module
// installs; after the body, guarded() issues them as Python warnings, so
// `warnings.simplefilter("error")` turns them into exceptions that replace the
// result. A call that queued nothing pays one relaxed atomic load for this.
#pragma once

#include <Python.h>

#include <algorithm>
#include <atomic>
#include <type_traits>

#include "wick/autograd/grad_mode.h"
#include "wick/autograd/variable.h"
#include "wick/error.h"
#include "wick/tensor.h"

namespace wick {
namespace python {

// Thrown where a Python exception is already set.
struct python_error {};

// BufferError, which only the buffer and DLPack protocols raise: it has no kind in core.
class BufferError : public Error { using Error::Error; };

// Sets the Python exception matching the C++ exception being handled, its
// message prefixed with "op(): " unless op is null.
void translate_exception(const char* op);

// Warnings queued on any thread and not yet issued.
extern std::atomic<int> pending_warnings;
// Issues this thread's queued warnings; returns `result`, or the failure value
// (releasing `result`) if one of them raised.
PyObject* issue_warnings(PyObject* result);
Py_ssize_t issue_warnings(Py_ssize_t result);
// Routes core's warnings to the queue; called once by the module.
void install_warning_handler();

template <typename Body>
inline auto guarded(const char* op, Body&& body) -> decltype(body()) {
  decltype(body()) result;
  try {
    result = body();
  } catch (...) {
    translate_exception(op);
    if constexpr (std::is_pointer_v<decltype(result)>) result = nullptr;
    else result = -1;
  }
  if (WICK_UNLIKELY(pending_warnings.load(std::memory_order_relaxed) > 0)) return issue_warnings(result);
  return result;
}

// Note [GIL]
// ~~~~~~~~~~
// Wrappers convert every argument to C++ values before they release the GIL
// and wrap results only after they take it back, so no Python object is
// touched without it. They release it only when the call has real work to do:
// switching threads costs more than a kernel on a few thousand elements, so
// ops on small tensors (and ops declared `releases_gil: false`) keep it.
constexpr int64_t kGilReleaseNumel = 1 << 15;

class GilRelease {
 public:
  explicit GilRelease(bool release = true) : state_(release ? PyEval_SaveThread() : nullptr) {}
  ~GilRelease() {
    if (state_) PyEval_RestoreThread(state_);
  }
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

 private:
  PyThreadState* state_;
};

// Counts the elements of `t` into `work`; true once the count reaches
// kGilReleaseNumel. Each tensor counts at most that many, so that the sum stays
// far from overflow whatever the sizes (an expanded tensor may have 2**62).
inline bool count_work(int64_t& work, const Tensor& t) {
  work += t.defined() ? std::min(t.numel(), kGilReleaseNumel) : 0;
  return work >= kGilReleaseNumel;
}

// Whether a call on these tensors has enough work to be worth releasing the GIL. A call that
// autograd records keeps it: the aliases it would hand core (Note [Tensors read without the
// GIL]) carry no history, so its result would not record.
inline bool worth_releasing(std::initializer_list<const Tensor*> tensors) {
  int64_t work = 0;
  bool enough = false;
  for (const Tensor* t : tensors) enough = count_work(work, *t) || enough;
  return enough && !(autograd::any_requires_grad(tensors) && autograd::is_grad_enabled());
}

}  // namespace python
}  // namespace wick
