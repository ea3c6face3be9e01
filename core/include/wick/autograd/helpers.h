// core/include/wick/autograd/helpers.h: the functions the derivative formulas of the
// declarations call (HELPERS in codegen/derivatives.py), for the backward of reductions,
// indexing, joins and shape ops.
//
// Note [Backward helpers]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A helper computes with the recording ops of wick::autograd::ops, never with core's
// functions or the operators of wick/tensor_operators.h, so that with create_graph its
// result has a graph of its own and can be differentiated again. A parameter that is a
// TensorMeta is an input of which the formula reads only the shape, dtype and device:
// the node keeps that rather than the tensor. A `dim` that is absent means every dim.
// The gradients a helper returns have the dtype of the gradient it is given; the engine
// casts them to the inputs'.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "wick/array_ref.h"
#include "wick/autograd/node.h"
#include "wick/autograd/tensor_meta.h"
#include "wick/scalar.h"
#include "wick/tensor.h"

namespace wick {
namespace autograd {
namespace helpers {

// `grad` summed over the dims where it was broadcast from `shape` (kept as size-1 dims where `shape` has them).
Tensor sum_to(const Tensor& grad, IntArrayRef shape);
Tensor sum_to(const Tensor& grad, const TensorMeta& like);
// A reduction's gradient spread back over `self`: unsqueezed at the reduced dims unless keepdim, then expanded.
Tensor expand_reduced(const Tensor& grad, const TensorMeta& self, OptionalIntArrayRef dim, bool keepdim);
Tensor mean_backward(const Tensor& grad, const TensorMeta& self, OptionalIntArrayRef dim, bool keepdim);
// Zeros in self handled as PyTorch does (one zero: the product of the others; two or more: zero).
Tensor prod_backward(const Tensor& grad, const Tensor& self, const Tensor& result, std::optional<int64_t> dim,
                     bool keepdim);
Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    std::optional<int64_t> correction, bool keepdim);
Tensor std_backward(const Tensor& grad, const Tensor& self, const Tensor& result, OptionalIntArrayRef dim,
                    std::optional<int64_t> correction, bool keepdim);
Tensor norm_backward(const Tensor& grad, const Tensor& self, const Scalar& p, const Tensor& result,
                     OptionalIntArrayRef dim, bool keepdim);
Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, IntArrayRef dim,
                          bool keepdim);
// amax, amin, max(), min(), median(): the gradient shared evenly between the elements equal to the result.
Tensor extreme_backward(const Tensor& grad, const Tensor& self, const Tensor& result, OptionalIntArrayRef dim,
                        bool keepdim);
// Values picked by `indices` along dim (max(dim), kthvalue...): the gradient put back at those positions.
Tensor indexed_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& indices,
                        bool keepdim);
Tensor select_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t index);
Tensor narrow_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t start, int64_t length);
Tensor slice_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, int64_t start, int64_t end,
                      int64_t step);
Tensor diagonal_backward(const Tensor& grad, const TensorMeta& self, int64_t offset, int64_t dim1, int64_t dim2);
// self.unfold(dimension, size, step): each element's gradient summed over the windows that hold it.
Tensor unfold_backward(const Tensor& grad, const TensorMeta& self, int64_t dimension, int64_t size, int64_t step);
// diag() of a 1-d self (grad is 2-d) or of a 2-d one (grad is 1-d).
Tensor diag_backward(const Tensor& grad, const TensorMeta& self, int64_t diagonal);
// masked_select(self, mask): the gradient put where mask (broadcast with self) is true, summed back to self.
Tensor masked_select_backward(const Tensor& grad, const TensorMeta& self, const Tensor& mask);
// scatter's src: grad.gather(dim, index), in the shape of src (index may be smaller than src).
Tensor scatter_src_backward(const Tensor& grad, int64_t dim, const Tensor& index, const TensorMeta& src);
// index_put's values: grad[indices], summed back to the shape of values.
Tensor index_put_values_backward(const Tensor& grad, ArrayRef<std::optional<Tensor>> indices,
                                 const TensorMeta& values);
