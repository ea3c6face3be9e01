// core/src/scalar.cpp: PyTorch's overflow rule for Python numbers stored into a dtype.
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "wick/dispatch.h"
#include "wick/error.h"
#include "wick/scalar.h"

namespace wick {
namespace {

// The C++ type PyTorch's Scalar accessors name in their messages, per dtype.
constexpr const char* kCppTypeNames[kNumDTypes] = {"bool", "uint8_t", "int8_t", "int16_t", "int",
                                                   "int64_t", "at::Half", "at::BFloat16", "float", "double"};

// The range of T as c10's numeric_limits gives it: lowest() and max() as doubles.
template <typename T>
std::pair<double, double> range() {
  if constexpr (std::is_same_v<T, Half>) return {-65504.0, 65504.0};
  if constexpr (std::is_same_v<T, BFloat16>) return {-3.3895313892515355e38, 3.3895313892515355e38};
  return {double(std::numeric_limits<T>::lowest()), double(std::numeric_limits<T>::max())};
}

}  // namespace

namespace detail {

bool overflows_slow(const Scalar& value, DType dtype) {
  if (dtype == DType::Bool) return false;  // anything is true or false
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      if (value.is_integral()) {
        const int64_t v = value.to_int64();
        const auto max = uint64_t(std::numeric_limits<T>::max());
        // A negative integer wraps into an unsigned type while its magnitude fits.
        if (v >= 0) return uint64_t(v) > max;
        return std::is_unsigned_v<T> ? uint64_t(0) - uint64_t(v) > max : v < int64_t(std::numeric_limits<T>::lowest());
      }
      // NaN fails both comparisons, so it is tested on its own. int64's max, 2**63 - 1, is
      // 2**63 as a double, a value that would be out of range itself.
      const double v = value.to_double();
      const auto [lo, hi] = range<T>();
      return std::isnan(v) || v < lo || v > hi || (std::is_same_v<T, int64_t> && v == hi);
    } else {
      const double v = value.to_double();
      if (std::isinf(v) || std::isnan(v)) return false;
      const auto [lo, hi] = range<T>();
      return v < lo || v > hi;
    }
  });
}

}  // namespace detail

void check_convertible(const Scalar& value, DType dtype, const char* type_name) {
  WICK_CHECK(!overflows(value, dtype), "value cannot be converted to type ",
             type_name ? type_name : kCppTypeNames[int(dtype)], " without overflow");
}

Scalar checked_convert(const Scalar& value, DType dtype) {
  check_convertible(value, dtype);
  return dispatch(dtype, [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    const T v = value.template to<T>();
    if constexpr (std::is_same_v<T, bool>) return Scalar(v);
    else if constexpr (std::is_integral_v<T>) return Scalar(int64_t(v));
    else return Scalar(double(opmath_t<T>(v)));
  });
}

}  // namespace wick
