// python_ext/type_names.cpp: Tensor.type(), PyTorch's legacy type names ("wick.FloatTensor") both ways.
#include <cstring>
#include <string>

#include "dtype_object.h"
#include "errors.h"
#include "legacy_tensors.h"
#include "python_impls.h"
#include "tensor_type.h"
#include "wick/ops/to.h"

namespace wick {
namespace python {
namespace {

std::string type_name(const Tensor& t) {
  return std::string(t.device().is_cuda() ? "wick.cuda." : "wick.") + kLegacyTensorNames[int(t.dtype())];
}

// "wick.FloatTensor" or "wick.cuda.FloatTensor" as a dtype and a device (`*device`
// stays as it is when it is already a CUDA device and the name says cuda).
bool parse_type_name(const char* name, DType* dtype, Device* device) {
  const bool cuda = std::strncmp(name, "wick.cuda.", 10) == 0;
  if (!cuda && std::strncmp(name, "wick.", 5) != 0) return false;
  const char* rest = name + (cuda ? 10 : 5);
  for (int i = 0; i < kNumDTypes; ++i) {
    if (std::strcmp(rest, kLegacyTensorNames[i]) == 0) {
      *dtype = DType(i);
      if (!cuda) *device = kCPU;
      else if (!device->is_cuda()) *device = Device{DeviceType::CUDA, 0};
      return true;
    }
  }
  return false;
}

}  // namespace

namespace impl {

PyObject* type(const Tensor& self, PyObject* dtype, bool non_blocking) {
  if (!dtype || dtype == Py_None) return PyUnicode_FromString(type_name(self).c_str());
  DType target;
  Device device = self.device();
  if (is_dtype(dtype)) {
    target = reinterpret_cast<PyDType*>(dtype)->dtype;
  } else if (PyUnicode_Check(dtype)) {
    const char* name = PyUnicode_AsUTF8(dtype);
    if (!name) throw python_error();
    WICK_CHECK_VALUE(parse_type_name(name, &target, &device), "invalid type: '", name, "'");
  } else {
    // A legacy class (wick.DoubleTensor) names its dtype.
    PyObject* attr = PyType_Check(dtype) ? PyObject_GetAttrString(dtype, "dtype") : nullptr;
    PyErr_Clear();
    const bool legacy = attr && is_dtype(attr);
    if (legacy) target = reinterpret_cast<PyDType*>(attr)->dtype;
    Py_XDECREF(attr);
    WICK_CHECK_TYPE(legacy, "expected a wick.dtype, a type name such as 'wick.FloatTensor' or a "
                    "legacy tensor class, got ", Py_TYPE(dtype)->tp_name);
  }
  return wrap(to(self, device, target, non_blocking));
}

}  // namespace impl
}  // namespace python
}  // namespace wick
