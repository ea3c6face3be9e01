// core/src/cpu_reductions.h: the reductions' loops over contiguous runs, which are compiled once per
// CPU level as the pointwise kernels are (Note [CPU levels] in wick/cpu/level.h), in
// core/src/cpu_reductions.cpp; the reducers of reducers.h call the chosen level's through
// ReduceKernels. Also what both sides share: the maps a fold applies to each element, and the
// NaN-propagating comparison of max and min.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "wick/half.h"
#include "wick/math.h"

namespace wick {
namespace detail {
struct Dims;  // wick/reduce_engine.h
}  // namespace detail

// What a sum-like fold applies to each element after subtracting its group's center (0, a
// mean for var, a max for logsumexp), on doubles and on vectors of them.
enum class FoldMap : uint8_t { kNone, kSquare, kMagnitude, kExp, kPower };
constexpr int kNumFoldMaps = 5;

template <FoldMap M>
struct Mapped {
  static constexpr FoldMap kMap = M;
  double p = 0;  // the power of kPower
  template <typename V>
  V operator()(V d) const {
    using math::abs;
    using math::exp;
    using math::pow;
    if constexpr (M == FoldMap::kNone) {
      return d;
    } else if constexpr (M == FoldMap::kSquare) {
      return d * d;
    } else if constexpr (M == FoldMap::kMagnitude) {
      return abs(d);
    } else if constexpr (M == FoldMap::kExp) {
      return exp(d);
    } else {
      return pow(abs(d), V(p));
    }
  }
};

template <typename F> struct IsMapped : std::false_type {};
template <FoldMap M> struct IsMapped<Mapped<M>> : std::true_type {};

// The element types whose runs the levels fold in vectors.
template <typename T>
constexpr bool kHasFoldRuns = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                              std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <typename C> bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  return false;
}

// Whether `v` takes the place of the running max (min) `best`. NaN wins, and
// once the best is NaN nothing replaces it: NaN propagates, as in PyTorch.
template <typename C> bool replaces(C v, C best, bool largest) {
  if (is_nan(best)) return false;
  return is_nan(v) || (largest ? v > best : v < best);
}

// Where a running max (min) starts: the lowest (highest) value C holds.
template <typename C> C extreme_start(bool largest) {
  using Limits = std::numeric_limits<C>;
  if constexpr (Limits::has_infinity) return largest ? -Limits::infinity() : Limits::infinity();
  return largest ? Limits::lowest() : Limits::max();
}

// A level's loops for elements of type T (float for the 16-bit types in extremes). Each folds a
// prefix of x[i, n) in vector lanes, combines the lanes in a fixed order, advances i past that
// prefix and returns the result; the caller folds the rest one element at a time.
template <typename T>
struct FoldRuns {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  // The sum (the product, for kNone alone) of map(x[j] - *center) from identity; center may be
  // null (no center). A float32 sum without map or center adds in float blocks first
  // (float_block_sum in cpu_reductions.cpp).
  double (*sum[kNumFoldMaps])(const T* x, int64_t n, int64_t& i, double identity, const double* center, double p);
  double (*product)(const T* x, int64_t n, int64_t& i, double identity, const double* center, double p);
  // values[b] += map(x[b] - centers[b]) for b < lanes (kTile at most, centers may be null), for the
  // positions [begin, end) of a tile of groups whose first elements are base[0, lanes) (fold_tile
  // in wick/reduce_engine.h): the same additions in the same order as the sums above, one lane at a time.
  void (*sum_tile[kNumFoldMaps])(const T* base, const detail::Dims& in, int64_t begin, int64_t end, int64_t lanes,
                                 const double* centers, double p, double* values);
  // [largest][magnitude]: the running max (min) of x, or of |x|, from best, NaN propagating.
  C (*extreme[2][2])(const T* x, int64_t n, int64_t& i, C best);
};

struct ReduceKernels {
  FoldRuns<float> f32;
  FoldRuns<double> f64;
  FoldRuns<Half> f16;
  FoldRuns<BFloat16> bf16;

  template <typename T>
  const FoldRuns<T>& runs() const {
    if constexpr (std::is_same_v<T, float>) return f32;
    if constexpr (std::is_same_v<T, double>) return f64;
    if constexpr (std::is_same_v<T, Half>) return f16;
    if constexpr (std::is_same_v<T, BFloat16>) return bf16;
  }
};

}  // namespace wick
