// core/include/wick/tensor_iter.h: the elementwise engine's view of its operands.
//
// Note [TensorIter layout]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Operand 0 is the output; operands 1..n are inputs, already broadcast to the
// output's shape (stride 0 where broadcast) and already of the dtype the
// kernel reads. Dims are stored innermost first, in the order of the output's
// strides (its memory order, which for a transposed output is not the logical
// one), and coalesced, so a contiguous operation of any rank, or one whose
// operands share any dense layout, is one dim of numel elements. Strides are
// in bytes. Kernels see only this struct: promotion, broadcasting, output
// allocation and aliasing were settled when it was built (pointwise.cpp).
// It holds everything inline: building one allocates nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "wick/array_ref.h"
#include "wick/tensor.h"

namespace wick {

class TensorIter {
 public:
  static constexpr int kMaxOperands = 6;
  static constexpr int kMaxDims = 16;  // after coalescing; NotImplementedError beyond

  // Operands must already share one shape up to broadcasting (stride 0 dims).
  // `tensors[0]` is the output and fixes the shape.
  explicit TensorIter(ArrayRef<Tensor> tensors);

  int noperands() const { return noperands_; }
  int ndim() const { return ndim_; }
  int64_t numel() const { return numel_; }
  IntArrayRef shape() const { return IntArrayRef(shape_.data(), size_t(ndim_)); }  // innermost first
  char* data(int operand) const { return data_[size_t(operand)]; }
  // Strides in bytes of every operand along `dim`: strides(dim)[operand].
  const int64_t* strides(int dim) const { return &strides_[size_t(dim * noperands_)]; }
  DType dtype(int operand) const { return dtypes_[size_t(operand)]; }
  // Its element size in bytes, kept here: the CPU levels' units must not read dtype.h's table
  // (Note [CPU levels]).
  int64_t itemsize(int operand) const { return itemsizes_[size_t(operand)]; }
  Device device() const { return device_; }

  // Calls loop(char** data, const int64_t* strides, int64_t n) once per run of
  // the innermost dim; `strides` are that dim's strides of every operand.
  template <typename Loop>
  void for_each(Loop&& loop) const {
    for_each(loop, 0, numel_);
  }

  // The same over the elements [begin, end) in the order for_each visits them:
  // the first and last runs may be parts of runs. Ranges that split [0, numel)
  // run independently of each other (see wick/cpu/parallel.h).
  template <typename Loop>
  void for_each(Loop&& loop, int64_t begin, int64_t end) const {
    if (begin >= end) return;
    std::array<char*, kMaxOperands> ptr = data_;
    if (ndim_ == 1) {
      for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] += begin * strides_[size_t(k)];
      loop(ptr.data(), strides(0), end - begin);
      return;
    }
    // The coordinates of `begin`, and the operands' pointers there.
    std::array<int64_t, kMaxDims> counter;
    int64_t rest = begin;
    for (int d = 0; d < ndim_; ++d) {
      counter[size_t(d)] = rest % shape_[size_t(d)];
      rest /= shape_[size_t(d)];
      const int64_t* s = strides(d);
      for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] += counter[size_t(d)] * s[k];
    }
    const int64_t* inner = strides(0);
    for (int64_t left = end - begin;;) {
      const int64_t n = std::min(shape_[0] - counter[0], left);
      loop(ptr.data(), inner, n);
      left -= n;
      if (left == 0) return;
      // Back to the start of the run, then one step along the outer dims.
      for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] -= counter[0] * inner[k];
      counter[0] = 0;
      for (int d = 1; d < ndim_; ++d) {
        const int64_t* s = strides(d);
        if (++counter[size_t(d)] < shape_[size_t(d)]) {
          for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] += s[k];
          break;
        }
        counter[size_t(d)] = 0;
        for (int k = 0; k < noperands_; ++k) ptr[size_t(k)] -= s[k] * (shape_[size_t(d)] - 1);
      }
    }
  }

 private:
  int noperands_ = 0;
  int ndim_ = 0;  // at least 1 once built: a 0-d operation is one run of one element
  int64_t numel_ = 1;
  Device device_;
  // Only the first ndim_ dims and noperands_ operands are set: nothing is zeroed per call.
  std::array<int64_t, kMaxDims> shape_;
  std::array<int64_t, kMaxDims * kMaxOperands> strides_;
  std::array<char*, kMaxOperands> data_;
  std::array<DType, kMaxOperands> dtypes_;
  std::array<int64_t, kMaxOperands> itemsizes_;
};

}  // namespace wick
