// python_ext/tensor_new.cpp: wick.tensor(data), wick.as_tensor(data), the legacy constructors, and tolist().
#include "tensor_new.h"

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arg_parser.h"
#include "device_object.h"
#include "errors.h"
#include "interop.h"
#include "owned_ref.h"
#include "python_impls.h"
#include "storage_object.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/cpu.h"
#include "wick/ops/empty.h"
#include "wick/ops/to.h"

namespace wick {
namespace python {
namespace {

constexpr size_t kMaxDepth = 64;

bool is_sequence(PyObject* obj) {
  return PySequence_Check(obj) && !PyUnicode_Check(obj) && !PyBytes_Check(obj) && !PyByteArray_Check(obj);
}

// Categories in promotion order: bool < integer < float.
enum Category { kNone = -1, kBool = 0, kInt = 1, kFloat = 2 };

Category number_category(PyObject* obj) {
  switch (number_kind(obj)) {
    case NumberKind::Bool: return kBool;
    case NumberKind::Int: return kInt;
    case NumberKind::Float: return kFloat;
    case NumberKind::None: return kNone;
  }
  return kNone;
}

// The dtype a number gives nested data, as PyTorch infers it: a NumPy scalar's own, else bool,
// int64 or the default float by its kind.
DType number_dtype(PyObject* obj, Category cat) {
  const DType by_kind = cat == kBool ? DType::Bool : cat == kInt ? DType::Int64 : default_float();
  if (PyBool_Check(obj) || PyLong_CheckExact(obj) || PyFloat_CheckExact(obj)) return by_kind;
  return numpy_scalar_dtype(obj).value_or(by_kind);
}

Scalar to_scalar(PyObject* obj, Category cat) {
  if (cat == kBool) {  // a Python bool or a NumPy one
    const int truth = PyObject_IsTrue(obj);
    if (truth < 0) throw python_error();
    return Scalar(truth == 1);
  }
  if (cat == kInt) {
    const long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) throw python_error();
    return Scalar(int64_t(v));
  }
  const double v = PyFloat_AsDouble(obj);
  if (v == -1.0 && PyErr_Occurred()) throw python_error();
  return Scalar(v);
}

// Note [Reading nested data]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// wick.tensor(data) runs Python code while it reads: a sequence's __len__ and
// __getitem__, an element's __index__ or __float__. That code may change any
// container of `data`, or resize a tensor inside it. So the data is read once,
// into what this class owns: each sequence is first copied into a tuple of its
// length at that moment (strong references, so a container emptied later frees
// nothing we hold), each number is converted when it is reached, and each
// nested tensor is captured by an alias of its geometry. The shape is measured
// from those copies, and the result is filled from the numbers and aliases
// after the read, when no more Python code can run.
class NestedData {
 public:
  explicit NestedData(PyObject* data) { read(data, 0); }

  IntArrayRef shape() const { return shape_; }
  // The dtype PyTorch infers: its elements' promoted together, the default float for none.
  DType natural_dtype() const { return dtype_.value_or(default_float()); }

  // Writes the elements, in order, into `result`: contiguous, on the CPU, of `shape()`.
  template <typename T>
  void fill(const Tensor& result) const {
    WICK_INTERNAL_ASSERT(count_ == result.numel(), "read ", count_, " elements for a shape of ", result.numel());
    T* out = result.data<T>();
    int64_t written = 0;
    size_t number = 0;
    auto numbers_until = [&](int64_t end) {
      for (; written < end; ++written) {
        const Scalar& value = numbers_[number++];
        // PyTorch checks integers alone here, and names the dtype (Note [Checked conversion of Python numbers]).
        if constexpr (std::is_integral_v<T>) check_convertible(value, result.dtype(), dtype_name(result.dtype()));
        out[written] = value.to<T>();
      }
    };
    for (const auto& [at, t] : tensors_) {
      numbers_until(at);
      const Tensor values = contiguous(to(cpu(t), result.dtype()));
      if (values.numel() > 0) std::memcpy(out + written, values.data_ptr(), size_t(values.numel()) * sizeof(T));
      written += values.numel();
    }
    numbers_until(count_);
  }

