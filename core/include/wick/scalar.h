// core/include/wick/scalar.h: a Python number (bool, int or float) on its way into a kernel.
#pragma once

#include <cstdint>

#include "wick/dtype.h"

namespace wick {

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

  // The value converted to a kernel's C++ type, as a C++ cast would.
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

}  // namespace wick
