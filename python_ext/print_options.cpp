// python_ext/print_options.cpp: wick._C._get_printoptions and _set_printoptions, which wick.set_printoptions
// (wick/printing.py) calls with its arguments already converted to plain Python ints, floats and bools.
#include <Python.h>

#include "errors.h"
#include "wick/tensor_print.h"

namespace wick {
namespace python {
namespace {

PyObject* get_printoptions(PyObject*, PyObject*) {
  const PrintOptions o = print_options();
  PyObject* sci = o.sci_mode ? PyBool_FromLong(*o.sci_mode) : Py_NewRef(Py_None);
  return Py_BuildValue("(LdLLN)", static_cast<long long>(o.precision), o.threshold,
                       static_cast<long long>(o.edgeitems), static_cast<long long>(o.linewidth), sci);
}

// _set_printoptions(precision, threshold, edgeitems, linewidth, sci_mode): ints, a float and True, False or None.
PyObject* set_printoptions(PyObject*, PyObject* args) {
  return guarded("set_printoptions", [&]() -> PyObject* {
    long long precision = 0, edgeitems = 0, linewidth = 0;
    double threshold = 0;
    PyObject* sci = nullptr;
    if (!PyArg_ParseTuple(args, "LdLLO:_set_printoptions", &precision, &threshold, &edgeitems, &linewidth, &sci)) {
      return nullptr;
    }
    if (sci != Py_None && !PyBool_Check(sci)) {
      PyErr_SetString(PyExc_TypeError, "_set_printoptions(): sci_mode must be True, False or None");
      return nullptr;
    }
    PrintOptions o;
    o.precision = precision;
    o.threshold = threshold;
    o.edgeitems = edgeitems;
    o.linewidth = linewidth;
    if (sci != Py_None) o.sci_mode = sci == Py_True;
    set_print_options(o);
    Py_RETURN_NONE;
  });
}

}  // namespace

PyMethodDef print_options_functions[] = {
    {"_get_printoptions", get_printoptions, METH_NOARGS,
     "_get_printoptions() -> (precision, threshold, edgeitems, linewidth, sci_mode)"},
    {"_set_printoptions", set_printoptions, METH_VARARGS,
     "_set_printoptions(precision, threshold, edgeitems, linewidth, sci_mode) -> None"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