 private:
  void read(PyObject* obj, size_t depth) {
    WICK_CHECK_VALUE(depth <= kMaxDepth, "data nested deeper than ", kMaxDepth, " levels");
    if (is_tensor(obj)) return read_tensor(unpack_tensor(obj), depth);
    const Category cat = number_category(obj);
    if (cat != kNone) {
      WICK_CHECK_VALUE((!leaf_depth_ || *leaf_depth_ == depth) && depth == shape_.size(),
                       "expected a sequence at dim ", depth, ", got a number");
      leaf_depth_ = depth;
      infer(number_dtype(obj, cat));
      numbers_.push_back(to_scalar(obj, cat));
      ++count_;
      return;
    }
    WICK_CHECK_TYPE(is_sequence(obj), "could not convert an object of type '", Py_TYPE(obj)->tp_name,
                    "' to a tensor element");
    WICK_CHECK_VALUE(!leaf_depth_ || *leaf_depth_ > depth, "ragged nested data at dim ", depth);
    const OwnedRef items(copy_items(obj));
    const Py_ssize_t n = PyTuple_GET_SIZE(items.get());
    if (depth == shape_.size()) shape_.push_back(n);
    else WICK_CHECK_VALUE(shape_[depth] == n, "expected sequence of length ", shape_[depth],
                          " at dim ", depth, " (got ", n, ")");
    for (Py_ssize_t i = 0; i < n; ++i) read(PyTuple_GET_ITEM(items.get(), i), depth + 1);
    if (n == 0 && !leaf_depth_) leaf_depth_ = depth + 1;
  }

  void read_tensor(const Tensor& t, size_t depth) {
    const Tensor captured = alias(t);
    for (int64_t d = 0; d < captured.dim(); ++d) {
      const size_t at = depth + size_t(d);
      const int64_t size = captured.sizes()[size_t(d)];
      if (at == shape_.size() && !leaf_depth_) shape_.push_back(size);
      else WICK_CHECK_VALUE(at < shape_.size() && shape_[at] == size, "a nested tensor of shape ",
                            shape_str(captured.sizes()), " does not fit at dim ", depth);
    }
    const size_t leaf = depth + size_t(captured.dim());
    WICK_CHECK_VALUE(!leaf_depth_ || *leaf_depth_ == leaf, "ragged nested data at dim ", depth);
    leaf_depth_ = leaf;
    const DType d = captured.dtype();
    infer(d);
    tensors_.emplace_back(count_, captured);
    count_ += captured.numel();
  }

  void infer(DType d) { dtype_ = dtype_ ? promote_types(*dtype_, d) : d; }

  // The items of a sequence as a new tuple: a list's as they are now, another
  // sequence's as many as its length says, each asked for once.
  static PyObject* copy_items(PyObject* seq) {
    if (PyList_Check(seq) || PyTuple_Check(seq)) return OwnedRef(PySequence_Tuple(seq)).release();
    const Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) throw python_error();
    OwnedRef items(PyTuple_New(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* item = PySequence_GetItem(seq, i);
      if (!item) throw python_error();
      PyTuple_SET_ITEM(items.get(), i, item);
    }
    return items.release();
  }

