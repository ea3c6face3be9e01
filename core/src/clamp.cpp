// core/src/clamp.cpp: clamp, composed of the pointwise ops clamp_min and clamp_max.
#include <optional>
#include <type_traits>

#include "wick/core_ops.h"
#include "wick/ops/clamp.h"
#include "wick/ops/clamp_max.h"
#include "wick/ops/clamp_min.h"
#include "wick/scalar.h"

namespace wick {
namespace {

// The dtype and shape of a pointwise op's result over tensors and Python numbers, by
// PyTorch's rules (as detail::pointwise does: Note [Wrapped numbers]): dimensioned tensors
// rank above 0-d ones, which rank above numbers; a lower rank only counts when its
// category (bool < integer < float) is higher.
class Promotion {
 public:
  void add(DType dtype, IntArrayRef sizes) {
    std::optional<DType>& slot = sizes.empty() ? zero_dim_ : dimensioned_;
    slot = slot ? promote_types(*slot, dtype) : dtype;
    shape_ = broadcast_shapes(shape_, sizes);
  }
  void add(const Tensor& t) { add(t.dtype(), t.sizes()); }
  void add(const Scalar& s) {
    const DType d = is_floating(s.natural_dtype()) ? default_float() : s.natural_dtype();
    wrapped_ = wrapped_ ? promote_types(*wrapped_, d) : d;
  }
  DType dtype() const { return *combine(dimensioned_, combine(zero_dim_, wrapped_)); }
  const DimVector& shape() const { return shape_; }

 private:
  static std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
    if (!higher) return lower;
    if (!lower || is_floating(*higher)) return higher;
    if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
    return higher;
  }
  std::optional<DType> dimensioned_, zero_dim_, wrapped_;
  DimVector shape_;
};

// min first, then max: where min > max, max wins, as in PyTorch. The result is
// clamp_max(clamp_min(self, min), max), each promoting as a pointwise op.
template <typename Bound>
detail::OutputSpec clamp_spec(const Tensor& self, const Bound* min, const Bound* max) {
  WICK_CHECK_VALUE(min || max, "at least one of 'min' or 'max' must not be None");
  Promotion lower;
  lower.add(self);
  if (min) lower.add(*min);
  const detail::OutputSpec first{lower.shape(), lower.dtype(), self.device()};
  // No kernel takes bool: clamp_min (or clamp_max) refuses it in impl, before it writes.
  if (!max || first.dtype == DType::Bool) return first;
  Promotion upper;
  upper.add(first.dtype, first.sizes);
  upper.add(*max);
  // impl runs clamp_max after clamp_min has written its result: what clamp_max checks
  // (a number that the dtype cannot hold) is checked here, before anything is written.
  if constexpr (std::is_same_v<Bound, Scalar>) {
    if (min) check_convertible(*min, first.dtype);  // clamp_min's check comes first
    check_convertible(*max, upper.dtype());
  }
  return {upper.shape(), upper.dtype(), self.device()};
}

// out has the spec's dtype and shape: clamp_min writes it (cast to that dtype), clamp_max
// then limits it in place, computing in that dtype as it would in the two steps' own.
template <typename Bound>
void clamp_into(const Tensor& out, const Tensor& self, const Bound* min, const Bound* max) {
  if (min) clamp_min_out(out, self, *min);
  if (max) clamp_max_out(out, min ? out : self, *max);
}

template <typename T>
const T* bound(const std::optional<T>& b) { return b ? &*b : nullptr; }
const Tensor* bound(const Tensor& b) { return b.defined() ? &b : nullptr; }

}  // namespace

namespace detail {

OutputSpec clamp_meta(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_spec(self, bound(min), bound(max));
}

void clamp_impl(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                const std::optional<Scalar>& max) {
  clamp_into(out, self, bound(min), bound(max));
}

OutputSpec clamp_meta(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_spec(self, bound(min), bound(max));
}

void clamp_impl(const Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max) {
  clamp_into(out, self, bound(min), bound(max));
}

}  // namespace detail
}  // namespace wick
