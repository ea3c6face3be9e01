// core/include/wick/math.h: the scalar functions pointwise expressions may call, for host and device.
//
// Declared expressions (declarations/*.yaml) are compiled inside a scope that
// sees these names, so `exp(self)` picks the float or double overload here on
// both backends.
#pragma once

#include <math.h>

#include <type_traits>

#include "wick/macros.h"

namespace wick {
namespace math {

WICK_HOST_DEVICE inline float exp(float x) { return ::expf(x); }
WICK_HOST_DEVICE inline double exp(double x) { return ::exp(x); }
WICK_HOST_DEVICE inline float log(float x) { return ::logf(x); }
WICK_HOST_DEVICE inline double log(double x) { return ::log(x); }
WICK_HOST_DEVICE inline float sqrt(float x) { return ::sqrtf(x); }
WICK_HOST_DEVICE inline double sqrt(double x) { return ::sqrt(x); }

WICK_HOST_DEVICE inline float abs(float x) { return ::fabsf(x); }
WICK_HOST_DEVICE inline double abs(double x) { return ::fabs(x); }
template <typename T>
WICK_HOST_DEVICE inline T abs(T x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else {
    return x < T(0) ? T(-x) : x;
  }
}

}  // namespace math
}  // namespace wick
