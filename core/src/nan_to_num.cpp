// core/src/nan_to_num.cpp: nan_to_num, whose defaults depend on the dtype, over the replace_nonfinite kernel.
// Each form calls the same form of replace_nonfinite (Note [Structured ops] in wick/structured.h).
#include <optional>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/clone.h"
#include "wick/ops/copy_.h"
#include "wick/ops/nan_to_num.h"
#include "wick/ops/replace_nonfinite.h"

namespace wick {
namespace {

// What replaces NaN, +inf and -inf in a floating tensor of `dtype`. PyTorch casts the
// replacements to the dtype unchecked (1e30 becomes inf in float16), where the kernel's
// constants are checked (Note [Checked conversion of Python numbers]): cast first.
struct Replacements {
  Scalar nan, posinf, neginf;
};

Replacements replacements(DType dtype, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  const auto as_dtype = [&](double v) {
    return dispatch_floating(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Scalar(double(opmath_t<T>(T(opmath_t<T>(v)))));
    });
  };
  const double max = floating_max(dtype);
  return {as_dtype(nan.value_or(0.0)), as_dtype(posinf.value_or(max)), as_dtype(neginf.value_or(-max))};
}

}  // namespace

// Integers and bool hold no NaN nor infinity: the result is a copy.
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  if (!is_floating(self.dtype())) return clone(self);
  const Replacements r = replacements(self.dtype(), nan, posinf, neginf);
  return replace_nonfinite(self, r.nan, r.posinf, r.neginf);
}

const Tensor& nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  if (!is_floating(self.dtype())) return self;
  const Replacements r = replacements(self.dtype(), nan, posinf, neginf);
  return replace_nonfinite_(self, r.nan, r.posinf, r.neginf);
}

const Tensor& nan_to_num_out(const Tensor& out, const Tensor& self, std::optional<double> nan,
                             std::optional<double> posinf, std::optional<double> neginf) {
  WICK_CHECK_VALUE(out.defined(), "expected a tensor for out=, got None");
  WICK_CHECK_TYPE(out.dtype() == self.dtype(), "dtype of out: ", dtype_type_name(out.dtype()),
                  " should be same as input: ", dtype_type_name(self.dtype()));
  if (!is_floating(self.dtype())) {
    detail::prepare_out("nan_to_num", out, self.sizes(), self.dtype(), self.device());
    return copy_(out, self);
  }
  const Replacements r = replacements(self.dtype(), nan, posinf, neginf);
  return replace_nonfinite_out(out, self, r.nan, r.posinf, r.neginf);
}

}  // namespace wick
