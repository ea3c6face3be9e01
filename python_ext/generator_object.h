// python_ext/generator_object.h: wick.Generator, as torch.Generator, over a wick::Generator (wick/generator.h);
// and GeneratorArg, how a generated wrapper holds a `Generator? generator` argument.
#pragma once

#include <Python.h>

#include "wick/generator.h"

namespace wick {
namespace python {

struct PyGenerator {
  PyObject_HEAD
  Generator* generator;  // its own, or wick::default_generator() for wick.default_generator
};

extern PyTypeObject GeneratorType;

inline bool is_generator(PyObject* obj) { return Py_IS_TYPE(obj, &GeneratorType); }

// A generator argument for the length of a call: a strong reference to the wick.Generator given, so that no
// Python code run while the other arguments are converted can free the generator core draws from; a null
// Generator* (the default generator) for None or no argument. Lives in the wrapper's frame, where the GIL is held.
class GeneratorArg {
 public:
  // `obj`: a wick.Generator, None, or null (not given); anything else is a TypeError.
  explicit GeneratorArg(PyObject* obj);
  ~GeneratorArg() { Py_XDECREF(obj_); }
  GeneratorArg(const GeneratorArg&) = delete;
  GeneratorArg& operator=(const GeneratorArg&) = delete;

  operator Generator*() const {  // NOLINT: core takes it as it is
    return obj_ ? reinterpret_cast<PyGenerator*>(obj_)->generator : nullptr;
  }

 private:
  PyObject* obj_ = nullptr;
};

// Adds wick._C.Generator and wick._C.default_generator.
bool init_generator_type(PyObject* module);

}  // namespace python
}  // namespace wick
