// core/include/wick/math.h: the scalar functions pointwise expressions may call, for host and device.
//
// Declared expressions (declarations/*.yaml) are compiled inside a scope that
// sees these names, so `exp(self)` picks the float or double overload here on
// both backends. Arguments are the op's compute type (opmath_t: float for the
// 16-bit floats). Functions that only make sense for floats take float and
// double alone; their ops declare `promote: int_to_float`. The generator
// writes `a % b`, `a // b`, `a ** b`, `a << b`, `a >> b` and `~a` as the calls
// remainder, floor_divide, pow, shift_left, shift_right and bitwise_not.
#pragma once

#include <math.h>

#include <type_traits>

#include "wick/error.h"
#include "wick/macros.h"

namespace wick {
namespace math {

template <typename T> using if_scalar = std::enable_if_t<std::is_arithmetic_v<T>, int>;

// Note [Wrapping integer arithmetic]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's integer ops wrap around on overflow: int64 sums, products and powers
// modulo 2**64, -INT64_MIN == INT64_MIN. C++ leaves signed overflow undefined (an
// optimiser may assume it never happens, and UBSan reports it), so where Wick's
// integer arithmetic can overflow it goes through these: they compute in the
// unsigned type of the promoted operands, where arithmetic is modulo 2**n, and
// convert back (modular in C++20, and in GCC, Clang and NVCC before it). Promoted
// first because int8 * int8 is an int multiplication, and so is uint16 * uint16.
// Floating types, and the vector types of the CPU kernels (whose integer lanes
// wrap in hardware), compute as they are. The + - * and unary - of pointwise
// expressions in the declarations are these (codegen/api/expr.py).
// Two operands of two types (a scalar constant and a vector of the kernels' loops,
// or int8 and int64) combine as C++ combines them, in decltype(a + b).
template <typename A, typename B>
WICK_HOST_DEVICE inline auto wrapping_add(A a, B b) -> decltype(a + b) {
  using R = decltype(a + b);
  if constexpr (std::is_integral_v<R>) {
    return R(std::make_unsigned_t<R>(a) + std::make_unsigned_t<R>(b));
  } else {
    return a + b;
  }
}

template <typename A, typename B>
WICK_HOST_DEVICE inline auto wrapping_sub(A a, B b) -> decltype(a - b) {
  using R = decltype(a - b);
  if constexpr (std::is_integral_v<R>) {
    return R(std::make_unsigned_t<R>(a) - std::make_unsigned_t<R>(b));
  } else {
    return a - b;
  }
}

template <typename A, typename B>
WICK_HOST_DEVICE inline auto wrapping_mul(A a, B b) -> decltype(a * b) {
  using R = decltype(a * b);
  if constexpr (std::is_integral_v<R>) {
    return R(std::make_unsigned_t<R>(a) * std::make_unsigned_t<R>(b));
  } else {
    return a * b;
  }
}

template <typename T>
WICK_HOST_DEVICE inline auto wrapping_neg(T a) -> decltype(-a) {
  using R = decltype(-a);
  if constexpr (std::is_integral_v<R>) {
    return R(std::make_unsigned_t<R>(0) - std::make_unsigned_t<R>(a));
  } else {
    return -a;
  }
}

// Note [Fused multiply-add]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// fma(a, b, c) is a * b + c rounded once. PyTorch's CPU kernels fuse the
// multiply-add of add and sub with alpha, of addcmul and of lerp (vec::fmadd,
// or the compiler contracting a * b + c for its AVX2 kernels), and their
// declarations say so by calling fma(), so that Wick gives PyTorch's last bits
// at every CPU level, software FMA included. Everything else rounds each
// operation as written: core is compiled with -ffp-contract=off (nvcc with
// --fmad=false), so no result depends on the instruction set of the build or
// the backend. Integers wrap (Note [Wrapping integer arithmetic]). Operands of
// several types combine as in decltype(a * b + c).
template <typename A, typename B, typename D, if_scalar<A> = 0, if_scalar<B> = 0, if_scalar<D> = 0>
WICK_HOST_DEVICE inline auto fma(A a, B b, D c) -> decltype(a * b + c) {
  using R = decltype(a * b + c);
  if constexpr (std::is_integral_v<R>) {
    return wrapping_add(wrapping_mul(R(a), R(b)), R(c));
  } else if constexpr (std::is_same_v<R, float>) {
    return ::fmaf(a, b, c);
  } else {
    return ::fma(R(a), R(b), R(c));
  }
}

// float and double overloads of a libm function: f(float) calls ::fnf, f(double) ::fn.
#define WICK_FLOAT_FUNCTION(name, libm)                                          \
  WICK_HOST_DEVICE inline float name(float x) { return ::libm##f(x); }           \
  WICK_HOST_DEVICE inline double name(double x) { return ::libm(x); }

WICK_FLOAT_FUNCTION(exp, exp)
WICK_FLOAT_FUNCTION(exp2, exp2)
WICK_FLOAT_FUNCTION(expm1, expm1)
WICK_FLOAT_FUNCTION(log, log)
WICK_FLOAT_FUNCTION(log2, log2)
WICK_FLOAT_FUNCTION(log10, log10)
WICK_FLOAT_FUNCTION(log1p, log1p)
WICK_FLOAT_FUNCTION(sqrt, sqrt)
WICK_FLOAT_FUNCTION(sin, sin)
WICK_FLOAT_FUNCTION(cos, cos)
WICK_FLOAT_FUNCTION(tan, tan)
WICK_FLOAT_FUNCTION(asin, asin)
WICK_FLOAT_FUNCTION(acos, acos)
WICK_FLOAT_FUNCTION(atan, atan)
WICK_FLOAT_FUNCTION(sinh, sinh)
WICK_FLOAT_FUNCTION(cosh, cosh)
WICK_FLOAT_FUNCTION(tanh, tanh)
WICK_FLOAT_FUNCTION(erf, erf)
#undef WICK_FLOAT_FUNCTION

WICK_HOST_DEVICE inline float atan2(float y, float x) { return ::atan2f(y, x); }
WICK_HOST_DEVICE inline double atan2(double y, double x) { return ::atan2(y, x); }

template <typename T> WICK_HOST_DEVICE inline T rsqrt(T x) { return T(1) / sqrt(x); }
template <typename T> WICK_HOST_DEVICE inline T sigmoid(T x) { return T(1) / (T(1) + exp(-x)); }
template <typename T> WICK_HOST_DEVICE inline T silu(T x) { return x / (T(1) + exp(-x)); }
template <typename T> WICK_HOST_DEVICE inline T gelu(T x) {
  return T(0.5) * x * (T(1) + erf(x * T(0.70710678118654752440)));
}

WICK_HOST_DEVICE inline float abs(float x) { return ::fabsf(x); }
WICK_HOST_DEVICE inline double abs(double x) { return ::fabs(x); }
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T abs(T x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else {
    return x < T(0) ? wrapping_neg(x) : x;  // abs(INT_MIN) == INT_MIN, as in PyTorch
  }
}

// Rounding: the identity on integers; round() is to nearest, ties to even (as torch.round).
#define WICK_ROUNDING(name, libm)                                                   \
  WICK_HOST_DEVICE inline float name(float x) { return ::libm##f(x); }              \
  WICK_HOST_DEVICE inline double name(double x) { return ::libm(x); }               \
  template <typename T, if_scalar<T> = 0> WICK_HOST_DEVICE inline T name(T x) { return x; }
WICK_ROUNDING(floor, floor)
WICK_ROUNDING(ceil, ceil)
WICK_ROUNDING(trunc, trunc)
WICK_ROUNDING(round, nearbyint)
#undef WICK_ROUNDING

template <typename T> WICK_HOST_DEVICE inline T frac(T x) { return x - trunc(x); }

template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T sign(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x;
  } else {
    return T((T(0) < x) - (x < T(0)));
  }
}

template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline bool isnan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline bool isinf(T x) {
  if constexpr (std::is_floating_point_v<T>) return x == x && (x - x) != (x - x);  // inf - inf is NaN
  else return false;
}
template <typename T, if_scalar<T> = 0> WICK_HOST_DEVICE inline bool isfinite(T x) { return !isnan(x) && !isinf(x); }

// maximum and minimum propagate NaN from either side, as torch.maximum does.
template <typename T, if_scalar<T> = 0> WICK_HOST_DEVICE inline T maximum(T a, T b) { return isnan(a) ? a : isnan(b) ? b : a > b ? a : b; }
template <typename T, if_scalar<T> = 0> WICK_HOST_DEVICE inline T minimum(T a, T b) { return isnan(a) ? a : isnan(b) ? b : a < b ? a : b; }

namespace detail {
// Integer division by zero is an error on the host (as in PyTorch); a device
// cannot raise, and gives 0.
template <typename T>
WICK_HOST_DEVICE inline bool divisor_is_zero(T b) {
  if (b != T(0)) return false;
#ifndef __CUDA_ARCH__
  throw Error("ZeroDivisionError");  // PyTorch's words
#else
  return true;
#endif
}
}  // namespace detail

// Python's %: the result has the sign of the divisor.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T remainder(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const T r = ::fmod(a, b);
    return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? r + b : r;
  } else {
    if (detail::divisor_is_zero(b)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);  // INT_MIN % -1 overflows
    }
    const T r = T(a % b);
    return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? T(r + b) : r;
  }
}

