// python_ext/module.cpp: PyInit__C, which assembles wick._C from the types and the generated tables.
#include <Python.h>

#include "autograd.h"
#include "device_object.h"
#include "dtype_object.h"
#include "errors.h"
#include "generator_object.h"
#include "memory_format_object.h"
#include "interop.h"
#include "named_tuples.h"
#include "operators.h"
#include "size_object.h"
#include "storage_object.h"
#include "tensor_new.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/cpu/capability.h"
#include "wick/tensor_print.h"

namespace wick {
namespace python {

extern PyMethodDef module_functions[];  // generated/python/method_tables.cpp
extern PyMethodDef threads_functions[];  // threads.cpp
extern PyMethodDef print_options_functions[];  // print_options.cpp
extern PyMethodDef grad_mode_functions[];  // grad_mode.cpp
PyObject* set_tensor_class(PyObject* module, PyObject* cls);
PyObject* init_subclass(PyObject* module, PyObject* cls);

namespace {

PyObject* cuda_is_available(PyObject*, PyObject*) { return PyBool_FromLong(cuda_runtime::is_available()); }
PyObject* cuda_device_count(PyObject*, PyObject*) { return PyLong_FromLong(cuda_runtime::device_count()); }
PyObject* get_cpu_capability(PyObject*, PyObject*) {
  return PyUnicode_FromString(cpu_capability_name(cpu_capability()));
}

// _legacy_new(cls, dtype, *args, device=None): the constructors of wick.FloatTensor and friends.
PyObject* legacy_new_with_dtype(PyObject*, PyObject* args, PyObject* kwargs) {
  return guarded(nullptr, [&]() -> PyObject* {
    WICK_CHECK_TYPE(PyTuple_GET_SIZE(args) >= 2, "_legacy_new(cls, dtype, *args)");
    PyObject* cls = PyTuple_GET_ITEM(args, 0);
    PyObject* dtype = PyTuple_GET_ITEM(args, 1);
    WICK_CHECK_TYPE(PyType_Check(cls) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &TensorBaseType) &&
                    is_dtype(dtype), "_legacy_new(cls, dtype, *args): bad cls or dtype");
    PyObject* rest = PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args));
    if (!rest) return nullptr;
    PyObject* result = nullptr;
    try {
      result = legacy_new(reinterpret_cast<PyTypeObject*>(cls), reinterpret_cast<PyDType*>(dtype)->dtype, rest, kwargs);
    } catch (...) {
      Py_DECREF(rest);
      throw;
    }
    Py_DECREF(rest);
    return result;
  });
}

// _tensor_repr(t): repr(t), laid out in C++ (Note [Printing tensors] in wick/tensor_print.h), where
// no Python code runs while the values are read.
PyObject* tensor_repr(PyObject*, PyObject* arg) {
  return guarded(nullptr, [&]() -> PyObject* {
    WICK_CHECK_TYPE(is_tensor(arg), "_tensor_repr(t): t must be a tensor, not ", Py_TYPE(arg)->tp_name);
    const std::string text = wick::tensor_repr(unpack_tensor(arg));
    return PyUnicode_FromStringAndSize(text.data(), Py_ssize_t(text.size()));
  });
}

PyMethodDef extra_functions[] = {
    {"_cuda_is_available", cuda_is_available, METH_NOARGS, "Whether a CUDA device can be used."},
    {"_cuda_device_count", cuda_device_count, METH_NOARGS, "The number of CUDA devices."},
    {"_get_cpu_capability", get_cpu_capability, METH_NOARGS, "The CPU level the kernels run at: DEFAULT, AVX2, AVX512."},
    {"_set_tensor_class", set_tensor_class, METH_O, "Registers the Python class of new tensors."},
    {"_init_subclass", init_subclass, METH_O, "Prepares a Python subclass of TensorBase (object preservation)."},
    {"_legacy_new", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(legacy_new_with_dtype)),
     METH_VARARGS | METH_KEYWORDS, "Builds a tensor of a fixed dtype from legacy constructor arguments."},
    {"_tensor_repr", tensor_repr, METH_O, "repr() of a tensor, as PyTorch lays it out."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "wick._C", "Wick's C extension: the tensor type and every generated op.", -1,
    nullptr, nullptr, nullptr, nullptr, nullptr,
};

}  // namespace
}  // namespace python
}  // namespace wick

PyMODINIT_FUNC PyInit__C() {
  using namespace wick::python;
  PyObject* module = PyModule_Create(&module_def);
  if (!module) return nullptr;
  install_warning_handler();
  if (PyModule_AddFunctions(module, module_functions) < 0 || PyModule_AddFunctions(module, extra_functions) < 0 ||
      PyModule_AddFunctions(module, buffer_functions) < 0 || PyModule_AddFunctions(module, dlpack_functions) < 0 ||
      PyModule_AddFunctions(module, threads_functions) < 0 || PyModule_AddFunctions(module, grad_mode_functions) < 0 ||
      PyModule_AddFunctions(module, autograd_functions) < 0 || !init_node_type(module) ||
      PyModule_AddFunctions(module, storage_bytes_functions) < 0 ||
      PyModule_AddFunctions(module, storage_functions) < 0 || !init_storage_type(module) ||
      PyModule_AddFunctions(module, dtype_functions) < 0 ||
      PyModule_AddFunctions(module, print_options_functions) < 0 ||
      !init_dtype_type(module) || !init_device_type(module) || !init_tensor_type(module) ||
      !init_generator_type(module) || !init_memory_format_type(module) || !init_size_type(module) ||
      !init_return_types(module) || !init_operators(module) ||
      PyModule_AddIntConstant(module, "_has_cuda", WICK_WITH_CUDA) < 0 ||
      PyModule_AddStringConstant(module, "__version__", WICK_VERSION) < 0) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
