// core/include/wick/autograd/tensor_meta.h: what a backward formula may need of a tensor
// besides its elements.
#pragma once

#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/small_vector.h"
#include "wick/tensor.h"

namespace wick {
namespace autograd {

// The sizes, dtype and device of a tensor. A node keeps this rather than the tensor
// when its formulas read only these (`self.shape`, sum_to(grad, self)), so that the
// tensor's memory is not held, nor its later writes refused (Note [Version counter]).
struct TensorMeta {
  DimVector sizes;
  DType dtype = DType::Float32;
  Device device;

  TensorMeta() = default;
  // An undefined tensor (an absent Tensor? argument) gives the meta of nothing, which no formula reads.
  explicit TensorMeta(const Tensor& t) {
    if (!t.defined()) return;
    sizes = t.sizes().vec();
    dtype = t.dtype();
    device = t.device();
  }

  int64_t dim() const { return int64_t(sizes.size()); }
  int64_t numel() const;
  // A new tensor of zeros of this shape, dtype and device.
  Tensor zeros() const;
};

}  // namespace autograd
}  // namespace wick
