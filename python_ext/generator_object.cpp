// python_ext/generator_object.cpp: wick.Generator(device='cpu'), its seeding and state methods, and
// wick.default_generator, the Python face of wick::default_generator().
#include "generator_object.h"

#include <cstring>

#include "device_object.h"
#include "errors.h"
#include "owned_ref.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/ops/empty.h"
#include "wrap.h"

namespace wick {
namespace python {
namespace {

Generator& get(PyObject* self) { return *reinterpret_cast<PyGenerator*>(self)->generator; }

PyObject* generator_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return guarded(nullptr, [&]() -> PyObject* {
    static const char* kwlist[] = {"device", nullptr};
    PyObject* spec = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Generator", const_cast<char**>(kwlist), &spec)) {
      return nullptr;
    }
    const Device device = spec == Py_None ? kCPU : to_device(spec);
    if (device.is_cuda()) cuda_runtime::check_available();
    PyObject* obj = type->tp_alloc(type, 0);
    if (!obj) return nullptr;
    reinterpret_cast<PyGenerator*>(obj)->generator = new Generator(device);
    return obj;
  });
}

void generator_dealloc(PyObject* self) {
  Generator* g = reinterpret_cast<PyGenerator*>(self)->generator;
  if (g != &default_generator()) delete g;
  Py_TYPE(self)->tp_free(self);
}

// A seed as PyTorch reads one: an integer (not a bool) in [-2**63, 2**64), a negative one taken modulo 2**64.
uint64_t unpack_seed(PyObject* arg) {
  WICK_CHECK(!PyBool_Check(arg) && !PyFloat_Check(arg) && PyIndex_Check(arg), "manual_seed expected a long, but got ",
             Py_TYPE(arg)->tp_name);
  OwnedRef index(PyNumber_Index(arg));
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.get(), &overflow);
  if (value == -1 && PyErr_Occurred()) throw python_error();
  if (overflow == 0) return uint64_t(value);
  WICK_CHECK(overflow > 0, "Overflow when unpacking long");
  const unsigned long long seed = PyLong_AsUnsignedLongLong(index.get());  // [2**63, 2**64), or an OverflowError
  if (seed == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    detail::fail<Error>("Overflow when unpacking long");
  }
  return seed;
}

PyObject* generator_manual_seed(PyObject* self, PyObject* arg) {
  return guarded(nullptr, [&]() -> PyObject* {
    get(self).manual_seed(unpack_seed(arg));
    return Py_NewRef(self);
  });
}

PyObject* generator_seed(PyObject* self, PyObject*) {
  return guarded(nullptr, [&]() -> PyObject* { return PyLong_FromUnsignedLongLong(get(self).seed()); });
}

PyObject* generator_initial_seed(PyObject* self, PyObject*) {
  return PyLong_FromUnsignedLongLong(get(self).initial_seed());
}

PyObject* generator_get_state(PyObject* self, PyObject*) {
  return guarded(nullptr, [&]() -> PyObject* {
    const std::vector<uint8_t> bytes = get(self).get_state();
    Tensor state = empty({int64_t(bytes.size())}, DType::UInt8, kCPU);
    std::memcpy(state.data_ptr(), bytes.data(), bytes.size());
    return wrap(std::move(state));
  });
}

PyObject* generator_set_state(PyObject* self, PyObject* arg) {
  return guarded(nullptr, [&]() -> PyObject* {
    WICK_CHECK_TYPE(is_tensor(arg), "expected a wick.ByteTensor, but got ", Py_TYPE(arg)->tp_name);
    const Tensor& state = unpack_tensor(arg);
    WICK_CHECK_TYPE(state.dtype() == DType::UInt8 && state.device().is_cpu(), "RNG state must be a wick.ByteTensor");
    WICK_CHECK(state.is_contiguous(), "RNG state must be contiguous");
    get(self).set_state(ArrayRef<uint8_t>(state.data<uint8_t>(), size_t(state.numel())));
    return Py_NewRef(self);
  });
}

PyObject* generator_device(PyObject* self, void*) {
  return guarded(nullptr, [&]() -> PyObject* { return device_object(get(self).device()); });
}

PyGetSetDef generator_getset[] = {
    {"device", generator_device, nullptr, "The device of the tensors whose values it draws.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef generator_methods[] = {
    {"manual_seed", generator_manual_seed, METH_O,
     "manual_seed(seed) -> Generator\n--\n\nSeeds the generator with an integer in [-2**63, 2**64); returns it."},
    {"seed", generator_seed, METH_NOARGS,
     "seed() -> int\n--\n\nSeeds the generator with a nondeterministic seed, which it returns."},
    {"initial_seed", generator_initial_seed, METH_NOARGS,
     "initial_seed() -> int\n--\n\nThe seed the generator was last seeded with."},
    {"get_state", generator_get_state, METH_NOARGS,
     "get_state() -> Tensor\n--\n\nThe generator's state, a uint8 tensor in Wick's format (Note [Generator state])."},
    {"set_state", generator_set_state, METH_O,
     "set_state(new_state) -> Generator\n--\n\nRestores a state that get_state() gave; returns the generator."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject GeneratorType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "wick.Generator";
  t.tp_basicsize = sizeof(PyGenerator);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "Generator(device='cpu') -> Generator\n\nA source of random values, seeded and restored on its own: "
             "the generator= argument of the random functions.";
  t.tp_new = generator_new;
  t.tp_dealloc = generator_dealloc;
  t.tp_getset = generator_getset;
  t.tp_methods = generator_methods;
  return t;
}();

GeneratorArg::GeneratorArg(PyObject* obj) {
  if (!obj || obj == Py_None) return;
  WICK_CHECK_TYPE(is_generator(obj), "expected a wick.Generator, got ", Py_TYPE(obj)->tp_name);
  obj_ = Py_NewRef(obj);
}

bool init_generator_type(PyObject* module) {
  if (PyType_Ready(&GeneratorType) < 0) return false;
  PyObject* default_object = GeneratorType.tp_alloc(&GeneratorType, 0);
  if (!default_object) return false;
  reinterpret_cast<PyGenerator*>(default_object)->generator = &default_generator();
  const bool added = PyModule_AddObjectRef(module, "Generator", reinterpret_cast<PyObject*>(&GeneratorType)) == 0 &&
                     PyModule_AddObjectRef(module, "default_generator", default_object) == 0;
  Py_DECREF(default_object);
  return added;
}

}  // namespace python
}  // namespace wick
