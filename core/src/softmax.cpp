// core/src/softmax.cpp: softmax() and log_softmax(), shifted by the maximum so that exp() cannot overflow.
#include "wick/core_ops.h"
#include "wick/ops/amax.h"
#include "wick/ops/clone.h"
#include "wick/ops/exp.h"
#include "wick/ops/log.h"
#include "wick/ops/log_softmax.h"
#include "wick/ops/softmax.h"
#include "wick/ops/sub.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"
#include "wick/ops/true_divide.h"

namespace wick {

namespace {

// self in dtype (when given), less its maximum over dim: every exponent is at most 0.
Tensor shifted(const char* op, const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  const Tensor x = dtype ? to(self, *dtype) : self;
  WICK_CHECK_TYPE(is_floating(x.dtype()), op, "(): expected a floating point tensor, got ", dtype_name(x.dtype()));
  const int64_t d = x.wrap_dim(dim);
  if (x.numel() == 0) return x;
  return sub(x, amax(x, {d}, true));
}

}  // namespace

Tensor softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  Tensor e = exp(shifted("softmax", self, dim, dtype));
  if (e.numel() == 0) return e;
  true_divide_(e, sum(e, {e.wrap_dim(dim)}, true));
  return e;
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  const Tensor s = shifted("log_softmax", self, dim, dtype);
  if (s.numel() == 0) return s.is_same(self) ? clone(s) : s;
  return sub(s, log(sum(exp(s), {s.wrap_dim(dim)}, true)));
}

}  // namespace wick
