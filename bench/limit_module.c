/* bench/limit_module.c: the hand-written CPython floor for the binding benchmark.
 *
 * A type `Limit` holding one double, with the methods the benchmark calls on
 * tensors, each written the cheapest way CPython allows (METH_NOARGS or
 * METH_FASTCALL, no tuple, no dict): what any generated binding is measured against.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
  PyObject_HEAD
  double value;
} Limit;

static PyTypeObject LimitType;

static PyObject* limit_new_value(double v) {
  Limit* obj = PyObject_New(Limit, &LimitType);
  if (obj) obj->value = v;
  return (PyObject*)obj;
}

static PyObject* limit_dim(PyObject* self, PyObject* unused) { return PyLong_FromLong(1); }

/* add_(number): parses one number, adds it, returns self. */
static PyObject* limit_add_(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_SetString(PyExc_TypeError, "add_() takes 1 argument");
    return NULL;
  }
  double v = PyFloat_AsDouble(args[0]);
  if (v == -1.0 && PyErr_Occurred()) return NULL;
  ((Limit*)self)->value += v;
  Py_INCREF(self);
  return self;
}

/* view(n): a new object. */
static PyObject* limit_view(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1 || !PyLong_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "view() takes 1 int");
    return NULL;
  }
  return limit_new_value(((Limit*)self)->value);
}

static PyObject* limit_getitem(PyObject* self, PyObject* index) {
  if (!PyLong_Check(index)) {
    PyErr_SetString(PyExc_TypeError, "index must be an int");
    return NULL;
  }
  return limit_new_value(((Limit*)self)->value);
}

/* add(x, y): a new object. */
static PyObject* limit_add(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyObject_TypeCheck(args[0], &LimitType) || !PyObject_TypeCheck(args[1], &LimitType)) {
    PyErr_SetString(PyExc_TypeError, "add() takes 2 Limits");
    return NULL;
  }
  return limit_new_value(((Limit*)args[0])->value + ((Limit*)args[1])->value);
}

static PyObject* limit_tp_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return limit_new_value(0.0);
}

static PyMethodDef limit_methods[] = {
    {"dim", limit_dim, METH_NOARGS, NULL},
    {"add_", (PyCFunction)(void (*)(void))limit_add_, METH_FASTCALL, NULL},
    {"view", (PyCFunction)(void (*)(void))limit_view, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMappingMethods limit_as_mapping = {NULL, limit_getitem, NULL};

static PyMethodDef module_methods[] = {
    {"add", (PyCFunction)(void (*)(void))limit_add, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_bench_limit", NULL, -1, module_methods};

PyMODINIT_FUNC PyInit__bench_limit(void) {
  LimitType.tp_name = "_bench_limit.Limit";
  LimitType.tp_basicsize = sizeof(Limit);
  LimitType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  LimitType.tp_new = limit_tp_new;
  LimitType.tp_methods = limit_methods;
  LimitType.tp_as_mapping = &limit_as_mapping;
  if (PyType_Ready(&LimitType) < 0) return NULL;
  PyObject* m = PyModule_Create(&module_def);
  if (!m) return NULL;
  Py_INCREF(&LimitType);
  if (PyModule_AddObject(m, "Limit", (PyObject*)&LimitType) < 0) return NULL;
  return m;
}
