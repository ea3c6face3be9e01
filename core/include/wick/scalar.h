// core/include/wick/scalar.h: a Python number (bool, int or float) on its way into a kernel.
#pragma once

#include <cstdint>

#include "wick/dtype.h"

namespace wick {

// Note [Checked conversion of Python numbers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A Python number stored into a tensor's dtype as a value (fill_, full,
// masked_fill, x[i] = v, wick.tensor(...), clamp's bounds, pow's exponent, an
// alpha) goes through check_convertible(), which raises where PyTorch's
// c10::checked_convert does: "value cannot be converted to type int8_t without
// overflow". Its rule is c10::overflows: a value beyond the dtype's range
// overflows, except that a negative integer wraps into uint8 while its magnitude
// is at most 255 (x.fill_(-1) gives 255), infinities fit floating dtypes, NaN
// fits floating dtypes only, and nothing overflows bool. A float into an
// integer dtype is truncated toward zero after the check (2.7 gives 2).
// A wrapped number is different (Note [Wrapped numbers]): in x + 1000 on int8
// it is an operand converted as a tensor would be, and wraps, as in PyTorch.

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Float };

  Scalar() : Scalar(int64_t(0)) {}
  Scalar(bool v) : kind_(Kind::Bool) { v_.i = v; }
  Scalar(int v) : Scalar(int64_t(v)) {}
  Scalar(int64_t v) : kind_(Kind::Int) { v_.i = v; }
  Scalar(double v) : kind_(Kind::Float) { v_.d = v; }

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_floating_point() const { return kind_ == Kind::Float; }

  double to_double() const { return kind_ == Kind::Float ? v_.d : double(v_.i); }
  int64_t to_int64() const { return kind_ == Kind::Float ? int64_t(v_.d) : v_.i; }
  bool to_bool() const { return kind_ == Kind::Float ? v_.d != 0 : v_.i != 0; }

  // The value converted to a kernel's C++ type, as a C++ cast would; see
  // check_convertible() for a number stored as a value.
  template <typename T> T to() const {
    if (kind_ == Kind::Float) return static_cast<T>(static_cast<opmath_t<T>>(v_.d));
    if constexpr (std::is_same_v<T, bool>) return v_.i != 0;
    return static_cast<T>(static_cast<opmath_t<T>>(v_.i));
  }

  // The dtype PyTorch gives a Python number of this kind when it becomes a tensor.
  DType natural_dtype() const {
    return kind_ == Kind::Bool ? DType::Bool : kind_ == Kind::Int ? DType::Int64 : DType::Float64;
  }

 private:
  Kind kind_;
  union {
    int64_t i;
    double d;
  } v_;
};

namespace detail {
bool overflows_slow(const Scalar& value, DType dtype);
}  // namespace detail

// Whether `value` is out of dtype's range, as PyTorch judges it (Note [Checked
// conversion of Python numbers]). Bools and the integers -127 to 127, which every
// dtype holds (the usual alpha=1 and fill_(0)), return at once.
inline bool overflows(const Scalar& value, DType dtype) {
  if (value.is_bool()) return false;
  if (value.is_integral() && uint64_t(value.to_int64()) + 127 <= 254) return false;
  return detail::overflows_slow(value, dtype);
}

// Error unless `value` fits dtype, with PyTorch's words: "value cannot be converted to
// type <type_name> without overflow". The name defaults to the C++ type PyTorch's
// Scalar conversions name ("int8_t", "at::Half"); wick.tensor() names the dtype ("int8").
void check_convertible(const Scalar& value, DType dtype, const char* type_name = nullptr);

// `value` as dtype holds it (a float truncated for an integer dtype, rounded for float16),
// once check_convertible() has passed: PyTorch's Scalar::to<T>() for code that keeps a Scalar.
Scalar checked_convert(const Scalar& value, DType dtype);

}  // namespace wick
