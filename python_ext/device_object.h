// python_ext/device_object.h: wick.device, as torch.device.
#pragma once

#include <Python.h>

#include "wick/device.h"

namespace wick {
namespace python {

struct PyDevice {
  PyObject_HEAD
  Device device;
};

extern PyTypeObject DeviceType;

PyObject* device_object(Device d);  // new reference
// A wick.device or a device string; throws TypeError or ValueError otherwise.
Device to_device(PyObject* obj);
inline bool is_device_like(PyObject* obj) { return Py_IS_TYPE(obj, &DeviceType) || PyUnicode_Check(obj); }

bool init_device_type(PyObject* module);

}  // namespace python
}  // namespace wick
