// core/include/wick/cast.h: element conversion between dtypes, shared by host and device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "wick/dtype.h"

namespace wick {

// Float to integer goes through int64 so that out-of-range values wrap as in
// NumPy and PyTorch on x86 instead of being undefined for narrow unsigned types.
template <typename Dst, typename Src>
WICK_HOST_DEVICE inline Dst cast(Src v) {
  if constexpr (std::is_same_v<Dst, Src>) {
    return v;
  } else if constexpr (std::is_same_v<Dst, bool>) {
    return static_cast<opmath_t<Src>>(v) != opmath_t<Src>(0);
  } else if constexpr (std::is_integral_v<Dst> && !std::is_integral_v<Src>) {
    return static_cast<Dst>(static_cast<int64_t>(static_cast<opmath_t<Src>>(v)));
  } else {
    return static_cast<Dst>(static_cast<opmath_t<Dst>>(static_cast<opmath_t<Src>>(v)));
  }
}

template <typename Dst, typename Src>
struct CastOp {
  WICK_HOST_DEVICE Dst operator()(Src v) const { return cast<Dst, Src>(v); }
};

}  // namespace wick
