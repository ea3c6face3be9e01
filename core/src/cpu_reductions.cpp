// core/src/cpu_reductions.cpp: the reductions' loops over contiguous runs, compiled once per CPU
// level into its namespace (Note [CPU levels] in wick/cpu/level.h); reducers.h calls the chosen
// level's. The order in which they combine elements is fixed by n and the level's vector width
// (Note [Deterministic reductions]).
#include "cpu_reductions.h"

#include <array>
#include <functional>
#include <utility>

#include "wick/cast.h"
#include "wick/cpu/level.h"
#include "wick/cpu/vec_double.h"
#include "wick/reduce_engine.h"

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace {

// A float32 sum as PyTorch accumulates it, in float, but over blocks short enough to stay
// accurate: each lane of four float vectors adds four elements of a block of sixteen vectors,
// and the blocks' lanes are added in double. So at most 3 float roundings reach an element; and
// a float sum runs as fast as memory allows, which the same sum widened element by element to
// double does not, on one core. Sums [i, i + a multiple of the block) of x and advances i.
double float_block_sum(const float* x, int64_t n, int64_t& i) {
  using VF = vec::Vec<float>;
  using VD = vec::Vec<double>;
  constexpr int64_t W = VF::kSize;
  std::array<VD, 2> total{VD(0.0), VD(0.0)};
  for (; i + 16 * W <= n; i += 16 * W) {
    std::array<VF, 4> acc;
    for (int64_t k = 0; k < 4; ++k) acc[size_t(k)] = vec::load(x + i + k * W);
    for (int64_t j = 4; j < 16; j += 4) {
      for (int64_t k = 0; k < 4; ++k) acc[size_t(k)] = acc[size_t(k)] + vec::load(x + i + (j + k) * W);
    }
    for (const VF& a : acc) {
      const auto halves = vec::widen(a);
      total[0] = total[0] + halves[0];
      total[1] = total[1] + halves[1];
    }
  }
  const VD lanes = total[0] + total[1];
  double sum = 0;
  for (int l = 0; l < VD::kSize; ++l) sum += lanes.v[l];
  return sum;
}

// op over map(x[j] - center) in eight accumulators of double lanes, combined in a fixed order.
template <typename T, typename Op, FoldMap M>
double fold(const T* x, int64_t n, int64_t& i, double identity, const double* center, double p) {
  using VD = vec::Vec<double>;
  constexpr int64_t W = VD::kSize;
  const Op op;
  const Mapped<M> f{p};
  double rest = identity;
  if constexpr (std::is_same_v<T, float> && std::is_same_v<Op, std::plus<>> && M == FoldMap::kNone) {
    if (!center) rest = float_block_sum(x, n, i);
  }
  const auto lanes = [&](auto shift) {
    std::array<VD, 8> acc;
    acc.fill(VD(identity));
    for (; i + 8 * W <= n; i += 8 * W) {
      for (int64_t k = 0; k < 8; ++k) acc[size_t(k)] = op(acc[size_t(k)], f(shift(vec::load_double(x + i + k * W))));
    }
    const VD total = op(op(op(acc[0], acc[1]), op(acc[2], acc[3])), op(op(acc[4], acc[5]), op(acc[6], acc[7])));
    for (int l = 0; l < W; ++l) rest = op(rest, total.v[l]);
  };
  if (center) {
    lanes([c = VD(*center)](VD v) { return v - c; });
  } else {
    lanes([](VD v) { return v; });
  }
  return rest;
}

// A tile's rows, each adding one element to each lane; written for the compiler to vectorise
// across the lanes.
template <typename T, FoldMap M>
void sum_tile(const T* base, const detail::Dims& in, int64_t begin, int64_t end, int64_t lanes,
              const double* centers, double p, double* values) {
  const Mapped<M> f{p};
  DimVector counter = detail::coordinates(in.sizes, begin);
  int64_t offset = detail::offset_of(counter, in.strides);
  for (int64_t q = begin; q < end; ++q) {
    const T* x = base + offset;
    if (centers) {
      for (int64_t b = 0; b < lanes; ++b) values[b] += f(cast<double>(x[b]) - centers[b]);
    } else {
      for (int64_t b = 0; b < lanes; ++b) values[b] += f(cast<double>(x[b]));
    }
    detail::advance(counter, in.sizes, in.strides, offset);
  }
}

// The running max (min) of x (or |x|) in two vectors, combined lane by lane in order.
template <typename T, bool kLargest, bool kMagnitude>
typename FoldRuns<T>::C extreme(const T* x, int64_t n, int64_t& i, typename FoldRuns<T>::C best) {
  using C = typename FoldRuns<T>::C;
  using V = vec::Vec<C>;
  constexpr int64_t W = V::kSize;
  const auto step = [](V b, V v) {
    if constexpr (kMagnitude) v = abs(v);
    return select((!isnan(b)) & (isnan(v) | (kLargest ? v > b : v < b)), v, b);
  };
  V b0(extreme_start<C>(kLargest)), b1(extreme_start<C>(kLargest));
  for (; i + 2 * W <= n; i += 2 * W) {
    b0 = step(b0, vec::load(x + i));
    b1 = step(b1, vec::load(x + i + W));
  }
  for (const V& b : {b0, b1}) {
    for (int l = 0; l < W; ++l) best = replaces(b.v[l], best, kLargest) ? b.v[l] : best;
  }
  return best;
}

template <typename T, size_t... M>
constexpr FoldRuns<T> runs(std::index_sequence<M...>) {
  return {{&fold<T, std::plus<>, FoldMap(M)>...},
          &fold<T, std::multiplies<>, FoldMap::kNone>,
          {&sum_tile<T, FoldMap(M)>...},
          {{&extreme<T, false, false>, &extreme<T, false, true>}, {&extreme<T, true, false>, &extreme<T, true, true>}}};
}

template <typename T> constexpr FoldRuns<T> runs() { return runs<T>(std::make_index_sequence<kNumFoldMaps>()); }

}  // namespace

extern const ReduceKernels reduce_cpu_kernels[1];
const ReduceKernels reduce_cpu_kernels[1] = {{runs<float>(), runs<double>(), runs<Half>(), runs<BFloat16>()}};

WICK_CPU_LEVEL_END
}  // namespace wick
