// core/src/autograd/helpers.cpp: the backward helpers of the derivative formulas (Note [Backward helpers]),
// as PyTorch's FunctionsManual.cpp computes them, composed of the recording ops.
#include "wick/autograd/helpers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "wick/autograd/grad_mode.h"
#include "wick/autograd/ops.h"
#include "wick/core_ops.h"
#include "wick/indexing.h"
#include "wick/ops/arange.h"
#include "wick/ops/ones.h"
#include "wick/ops/zeros.h"
#include "wick/ops/zeros_like.h"

namespace ops = ::wick::autograd::ops;

namespace wick {
namespace autograd {
namespace helpers {
namespace {

// Zeros of `sizes` in grad's dtype and on its device: what a gradient is put into.
Tensor zeros_for(const Tensor& grad, IntArrayRef sizes) { return wick::zeros(sizes, grad.dtype(), grad.device()); }

// The dims a reduction folds, wrapped and ascending; absent or empty means every dim (as the reductions
// take it), and a 0-d self has none.
DimVector reduced_dims(OptionalIntArrayRef dim, int64_t ndim) {
  DimVector dims;
  if (ndim == 0) return dims;
  if (!dim || (*dim).empty()) {
    for (int64_t d = 0; d < ndim; ++d) dims.push_back(d);
    return dims;
  }
  for (int64_t d : *dim) dims.push_back(wrap_dim(d, ndim));
  std::sort(dims.begin(), dims.end());
  return dims;
}

// A reduction's result (or gradient) with the reduced dims back as size 1, unless keepdim kept them.
Tensor restore_dims(const Tensor& t, IntArrayRef dims, bool keepdim) {
  Tensor r = t;
  if (!keepdim) {
    for (int64_t d : dims) r = ops::unsqueeze(r, d);
  }
  return r;
}

// How many elements a reduction over `dim` folds into each of its results.
int64_t reduced_count(IntArrayRef sizes, OptionalIntArrayRef dim) {
  int64_t count = 1;
  for (int64_t d : reduced_dims(dim, int64_t(sizes.size()))) count *= sizes[size_t(d)];
  return count;
}

// grad shared evenly between the elements of `mask` (the extremes) in each slice that a reduction over dims folded.
Tensor shared(const Tensor& grad, const Tensor& mask, IntArrayRef dims) {
  return ops::mul(ops::div(grad, ops::sum(mask, dims, true)), mask);
}

bool any_true(const Tensor& mask) { return ops::item(ops::any(mask)).to_bool(); }

// The flat (row-major) position of each element of a tensor of `sizes`: a view (or a selection) of these says
// where each element of the same view of such a tensor lies in it.
Tensor positions(IntArrayRef sizes, Device device) {
  return ops::reshape(wick::arange(Scalar(checked_numel(sizes)), DType::Int64, device), sizes);
}

// grad written into zeros of `sizes` at the flat positions `where`, summed where they repeat when accumulate.
Tensor put_at(const Tensor& grad, IntArrayRef sizes, const Tensor& where, bool accumulate) {
  return ops::put(zeros_for(grad, sizes), where, grad, accumulate);
}

// The gradient of self's elements start, start + step, ... along dim (as many as grad has there; start wrapped
// and clamped as Python slices do), put back into zeros of self's shape.
Tensor strided_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t start, int64_t step) {
  const int64_t size = self.sizes[size_t(dim)];
  const int64_t first = std::min(std::max<int64_t>(start < 0 ? start + size : start, 0), size);
  const Tensor picked =
      wick::arange(Scalar(first), Scalar(first + step * grad.size(dim)), Scalar(step), DType::Int64, grad.device());
  return ops::index_add(zeros_for(grad, self.sizes), dim, picked, grad);
}

// Running sums along dim from the far end: the transpose of cumsum.
Tensor reverse_cumsum(const Tensor& t, int64_t dim) { return ops::flip(ops::cumsum(ops::flip(t, dim), dim), dim); }

// The product of the elements before each along dim (1 for the first), without a division that zeros would
// spoil; dim must not be empty.
Tensor exclusive_cumprod(const Tensor& t, int64_t dim) {
  DimVector first = t.sizes().vec();
  first[size_t(dim)] = 1;
  const Tensor ones = wick::ones(first, t.dtype(), t.device());
  return ops::cumprod(ops::cat({ones, ops::narrow(t, dim, 0, t.size(dim) - 1)}, dim), dim);
}

// prod's gradient along one dim (grad and result keeping it): grad * result / self, or with zeros in self the
// product of the elements before each times that of those after (PyTorch's prod_safe_zeros_backward), which
// divides by nothing and so differentiates again exactly.
Tensor prod_backward_along(const Tensor& grad, const Tensor& self, const Tensor& result, int64_t dim) {
  if (!any_true(ops::eq(self, 0))) return ops::mul(grad, ops::div(result, self));
  const Tensor after = ops::flip(exclusive_cumprod(ops::flip(self, dim), dim), dim);
  return ops::mul(grad, ops::mul(exclusive_cumprod(self, dim), after));
}

// cumprod's gradient, sum over k >= i of grad_k * prod_{j <= k, j != i} self_j, one i at a time: a polynomial in
// self, so that its own gradient is exact too, at O(n^2) cost (PyTorch's path when it will be differentiated).
Tensor cumprod_backward_exact(const Tensor& grad, const Tensor& self, int64_t dim) {
  const int64_t n = self.size(dim);
  const Tensor before = exclusive_cumprod(self, dim);
  TensorList parts;
  for (int64_t i = 0; i < n; ++i) {
    const Tensor later = ops::mul(ops::narrow(grad, dim, i + 1, n - i - 1),
                                  ops::cumprod(ops::narrow(self, dim, i + 1, n - i - 1), dim));
    const Tensor from_i = ops::add(ops::narrow(grad, dim, i, 1), ops::sum(later, {dim}, true));
    parts.push_back(ops::mul(ops::narrow(before, dim, i, 1), from_i));
  }
  return ops::cat(parts, dim);
}

// The same in O(n), but exact only to first order (PyTorch's path when it will not be differentiated). Before
// the first zero the division formula holds, the running products from that zero on being 0; at the first zero
// z it is prod_{j < z} self_j * sum over k from z to the next zero of grad_k * prod_{z < j <= k} self_j; after
// it, 0.
Tensor cumprod_backward_first_order(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result,
                                    const Tensor& zero) {
  const Tensor zeros_so_far = ops::cumsum(zero, dim);
  const Tensor before = ops::eq(zeros_so_far, 0);
  const Tensor from_first = ops::eq(zeros_so_far, 1);
  const Tensor first = ops::logical_and(zero, from_first);
  const Tensor self_before = ops::where(before, self, 1);
  const Tensor up_to_first = ops::div(reverse_cumsum(ops::mul(grad, result), dim), self_before);
  const Tensor past_first = ops::logical_and(from_first, ops::logical_not(first));
  const Tensor products_past_first = ops::cumprod(ops::where(past_first, self, 1), dim);
  const Tensor at_first = ops::mul(ops::prod(self_before, dim, true),
                                   ops::sum(ops::mul(products_past_first, masked_grad(grad, from_first)), {dim}, true));
  return ops::add(masked_grad(up_to_first, before), masked_grad(at_first, first));
}

// grad cut along dim into the gradients of the tensors that were joined, each taken as it was joined: with
// dims of size 1 in front up to `min_dim` (hstack's atleast_1d, vstack's atleast_2d), then given its own shape.
// A 1-d tensor without elements was left out of the join (is_legacy_empty in join.cpp) and gets zeros.
TensorList unjoin(const Tensor& grad, const std::vector<TensorMeta>& tensors, int64_t dim, int64_t min_dim) {
  TensorList parts;
  int64_t offset = 0;
  for (const TensorMeta& t : tensors) {
    const int64_t added = std::max<int64_t>(min_dim - t.dim(), 0);
    if (added == 0 && t.dim() == 1 && t.sizes[0] == 0) {
      parts.push_back(zeros_for(grad, t.sizes));
      continue;
    }
    const int64_t size = dim < added ? 1 : t.sizes[size_t(dim - added)];
    const Tensor part = ops::narrow(grad, dim, offset, size);
    offset += size;
    parts.push_back(added ? ops::reshape(part, t.sizes) : part);
  }
  return parts;
}

template <typename T>
const T* bound(const std::optional<T>& b) { return b ? &*b : nullptr; }
const Tensor* bound(const Tensor& b) { return b.defined() ? &b : nullptr; }

// grad where min <= self <= max; an absent bound does not bound.
template <typename Bound>
Tensor clamp_self_backward(const Tensor& grad, const Tensor& self, const Bound* min, const Bound* max) {
  if (!min && !max) return grad;
  if (!max) return masked_grad(grad, ops::ge(self, *min));
  if (!min) return masked_grad(grad, ops::le(self, *max));
  return masked_grad(grad, ops::logical_and(ops::ge(self, *min), ops::le(self, *max)));
}

template <typename Other>
Tensor div_self_backward(const Tensor& grad, const Other& other, std::optional<std::string_view> rounding_mode) {
  // A rounded quotient is piecewise constant.
  return rounding_mode ? wick::zeros_like(grad) : ops::div(grad, other);
}

// matmul's gradient and operands with a 1-d operand made the matrix matmul takes it as (self a row, other a
// column), so that one formula covers every case.
struct MatmulOperands {
  Tensor grad, self, other;
};

MatmulOperands as_matrices(const Tensor& grad, const Tensor& self, const Tensor& other) {
  MatmulOperands m{grad, self, other};
  if (other.dim() == 1) {
    m.other = ops::unsqueeze(other, 1);
    m.grad = ops::unsqueeze(m.grad, -1);
  }
  if (self.dim() == 1) {
    m.self = ops::unsqueeze(self, 0);
    m.grad = ops::unsqueeze(m.grad, -2);
  }
  return m;
}

}  // namespace

Tensor sum_to(const Tensor& grad, IntArrayRef shape) {
  const int64_t added = grad.dim() - int64_t(shape.size());
  WICK_CHECK(added >= 0, "sum_to: a gradient of shape ", shape_str(grad.sizes()), " cannot be summed to shape ",
             shape_str(shape));
  DimVector dims;
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (d < added || (shape[size_t(d - added)] == 1 && grad.size(d) != 1)) dims.push_back(d);
  }
  if (dims.empty()) return grad;
  const Tensor summed = ops::sum(grad, dims, true);
  return added ? ops::reshape(summed, shape) : summed;
}

Tensor sum_to(const Tensor& grad, const TensorMeta& like) { return sum_to(grad, like.sizes); }

Tensor expand_reduced(const Tensor& grad, const TensorMeta& self, OptionalIntArrayRef dim, bool keepdim) {
  return ops::expand(restore_dims(grad, reduced_dims(dim, self.dim()), keepdim), self.sizes);
}

Tensor mean_backward(const Tensor& grad, const TensorMeta& self, OptionalIntArrayRef dim, bool keepdim) {
  return ops::div(expand_reduced(grad, self, dim, keepdim), double(reduced_count(self.sizes, dim)));
}

Tensor prod_backward(const Tensor& grad, const Tensor& self, const Tensor& result, std::optional<int64_t> dim,
                     bool keepdim) {
  if (self.dim() == 0) return grad;
  if (!dim) {
    // Over every element: as along the one dim of self flattened.
    const Tensor flat = prod_backward_along(ops::reshape(grad, {1}), ops::reshape(self, {-1}),
                                            ops::reshape(result, {1}), 0);
    return ops::reshape(flat, self.sizes());
  }
  const int64_t d = wrap_dim(*dim, self.dim());
  return prod_backward_along(restore_dims(grad, d, keepdim), self, restore_dims(result, d, keepdim), d);
}

Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    std::optional<int64_t> correction, bool keepdim) {
  const DimVector dims = reduced_dims(dim, self.dim());
  const int64_t dof = reduced_count(self.sizes(), dim) - correction.value_or(1);
  const Tensor g = restore_dims(grad, dims, keepdim);
  const Tensor centered = ops::sub(self, ops::mean(self, dims, true));
  // var divides by N - correction, or by 0 when that is not positive: then the gradient is infinite (NaN where
  // self is the mean).
  const double scale = dof > 0 ? 2.0 / double(dof) : std::numeric_limits<double>::infinity();
  return ops::mul(ops::mul(g, centered), scale);
}

