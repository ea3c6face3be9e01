// core/src/dtype.cpp: dtype names, sizes and PyTorch's promotion table.
#include "wick/dtype.h"

#include <atomic>
#include <limits>

#include "wick/error.h"

namespace wick {

namespace {
std::atomic<DType> g_default_float{DType::Float32};
}  // namespace

DType default_float() { return g_default_float.load(std::memory_order_relaxed); }

void set_default_float(DType d) {
  WICK_CHECK_TYPE(is_floating(d), "only floating-point types are supported as the default type");
  g_default_float.store(d, std::memory_order_relaxed);
}

const char* dtype_name(DType d) {
  static constexpr const char* kNames[kNumDTypes] = {
      "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"};
  return kNames[int(d)];
}

const char* dtype_type_name(DType d) {
  static constexpr const char* kNames[kNumDTypes] = {
      "Bool", "Byte", "Char", "Short", "Int", "Long", "Half", "BFloat16", "Float", "Double"};
  return kNames[int(d)];
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const bool fa = is_floating(a), fb = is_floating(b);
  if (fa != fb) return fa ? a : b;
  if (fa) {
    // float16 and bfloat16 meet in float32; otherwise the wider float wins.
    if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16))
      return DType::Float32;
    return itemsize(a) >= itemsize(b) ? a : b;
  }
  // Two distinct integer types: uint8 with a signed type needs a wider signed type.
  if (a == DType::UInt8 || b == DType::UInt8) {
    DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return itemsize(a) >= itemsize(b) ? a : b;
}

bool can_cast(DType from, DType to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

double floating_max(DType d) {
  switch (d) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.3895313892515355e38;
    case DType::Float32: return double(std::numeric_limits<float>::max());
    case DType::Float64: return std::numeric_limits<double>::max();
    default: break;
  }
  WICK_INTERNAL_ASSERT(false, "floating_max(", dtype_name(d), "): not a floating dtype");
  return 0;
}

}  // namespace wick
