// core/src/autograd/view_nodes.cpp: Note [Gradients through storage].
#include "view_nodes.h"

#include <algorithm>

#include "wick/autograd/ops.h"
#include "wick/core_ops.h"

namespace wick {
namespace autograd {

namespace {

// The lowest and one past the highest storage position of a geometry's elements (strides are not negative).
std::pair<int64_t, int64_t> span(const Geometry& g) {
  int64_t hi = g.offset;
  for (size_t d = 0; d < g.sizes.size(); ++d) {
    if (g.sizes[d] == 0) return {g.offset, g.offset};
    hi += (g.sizes[d] - 1) * g.strides[d];
  }
  return {g.offset, hi + 1};
}

Tensor positions(const Tensor& flat, const Geometry& g, int64_t lo) {
  return ::wick::reshape(::wick::contiguous(as_strided(flat, g.sizes, g.strides, g.offset - lo)), {-1});
}

Tensor flattened(const Tensor& t) { return ops::reshape(t, {-1}); }

}  // namespace

StoragePositions::StoragePositions(const Geometry& base, const Geometry& view, Device device) {
  const auto [base_lo, base_hi] = span(base);
  const auto [view_lo, view_hi] = span(view);
  const int64_t lo = std::min(base_lo, view_lo);
  extent_ = std::max(base_hi, view_hi) - lo;
  const Tensor flat = ::wick::arange(Scalar(extent_), DType::Int64, device);
  base_positions_ = positions(flat, base, lo);
  view_positions_ = positions(flat, view, lo);
}

Tensor StoragePositions::view_to_base(const Tensor& grad_view, IntArrayRef base_sizes) const {
  const Tensor zeros = ::wick::zeros({extent_}, grad_view.dtype(), grad_view.device());
  const Tensor flat = ops::index_put(zeros, {std::optional<Tensor>(view_positions_)}, flattened(grad_view), true);
  return ops::reshape(ops::index_select(flat, 0, base_positions_), base_sizes);
}

Tensor StoragePositions::flat_of_base(const Tensor& grad_base) const {
  const Tensor zeros = ::wick::zeros({extent_}, grad_base.dtype(), grad_base.device());
  return ops::index_put(zeros, {std::optional<Tensor>(base_positions_)}, flattened(grad_base), false);
}

Tensor StoragePositions::base_to_view(const Tensor& flat, IntArrayRef view_sizes) const {
  return ops::reshape(ops::index_select(flat, 0, view_positions_), view_sizes);
}

Tensor StoragePositions::replace_view(const Tensor& flat, const Tensor& grad_view, IntArrayRef base_sizes) const {
  const Tensor replaced = ops::index_put(flat, {std::optional<Tensor>(view_positions_)}, flattened(grad_view), false);
  return ops::reshape(ops::index_select(replaced, 0, base_positions_), base_sizes);
}

AsStridedBackward::AsStridedBackward(const Tensor& base, const Tensor& view)
    : base_sizes_(base.sizes().vec()), positions_(Geometry(base), Geometry(view), base.device()) {}

TensorList AsStridedBackward::apply(TensorList&& grads) {
  if (!grads[0].defined()) return TensorList(num_outputs());
  return {positions_.view_to_base(grads[0], base_sizes_)};
}

CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
    : base_sizes_(base.sizes().vec()), view_sizes_(view.sizes().vec()),
      positions_(Geometry(base), Geometry(view), base.device()), fn_(std::move(fn)) {}

TensorList CopySlices::apply(TensorList&& grads) {
  TensorList out(num_outputs());
  if (!grads[0].defined()) return out;
  const Tensor flat = positions_.flat_of_base(grads[0]);
  const Tensor grad_view = positions_.base_to_view(flat, view_sizes_);
  TensorList through = fn_->apply({grad_view});
  // The op's gradient of the view's old values takes the place of the view's part.
  const Tensor view_part = through[0].defined() ? through[0] : ops::zeros_like(grad_view);
  out[0] = positions_.replace_view(flat, view_part, base_sizes_);
  for (size_t i = 1; i < through.size() && i < out.size(); ++i) out[i] = std::move(through[i]);
  return out;
}

}  // namespace autograd
}  // namespace wick