Tensor std_backward(const Tensor& grad, const Tensor& self, const Tensor& result, OptionalIntArrayRef dim,
                    std::optional<int64_t> correction, bool keepdim) {
  // d std = d var / (2 std), taken as 0 where std is 0 (as PyTorch does).
  const Tensor grad_var = ops::masked_fill(ops::div(grad, ops::mul(result, 2)), ops::eq(result, 0), 0);
  return var_backward(grad_var, self, dim, correction, keepdim);
}

Tensor norm_backward(const Tensor& grad, const Tensor& self, const Scalar& p, const Tensor& result,
                     OptionalIntArrayRef dim, bool keepdim) {
  const double order = p.to_double();
  if (order == 0) return zeros_for(grad, self.sizes());  // the count of nonzero elements is piecewise constant
  const DimVector dims = reduced_dims(dim, self.dim());
  const Tensor g = restore_dims(grad, dims, keepdim);
  const Tensor norm = restore_dims(result, dims, keepdim);
  if (order == 1) return ops::mul(ops::sign(self), g);
  // self is 0 wherever its norm is, and so is the gradient: divide by 1 there rather than by 0.
  if (order == 2) return ops::mul(g, ops::div(self, ops::masked_fill(norm, ops::eq(norm, 0), 1)));
  if (std::isinf(order)) {
    // The gradient of the largest (smallest) magnitude, shared between the elements that have it, and NaNs.
    const Tensor magnitude = ops::abs(self);
    const Tensor mask = ops::logical_or(ops::eq(magnitude, norm), ops::isnan(magnitude));
    return ops::mul(ops::sign(self), shared(g, mask, dims));
  }
  if (order < 1) {
    // |self|^(p - 1) is infinite at 0, where the gradient is taken as 0.
    const Tensor power = ops::masked_fill(ops::pow(ops::abs(self), order - 1), ops::eq(self, 0), 0);
    return ops::mul(ops::mul(ops::mul(ops::sign(self), power), g), ops::pow(norm, 1 - order));
  }
  const Tensor scaled = order < 2 ? ops::mul(ops::sign(self), ops::pow(ops::abs(self), order - 1))
                                  : ops::mul(self, ops::pow(ops::abs(self), order - 2));
  return ops::mul(scaled, ops::masked_fill(ops::div(g, ops::pow(norm, order - 1)), ops::eq(norm, 0), 0));
}

Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, IntArrayRef dim,
                          bool keepdim) {
  const DimVector dims = reduced_dims(dim, self.dim());
  return ops::mul(restore_dims(grad, dims, keepdim), ops::exp(ops::sub(self, restore_dims(result, dims, keepdim))));
}

