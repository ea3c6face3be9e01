// core/include/wick/dispatch.h: run a generic lambda with the C++ type of a runtime dtype.
#pragma once

#include "wick/dtype.h"
#include "wick/error.h"

namespace wick {

template <typename T> struct TypeTag { using type = T; };

// Calls fn(TypeTag<T>{}) for the C++ type T of `d`:
//   dispatch(t.dtype(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
template <typename Fn>
decltype(auto) dispatch(DType d, Fn&& fn) {
  switch (d) {
    case DType::Bool: return fn(TypeTag<bool>{});
    case DType::UInt8: return fn(TypeTag<uint8_t>{});
    case DType::Int8: return fn(TypeTag<int8_t>{});
    case DType::Int16: return fn(TypeTag<int16_t>{});
    case DType::Int32: return fn(TypeTag<int32_t>{});
    case DType::Int64: return fn(TypeTag<int64_t>{});
    case DType::Float16: return fn(TypeTag<Half>{});
    case DType::BFloat16: return fn(TypeTag<BFloat16>{});
    case DType::Float32: return fn(TypeTag<float>{});
    case DType::Float64: return fn(TypeTag<double>{});
  }
  WICK_INTERNAL_ASSERT(false, "unknown dtype ", int(d));
}

// dispatch() for an op that has checked that `d` is a floating-point dtype: it instantiates
// fn for those four types alone.
template <typename Fn>
decltype(auto) dispatch_floating(DType d, Fn&& fn) {
  switch (d) {
    case DType::Float16: return fn(TypeTag<Half>{});
    case DType::BFloat16: return fn(TypeTag<BFloat16>{});
    case DType::Float32: return fn(TypeTag<float>{});
    case DType::Float64: return fn(TypeTag<double>{});
    default: break;
  }
  WICK_INTERNAL_ASSERT(false, "not a floating-point dtype: ", int(d));
}

}  // namespace wick