Tensor index_select_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& index);
Tensor gather_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& index);
// self[indices] (advanced indexing): the gradient put back, accumulating where indices repeat.
Tensor index_backward(const Tensor& grad, const TensorMeta& self, ArrayRef<std::optional<Tensor>> indices);
Tensor take_backward(const Tensor& grad, const TensorMeta& self, const Tensor& index);
// im2col's gradient: the columns summed back into planes of self's size (col2im).
Tensor im2col_backward(const Tensor& grad, const TensorMeta& self, IntArrayRef kernel_size, IntArrayRef dilation,
                       IntArrayRef padding, IntArrayRef stride);
// max_pool2d_with_indices's gradient: each window's gradient added at its maximum, `indices` into each plane.
Tensor max_pool2d_backward(const Tensor& grad, const TensorMeta& self, const Tensor& indices);
// The gradient permuted by the inverse of `dims`.
Tensor permute_backward(const Tensor& grad, IntArrayRef dims);
// The gradients of the parts joined (the node gives zeros for a part that got none): unbind stacks them,
// split concatenates them.
Tensor unbind_backward(const TensorList& grads, const TensorMeta& self, int64_t dim);
Tensor split_backward(const TensorList& grads, const TensorMeta& self, int64_t dim);
// One part of the gradient per joined tensor.
TensorList cat_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors, int64_t dim);
TensorList stack_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors, int64_t dim);
TensorList hstack_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors);
TensorList vstack_backward(const Tensor& grad, const std::vector<TensorMeta>& tensors);
Tensor repeat_backward(const Tensor& grad, const TensorMeta& self, IntArrayRef repeats);
DimVector negated(IntArrayRef ints);
// clamp(self, min, max): the gradient where min <= self <= max (an absent bound does not clamp).
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max);
// With tensor bounds (undefined: absent).
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max);
// A tensor bound's gradient: where the bound is the result.
Tensor clamp_backward_min(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clamp_backward_max(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max);
// div(self, other, rounding_mode): grad / other, or zeros when the quotient is rounded.
Tensor div_backward_self(const Tensor& grad, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor div_backward_self(const Tensor& grad, const Scalar& other, std::optional<std::string_view> rounding_mode);
Tensor div_backward_other(const Tensor& grad, const Tensor& result, const Tensor& other,
                          std::optional<std::string_view> rounding_mode);
// pow: exponent * self^(exponent - 1) * grad (zero where exponent is 0), and self^exponent * log(self) * grad
// (zero where self is 0 and exponent >= 0).
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent);
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Scalar& exponent);
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result);
Tensor pow_backward_exponent(const Tensor& grad, const Scalar& self, const Tensor& exponent, const Tensor& result);
// matmul in every case of its operands' dims (1-d, 2-d, batched with broadcasting).
Tensor matmul_backward_self(const Tensor& grad, const Tensor& self, const Tensor& other);
Tensor matmul_backward_other(const Tensor& grad, const Tensor& self, const Tensor& other);
Tensor cumsum_backward(const Tensor& grad, int64_t dim);
Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result);
// logit's: grad / (self (1 - self)), and 0 where eps clamped self (below eps or above 1 - eps).
Tensor logit_backward(const Tensor& grad, const Tensor& self, std::optional<double> eps);
// grad where mask, zero elsewhere.
Tensor masked_grad(const Tensor& grad, const Tensor& mask);
// sort and topk: the gradient of the values put back at their indices along dim.
Tensor sort_backward(const Tensor& grad, const TensorMeta& self, int64_t dim, const Tensor& indices);
// softmax: result * (grad - sum(grad * result, dim)); log_softmax: grad - exp(result) * sum(grad, dim).
Tensor softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim);
Tensor log_softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim);
// linear()'s input and weight: for a weight (out, in), grad (..., out) times weight, and grad times input
// (..., in) summed over the leading dims, as (out, in); for a 1-d weight (in), the result had no out dim.
Tensor linear_backward_input(const Tensor& grad, const Tensor& weight);
Tensor linear_backward_weight(const Tensor& grad, const Tensor& input);
// The derivative of gelu's tanh approximation, times grad.
Tensor gelu_tanh_backward(const Tensor& grad, const Tensor& self);

}  // namespace helpers
}  // namespace autograd
}  // namespace wick