Tensor extreme_backward(const Tensor& grad, const Tensor& self, const Tensor& result, OptionalIntArrayRef dim,
                        bool keepdim) {
  const DimVector dims = reduced_dims(dim, self.dim());
  const Tensor value = restore_dims(result, dims, keepdim);
  // A NaN is the result of its slice, and equal to nothing.
  const Tensor mask = ops::logical_or(ops::eq(self, value), ops::logical_and(ops::isnan(self), ops::isnan(value)));
  return shared(restore_dims(grad, dims, keepdim), mask, dims);
}

Tensor indexed_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& indices,
                        bool keepdim) {
  if (self.dim() == 0) return grad;  // its one element was picked
  const int64_t d = wrap_dim(dim, self.dim());
  return ops::scatter(zeros_for(grad, self.sizes), d, restore_dims(indices, d, keepdim),
                      restore_dims(grad, d, keepdim));
}

Tensor select_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t index) {
  const int64_t d = wrap_dim(dim, self.dim());
  return strided_backward(ops::unsqueeze(grad, d), self, d, index, 1);
}

Tensor narrow_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t start, int64_t /*length*/) {
  return strided_backward(grad, self, wrap_dim(dim, self.dim()), start, 1);
}

// grad's size along dim says how many elements the slice took, which `end` would only give after clamping.
Tensor slice_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t start, int64_t /*end*/,
                      int64_t step) {
  return strided_backward(grad, self, wrap_dim(dim, self.dim()), start, step);
}