  DimVector shape_;
  std::optional<size_t> leaf_depth_;  // the depth at which numbers were found
  std::optional<DType> dtype_;  // promoted over the elements read
  std::vector<Scalar> numbers_;
  std::vector<std::pair<int64_t, Tensor>> tensors_;  // (how many elements come before it, its alias)
  int64_t count_ = 0;                                // elements read
};

// A new reference: the elements of `t` from dim `dim` on, as nested lists.
PyObject* to_list(const char* data, const Tensor& t, int64_t dim) {
  if (dim == t.dim()) {
    PyObject* value = dispatch(t.dtype(), [&](auto tag) -> PyObject* {
      using T = typename decltype(tag)::type;
      const T v = *reinterpret_cast<const T*>(data);
      if constexpr (std::is_same_v<T, bool>) return PyBool_FromLong(v);
      else if constexpr (std::is_integral_v<T>) return PyLong_FromLongLong(v);
      else return PyFloat_FromDouble(double(opmath_t<T>(v)));
    });
    if (!value) throw python_error();
    return value;
  }
  // One level of C recursion per dim: a tensor of very many dims is a RecursionError.
  if (Py_EnterRecursiveCall(" in tolist()")) throw python_error();
  struct Leave {
    ~Leave() { Py_LeaveRecursiveCall(); }
  } leave;
  const int64_t n = t.sizes()[size_t(dim)];
  // In bytes, within the tensor's reach (Note [Checked size arithmetic]); a tensor without
  // elements reaches nothing, and its lists hold no numbers to find.
  const int64_t step = t.numel() == 0 ? 0 : t.strides()[size_t(dim)] * t.itemsize();
  OwnedRef list(PyList_New(Py_ssize_t(n)));
  for (int64_t i = 0; i < n; ++i) PyList_SET_ITEM(list.get(), Py_ssize_t(i), to_list(data + i * step, t, dim + 1));
  return list.release();
}

}  // namespace

Scalar to_scalar(PyObject* obj) { return to_scalar(obj, number_category(obj)); }

Tensor tensor_from_sequence(PyObject* data, std::optional<DType> dtype) {
  if (is_tensor(data)) {
    const Tensor& t = unpack_tensor(data);
    return to(t, dtype.value_or(t.dtype()), false, true);
  }
  if (is_ndarray(data)) {  // a copy in its own dtype, as PyTorch makes
    const OwnedRef copy(PyObject_CallMethod(data, "copy", nullptr));
    const Tensor t = tensor_from_numpy(copy.get());
    return to(t, dtype.value_or(t.dtype()));
  }
  if (const std::optional<Tensor> t = tensor_from_foreign(data)) {  // PyTorch's: a copy in its dtype, all at once
    return to(*t, dtype.value_or(t->dtype()), false, true);
  }
  const NestedData nested(data);  // See Note [Reading nested data]
  const DType d = dtype.value_or(nested.natural_dtype());
  Tensor result = empty(nested.shape(), d, kCPU);
  dispatch(d, [&](auto tag) { nested.fill<typename decltype(tag)::type>(result); });
  return result;
}

PyObject* legacy_new(PyTypeObject* type, DType dtype, PyObject* args, PyObject* kwargs) {
  std::optional<Device> device;
  if (kwargs && PyDict_Size(kwargs) > 0) {
    PyObject* dev = PyDict_GetItemString(kwargs, "device");
    WICK_CHECK_TYPE(dev && PyDict_Size(kwargs) == 1, "the only keyword argument is device=");
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
    WICK_CHECK_TYPE(other.dtype() == dtype, "expected a tensor of dtype ", dtype_name(dtype), ", got ",
                    dtype_name(other.dtype()));
    result = make_tensor(other.storage(), other.dtype(), other.sizes().vec(), other.strides().vec(),
                         other.storage_offset());
  } else if (const std::optional<StorageArg> storage = n == 1 ? storage_arg(PyTuple_GET_ITEM(args, 0))
                                                                : std::nullopt) {
    // A 1-d tensor over the whole storage, as many elements as fit (Note [Storage objects]).
    WICK_CHECK_TYPE(!device || *device == storage->storage->device(), "a tensor on a storage is on its device");
    Storage s = storage_for(*storage, dtype);
    const int64_t numel = int64_t(s->nbytes()) / wick::itemsize(dtype);
    result = make_tensor(std::move(s), dtype, {numel}, {1}, 0);
  } else if (n == 1 && is_sequence(PyTuple_GET_ITEM(args, 0))) {
    result = tensor_from_sequence(PyTuple_GET_ITEM(args, 0), dtype);
    if (device) result = to(result, *device);
  } else {
    detail::fail<TypeError>("invalid arguments; expected one of: (*size, device=None), "
                            "(sequence data, device=None), (Tensor other), (Storage storage)");
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
  if (const std::optional<Tensor> t = tensor_from_foreign(data)) {  // shares the memory, as for an ndarray
    return to(*t, device.value_or(t->device()), dtype);
  }
  return tensor_from_data(data, dtype, device);
}

PyObject* tolist(const Tensor& self) {
  // Making Python numbers may run Python code (the garbage collector, other threads),
  // which may resize self: read an alias. See Note [Tensors read without the GIL].
  const Tensor host = cpu(alias(self));
  return to_list(host.data_ptr(), host, 0);
}

}  // namespace impl
}  // namespace python
}  // namespace wick
