// core/include/wick/tensor_iter.h: the elementwise engine's view of its operands.
//
// Note [TensorIter layout]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Operand 0 is the output; operands 1..n are inputs, already broadcast to the
// output's shape (stride 0 where broadcast) and already of the dtype the
// kernel reads. Dims are stored innermost first and coalesced, so a
// contiguous operation of any rank is one dim of numel elements. Strides are
// in bytes. Kernels see only this struct: promotion, broadcasting, output
// allocation and aliasing were settled when it was built (pointwise.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "wick/array_ref.h"
#include "wick/tensor.h"

namespace wick {

class TensorIter {
 public:
  static constexpr int kMaxOperands = 6;

  // Operands must already share one shape up to broadcasting (stride 0 dims).
  // `tensors[0]` is the output and fixes the shape.
  explicit TensorIter(ArrayRef<Tensor> tensors);

  int noperands() const { return noperands_; }
  int ndim() const { return int(shape_.size()); }
  int64_t numel() const { return numel_; }
  const DimVector& shape() const { return shape_; }  // innermost first
  char* data(int operand) const { return data_[size_t(operand)]; }
  // Strides in bytes of every operand along `dim`: strides(dim)[operand].
  const int64_t* strides(int dim) const { return &strides_[size_t(dim * noperands_)]; }
  DType dtype(int operand) const { return dtypes_[size_t(operand)]; }
  Device device() const { return device_; }

  // Calls loop(char** data, const int64_t* strides, int64_t n) once per run of
  // the innermost dim; `strides` are that dim's strides of every operand.
  template <typename Loop>
  void for_each(Loop&& loop) const {
    std::array<char*, kMaxOperands> ptr = data_;
    if (numel_ == 0) return;
    if (ndim() <= 1) {
      static const int64_t kZero[kMaxOperands] = {};
      loop(ptr.data(), ndim() == 0 ? kZero : strides(0), ndim() == 0 ? 1 : shape_[0]);
      return;
    }
    DimVector counter(shape_.size(), 0);
    const int64_t inner = shape_[0];
    for (;;) {
      loop(ptr.data(), strides(0), inner);
      int d = 1;
      for (; d < ndim(); ++d) {
        const int64_t* s = strides(d);
        if (++counter[size_t(d)] < shape_[size_t(d)]) {
          for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] += s[k];
          break;
        }
        counter[size_t(d)] = 0;
        for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] -= s[k] * (shape_[size_t(d)] - 1);
      }
      if (d == ndim()) return;
    }
  }

 private:
  int noperands_ = 0;
  int64_t numel_ = 1;
  Device device_;
  DimVector shape_;
  std::vector<int64_t> strides_;  // [dim][operand], see Note [TensorIter layout]
  std::array<char*, kMaxOperands> data_{};
  std::array<DType, kMaxOperands> dtypes_{};
};

}  // namespace wick
