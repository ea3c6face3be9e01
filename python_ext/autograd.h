// python_ext/autograd.h: autograd for Python: the tensor's autograd attributes, grad_fn objects,
// the engine's entry points and nodes whose backward is Python code.
#pragma once

#include <Python.h>

namespace wick {
namespace python {

// Tensor attributes (the getset table of TensorBase).
PyObject* get_requires_grad(PyObject* self, void*);
int set_requires_grad(PyObject* self, PyObject* value, void*);
PyObject* get_grad(PyObject* self, void*);
int set_grad(PyObject* self, PyObject* value, void*);
PyObject* get_grad_fn(PyObject* self, void*);
PyObject* get_is_leaf(PyObject* self, void*);
PyObject* get_version(PyObject* self, void*);
PyObject* get_retains_grad(PyObject* self, void*);
PyObject* get_output_nr(PyObject* self, void*);
PyObject* get_data(PyObject* self, void*);
int set_data(PyObject* self, PyObject* value, void*);

// wick._C.Node, the type of grad_fn objects.
bool init_node_type(PyObject* module);

extern PyMethodDef autograd_functions[];

}  // namespace python
}  // namespace wick
