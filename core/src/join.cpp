// core/src/join.cpp: tensors joined along a dim into a new one: cat (and its alias concat), stack, hstack, vstack.
#include <cstring>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/cat.h"
#include "wick/ops/clone.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/hstack.h"
#include "wick/ops/narrow.h"
#include "wick/ops/select.h"
#include "wick/ops/stack.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/vstack.h"

namespace wick {
namespace {

// PyTorch leaves 1-d tensors without elements out of cat's shape checks (they
// stood for "no tensor" before sizes could be 0); they still take part in type promotion.
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

// The dtype the tensors promote to; they must be a non-empty list, on one device.
DType promoted(TensorListRef tensors) {
  WICK_CHECK(!tensors.empty(), "expected a non-empty list of Tensors");  // a RuntimeError, as in PyTorch
  WICK_CHECK_VALUE(tensors[0].defined(), "expected a Tensor at position 0, got None");
  DType dtype = tensors[0].dtype();
  for (size_t i = 1; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    WICK_CHECK_VALUE(t.defined(), "expected a Tensor at position ", i, ", got None");
    WICK_CHECK(t.device() == tensors[0].device(), "expected all tensors to be on the same device, but ",
               "found at least two devices, ", tensors[0].device().str(), " and ", t.device().str());
    dtype = promote_types(dtype, t.dtype());
  }
  return dtype;
}

// The tensor a join writes: a new one, or out= checked (castable, not overlapping an input) and resized.
Tensor result_of(const char* op, const Tensor& out, TensorListRef tensors, IntArrayRef sizes, DType dtype) {
  if (!out.defined()) return empty(sizes, dtype, tensors[0].device());
  WICK_CHECK_TYPE(can_cast(dtype, out.dtype()), "input types can't be cast to the desired output type ",
                  dtype_type_name(out.dtype()));
  for (const Tensor& t : tensors) {
    WICK_CHECK(!detail::may_overlap(out, t), "unsupported operation: some elements of the input tensor and ",
               "the written-to tensor refer to a single memory location. Please clone() the tensor before ",
               "performing the operation.");
  }
  return detail::prepare_out(op, out, sizes, out.dtype(), tensors[0].device());
}

// Note [Joining contiguous tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// When the result and every input are contiguous CPU tensors of one dtype,
// the result is, for each index of its dims before `d`, the inputs' blocks for
// that index one after another: an input's block is its elements divided by
// that count, whether it fills several places of dim d (cat) or one (stack,
// whose inputs lack dim d). Plain byte copies then replace the view and the
// copy_() setup per input that the general path pays, which is most of the
// time for many small inputs.
bool copy_contiguous(const Tensor& result, TensorListRef tensors, int64_t d) {
  if (!result.device().is_cpu() || !result.is_contiguous()) return false;
  for (const Tensor& t : tensors) {
    if (!is_legacy_empty(t) && (t.dtype() != result.dtype() || !t.is_contiguous())) return false;
  }
  if (result.numel() == 0) return true;
  int64_t outer = 1;
  for (int64_t k = 0; k < d; ++k) outer *= result.size(k);
  char* dst = result.data_ptr();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& t : tensors) {
      const int64_t block = t.numel() / outer * t.itemsize();
      if (block == 0) continue;  // its data pointer may be null
      std::memcpy(dst, t.data_ptr() + o * block, size_t(block));
      dst += block;
    }
  }
  return true;
}

// cat under the name `op`: the inputs promoted together, each copied into its slice of the
// result, which is out= or, when out is undefined, a new tensor (result_of).
Tensor join(const char* op, const Tensor& out, TensorListRef tensors, int64_t dim) {
  const DType dtype = promoted(tensors);
  const Tensor* shape = nullptr;  // the first tensor that is not legacy-empty
  for (size_t i = 0; i < tensors.size(); ++i) {
    WICK_CHECK(tensors[i].dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    if (!shape && !is_legacy_empty(tensors[i])) shape = &tensors[i];
  }
  if (!shape) return result_of(op, out, tensors, {0}, dtype);
  const int64_t d = shape->wrap_dim(dim);
  DimVector sizes = shape->sizes().vec();
  sizes[size_t(d)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (is_legacy_empty(t)) continue;
    WICK_CHECK(t.dim() == shape->dim(), "Tensors must have same number of dimensions: got ", shape->dim(),
               " and ", t.dim());
    for (int64_t k = 0; k < t.dim(); ++k) {
      WICK_CHECK(k == d || t.size(k) == shape->size(k), "Sizes of tensors must match except in dimension ", d,
                 ". Expected size ", shape->size(k), " but got size ", t.size(k), " for tensor number ", i,
                 " in the list.");
    }
    WICK_CHECK_KIND(OutOfMemoryError, !__builtin_add_overflow(sizes[size_t(d)], t.size(d), &sizes[size_t(d)]),
                    "the result is too large");
  }
  Tensor result = result_of(op, out, tensors, sizes, dtype);
  if (copy_contiguous(result, tensors, d)) return result;  // See Note [Joining contiguous tensors]
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (is_legacy_empty(t)) continue;
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

Tensor stack_into(const Tensor& out, TensorListRef tensors, int64_t dim) {
  const DType dtype = promoted(tensors);
  const IntArrayRef shape = tensors[0].sizes();
  for (size_t i = 1; i < tensors.size(); ++i) {
    WICK_CHECK(tensors[i].sizes() == shape, "each tensor must have the same size, but got ", shape_str(shape),
               " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ", i);
  }
  const int64_t d = wrap_dim(dim, int64_t(shape.size()) + 1);
  DimVector sizes = shape.vec();
  sizes.insert(sizes.begin() + d, int64_t(tensors.size()));
  Tensor result = result_of("stack", out, tensors, sizes, dtype);
  if (copy_contiguous(result, tensors, d)) return result;  // See Note [Joining contiguous tensors]
  for (size_t i = 0; i < tensors.size(); ++i) copy_(select(result, d, int64_t(i)), tensors[i]);
  return result;
}

Tensor hstack_into(const Tensor& out, TensorListRef tensors) {
  promoted(tensors);  // checks the list before at_least() reads it
  const std::vector<Tensor> rows = at_least(tensors, 1);
  return join("hstack", out, rows, rows[0].dim() == 1 ? 0 : 1);
}

Tensor vstack_into(const Tensor& out, TensorListRef tensors) {
  promoted(tensors);  // checks the list before at_least() reads it
  return join("vstack", out, at_least(tensors, 2), 0);
}

}  // namespace

// Each join writes its result where it belongs: a new tensor, or out= (resized, and
// checked not to overlap an input), with no copy after.
Tensor cat(TensorListRef tensors, int64_t dim) { return join("cat", Tensor(), tensors, dim); }

const Tensor& cat_out(const Tensor& out, TensorListRef tensors, int64_t dim) {
  join("cat", out, tensors, dim);
  return out;
}

Tensor stack(TensorListRef tensors, int64_t dim) { return stack_into(Tensor(), tensors, dim); }

const Tensor& stack_out(const Tensor& out, TensorListRef tensors, int64_t dim) {
  stack_into(out, tensors, dim);
  return out;
}

Tensor hstack(TensorListRef tensors) { return hstack_into(Tensor(), tensors); }

const Tensor& hstack_out(const Tensor& out, TensorListRef tensors) {
  hstack_into(out, tensors);
  return out;
}

Tensor vstack(TensorListRef tensors) { return vstack_into(Tensor(), tensors); }

const Tensor& vstack_out(const Tensor& out, TensorListRef tensors) {
  vstack_into(out, tensors);
  return out;
}

}  // namespace wick
