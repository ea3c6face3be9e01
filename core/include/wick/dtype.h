// core/include/wick/dtype.h: the element types, their C++ types, and type promotion.
#pragma once

#include <cstdint>
#include <type_traits>

#include "wick/half.h"

namespace wick {

// The order is the category order used by promotion: bool < integers < floats.
enum class DType : uint8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};
constexpr int kNumDTypes = 10;

// The C++ type that stores each dtype, and back.
template <DType D> struct cpp_type_of;
template <typename T> struct dtype_of;
#define WICK_DTYPE_PAIR(D, T)                                            \
  template <> struct cpp_type_of<DType::D> { using type = T; };          \
  template <> struct dtype_of<T> { static constexpr DType value = DType::D; };
WICK_DTYPE_PAIR(Bool, bool)
WICK_DTYPE_PAIR(UInt8, uint8_t)
WICK_DTYPE_PAIR(Int8, int8_t)
WICK_DTYPE_PAIR(Int16, int16_t)
WICK_DTYPE_PAIR(Int32, int32_t)
WICK_DTYPE_PAIR(Int64, int64_t)
WICK_DTYPE_PAIR(Float16, Half)
WICK_DTYPE_PAIR(BFloat16, BFloat16)
WICK_DTYPE_PAIR(Float32, float)
WICK_DTYPE_PAIR(Float64, double)
#undef WICK_DTYPE_PAIR

// Arithmetic on 16-bit floats happens in float, as on every backend PyTorch has.
template <typename T> struct opmath { using type = T; };
template <> struct opmath<Half> { using type = float; };
template <> struct opmath<BFloat16> { using type = float; };
template <typename T> using opmath_t = typename opmath<T>::type;

// Reductions accumulate in a wider type: 64-bit integers, double for floats.
template <typename T> struct acc_type {
  using type = std::conditional_t<std::is_integral<T>::value, int64_t, double>;
};
template <typename T> using acc_t = typename acc_type<T>::type;

constexpr bool is_floating(DType d) { return d >= DType::Float16; }
constexpr bool is_integral(DType d, bool include_bool) {
  return d < DType::Float16 && (include_bool || d != DType::Bool);
}

namespace detail {
inline constexpr int kItemSizes[kNumDTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};  // a table in memory, not rebuilt per call
}  // namespace detail
constexpr int itemsize(DType d) { return detail::kItemSizes[int(d)]; }
// PyTorch's spelling: "float32", "int64", ...
const char* dtype_name(DType d);
// PyTorch's ScalarType spelling, used in error messages: "Float", "Long", ...
const char* dtype_type_name(DType d);

// The smallest dtype that holds both, as torch.promote_types.
DType promote_types(DType a, DType b);
// Whether a result of dtype `from` may be written into a tensor of dtype `to`:
// never float to integer, never non-bool to bool (torch.can_cast).
bool can_cast(DType from, DType to);
// The largest finite value of a floating dtype (torch.finfo(d).max).
double floating_max(DType d);

// The default float dtype: that of float literals, of tensors made from Python floats and of the factories
// without a dtype, and the one in which int_to_float ops compute integers. float32 unless
// set_default_float changed it; a floating dtype, read and set atomically (torch.set_default_dtype).
DType default_float();
// Sets it; a dtype that is not floating is a TypeError.
void set_default_float(DType d);

}  // namespace wick
