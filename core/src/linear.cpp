// core/src/linear.cpp: linear(), the affine map of a neural network layer.
#include "wick/ops/add.h"
#include "wick/ops/addmm.h"
#include "wick/ops/linear.h"
#include "wick/ops/matmul.h"
#include "wick/ops/t.h"

namespace wick {

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (bias.defined() && input.dim() == 2) return addmm(bias, input, t(weight));  // one call for both
  Tensor out = matmul(input, t(weight));
  if (bias.defined()) add_(out, bias);
  return out;
}

}  // namespace wick
