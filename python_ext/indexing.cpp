// python_ext/indexing.cpp: basic indexing (ints, slices, None, Ellipsis) as views, and assignment.
#include "indexing.h"

#include "arg_parser.h"
#include "errors.h"
#include "tensor_new.h"
#include "tensor_type.h"
#include "wick/core_ops.h"
#include "wick/ops.h"

namespace wick {
namespace python {
namespace {

bool is_index_int(PyObject* obj) { return number_kind(obj) == NumberKind::Int; }

// How many dims of the indexed tensor an index item consumes.
int64_t consumed(PyObject* item) {
  return (item == Py_None || item == Py_Ellipsis) ? 0 : 1;
}

void check_basic(PyObject* item) {
  if (is_index_int(item) || PySlice_Check(item) || item == Py_None || item == Py_Ellipsis) return;
  if (is_tensor(item) || PyList_Check(item) || PyBool_Check(item) || PyTuple_Check(item)) {
    detail::fail<NotImplementedError>("indexing with tensors, lists and bools (advanced indexing) is not "
                                      "supported yet; use ints, slices, None and ...");
  }
  detail::fail<IndexError>("only integers, slices (`:`), ellipsis (`...`) and None are valid indices (got ",
                           Py_TYPE(item)->tp_name, ")");
}

// self[index] for basic indices: always a view.
Tensor apply_index(const Tensor& self, PyObject* index) {
  PyObject* single[1] = {index};
  PyObject** items = single;
  Py_ssize_t n = 1;
  if (PyTuple_Check(index)) {
    items = PySequence_Fast_ITEMS(index);
    n = PyTuple_GET_SIZE(index);
  }
  int64_t specified = 0;
  bool ellipsis = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    check_basic(items[i]);
    specified += consumed(items[i]);
    if (items[i] == Py_Ellipsis) {
      WICK_CHECK_INDEX(!ellipsis, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    }
  }
  WICK_CHECK_INDEX(specified <= self.dim(), self.dim() == 0 && specified == 1 ?
                   "invalid index of a 0-dim tensor. Use `tensor.item()` to convert a 0-dim tensor to a number" :
                   "too many indices for tensor of dimension ", self.dim(), "");
  Tensor result = self;
  int64_t dim = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    if (is_index_int(item)) {
      const long long v = PyLong_AsLongLong(item);
      if (v == -1 && PyErr_Occurred()) throw python_error();
      result = select(result, dim, v);
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) throw python_error();
      WICK_CHECK_VALUE(step > 0, "step must be greater than zero");
      PySliceObject* s = reinterpret_cast<PySliceObject*>(item);
      result = slice(result, dim, s->start == Py_None ? std::nullopt : std::optional<int64_t>(start),
                     s->stop == Py_None ? std::nullopt : std::optional<int64_t>(stop), step);
      ++dim;
    } else if (item == Py_None) {
      result = unsqueeze(result, dim);
      ++dim;
    } else {  // Ellipsis
      dim += self.dim() - specified;
    }
  }
  if (result.is_same(self)) {
    // x[...] and x[()] are new views, as in PyTorch; never the tensor itself.
    result = make_view(self, self.sizes().vec(), self.strides().vec(), self.storage_offset());
  }
  return result;
}

}  // namespace

PyObject* tensor_getitem(PyObject* self, PyObject* index) {
  return guarded([&] { return wrap(apply_index(unpack_tensor(self), index)); });
}

int tensor_setitem(PyObject* self, PyObject* index, PyObject* value) {
  return guarded([&]() -> int {
    WICK_CHECK_TYPE(value, "Tensor does not support item deletion");
    Tensor target = apply_index(unpack_tensor(self), index);
    if (is_tensor(value)) {
      copy_(target, unpack_tensor(value));
    } else if (number_kind(value) != NumberKind::None) {
      copy_(target, tensor_from_sequence(value, std::nullopt));
    } else {
      copy_(target, tensor_from_sequence(value, target.dtype()));
    }
    return 0;
  });
}

}  // namespace python
}  // namespace wick
