// core/src/join.cpp: tensors joined along a dim into a new one: cat (and its alias concat), stack, hstack, vstack.
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops.h"

namespace wick {
namespace {

// PyTorch leaves 1-d tensors without elements out of cat's shape checks (they
// stood for "no tensor" before sizes could be 0); they still take part in type promotion.
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

void check_list(const char* op, TensorListRef tensors) {
  WICK_CHECK_VALUE(!tensors.empty(), op, "(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    WICK_CHECK_VALUE(tensors[i].defined(), op, "(): expected a Tensor at position ", i, ", got None");
  }
}

// cat under the name `op`: the inputs promoted together, each copied into its slice of the result.
Tensor join_out(const char* op, const Tensor& out, TensorListRef tensors, int64_t dim) {
  check_list(op, tensors);
  const Tensor* shape = nullptr;  // the first tensor that is not legacy-empty
  DType dtype = tensors[0].dtype();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    WICK_CHECK(t.dim() > 0, op, "(): zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    WICK_CHECK(t.device() == tensors[0].device(), op, "(): expected all tensors to be on the same device, but ",
               "found at least two devices, ", tensors[0].device().str(), " and ", t.device().str());
    dtype = promote_types(dtype, t.dtype());
    if (!shape && !is_legacy_empty(t)) shape = &t;
  }
  const Device device = tensors[0].device();
  DimVector sizes{0};
  int64_t d = 0;
  if (shape) {
    d = shape->wrap_dim(dim);
    sizes = shape->sizes().vec();
    sizes[size_t(d)] = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const Tensor& t = tensors[i];
      if (is_legacy_empty(t)) continue;
      WICK_CHECK(t.dim() == shape->dim(), op, "(): Tensors must have same number of dimensions: got ", shape->dim(),
                 " and ", t.dim());
      for (int64_t k = 0; k < t.dim(); ++k) {
        WICK_CHECK(k == d || t.size(k) == shape->size(k), op, "(): Sizes of tensors must match except in dimension ",
                   d, ". Expected size ", shape->size(k), " but got size ", t.size(k), " for tensor number ", i,
                   " in the list.");
      }
      WICK_CHECK_KIND(OutOfMemoryError, !__builtin_add_overflow(sizes[size_t(d)], t.size(d), &sizes[size_t(d)]),
                      op, "(): the result is too large");
    }
  }
  Tensor result;
  if (out.defined()) {
    WICK_CHECK_TYPE(can_cast(dtype, out.dtype()), op, "(): input types can't be cast to the desired output type ",
                    dtype_type_name(out.dtype()));
    for (const Tensor& t : tensors) {
      WICK_CHECK(!detail::may_overlap(out, t), op, "(): unsupported operation: some elements of the input tensor and ",
                 "the written-to tensor refer to a single memory location. Please clone() the tensor before ",
                 "performing the operation.");
    }
    result = detail::prepare_out(op, out, sizes, out.dtype(), device);
  } else {
    result = empty(sizes, dtype, device);
  }
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (!shape || is_legacy_empty(t)) continue;
    copy_(narrow(result, d, offset, t.size(d)), t);
    offset += t.size(d);
  }
  return result;
}

// Each tensor with dims of size 1 in front until it has `ndim` of them (torch.atleast_1d, atleast_2d).
std::vector<Tensor> at_least(TensorListRef tensors, int64_t ndim) {
  std::vector<Tensor> result;
  result.reserve(tensors.size());
  for (const Tensor& t : tensors) {
    Tensor r = t;
    while (r.dim() < ndim) r = unsqueeze(r, 0);
    result.push_back(std::move(r));
  }
  return result;
}

}  // namespace

Tensor cat_out(const Tensor& out, TensorListRef tensors, int64_t dim) { return join_out("cat", out, tensors, dim); }

Tensor stack_out(const Tensor& out, TensorListRef tensors, int64_t dim) {
  check_list("stack", tensors);
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1);
  std::vector<Tensor> rows;
  rows.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    WICK_CHECK(tensors[i].sizes() == tensors[0].sizes(), "stack(): each tensor must have the same size, but got ",
               shape_str(tensors[0].sizes()), " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ", i);
    rows.push_back(unsqueeze(tensors[i], d));
  }
  return join_out("stack", out, rows, d);
}

Tensor hstack_out(const Tensor& out, TensorListRef tensors) {
  check_list("hstack", tensors);
  const std::vector<Tensor> rows = at_least(tensors, 1);
  return join_out("hstack", out, rows, rows[0].dim() == 1 ? 0 : 1);
}

Tensor vstack_out(const Tensor& out, TensorListRef tensors) {
  check_list("vstack", tensors);
  return join_out("vstack", out, at_least(tensors, 2), 0);
}

}  // namespace wick
