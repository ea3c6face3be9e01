// python_ext/indexing.cpp: x[index] and x[index] = value: basic indices as views, advanced ones through core's index().
//
// Note [Indexing from Python]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, an index is applied in two steps. First its basic items
// become views, left to right: an int selects (removing the dim), a slice
// slices, None adds a dim, `...` skips the dims no other item takes. Every
// other item is advanced and is only recorded, as a tensor at the dim it
// stands for: integer tensors, bool and uint8 masks (which take mask.dim()
// dims), lists, tuples inside the index and NumPy arrays (converted to int64
// or bool tensors), and True/False (0-d masks, which take no dim and add one
// of size 1 or 0). A 0-d integer tensor counts as an int, so x[t] is a view.
// Second, when anything was recorded, one core index() (or index_put_() for
// assignment) applies all of it to the view; see Note [Advanced indexing].
// A top-level tuple is a tuple of indices; a list is always an index tensor
// (NumPy >= 1.23), never a tuple in disguise. Converting an item may run
// Python code (__index__ of an int or a slice bound, a list's elements), which
// may resize the tensor indexed or an index tensor: every item is converted
// before the tensor's geometry is read, and index tensors are taken as aliases.
#include "indexing.h"

#include <cstring>

#include <optional>
#include <string>
#include <vector>

#include "arg_parser.h"
#include "errors.h"
#include "owned_ref.h"
#include "tensor_new.h"
#include "tensor_type.h"
#include "wick/autograd/indexing_ops.h"
#include "wick/autograd/ops.h"
#include "wick/core_ops.h"
#include "wick/indexing.h"

namespace wick {
namespace python {
namespace {

// One item of an index, converted.
struct IndexItem {
  enum class Kind { Int, Slice, None, Ellipsis, Tensor };
  Kind kind;
  int64_t value = 0;                          // Int
  std::optional<int64_t> start, stop;         // Slice: None is nullopt
  int64_t step = 1;                           // Slice
  Tensor tensor;                              // Tensor: int64/int32, or a bool/uint8 mask

