// core/include/wick/half.h: the 16-bit floating types float16 (Half) and bfloat16.
//
// Both are storage types: arithmetic converts to float (see opmath_t in dtype.h),
// so every operator here goes through the conversion to float and back.
#pragma once

#include <cstdint>
#include <cstring>

#include "wick/macros.h"

namespace wick {
namespace detail {

WICK_HOST_DEVICE inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

WICK_HOST_DEVICE inline float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

// Round to nearest even, with overflow to infinity and subnormal results.
WICK_HOST_DEVICE inline uint16_t float_to_half_bits(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return uint16_t(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds past 65504
  if (a < 0x38800000u) {
    // Below the smallest normal half (2^-14): adding 0.5f makes the float's
    // unit in the last place 2^-24, the half subnormal step, so the FPU rounds.
    float shifted = bits_float(a) + 0.5f;
    return uint16_t(sign | (float_bits(shifted) - 0x3f000000u));
  }
  uint32_t odd = (a >> 13) & 1u;
  a += 0xc8000fffu + odd;  // rebias the exponent by -112 and round to nearest even
  return uint16_t(sign | (a >> 13));
}

WICK_HOST_DEVICE inline float half_bits_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float f = float(mant) * 5.9604644775390625e-8f;  // mant * 2^-24
    return sign ? -f : f;
  }
  return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

WICK_HOST_DEVICE inline uint16_t float_to_bfloat16_bits(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x0040u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

WICK_HOST_DEVICE inline float bfloat16_bits_to_float(uint16_t b) {
  return bits_float(uint32_t(b) << 16);
}

}  // namespace detail

struct Half {
  uint16_t bits;
  Half() = default;
  WICK_HOST_DEVICE Half(float f) : bits(detail::float_to_half_bits(f)) {}
  WICK_HOST_DEVICE operator float() const { return detail::half_bits_to_float(bits); }
  static WICK_HOST_DEVICE Half from_bits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
};

struct BFloat16 {
  uint16_t bits;
  BFloat16() = default;
  WICK_HOST_DEVICE BFloat16(float f) : bits(detail::float_to_bfloat16_bits(f)) {}
  WICK_HOST_DEVICE operator float() const { return detail::bfloat16_bits_to_float(bits); }
  static WICK_HOST_DEVICE BFloat16 from_bits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "16-bit types must stay 16 bits");

}  // namespace wick
