// core/src/where.cpp: where, which takes a bool condition (uint8 deprecated) and runs the _s_where kernel;
// and where(condition) alone, nonzero's columns.
#include "wick/indexing.h"
#include "wick/ops/_s_where.h"
#include "wick/ops/to.h"
#include "wick/ops/unbind.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/where.h"

namespace wick {
namespace {

// The condition as the kernel reads it: bool, so that it never changes the result's
// dtype; a uint8 one is still taken, as by PyTorch 1.13, with its warning.
Tensor bool_condition(const Tensor& condition) {
  WICK_CHECK_VALUE(condition.defined(), "expected a tensor for condition, got None");
  if (condition.dtype() == DType::UInt8) {
    warn("where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future "
         "version of PyTorch. Use a boolean condition instead.");
    return to(condition, DType::Bool);
  }
  WICK_CHECK(condition.dtype() == DType::Bool, "where expected condition to be a boolean tensor, but got a tensor "
             "with dtype ", dtype_type_name(condition.dtype()));
  return condition;
}

// Each form calls the same form of the _s_where kernel (Note [Structured ops] in wick/structured.h).
template <typename Self, typename Other>
Tensor where_of(const Tensor& condition, const Self& self, const Other& other) {
  return _s_where(bool_condition(condition), self, other);
}

template <typename Self, typename Other>
const Tensor& where_out_of(const Tensor& out, const Tensor& condition, const Self& self, const Other& other) {
  return _s_where_out(out, bool_condition(condition), self, other);
}

}  // namespace

Tensor where(const Tensor& c, const Tensor& self, const Tensor& other) { return where_of(c, self, other); }
Tensor where(const Tensor& c, const Tensor& self, const Scalar& other) { return where_of(c, self, other); }
Tensor where(const Tensor& c, const Scalar& self, const Tensor& other) { return where_of(c, self, other); }
Tensor where(const Tensor& c, const Scalar& self, const Scalar& other) { return where_of(c, self, other); }

// The coordinates of condition's nonzero elements, a tensor per dim (one for a 0-d condition), as NumPy's nonzero.
std::vector<Tensor> where(const Tensor& condition) {
  WICK_CHECK_VALUE(condition.defined(), "expected a tensor for condition, got None");
  return unbind(nonzero(condition.dim() == 0 ? unsqueeze(condition, 0) : condition), 1);
}

const Tensor& where_out(const Tensor& out, const Tensor& c, const Tensor& self, const Tensor& other) {
  return where_out_of(out, c, self, other);
}
const Tensor& where_out(const Tensor& out, const Tensor& c, const Tensor& self, const Scalar& other) {
  return where_out_of(out, c, self, other);
}
const Tensor& where_out(const Tensor& out, const Tensor& c, const Scalar& self, const Tensor& other) {
  return where_out_of(out, c, self, other);
}
const Tensor& where_out(const Tensor& out, const Tensor& c, const Scalar& self, const Scalar& other) {
  return where_out_of(out, c, self, other);
}

}  // namespace wick
