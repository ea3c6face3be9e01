// python_ext/tensor_new.cpp: wick.tensor(data), wick.as_tensor(data), the legacy constructors, and tolist().
#include "tensor_new.h"

#include <cstring>
#include <optional>
#include <string>

#include "arg_parser.h"
#include "device_object.h"
#include "errors.h"
#include "interop.h"
#include "python_impls.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops.h"

namespace wick {
namespace python {
namespace {

constexpr size_t kMaxDepth = 64;

bool is_sequence(PyObject* obj) {
  return PySequence_Check(obj) && !PyUnicode_Check(obj) && !PyBytes_Check(obj) && !PyByteArray_Check(obj);
}

// Categories in promotion order: bool < integer < float.
enum Category { kNone = -1, kBool = 0, kInt = 1, kFloat = 2 };

struct Layout {
  DimVector shape;
  std::optional<size_t> leaf_depth;  // depth at which numbers were found
  int category = kNone;
};

Category number_category(PyObject* obj) {
  switch (number_kind(obj)) {
    case NumberKind::Bool: return kBool;
    case NumberKind::Int: return kInt;
    case NumberKind::Float: return kFloat;
    case NumberKind::None: return kNone;
  }
  return kNone;
}

void infer(PyObject* obj, size_t depth, Layout& layout) {
  WICK_CHECK_VALUE(depth <= kMaxDepth, "tensor(): data nested deeper than ", kMaxDepth, " levels");
  if (is_tensor(obj)) {
    const Tensor& t = unpack_tensor(obj);
    for (int64_t d = 0; d < t.dim(); ++d) {
      const size_t at = depth + size_t(d);
      if (at == layout.shape.size() && !layout.leaf_depth) layout.shape.push_back(t.sizes()[size_t(d)]);
      else WICK_CHECK_VALUE(at < layout.shape.size() && layout.shape[at] == t.sizes()[size_t(d)],
                            "tensor(): a nested tensor of shape ", shape_str(t.sizes()), " does not fit at dim ", depth);
    }
    const size_t leaf = depth + size_t(t.dim());
    WICK_CHECK_VALUE(!layout.leaf_depth || *layout.leaf_depth == leaf, "tensor(): ragged nested data at dim ", depth);
    layout.leaf_depth = leaf;
    const int cat = t.dtype() == DType::Bool ? kBool : is_floating(t.dtype()) ? kFloat : kInt;
    layout.category = std::max(layout.category, cat);
    return;
  }
  const Category cat = number_category(obj);
  if (cat != kNone) {
    WICK_CHECK_VALUE(!layout.leaf_depth || *layout.leaf_depth == depth,
                     "tensor(): expected a sequence at dim ", depth, ", got a number");
    WICK_CHECK_VALUE(depth == layout.shape.size(), "tensor(): expected a sequence at dim ", depth, ", got a number");
    layout.leaf_depth = depth;
    layout.category = std::max<int>(layout.category, cat);
    return;
  }
  WICK_CHECK_TYPE(is_sequence(obj), "tensor(): could not convert an object of type '", Py_TYPE(obj)->tp_name,
                  "' to a tensor element");
  WICK_CHECK_VALUE(!layout.leaf_depth || *layout.leaf_depth > depth, "tensor(): ragged nested data at dim ", depth);
  const Py_ssize_t n = PySequence_Size(obj);
  if (n < 0) throw python_error();
  if (depth == layout.shape.size()) layout.shape.push_back(n);
  else WICK_CHECK_VALUE(layout.shape[depth] == n, "tensor(): expected sequence of length ", layout.shape[depth],
                        " at dim ", depth, " (got ", n, ")");
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_GetItem(obj, i);
    if (!item) throw python_error();
    try {
      infer(item, depth + 1, layout);
    } catch (...) {
      Py_DECREF(item);
      throw;
    }
    Py_DECREF(item);
  }
  if (n == 0 && !layout.leaf_depth) layout.leaf_depth = depth + 1;
}

template <typename T>
void fill(PyObject* obj, char*& out, DType dtype) {
  if (is_tensor(obj)) {
    Tensor t = contiguous(to(cpu(unpack_tensor(obj)), dtype));
    const size_t nbytes = size_t(t.numel() * t.itemsize());
    if (nbytes) std::memcpy(out, t.data_ptr(), nbytes);
    out += nbytes;
    return;
  }
  if (number_category(obj) != kNone) {
    const Scalar value = to_scalar(obj);
    // PyTorch checks integers alone here, and names the dtype (Note [Checked conversion of Python numbers]).
    if constexpr (std::is_integral_v<T>) check_convertible(value, dtype, dtype_name(dtype));
    *reinterpret_cast<T*>(out) = value.to<T>();
    out += sizeof(T);
    return;
  }
  const Py_ssize_t n = PySequence_Size(obj);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_GetItem(obj, i);
    if (!item) throw python_error();
    try {
      fill<T>(item, out, dtype);
    } catch (...) {
      Py_DECREF(item);
      throw;
    }
    Py_DECREF(item);
  }
}

PyObject* to_list(const char* data, const Tensor& t, int64_t dim) {
  if (dim == t.dim()) {
    return dispatch(t.dtype(), [&](auto tag) -> PyObject* {
      using T = typename decltype(tag)::type;
      const T v = *reinterpret_cast<const T*>(data);
      if constexpr (std::is_same_v<T, bool>) return PyBool_FromLong(v);
      else if constexpr (std::is_integral_v<T>) return PyLong_FromLongLong(v);
      else return PyFloat_FromDouble(double(opmath_t<T>(v)));
    });
  }
  const int64_t n = t.sizes()[size_t(dim)];
  const int64_t step = t.strides()[size_t(dim)] * t.itemsize();
  PyObject* list = PyList_New(Py_ssize_t(n));
  if (!list) throw python_error();
  for (int64_t i = 0; i < n; ++i) {
    PyObject* item = to_list(data + i * step, t, dim + 1);
    if (!item) {
      Py_DECREF(list);
      throw python_error();
    }
    PyList_SET_ITEM(list, Py_ssize_t(i), item);
  }
  return list;
}

}  // namespace