  // How many dims of the indexed tensor the item takes.
  int64_t consumed() const {
    if (kind == Kind::Int || kind == Kind::Slice) return 1;
    if (kind != Kind::Tensor) return 0;
    return is_mask() ? tensor.dim() : 1;
  }
  bool is_mask() const { return tensor.dtype() == DType::Bool || tensor.dtype() == DType::UInt8; }
};

[[noreturn]] void fail_unsupported(PyObject* obj) {
  detail::fail<IndexError>("only integers, slices (`:`), ellipsis (`...`), None, bools, and integer or boolean "
                           "tensors, lists and arrays are valid indices (got ",
                           is_tensor(obj) ? "Tensor" : Py_TYPE(obj)->tp_name, ")");
}

IndexItem mask_item(bool value) {
  IndexItem item{IndexItem::Kind::Tensor};
  item.tensor = scalar_tensor(Scalar(value), DType::Bool);
  return item;
}

IndexItem tensor_item(Tensor t) {
  IndexItem item{IndexItem::Kind::Tensor};
  item.tensor = std::move(t);
  return item;
}

// NumPy's bool scalar is not a Python bool, and it still passes as an int (with a DeprecationWarning).
bool is_numpy_bool(PyObject* obj) {
  const char* name = Py_TYPE(obj)->tp_name;
  return std::strcmp(name, "numpy.bool_") == 0 || std::strcmp(name, "numpy.bool") == 0;
}

bool is_numpy_array(PyObject* obj) {
  return !PyList_Check(obj) && !PyTuple_Check(obj) && PyObject_HasAttrString(obj, "__array_interface__");
}

// A list or tuple of ints or bools (nested to any depth) as an int64 or bool tensor.
Tensor index_tensor_from_sequence(PyObject* seq, std::optional<DType> dtype) {
  Tensor t;
  try {
    t = tensor_from_sequence(seq, dtype);
  } catch (const Error& e) {
    detail::fail<IndexError>("a list used as an index must hold only ints or bools: ", e.what());
  }
  if (is_floating(t.dtype())) {
    // An empty list carries no type; [] indexes nothing, as an empty int64 tensor.
    WICK_CHECK_INDEX(t.numel() == 0, "a list used as an index must hold only ints or bools, not floats");
    t = to(t, DType::Int64);
  }
  return t;
}

IndexItem to_item(PyObject* obj);

// obj.name, or nullptr when obj has no such attribute.
PyObject* attribute(PyObject* obj, const char* name) {
  PyObject* value = PyObject_GetAttrString(obj, name);
  if (!value && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
  else if (!value) throw python_error();
  return value;
}

// A NumPy array (or scalar): tolist() gives Python numbers, whose kind is that of the array.
// Anything else with an __array_interface__, and any array whose tolist() does not give
// Python numbers (a longdouble gives itself back, an object array anything), is no index.
IndexItem numpy_item(PyObject* obj) {
  PyObject* dtype = attribute(obj, "dtype");
  if (!dtype) fail_unsupported(obj);
  const OwnedRef owned_dtype(dtype);
  PyObject* kind_obj = attribute(dtype, "kind");
  if (!kind_obj) fail_unsupported(obj);
  const OwnedRef owned_kind(kind_obj);
  const char* kind = PyUnicode_Check(kind_obj) ? PyUnicode_AsUTF8(kind_obj) : nullptr;
  if (!kind) fail_unsupported(obj);
  WICK_CHECK_INDEX(kind[0] == 'b' || kind[0] == 'i' || kind[0] == 'u',
                   "arrays used as indices must be of integer or boolean type (got dtype kind '", kind, "')");
  const OwnedRef data(PyObject_CallMethod(obj, "tolist", nullptr));
  if (PyList_Check(data.get())) {
    return tensor_item(index_tensor_from_sequence(data.get(), kind[0] == 'b' ? DType::Bool : DType::Int64));
  }
  if (PyBool_Check(data.get())) return mask_item(data.get() == Py_True);  // a 0-d bool array or numpy.bool_
  if (!PyLong_Check(data.get())) fail_unsupported(obj);
  IndexItem item{IndexItem::Kind::Int};
  item.value = PyLong_AsLongLong(data.get());
  if (item.value == -1 && PyErr_Occurred()) throw python_error();
  return item;
}

IndexItem to_item(PyObject* obj) {
  if (PyLong_CheckExact(obj)) {  // the common case first: x[3]
    IndexItem item{IndexItem::Kind::Int};
    item.value = PyLong_AsLongLong(obj);
    if (item.value == -1 && PyErr_Occurred()) throw python_error();
    return item;
  }
  if (obj == Py_None) return {IndexItem::Kind::None};
  if (obj == Py_Ellipsis) return {IndexItem::Kind::Ellipsis};
  if (PySlice_Check(obj)) {
    // Read now, with every other item, before any geometry is: __index__ of a bound may run Python code.
    IndexItem item{IndexItem::Kind::Slice};
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(obj, &start, &stop, &step) < 0) throw python_error();
    WICK_CHECK_VALUE(step > 0, "step must be greater than zero");
    PySliceObject* s = reinterpret_cast<PySliceObject*>(obj);
    if (s->start != Py_None) item.start = start;
    if (s->stop != Py_None) item.stop = stop;
    item.step = step;
    return item;
  }
  if (PyBool_Check(obj)) return mask_item(obj == Py_True);
  if (is_tensor(obj)) {
    const Tensor& t = unpack_tensor(obj);
    if (t.dim() == 0 && is_integral(t.dtype(), false) && t.dtype() != DType::UInt8) {
      IndexItem item{IndexItem::Kind::Int};
      item.value = wick::item(t).to_int64();
      return item;
    }
    // Python code run for the items after this one may resize the tensor: keep it as it is now.
    return tensor_item(alias(t));
  }
  if (is_numpy_bool(obj)) {
    const int truth = PyObject_IsTrue(obj);
    if (truth < 0) throw python_error();
    return mask_item(truth != 0);
  }
  if (PyList_Check(obj) || PyTuple_Check(obj)) return tensor_item(index_tensor_from_sequence(obj, std::nullopt));
  if (is_numpy_array(obj)) return numpy_item(obj);
  if (number_kind(obj) == NumberKind::Int) {
    IndexItem item{IndexItem::Kind::Int};
    const long long v = PyLong_AsLongLong(obj);  // calls __index__
    if (v == -1 && PyErr_Occurred()) throw python_error();
    item.value = v;
    return item;
  }
  fail_unsupported(obj);
}

// The view that the basic items make, and the advanced ones recorded for it
// (one entry per leading dim of the view, as core's index() takes them).
struct Sliced {
  Tensor view;
  std::vector<std::optional<Tensor>> indices;
};

Sliced apply_slicing(const Tensor& self, PyObject* index) {
  PyObject* single[1] = {index};
  PyObject** objs = single;
  Py_ssize_t n = 1;
  if (PyTuple_Check(index)) {
    objs = PySequence_Fast_ITEMS(index);
    n = PyTuple_GET_SIZE(index);
  }
  std::vector<IndexItem> items;
  items.reserve(size_t(n));
  int64_t specified = 0;
  bool ellipsis = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    items.push_back(to_item(objs[i]));
    specified += items.back().consumed();
    if (items.back().kind == IndexItem::Kind::Ellipsis) {
      WICK_CHECK_INDEX(!ellipsis, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    }
  }
  if (specified > self.dim()) {
    WICK_CHECK_INDEX(self.dim() > 0 || n != 1 || items[0].kind != IndexItem::Kind::Int,
                     "invalid index of a 0-dim tensor. Use `tensor.item()` to convert a 0-dim tensor to a number");
    detail::fail<IndexError>("too many indices for tensor of dimension ", self.dim(), " (got ", specified, ")");
  }

  Sliced out{self, {}};
  Tensor& result = out.view;
  int64_t dim = 0;      // the dim of `result` the next item applies to
  int64_t covered = 0;  // the dims of `result` that out.indices spans
  for (const IndexItem& item : items) {
    switch (item.kind) {
      case IndexItem::Kind::Int:
        result = autograd::ops::select(result, dim, item.value);
        break;
      case IndexItem::Kind::Slice:
        result = autograd::ops::slice(result, dim, item.start, item.stop, item.step);
        ++dim;
        break;
      case IndexItem::Kind::None:
        result = autograd::ops::unsqueeze(result, dim);
        ++dim;
        break;
      case IndexItem::Kind::Ellipsis:
        dim += self.dim() - specified;
        break;
      case IndexItem::Kind::Tensor:
        for (; covered < dim; ++covered) out.indices.emplace_back(std::nullopt);
        out.indices.emplace_back(item.tensor);
        covered += item.consumed();
        dim += item.consumed();
        break;
    }
  }
  if (out.indices.empty() && result.is_same(self)) {
    // x[...] and x[()] are new views, as in PyTorch; never the tensor itself.
    result = autograd::ops::alias(self);
  }
  return out;
}

// The value of x[index] = value as a tensor. Leading dims of size 1 go, as in
// PyTorch, so that x[0] = y[None] works; broadcasting puts back what is needed.
Tensor value_tensor(PyObject* value, DType dtype) {
  Tensor v;
  if (is_tensor(value)) v = autograd::ops::alias(unpack_tensor(value));  // read with the GIL released
  else if (number_kind(value) != NumberKind::None) v = scalar_tensor(to_scalar(value), dtype);  // a checked value
  else v = tensor_from_sequence(value, dtype);
  while (v.dim() > 0 && v.size(0) == 1) v = autograd::ops::select(v, 0, 0);
  return v;
}

}  // namespace

PyObject* tensor_getitem(PyObject* self, PyObject* index) {
  return guarded(nullptr, [&] {
    Sliced s = apply_slicing(unpack_tensor(self), index);
    if (s.indices.empty()) return wrap(std::move(s.view));
    Tensor result;
    {
      GilRelease nogil(s.view.numel() >= kGilReleaseNumel);
      result = autograd::ops::index(s.view, s.indices);
    }
    return wrap(std::move(result));
  });
}

int tensor_setitem(PyObject* self, PyObject* index, PyObject* value) {
  return guarded(nullptr, [&]() -> int {
    WICK_CHECK_TYPE(value, "Tensor does not support item deletion");
    Sliced s = apply_slicing(unpack_tensor(self), index);
    Tensor v = value_tensor(value, s.view.dtype());
    GilRelease nogil(s.view.numel() >= kGilReleaseNumel);
    if (s.indices.empty()) autograd::ops::copy_(s.view, v);
    else
      autograd::ops::index_put_(s.view, s.indices, autograd::ops::to(v, s.view.dtype()), /*accumulate=*/false);
    return 0;
  });
}

}  // namespace python
}  // namespace wick
