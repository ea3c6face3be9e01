// python_ext/autograd.cpp: autograd for Python (Note [Engine] in wick/autograd/engine.h).
//
// Note [Python in backward]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// backward() and grad() release the GIL while the engine runs, as the ops do
// for large tensors; Python code reached from it (a hook, the backward of a
// wick.autograd.Function) takes the GIL for itself. A Python exception raised
// there stays set on the thread and travels up through the engine as a
// python_error, which guarded() hands back to Python untouched. Nodes and hooks
// hold their Python callables through a reference that takes the GIL to drop
// them, since the last reference to a graph may go on any thread.
#include "autograd.h"

#include <memory>
#include <string>
#include <vector>

#include "errors.h"
#include "owned_ref.h"
#include "tensor_type.h"
#include "wick/autograd/engine.h"
#include "wick/autograd/grad_mode.h"
#include "wick/autograd/variable.h"
#include "wick/ops/detach.h"
#include "wrap.h"

namespace wick {
namespace python {

using autograd::Node;
using autograd::TensorList;

namespace {

// A Python object shared by C++ owners that may drop it without the GIL (Note [Python in backward]).
using SharedPyObject = std::shared_ptr<PyObject>;

SharedPyObject share(PyObject* obj) {
  return SharedPyObject(Py_NewRef(obj), [](PyObject* o) {
    const PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(o);
    PyGILState_Release(state);
  });
}

class Gil {
 public:
  Gil() : state_(PyGILState_Ensure()) {}
  ~Gil() { PyGILState_Release(state_); }
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;

