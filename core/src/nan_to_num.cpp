// core/src/nan_to_num.cpp: nan_to_num, whose defaults depend on the dtype, over the replace_nonfinite kernel.
#include <optional>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/clone.h"
#include "wick/ops/nan_to_num.h"
#include "wick/ops/replace_nonfinite.h"

namespace wick {

Tensor nan_to_num_out(const Tensor& out, const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                      std::optional<double> neginf) {
  WICK_CHECK_TYPE(!out.defined() || out.dtype() == self.dtype(), "dtype of out: ",
                  dtype_type_name(out.dtype()), " should be same as input: ", dtype_type_name(self.dtype()));
  // Integers and bool hold no NaN nor infinity: the result is a copy.
  if (!is_floating(self.dtype())) return detail::finish_out("nan_to_num", out, clone(self));
  // PyTorch casts the replacements to the dtype unchecked (1e30 becomes inf in float16), where
  // the kernel's constants are checked (Note [Checked conversion of Python numbers]): cast first.
  const auto as_dtype = [&](double v) {
    return dispatch_floating(self.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Scalar(double(opmath_t<T>(T(opmath_t<T>(v)))));
    });
  };
  const double max = floating_max(self.dtype());
  const Scalar nan_value = as_dtype(nan.value_or(0.0)), posinf_value = as_dtype(posinf.value_or(max)),
               neginf_value = as_dtype(neginf.value_or(-max));
  if (!out.defined()) return replace_nonfinite(self, nan_value, posinf_value, neginf_value);
  return replace_nonfinite_out(out, self, nan_value, posinf_value, neginf_value);
}

}  // namespace wick
