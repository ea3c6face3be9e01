// python_ext/threads.cpp: wick.set_num_threads and wick.get_num_threads, as PyTorch names them.
#include <Python.h>

#include <cstdint>

#include "errors.h"
#include "owned_ref.h"
#include "wick/cpu/parallel.h"

namespace wick {
namespace python {
namespace {

PyObject* set_num_threads(PyObject*, PyObject* arg) {
  return guarded("set_num_threads", [&]() -> PyObject* {
    if (PyFloat_Check(arg) || !PyIndex_Check(arg)) {
      PyErr_Format(PyExc_TypeError, "set_num_threads(): argument 'int' must be int, not %s", Py_TYPE(arg)->tp_name);
      return nullptr;
    }
    // __index__ may run Python code; the number is read once, from the int it returns.
    OwnedRef index(PyNumber_Index(arg));
    if (!index.get()) return nullptr;
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(index.get(), &overflow);
    if (n == -1 && PyErr_Occurred()) return nullptr;
    wick::set_num_threads(overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : int64_t(n));
    Py_RETURN_NONE;
  });
}

PyObject* get_num_threads(PyObject*, PyObject*) { return PyLong_FromLong(wick::get_num_threads()); }

}  // namespace

PyMethodDef threads_functions[] = {
    {"set_num_threads", set_num_threads, METH_O,
     "set_num_threads(int) -> None\n\nSets the number of threads wick's CPU kernels and matrix products use."},
    {"get_num_threads", get_num_threads, METH_NOARGS,
     "get_num_threads() -> int\n\nThe number of threads wick's CPU kernels and matrix products use."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
