// python_ext/grad_mode.cpp: the flags of Note [Grad mode] (wick/autograd/grad_mode.h) for Python;
// wick/autograd/grad_mode.py builds no_grad, enable_grad, set_grad_enabled and inference_mode on them.
#include <Python.h>

#include "errors.h"
#include "wick/autograd/grad_mode.h"

namespace wick {
namespace python {
namespace {

// A bool argument, as PyTorch's: 1 and None are refused.
bool read_flag(const char* function, PyObject* arg, bool* out) {
  if (!PyBool_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "%s(): argument 'mode' must be bool, not %s", function, Py_TYPE(arg)->tp_name);
    return false;
  }
  *out = arg == Py_True;
  return true;
}

PyObject* set_grad_enabled(PyObject*, PyObject* arg) {
  bool enabled = false;
  if (!read_flag("_set_grad_enabled", arg, &enabled)) return nullptr;
  autograd::set_grad_enabled(enabled);
  Py_RETURN_NONE;
}

PyObject* is_grad_enabled(PyObject*, PyObject*) { return PyBool_FromLong(autograd::is_grad_enabled()); }

PyObject* set_inference_mode(PyObject*, PyObject* arg) {
  bool enabled = false;
  if (!read_flag("_set_inference_mode", arg, &enabled)) return nullptr;
  autograd::set_inference_mode(enabled);
  Py_RETURN_NONE;
}

PyObject* is_inference_mode_enabled(PyObject*, PyObject*) {
  return PyBool_FromLong(autograd::is_inference_mode_enabled());
}

}  // namespace

PyMethodDef grad_mode_functions[] = {
    {"_set_grad_enabled", set_grad_enabled, METH_O,
     "_set_grad_enabled(mode: bool) -> None\n\nTurns grad mode on or off for this thread."},
    {"is_grad_enabled", is_grad_enabled, METH_NOARGS,
     "is_grad_enabled() -> bool\n\nWhether grad mode is on in this thread."},
    {"_set_inference_mode", set_inference_mode, METH_O,
     "_set_inference_mode(mode: bool) -> None\n\nTurns inference mode on and grad mode off, or the other way "
     "round, for this thread."},
    {"is_inference_mode_enabled", is_inference_mode_enabled, METH_NOARGS,
     "is_inference_mode_enabled() -> bool\n\nWhether inference mode is on in this thread."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
