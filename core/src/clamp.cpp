// core/src/clamp.cpp: clamp, composed of the pointwise ops clamp_min and clamp_max.
#include "wick/core_ops.h"
#include "wick/ops/clamp.h"
#include "wick/ops/clamp_max.h"
#include "wick/ops/clamp_min.h"

namespace wick {
namespace {

// min first, then max: where min > max, max wins, as in PyTorch.
template <typename Bound>
Tensor clamp_between(const Tensor& out, const Tensor& self, const Bound* min, const Bound* max) {
  WICK_CHECK_VALUE(min || max, "at least one of 'min' or 'max' must not be None");
  Tensor result = min ? clamp_min(self, *min) : self;
  if (max) result = clamp_max(result, *max);
  return detail::finish_out("clamp", out, result);
}

}  // namespace

Tensor clamp_out(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                 const std::optional<Scalar>& max) {
  return clamp_between(out, self, min ? &*min : nullptr, max ? &*max : nullptr);
}

Tensor clamp_out(const Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_between(out, self, min.defined() ? &min : nullptr, max.defined() ? &max : nullptr);
}

}  // namespace wick