Scalar to_scalar(PyObject* obj) {
  const NumberKind kind = number_kind(obj);
  if (kind == NumberKind::Bool) return Scalar(obj == Py_True);
  if (kind == NumberKind::Int) {
    const long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) throw python_error();
    return Scalar(int64_t(v));
  }
  const double v = PyFloat_AsDouble(obj);
  if (v == -1.0 && PyErr_Occurred()) throw python_error();
  return Scalar(v);
}

Tensor tensor_from_sequence(PyObject* data, std::optional<DType> dtype) {
  if (is_tensor(data)) {
    const Tensor& t = unpack_tensor(data);
    return to(t, dtype.value_or(t.dtype()), false, true);
  }
  Layout layout;
  infer(data, 0, layout);
  const DType d = dtype ? *dtype
                        : layout.category == kBool ? DType::Bool
                        : layout.category == kInt ? DType::Int64
                                                  : kDefaultFloat;
  Tensor result = empty(layout.shape, d, kCPU);
  char* out = result.data_ptr();
  dispatch(d, [&](auto tag) { fill<typename decltype(tag)::type>(data, out, d); });
  return result;
}

PyObject* legacy_new(PyTypeObject* type, DType dtype, PyObject* args, PyObject* kwargs) {
  std::optional<Device> device;
  if (kwargs && PyDict_Size(kwargs) > 0) {
    PyObject* dev = PyDict_GetItemString(kwargs, "device");
    WICK_CHECK_TYPE(dev && PyDict_Size(kwargs) == 1, "new(): the only keyword argument is device=");
    device = to_device(dev);
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  Tensor result;
  bool sizes = true;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* a = PyTuple_GET_ITEM(args, i);
    sizes = sizes && PyLong_Check(a) && !PyBool_Check(a);
  }
  if (n == 0) {
    result = empty({0}, dtype, device);
  } else if (sizes) {
    DimVector shape;
    for (Py_ssize_t i = 0; i < n; ++i) {
      const long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(args, i));
      if (v == -1 && PyErr_Occurred()) throw python_error();
      shape.push_back(v);
    }
    result = empty(shape, dtype, device);
  } else if (n == 1 && is_tensor(PyTuple_GET_ITEM(args, 0))) {
    const Tensor& other = unpack_tensor(PyTuple_GET_ITEM(args, 0));
    WICK_CHECK_TYPE(other.dtype() == dtype, "new(): expected a tensor of dtype ", dtype_name(dtype), ", got ",
                    dtype_name(other.dtype()));
    result = make_tensor(other.storage(), other.dtype(), other.sizes().vec(), other.strides().vec(),
                         other.storage_offset());
  } else if (n == 1 && is_sequence(PyTuple_GET_ITEM(args, 0))) {
    result = tensor_from_sequence(PyTuple_GET_ITEM(args, 0), dtype);
    if (device) result = to(result, *device);
  } else {
    detail::fail<TypeError>("new(): invalid arguments; expected one of: (*size, device=None), "
                            "(sequence data, device=None), (Tensor other)");
  }
  return wrap_as(type, std::move(result));
}

namespace impl {

Tensor tensor_from_data(PyObject* data, std::optional<DType> dtype, std::optional<Device> device) {
  Tensor t = tensor_from_sequence(data, dtype);
  return device ? to(t, *device) : t;
}

Tensor as_tensor(PyObject* data, std::optional<DType> dtype, std::optional<Device> device) {
  if (is_tensor(data)) {
    const Tensor& t = unpack_tensor(data);
    return to(t, device.value_or(t.device()), dtype);
  }
  if (is_ndarray(data)) return to(tensor_from_numpy(data), device.value_or(kCPU), dtype);
  return tensor_from_data(data, dtype, device);
}

PyObject* tolist(const Tensor& self) {
  Tensor host = cpu(self);
  return to_list(host.data_ptr(), host, 0);
}

}  // namespace impl
}  // namespace python
}  // namespace wick