Tensor diagonal_backward(const Tensor& grad, const TensorMeta& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const Tensor where = ops::diagonal(positions(self.sizes, grad.device()), offset, dim1, dim2);
  return put_at(grad, self.sizes, where, false);
}

// Windows overlap where step < size: put_at sums what lands on one position.
Tensor unfold_backward(const Tensor& grad, const TensorMeta& self, int64_t dimension, int64_t size, int64_t step) {
  const Tensor where = ops::unfold(positions(self.sizes, grad.device()), dimension, size, step);
  return put_at(grad, self.sizes, where, true);
}

Tensor diag_backward(const Tensor& grad, const TensorMeta& self, int64_t diagonal) {
  // diag() of a 1-d self lays it along a diagonal of a matrix.
  if (self.dim() == 1) return ops::diagonal(grad, diagonal, 0, 1);
  return diagonal_backward(grad, self, diagonal, 0, 1);
}

Tensor masked_select_backward(const Tensor& grad, const TensorMeta& self, const Tensor& mask) {
  const DimVector shape = broadcast_shapes(self.sizes, mask.sizes());
  const Tensor where = ops::masked_select(positions(shape, grad.device()), mask);
  return sum_to(put_at(grad, shape, where, false), self.sizes);
}

Tensor scatter_src_backward(const Tensor& grad, int64_t dim, const Tensor& index, const TensorMeta& src) {
  const Tensor picked = ops::gather(grad, dim, index);
  if (index.sizes() == IntArrayRef(src.sizes)) return picked;
  // index covers a corner of src: the rest of src was not read.
  Tensor corner = positions(src.sizes, grad.device());
  for (int64_t d = 0; d < index.dim(); ++d) corner = ops::narrow(corner, d, 0, index.size(d));
  return put_at(picked, src.sizes, corner, false);
}

