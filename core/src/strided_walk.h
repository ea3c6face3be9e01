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

// Calls fn(offsets, coords) for the positions [begin, end), numbered in
// row-major order, of `sizes`. offsets[k] is the element offset of that
// position in operand k, whose strides are strides[k] (negative ones
// included), from its first element. Empty sizes have one position, with no
// coords. The range must lie inside the positions.
template <size_t N, typename Fn>
void walk_range(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, int64_t begin, int64_t end, Fn&& fn) {
  if (begin >= end) return;
  const size_t nd = sizes.size();
  DimVector coords(nd, 0);
  std::array<int64_t, N> offsets{};
  for (size_t i = nd, rest = size_t(begin); i-- > 0;) {
    coords[i] = int64_t(rest % size_t(sizes[i]));
    rest /= size_t(sizes[i]);
    for (size_t k = 0; k < N; ++k) offsets[k] += coords[i] * strides[k][i];
  }
  for (int64_t n = begin; n < end; ++n) {
    fn(static_cast<const std::array<int64_t, N>&>(offsets), static_cast<const DimVector&>(coords));
    for (size_t i = nd; i-- > 0;) {
      if (++coords[i] < sizes[i]) {
        for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][i];
        break;
      }
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][i] * (sizes[i] - 1);
      coords[i] = 0;
    }
  }
}

inline int64_t count_positions(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Calls fn(offsets, coords) for each position of `sizes` in row-major order
// (see walk_range); nothing when any size is 0.
template <size_t N, typename Fn>
void walk_strided(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, Fn&& fn) {
  walk_range<N>(sizes, strides, 0, count_positions(sizes), fn);
}

// Note [Row walk]
// ~~~~~~~~~~~~~~~
// A kernel that calls a lambda per element, with a DimVector carried along,
// spends most of its time in the walk. A row kernel walks only the outer dims
// (all but the last) and runs a tight loop of its own along the last one,
// with each operand's last stride: per element, a couple of loads and a
// store. RowGeometry holds such a walk: the outer dims, the row length, and
// every operand's inner stride. Coalescing first merges the dims that every
// operand steps through as one (its stride on a dim equals its stride on the
// next dim times that dim's size), so a contiguous geometry becomes one long
// row; that keeps the row-major order of the positions, so a kernel whose
// result depends on that order (repeated indices) sees the same order.
template <size_t N>
struct RowGeometry {
  DimVector outer_sizes;
  std::array<DimVector, N> outer_strides;
  int64_t row = 1;                 // elements per row
  std::array<int64_t, N> inner{};  // each operand's stride along the row
  int64_t rows() const { return row == 0 ? 0 : count_positions(outer_sizes); }

  // Calls fn(offsets, coords) for the rows [begin, end) with the offsets of
  // each row's first element and the coords of its outer dims.
  template <typename Fn>
  void walk(int64_t begin, int64_t end, Fn&& fn) const {
    std::array<IntArrayRef, N> strides;
    for (size_t k = 0; k < N; ++k) strides[k] = outer_strides[k];
    walk_range<N>(outer_sizes, strides, begin, end, fn);
  }
};

// The rows of `sizes` as they are, or coalesced (see Note [Row walk]). A
// geometry without dims is one row of one element.
template <size_t N>
RowGeometry<N> row_geometry(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, bool coalesce) {
  RowGeometry<N> g;
  DimVector merged_sizes;
  std::array<DimVector, N> merged;
  for (size_t i = 0; i < sizes.size(); ++i) {
    bool fold = coalesce && !merged_sizes.empty();
    for (size_t k = 0; fold && k < N; ++k) fold = merged[k].back() == strides[k][i] * sizes[i];
    if (coalesce && sizes[i] == 1) continue;  // a size-1 dim moves nothing
    if (fold) {
      merged_sizes.back() *= sizes[i];
      for (size_t k = 0; k < N; ++k) merged[k].back() = strides[k][i];
      continue;
    }
    merged_sizes.push_back(sizes[i]);
    for (size_t k = 0; k < N; ++k) merged[k].push_back(strides[k][i]);
  }
  if (merged_sizes.empty()) return g;
  g.row = merged_sizes.back();
  merged_sizes.pop_back();
  g.outer_sizes = merged_sizes;
  for (size_t k = 0; k < N; ++k) {
    g.inner[k] = merged[k].back();
    merged[k].pop_back();
    g.outer_strides[k] = merged[k];
  }
  return g;
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
