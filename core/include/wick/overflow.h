// core/include/wick/overflow.h: overflow-checked arithmetic on sizes, strides, offsets and byte counts.
//
// Note [Checked size arithmetic]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Sizes, strides and offsets come from users, as any int64, and a product or
// sum of them that wraps around gives a tensor whose elements lie outside its
// memory. So geometry is computed only through these helpers, and a TensorImpl
// checks what it is given (TensorImpl::refresh()): its element count fits in
// int64, and every element it can address lies inside its storage, at a byte
// offset that fits in int64. Code that walks a tensor it holds may then add up
// `index * stride` terms for in-range indices freely: no partial sum passes
// the tensor's own extent. Nor does a product one stride past it (size * stride,
// in bytes), as storage is memory a process holds, less than 2**47 bytes.
// Arithmetic that makes new geometry (a view's strides, a result's sizes) is
// where overflow can happen, and is checked.
//
// An element count is zero-aware: [2**62, 0, 2**62] holds no elements, which
// is not an overflow, as PyTorch allows such a tensor.
#pragma once

#include <cstdint>
#include <optional>

#include "wick/array_ref.h"
#include "wick/error.h"

namespace wick {

// a * b and a + b, or nullopt when the exact result does not fit in int64.
inline std::optional<int64_t> mul_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> add_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// offset + index * stride: where element `index` along a dim of that stride lies.
inline std::optional<int64_t> offset_checked(int64_t offset, int64_t index, int64_t stride) {
  int64_t step, r;
  if (__builtin_mul_overflow(index, stride, &step) || __builtin_add_overflow(offset, step, &r)) return std::nullopt;
  return r;
}

// The product of `sizes` (1 for none, 0 when any is 0), or nullopt when it does not fit in int64.
inline std::optional<int64_t> numel_checked(IntArrayRef sizes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) {
    if (s == 0) return 0;
    overflow = __builtin_mul_overflow(n, s, &n) || overflow;
  }
  if (overflow) return std::nullopt;
  return n;
}

// The result of a checked computation of geometry that stays in range for any valid tensor, and
// is checked all the same: a RuntimeError rather than a wrong tensor if that reasoning was wrong.
inline int64_t or_overflow_error(std::optional<int64_t> v) {
  WICK_CHECK(v.has_value(), "integer overflow in the sizes, strides or offset of a tensor");
  return *v;
}

}  // namespace wick