Tensor index_put_values_backward(const Tensor& grad, ArrayRef<std::optional<Tensor>> indices,
                                 const TensorMeta& values) {
  // grad[indices]: grad taken where indexing its positions points. Core's index, which records nothing, only
  // computes those positions; take records.
  const Tensor picked = ops::take(grad, wick::index(positions(grad.sizes(), grad.device()), indices));
  return sum_to(picked, values.sizes);
}

Tensor index_select_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& index) {
  return ops::index_add(zeros_for(grad, self.sizes), dim, index, grad);
}

Tensor gather_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& index) {
  return ops::scatter_add(zeros_for(grad, self.sizes), dim, index, grad);
}

Tensor index_backward(const Tensor& grad, const TensorMeta& self, ArrayRef<std::optional<Tensor>> indices) {
  return ops::index_put(zeros_for(grad, self.sizes), indices, grad, true);
}

Tensor take_backward(const Tensor& grad, const TensorMeta& self, const Tensor& index) {
  return put_at(grad, self.sizes, index, true);
}

Tensor im2col_backward(const Tensor& grad, const TensorMeta& self, IntArrayRef kernel_size, IntArrayRef dilation,
                       IntArrayRef padding, IntArrayRef stride) {
  const int64_t size[2] = {self.sizes.end()[-2], self.sizes.end()[-1]};
  return ops::col2im(grad, size, kernel_size, dilation, padding, stride);
}

Tensor max_pool2d_backward(const Tensor& grad, const TensorMeta& self, const Tensor& indices) {
  DimVector planes(self.sizes.begin(), self.sizes.end() - 1);
  planes.back() *= self.sizes.back();  // the flattened H * W plane, where indices point
  const int64_t last = int64_t(planes.size()) - 1;
  const Tensor sums = ops::scatter_add(zeros_for(grad, planes), last, ops::flatten(indices, last),
                                       ops::flatten(grad, last));
  return ops::view(sums, self.sizes);
}

Tensor permute_backward(const Tensor& grad, IntArrayRef dims) {
  DimVector inverse;
  inverse.resize(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) inverse[size_t(wrap_dim(dims[i], int64_t(dims.size())))] = int64_t(i);
  return ops::permute(grad, inverse);
}

Tensor unbind_backward(const TensorList& grads, const TensorMeta& self, int64_t dim) {
  return ops::stack(grads, wrap_dim(dim, self.dim()));
}

Tensor split_backward(const TensorList& grads, const TensorMeta& self, int64_t dim) {
  return ops::cat(grads, wrap_dim(dim, self.dim()));
}