// C's fmod: the result has the sign of the dividend.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T fmod(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return ::fmod(a, b);
  } else {
    if (detail::divisor_is_zero(b)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
    }
    return T(a % b);
  }
}

// Python's //: rounds toward negative infinity (for floats, PyTorch's div_floor).
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T floor_divide(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (b == T(0)) return a / b;
    const T mod = ::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
    if (div == T(0)) return ::copysign(T(0), a / b);
    T result = ::floor(div);
    return div - result > T(0.5) ? result + T(1) : result;
  } else {
    if (detail::divisor_is_zero(b)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return wrapping_neg(a);  // INT_MIN / -1 == INT_MIN, as in PyTorch
      const T q = T(a / b);
      return (a % b != T(0) && ((a < T(0)) != (b < T(0)))) ? T(q - 1) : q;
    } else {
      return T(a / b);
    }
  }
}

// Division rounded toward zero (PyTorch's div_trunc): C's integer division, without its traps.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T trunc_divide(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return trunc(a / b);
  } else {
    if (detail::divisor_is_zero(b)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return wrapping_neg(a);  // INT_MIN / -1 == INT_MIN, as in PyTorch
    }
    return T(a / b);
  }
}

// Integer powers by squaring; a negative exponent gives 1/a^-b truncated (0 unless |a| == 1).
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T pow(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return ::pow(a, b);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < T(0)) return a == T(1) ? T(1) : a == T(-1) ? T((b % 2) ? -1 : 1) : T(0);
    }
    T result = T(1);
    while (b) {
      if (b & T(1)) result = wrapping_mul(result, a);
      b = T(b >> 1);
      a = wrapping_mul(a, a);
    }
    return result;
  }
}

template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T bitwise_not(T a) {
  if constexpr (std::is_same_v<T, bool>) return !a;
  else return T(~a);
}

// Shifts by at least the width give 0 (left) or the sign (right) instead of undefined behaviour.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T shift_left(T a, T b) {
  if (b < T(0) || b >= T(sizeof(T) * 8)) return T(0);
  return T(std::make_unsigned_t<T>(a) << b);
}
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T shift_right(T a, T b) {
  if (b < T(0) || b >= T(sizeof(T) * 8)) return a < T(0) ? T(-1) : T(0);
  return T(a >> b);
}

}  // namespace math
}  // namespace wick
