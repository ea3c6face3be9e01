// core/src/nan_to_num.cpp: nan_to_num, whose defaults depend on the dtype, over the replace_nonfinite kernel.
#include <optional>

#include "wick/core_ops.h"
#include "wick/ops.h"

namespace wick {

Tensor nan_to_num_out(const Tensor& out, const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                      std::optional<double> neginf) {
  WICK_CHECK_TYPE(!out.defined() || out.dtype() == self.dtype(), "nan_to_num(): dtype of out: ",
                  dtype_type_name(out.dtype()), " should be same as input: ", dtype_type_name(self.dtype()));
  // Integers and bool hold no NaN nor infinity: the result is a copy.
  if (!is_floating(self.dtype())) return detail::finish_out("nan_to_num", out, clone(self));
  const double max = floating_max(self.dtype());
  const Scalar nan_value(nan.value_or(0.0)), posinf_value(posinf.value_or(max)), neginf_value(neginf.value_or(-max));
  if (!out.defined()) return replace_nonfinite(self, nan_value, posinf_value, neginf_value);
  return replace_nonfinite_out(out, self, nan_value, posinf_value, neginf_value);
}

}  // namespace wick