TensorList cat_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors, int64_t dim) {
  // A 1-d result without elements comes of legacy empty tensors alone, whose cat checks no dim.
  const bool all_legacy = grad.dim() == 1 && grad.numel() == 0;
  return unjoin(grad, tensors, all_legacy ? 0 : wrap_dim(dim, grad.dim()), 0);
}

TensorList stack_backward(const Tensor& grad, const std::vector<TensorMeta>& /*tensors*/, int64_t dim) {
  return ops::unbind(grad, wrap_dim(dim, grad.dim()));
}

TensorList hstack_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors) {
  return unjoin(grad, tensors, tensors[0].dim() <= 1 ? 0 : 1, 1);
}

TensorList vstack_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors) {
  return unjoin(grad, tensors, 0, 2);
}

Tensor repeat_backward(const Tensor& grad, const TensorMeta& self, IntArrayRef repeats) {
  if (std::find(repeats.begin(), repeats.end(), int64_t(0)) != repeats.end()) return zeros_for(grad, self.sizes);
  // grad seen as [repeat, size] for each dim of self (as [repeat] for each dim repeat() put in front), summed
  // over the repeats.
  const int64_t added = int64_t(repeats.size()) - self.dim();
  DimVector shape, repeated;
  for (int64_t i = 0; i < int64_t(repeats.size()); ++i) {
    if (i < added || repeats[size_t(i)] != 1) {
      repeated.push_back(int64_t(shape.size()));
      shape.push_back(repeats[size_t(i)]);
    }
    if (i >= added) shape.push_back(self.sizes[size_t(i - added)]);
  }
  if (repeated.empty()) return grad;
  return ops::sum(ops::reshape(grad, shape), repeated, false);
}

DimVector negated(IntArrayRef ints) {
  DimVector out;
  for (int64_t i : ints) out.push_back(-i);
  return out;
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  return clamp_self_backward(grad, self, bound(min), bound(max));
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_self_backward(grad, self, bound(min), bound(max));
}

// Where min > max the result is max, so min gets nothing; where they are equal, neither does (as in PyTorch).
Tensor clamp_backward_min(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max) {
  if (!min.defined()) return Tensor();
  const Tensor below = ops::lt(self, min);
  return masked_grad(grad, max.defined() ? ops::logical_and(below, ops::lt(min, max)) : below);
}

Tensor clamp_backward_max(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max) {
  if (!max.defined()) return Tensor();
  const Tensor above = ops::gt(self, max);
  return masked_grad(grad, min.defined() ? ops::logical_or(above, ops::lt(max, min)) : above);
}

Tensor logit_backward(const Tensor& grad, const Tensor& self, std::optional<double> eps) {
  const Tensor unclamped = ops::div(grad, ops::mul(self, ops::rsub(self, 1)));
  if (!eps || std::isnan(*eps)) return unclamped;  // None, or NaN: no clamp (Note [Optional constants])
  return ops::masked_fill(unclamped, ops::logical_or(ops::lt(self, *eps), ops::gt(self, 1 - *eps)), 0);
}

Tensor div_backward_self(const Tensor& grad, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  return div_self_backward(grad, other, rounding_mode);
}

Tensor div_backward_self(const Tensor& grad, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return div_self_backward(grad, other, rounding_mode);
}

Tensor div_backward_other(const Tensor& grad, const Tensor& result, const Tensor& other,
                          std::optional<std::string_view> rounding_mode) {
  if (rounding_mode) return wick::zeros_like(grad);
  return ops::neg(ops::div(ops::mul(grad, result), other));
}

Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent) {
  // self^(exponent - 1) may be infinite at self = 0 where exponent is 0, whose gradient is 0.
  const Tensor slope = ops::mul(exponent, ops::pow(self, ops::sub(exponent, 1)));
  return ops::masked_fill(ops::mul(grad, slope), ops::eq(exponent, 0), 0);
}

Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Scalar& exponent) {
  const double e = exponent.to_double();
  if (e == 0) return wick::zeros_like(grad);
  return ops::mul(grad, ops::mul(ops::pow(self, e - 1), e));
}

Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result) {
  // self^exponent * log(self) is 0 * -inf at self = 0, where the gradient is taken as 0 for exponent >= 0.
  const Tensor at_zero = ops::logical_and(ops::eq(self, 0), ops::ge(exponent, 0));
  const Tensor slope = ops::mul(result, ops::log(ops::to(self, result.dtype())));  // self in pow's promoted dtype
  return ops::mul(grad, ops::masked_fill(slope, at_zero, 0));
}

