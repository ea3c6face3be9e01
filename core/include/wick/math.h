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
WICK_FLOAT_FUNCTION(erfc, erfc)
WICK_FLOAT_FUNCTION(asinh, asinh)
WICK_FLOAT_FUNCTION(acosh, acosh)
WICK_FLOAT_FUNCTION(atanh, atanh)
#undef WICK_FLOAT_FUNCTION

#define WICK_FLOAT_FUNCTION2(name, libm)                                                  \
  WICK_HOST_DEVICE inline float name(float a, float b) { return ::libm##f(a, b); }        \
  WICK_HOST_DEVICE inline double name(double a, double b) { return ::libm(a, b); }
WICK_FLOAT_FUNCTION2(atan2, atan2)
WICK_FLOAT_FUNCTION2(hypot, hypot)
WICK_FLOAT_FUNCTION2(copysign, copysign)
WICK_FLOAT_FUNCTION2(nextafter, nextafter)
#undef WICK_FLOAT_FUNCTION2

// The inverse of erf: Giles's single-precision approximation ("Approximating the erfinv
// function", GPU Computing Gems, 2011), then Newton's method on erf, whose derivative is
// 2/sqrt(pi) exp(-x^2): a step for float and two for double reach the last bit or so.
template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
WICK_HOST_DEVICE inline T erfinv(T y) {
  if (!(abs(y) < T(1))) return y == T(1) ? T(INFINITY) : y == T(-1) ? T(-INFINITY) : T(NAN);
  const float yf = float(y);
  float w = -::logf((1.0f - yf) * (1.0f + yf));
  // The two polynomials in w, highest power first.
  constexpr float kCentral[] = {2.81022636e-08f, 3.43273939e-07f, -3.5233877e-06f, -4.39150654e-06f, 0.00021858087f,
                                -0.00125372503f, -0.00417768164f, 0.246640727f, 1.50140941f};
  constexpr float kTail[] = {-0.000200214257f, 0.000100950558f, 0.00134934322f, -0.00367342844f, 0.00573950773f,
                             -0.0076224613f, 0.00943887047f, 1.00167406f, 2.83297682f};
  const bool central = w < 5.0f;
  w = central ? w - 2.5f : ::sqrtf(w) - 3.0f;
  float p = 0.0f;
  for (int i = 0; i < 9; ++i) p = (central ? kCentral[i] : kTail[i]) + p * w;
  T x = T(p * yf);
  for (int step = 0; step < (std::is_same_v<T, double> ? 2 : 1); ++step) {
    x -= (erf(x) - y) / (T(1.1283791670955126) * exp(-x * x));
  }
  return x;
}

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

// torch.round(x, decimals=d): x rounded to d places right of the point (left of it when d < 0), ties to
// even, as PyTorch computes it: nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d, with the
// power of ten taken in double and converted to the compute type D. X is D or a vector of it (round and
// the operators then are the vector's; a vector without round() takes the scalar path, as for round).
// d = 0 is round(x) without the scaling. An integer has no digits right of the point, so it stays as it is
// for d >= 0, and round_check refuses d < 0 (PyTorch rounds no integers).
template <typename X, typename D>
WICK_HOST_DEVICE inline auto round_decimals(X x, D decimals) -> decltype(round(x)) {
  if constexpr (!std::is_floating_point_v<D>) {
    return round(x);  // no test of an unsigned decimals against zero, which compilers warn of
  } else {
    if (decimals == D(0)) return round(x);
    const D scale = D(::pow(10.0, double(decimals < D(0) ? -decimals : decimals)));
    return decimals < D(0) ? X(round(x / X(scale)) * X(scale)) : X(round(x * X(scale)) / X(scale));
  }
}

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

// Whether the sign bit is set: true for -0.0 and for NaNs whose sign is negative.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline bool signbit(T x) {
  if constexpr (std::is_floating_point_v<T>) return copysign(T(1), x) < T(0);
  else if constexpr (std::is_signed_v<T>) return x < T(0);
  else return false;
}

// fmax and fmin ignore a NaN on either side (NaN only where both are), as torch.fmax does.
template <typename T, if_scalar<T> = 0> WICK_HOST_DEVICE inline T fmax(T a, T b) { return isnan(b) || a > b ? a : b; }
template <typename T, if_scalar<T> = 0> WICK_HOST_DEVICE inline T fmin(T a, T b) { return isnan(b) || a < b ? a : b; }

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

// The greatest common divisor of |a| and |b| (0 for two zeros), by Euclid's algorithm in the unsigned
// type, where |INT_MIN| is representable; converted back, it wraps as PyTorch's does.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T gcd(T a, T b) {
  static_assert(std::is_integral_v<T>, "gcd takes integers");
  using U = std::make_unsigned_t<T>;
  const auto magnitude = [](T v) -> U {
    if constexpr (std::is_signed_v<T>) return v < T(0) ? U(U(0) - U(v)) : U(v);
    else return v;
  };
  U x = magnitude(a), y = magnitude(b);
  while (y != U(0)) {
    const U r = U(x % y);
    x = y;
    y = r;
  }
  return T(x);
}
// The least common multiple, |a / gcd(a, b) * b|, wrapping as PyTorch's does; 0 if either is 0.
template <typename T, if_scalar<T> = 0>
WICK_HOST_DEVICE inline T lcm(T a, T b) {
  const T g = gcd(a, b);
  return g == T(0) ? T(0) : abs(T(wrapping_mul(T(a / g), b)));
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
