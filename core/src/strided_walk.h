// core/src/strided_walk.h: visit every position of a strided geometry in row-major order (CPU kernels).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "wick/array_ref.h"
#include "wick/small_vector.h"
#include "wick/tensor.h"

namespace wick {
namespace detail {

// Calls fn(offsets, coords) for each position of `sizes` in row-major order.
// offsets[k] is the element offset of that position in operand k, whose
// strides are strides[k] (negative ones included), from its first element.
// Nothing is called when any size is 0; once, with no coords, when sizes is empty.
template <size_t N, typename Fn>
void walk_strided(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, Fn&& fn) {
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  const size_t nd = sizes.size();
  DimVector coords(nd, 0);
  std::array<int64_t, N> offsets{};
  for (;;) {
    fn(static_cast<const std::array<int64_t, N>&>(offsets), static_cast<const DimVector&>(coords));
    size_t d = nd;
    for (; d > 0; --d) {
      const size_t i = d - 1;
      if (++coords[i] < sizes[i]) {
        for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][i];
        break;
      }
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][i] * (sizes[i] - 1);
      coords[i] = 0;
    }
    if (d == 0) return;
  }
}

// The sizes and strides of `t`, with a 0-d tensor seen as 1-d of size 1, as
// PyTorch's gather, scatter and index_add see it.
struct Geometry1d {
  DimVector sizes;
  DimVector strides;
};

inline Geometry1d at_least_1d(const Tensor& t) {
  if (t.dim() == 0) return {DimVector{1}, DimVector{1}};
  return {t.sizes().vec(), t.strides().vec()};
}

}  // namespace detail
}  // namespace wick