// A number raised to a tensor: result * log(self), and 0 where self is 0 and the exponent is not negative.
Tensor pow_backward_exponent(const Tensor& grad, const Scalar& self, const Tensor& exponent, const Tensor& result) {
  const double base = self.to_double();
  if (base == 0) return ops::masked_fill(ops::mul(grad, ops::mul(result, -INFINITY)), ops::ge(exponent, 0), 0);
  return ops::mul(grad, ops::mul(result, std::log(base)));
}

Tensor matmul_backward_self(const Tensor& grad, const Tensor& self, const Tensor& other) {
  const MatmulOperands m = as_matrices(grad, self, other);
  const Tensor g = ops::matmul(m.grad, ops::transpose(m.other, -1, -2));
  return ops::reshape(sum_to(g, m.self.sizes()), self.sizes());
}

Tensor matmul_backward_other(const Tensor& grad, const Tensor& self, const Tensor& other) {
  const MatmulOperands m = as_matrices(grad, self, other);
  const Tensor g = ops::matmul(ops::transpose(m.self, -1, -2), m.grad);
  return ops::reshape(sum_to(g, m.other.sizes()), other.sizes());
}

Tensor cumsum_backward(const Tensor& grad, int64_t dim) { return reverse_cumsum(grad, wrap_dim(dim, grad.dim())); }

Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result) {
  if (self.dim() == 0) return grad;
  const int64_t d = wrap_dim(dim, self.dim());
  const Tensor zero = ops::eq(self, 0);
  if (!any_true(zero)) return ops::div(reverse_cumsum(ops::mul(grad, result), d), self);
  return is_grad_enabled() ? cumprod_backward_exact(grad, self, d)
                           : cumprod_backward_first_order(grad, self, d, result, zero);
}

Tensor masked_grad(const Tensor& grad, const Tensor& mask) { return ops::where(mask, grad, 0); }

Tensor sort_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& indices) {
  return indexed_backward(grad, self, dim, indices, true);
}

Tensor softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim) {
  const Tensor g = ops::to(grad, result.dtype());
  const Tensor dot = ops::sum(ops::mul(g, result), {wrap_dim(dim, result.dim())}, true);
  return ops::mul(result, ops::sub(g, dot));
}

Tensor log_softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim) {
  const Tensor g = ops::to(grad, result.dtype());
  const Tensor total = ops::sum(g, {wrap_dim(dim, result.dim())}, true);
  return ops::sub(g, ops::mul(ops::exp(result), total));
}

Tensor gelu_tanh_backward(const Tensor& grad, const Tensor& self) {
  // With u = k (x + c x^3) and t = tanh(u): d/dx 0.5 x (1 + t) = 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2).
  constexpr double k = 0.7978845608028654, c = 0.044715;
  const Tensor x2 = ops::mul(self, self);
  const Tensor t = ops::tanh(ops::mul(ops::add(self, ops::mul(ops::mul(x2, self), c)), k));
  const Tensor left = ops::mul(ops::add(t, 1), 0.5);
  const Tensor slope = ops::mul(ops::add(ops::mul(x2, 3 * c), 1), 0.5 * k);
  const Tensor right = ops::mul(ops::mul(self, ops::add(ops::neg(ops::mul(t, t)), 1)), slope);
  return ops::mul(grad, ops::add(left, right));
}

Tensor linear_backward_input(const Tensor& grad, const Tensor& weight) {
  return weight.dim() == 1 ? ops::mul(ops::unsqueeze(grad, -1), weight) : ops::matmul(grad, weight);
}

Tensor linear_backward_weight(const Tensor& grad, const Tensor& input) {
  const Tensor rows = ops::reshape(input, {-1, input.size(-1)});
  if (grad.dim() < input.dim()) return ops::mv(ops::t(rows), ops::reshape(grad, {-1}));  // a 1-d weight
  return ops::mm(ops::t(ops::reshape(grad, {-1, grad.size(-1)})), rows);
}

}  // namespace helpers
}  // namespace autograd
}  // namespace wick