 private:
  PyGILState_STATE state_;
};

// --- grad_fn objects ---------------------------------------------------------------------------

struct PyNode {
  PyObject_HEAD
  std::shared_ptr<Node> node;
};

extern PyTypeObject NodeType;

PyObject* wrap_node(std::shared_ptr<Node> node) {
  if (!node) Py_RETURN_NONE;
  PyNode* obj = PyObject_New(PyNode, &NodeType);
  if (!obj) return nullptr;
  new (&obj->node) std::shared_ptr<Node>(std::move(node));
  return reinterpret_cast<PyObject*>(obj);
}

void node_dealloc(PyObject* self) {
  reinterpret_cast<PyNode*>(self)->node.~shared_ptr<Node>();
  PyObject_Free(self);
}

const Node& node_of(PyObject* self) { return *reinterpret_cast<PyNode*>(self)->node; }

PyObject* node_repr(PyObject* self) {
  return PyUnicode_FromFormat("<%s object at %p>", node_of(self).name().c_str(), static_cast<const void*>(&node_of(self)));
}

PyObject* node_name(PyObject* self, PyObject*) {
  const std::string name = node_of(self).name();
  return PyUnicode_FromStringAndSize(name.data(), Py_ssize_t(name.size()));
}

PyObject* node_next_functions(PyObject* self, void*) {
  const auto& edges = node_of(self).next_edges();
  OwnedRef out(PyTuple_New(Py_ssize_t(edges.size())));
  for (size_t i = 0; i < edges.size(); ++i) {
    OwnedRef fn(wrap_node(edges[i].function));
    PyObject* pair = Py_BuildValue("(OI)", fn.get(), edges[i].input_nr);
    if (!pair) return nullptr;
    PyTuple_SET_ITEM(out.get(), Py_ssize_t(i), pair);
  }
  return out.release();
}

Py_hash_t node_hash(PyObject* self) { return _Py_HashPointer(&node_of(self)); }

PyObject* node_richcompare(PyObject* a, PyObject* b, int op) {
  if (!PyObject_TypeCheck(b, &NodeType) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  const bool same = &node_of(a) == &node_of(b);
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

PyMethodDef node_methods[] = {
    {"name", node_name, METH_NOARGS, "The node's name: MulBackward0, AccumulateGrad."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef node_getset[] = {
    {"next_functions", node_next_functions, nullptr,
     "(node, input number) for each gradient the node computes, (None, 0) where none is needed.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject NodeType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick._C.Node";
  t.tp_basicsize = sizeof(PyNode);
  t.tp_dealloc = node_dealloc;
  t.tp_repr = node_repr;
  t.tp_hash = node_hash;
  t.tp_richcompare = node_richcompare;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "A node of the autograd graph: the backward of the op that made a tensor (its grad_fn).";
  t.tp_methods = node_methods;
  t.tp_getset = node_getset;
  return t;
}();

// --- arguments ---------------------------------------------------------------------------------

// The tensors of a sequence; with `nones`, None stands for an undefined tensor.
TensorList tensor_list(PyObject* seq, const char* what, bool nones) {
  OwnedRef fast(PySequence_Fast(seq, what));
  TensorList out;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.get());
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(fast.get(), i);
    if (nones && item == Py_None) {
      out.emplace_back();
    } else if (is_tensor(item)) {
      out.push_back(unpack_tensor(item));
    } else {
      PyErr_Format(PyExc_TypeError, "%s must be tensors, not %s", what, Py_TYPE(item)->tp_name);
      throw python_error();
    }
  }
  return out;
}

bool flag(PyObject* obj) {
  const int v = PyObject_IsTrue(obj);
  if (v < 0) throw python_error();
  return v != 0;
}

// --- the engine --------------------------------------------------------------------------------

PyObject* run_backward(PyObject*, PyObject* args) {
  return guarded(nullptr, [&]() -> PyObject* {
    PyObject *tensors, *grads, *keep, *create, *inputs;
    if (!PyArg_ParseTuple(args, "OOOOO", &tensors, &grads, &keep, &create, &inputs)) return nullptr;
    const TensorList t = tensor_list(tensors, "tensors", false), g = tensor_list(grads, "grad_tensors", true);
    const TensorList in = tensor_list(inputs, "inputs", false);
    const bool keep_graph = flag(keep), create_graph = flag(create);
    {
      GilRelease unlocked;
      autograd::backward(t, g, keep_graph, create_graph, in);
    }
    Py_RETURN_NONE;
  });
}

PyObject* run_grad(PyObject*, PyObject* args) {
  return guarded(nullptr, [&]() -> PyObject* {
    PyObject *outputs, *inputs, *grads, *keep, *create, *unused;
    if (!PyArg_ParseTuple(args, "OOOOOO", &outputs, &inputs, &grads, &keep, &create, &unused)) return nullptr;
    const TensorList o = tensor_list(outputs, "outputs", false), in = tensor_list(inputs, "inputs", false);
    const TensorList g = tensor_list(grads, "grad_outputs", true);
    const bool keep_graph = flag(keep), create_graph = flag(create), allow_unused = flag(unused);
    TensorList result;
    {
      GilRelease unlocked;
      result = autograd::grad(o, in, g, keep_graph, create_graph, allow_unused);
    }
    return wrap(std::move(result));
  });
}

// --- hooks -------------------------------------------------------------------------------------

// A Python hook as core runs it: None keeps the gradient, a tensor replaces it.
autograd::GradHook python_hook(PyObject* fn) {
  return [fn = share(fn)](const Tensor& grad) {
    Gil gil;
    OwnedRef arg(wrap(grad));
    OwnedRef result(PyObject_CallOneArg(fn.get(), arg.get()));
    if (result.get() == Py_None) return Tensor();
    if (!is_tensor(result.get())) {
      PyErr_Format(PyExc_TypeError, "a hook must return a tensor or None, not %s", Py_TYPE(result.get())->tp_name);
      throw python_error();
    }
    return unpack_tensor(result.get());
  };
}

const char* const kHookCapsule = "wick.autograd.hook";

void free_hook_handle(PyObject* capsule) {
  delete static_cast<std::shared_ptr<void>*>(PyCapsule_GetPointer(capsule, kHookCapsule));
}

const Tensor& tensor_arg(PyObject* obj) {
  if (!is_tensor(obj)) {
    PyErr_Format(PyExc_TypeError, "expected a tensor, not %s", Py_TYPE(obj)->tp_name);
    throw python_error();
  }
  return unpack_tensor(obj);
}

PyObject* register_hook(PyObject*, PyObject* args) {
  return guarded(nullptr, [&]() -> PyObject* {
    PyObject *tensor, *fn;
    if (!PyArg_ParseTuple(args, "OO", &tensor, &fn)) return nullptr;
    if (!PyCallable_Check(fn)) {
      PyErr_Format(PyExc_TypeError, "a hook must be callable, not %s", Py_TYPE(fn)->tp_name);
      return nullptr;
    }
    auto handle = autograd::register_hook(tensor_arg(tensor), python_hook(fn));
    return PyCapsule_New(new std::shared_ptr<void>(std::move(handle)), kHookCapsule, free_hook_handle);
  });
}

PyObject* remove_hook(PyObject*, PyObject* args) {
  return guarded(nullptr, [&]() -> PyObject* {
    PyObject *tensor, *capsule;
    if (!PyArg_ParseTuple(args, "OO", &tensor, &capsule)) return nullptr;
    auto* handle = static_cast<std::shared_ptr<void>*>(PyCapsule_GetPointer(capsule, kHookCapsule));
    if (!handle) return nullptr;
    autograd::remove_hook(tensor_arg(tensor), *handle);
    Py_RETURN_NONE;
  });
}

PyObject* retain_grad(PyObject*, PyObject* tensor) {
  return guarded(nullptr, [&]() -> PyObject* {
    autograd::retain_grad(tensor_arg(tensor));
    Py_RETURN_NONE;
  });
}

// --- wick.autograd.Function --------------------------------------------------------------------

// The node of a call of a wick.autograd.Function: its backward is a Python callable that takes the
// gradients of the outputs and returns one per tensor input, and whose _release() frees what backward
// would read (wick/autograd/function.py).
class PythonFunctionNode : public Node {
 public:
  PythonFunctionNode(SharedPyObject backward, std::string name) : backward_(std::move(backward)), name_(std::move(name)) {}

  TensorList apply(TensorList&& grads) override {
    Gil gil;
    OwnedRef args(wrap(std::move(grads)));
    OwnedRef result(PyObject_CallObject(backward_.get(), args.get()));
    const TensorList out = tensor_list(result.get(), "the gradients a Function's backward returns", true);
    if (out.size() != num_outputs()) {
      detail::fail<Error>("function ", name_, " returned an incorrect number of gradients (expected ",
                          num_outputs(), ", got ", out.size(), ")");
    }
    return out;
  }
  std::string name() const override { return name_; }
  void* python_object() const override { return backward_.get(); }
  // The callable's _release() drops what its ctx saved, which may hold this node (through an output's grad_fn).
  void release_variables() override {
    Gil gil;
    OwnedRef released(PyObject_CallMethod(backward_.get(), "_release", nullptr));
  }

 private:
  SharedPyObject backward_;
  std::string name_;
};

bool contains(const TensorList& list, const Tensor& t) {
  for (const Tensor& x : list) {
    if (x.is_same(t)) return true;
  }
  return false;
}

PyObject* record_function(PyObject*, PyObject* args) {
  return guarded(nullptr, [&]() -> PyObject* {
    PyObject *backward, *inputs, *outputs, *dirty, *non_differentiable;
    const char* name;
    if (!PyArg_ParseTuple(args, "OOOOOs", &backward, &inputs, &outputs, &dirty, &non_differentiable, &name)) {
      return nullptr;
    }
    const TensorList in = tensor_list(inputs, "inputs", false), out = tensor_list(outputs, "outputs", false);
    const TensorList dirt = tensor_list(dirty, "dirty", false);
    const TensorList fixed = tensor_list(non_differentiable, "non_differentiable", false);
    auto node = std::make_shared<PythonFunctionNode>(share(backward), name);
    std::vector<autograd::Edge> edges;
    autograd::collect_next_edges(edges, TensorListRef(in));
    node->set_next_edges(std::move(edges));
    for (const Tensor& t : out) node->add_input_metadata(t);
    for (size_t i = 0; i < out.size(); ++i) {
      if (contains(fixed, out[i])) continue;
      if (contains(dirt, out[i])) {
        autograd::check_inplace(out[i]);
        autograd::bump_version(out[i]);
        autograd::rebase_history(out[i], node, uint32_t(i));
      } else {
        autograd::set_history(out[i], node, uint32_t(i));
      }
    }
    Py_RETURN_NONE;
  });
}

}  // namespace

// --- tensor attributes -------------------------------------------------------------------------

PyObject* get_requires_grad(PyObject* self, void*) {
  return PyBool_FromLong(autograd::requires_grad(unpack_tensor(self)));
}

int set_requires_grad(PyObject* self, PyObject* value, void*) {
  return guarded(nullptr, [&]() -> int {
    if (!value || !PyBool_Check(value)) {
      PyErr_SetString(PyExc_TypeError, "requires_grad must be a bool");
      return -1;
    }
    autograd::set_requires_grad(unpack_tensor(self), value == Py_True);
    return 0;
  });
}

PyObject* get_grad(PyObject* self, void*) {
  return guarded(nullptr, [&] { return wrap(autograd::grad(unpack_tensor(self))); });
}

int set_grad(PyObject* self, PyObject* value, void*) {
  return guarded(nullptr, [&]() -> int {
    if (value && value != Py_None && !is_tensor(value)) {
      PyErr_Format(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got grad of type %s",
                   Py_TYPE(value)->tp_name);
      return -1;
    }
    autograd::set_grad(unpack_tensor(self), value && value != Py_None ? unpack_tensor(value) : Tensor());
    return 0;
  });
}

PyObject* get_grad_fn(PyObject* self, void*) {
  return guarded(nullptr, [&] { return wrap_node(autograd::grad_fn(unpack_tensor(self))); });
}

PyObject* get_is_leaf(PyObject* self, void*) {
  return guarded(nullptr, [&] { return PyBool_FromLong(autograd::is_leaf(unpack_tensor(self))); });
}

PyObject* get_version(PyObject* self, void*) {
  return PyLong_FromUnsignedLong(unpack_tensor(self).storage()->version());
}

PyObject* get_retains_grad(PyObject* self, void*) {
  return PyBool_FromLong(autograd::retains_grad(unpack_tensor(self)));
}

PyObject* get_data(PyObject* self, void*) {
  return guarded(nullptr, [&] { return wrap(detach(unpack_tensor(self))); });
}

int set_data(PyObject* self, PyObject* value, void*) {
  return guarded(nullptr, [&]() -> int {
    if (!value || !is_tensor(value)) {
      PyErr_SetString(PyExc_TypeError, "Variable data has to be a tensor");
      return -1;
    }
    const Tensor& t = unpack_tensor(self);
    const Tensor& data = unpack_tensor(value);
    WICK_CHECK_TYPE(data.dtype() == t.dtype() && data.device() == t.device(), "data set to a tensor of ",
                    dtype_name(data.dtype()), " on ", data.device().str(), " that requires ", dtype_name(t.dtype()),
                    " on ", t.device().str());
    t.impl()->set_geometry(data.storage(), data.sizes().vec(), data.strides().vec(), data.storage_offset());
    return 0;
  });
}

PyObject* get_output_nr(PyObject* self, void*) {
  return PyLong_FromUnsignedLong(autograd::output_nr(unpack_tensor(self)));
}

bool init_node_type(PyObject* module) {
  if (PyType_Ready(&NodeType) < 0) return false;
  return PyModule_AddObjectRef(module, "Node", reinterpret_cast<PyObject*>(&NodeType)) == 0;
}

PyMethodDef autograd_functions[] = {
    {"_backward", run_backward, METH_VARARGS,
     "_backward(tensors, grad_tensors, retain_graph, create_graph, inputs): Tensor.backward()'s engine call."},
    {"_grad", run_grad, METH_VARARGS,
     "_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused): autograd.grad()'s."},
    {"_register_hook", register_hook, METH_VARARGS, "_register_hook(tensor, fn) -> handle for _remove_hook."},
    {"_remove_hook", remove_hook, METH_VARARGS, "_remove_hook(tensor, handle)."},
    {"_retain_grad", retain_grad, METH_O, "_retain_grad(tensor): keeps the gradient of a non-leaf in its .grad."},
    {"_record_function", record_function, METH_VARARGS,
     "_record_function(backward, inputs, outputs, dirty, non_differentiable, name): records the node of a "
     "call of a wick.autograd.Function."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace python
}  // namespace wick
