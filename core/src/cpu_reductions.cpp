// core/src/cpu_reductions.cpp: the reductions' loops over contiguous runs, compiled once per CPU
// level into its namespace (Note [CPU levels] in wick/cpu/level.h); reducers.h calls the chosen
// level's. The order in which they combine elements is fixed by n and the level's vector width
// (Note [Deterministic reductions]).
#include "cpu_reductions.h"

#include <array>
#include <cmath>
#include <functional>
#include <utility>

#include "wick/cast.h"
#include "wick/cpu/level.h"
#include "wick/cpu/vec_double.h"
#include "wick/reduce_engine.h"

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace {

// Note [Prefetching reductions]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A reduction reads its input once, in order, and does little with each element: left to the
// hardware prefetcher, its loops wait on memory for a third of the time. Each step of the loops
// below asks for the lines kPrefetchBytes ahead of those it reads, which keeps enough reads in
// flight to run at the memory's speed. A prefetch past the end of the input is harmless: it
// cannot fault, and asks for nothing the loop needs.
constexpr int64_t kPrefetchBytes = 8192;
constexpr int64_t kLineBytes = 64;

// Prefetches the lines kPrefetchBytes after those of x[0, n).
template <typename T>
void prefetch_ahead(const T* x, int64_t n) {
  const char* from = reinterpret_cast<const char*>(x) + kPrefetchBytes;
  for (int64_t b = 0; b < n * int64_t(sizeof(T)); b += kLineBytes) __builtin_prefetch(from + b);
}

// A float32 sum as PyTorch accumulates it, in float, but over blocks short enough to stay
// accurate: each lane of four float vectors adds four elements of a block of sixteen vectors,
// and the blocks' lanes are added in double. So at most 3 float roundings reach an element; and
// a float sum runs as fast as memory allows, which the same sum widened element by element to
// double does not, on one core. Sums [i, i + a multiple of the block) of x and advances i.
double float_block_sum(const float* x, int64_t n, int64_t& at) {
  using VF = vec::Vec<float>;
  using VD = vec::Vec<double>;
  constexpr int64_t W = VF::kSize;
  std::array<VD, 2> total{VD(0.0), VD(0.0)};
  int64_t i = at;  // a local: through the reference, each step would store it
  for (; i + 16 * W <= n; i += 16 * W) {
    std::array<VF, 4> acc;
    prefetch_ahead(x + i, 16 * W);
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
  at = i;
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
    int64_t j = i;  // a local, as in float_block_sum
    for (; j + 8 * W <= n; j += 8 * W) {
      prefetch_ahead(x + j, 8 * W);
      for (int64_t k = 0; k < 8; ++k) acc[size_t(k)] = op(acc[size_t(k)], f(shift(vec::load_double(x + j + k * W))));
    }
    i = j;
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

// The running max (min) of x (or |x|) in four vectors, combined lane by lane in order. The lanes
// take a comparison and a blend per vector (a max instruction); whether a NaN went by is kept
// apart, and then the first NaN is the result, as the element-wise fold would give.
template <typename T, bool kLargest, bool kMagnitude>
typename FoldRuns<T>::C extreme(const T* x, int64_t n, int64_t& i, typename FoldRuns<T>::C best) {
  using C = typename FoldRuns<T>::C;
  using V = vec::Vec<C>;
  constexpr int64_t W = V::kSize;
  if (is_nan(best)) return best;
  const int64_t start = i;
  std::array<V, 4> b;
  b.fill(V(extreme_start<C>(kLargest)));
  vec::Mask<C> nan = V(C(0)) != V(C(0));
  int64_t j = i;  // a local, as in float_block_sum
  for (; j + 4 * W <= n; j += 4 * W) {
    prefetch_ahead(x + j, 4 * W);
    for (size_t k = 0; k < 4; ++k) {
      V v = vec::load(x + j + int64_t(k) * W);
      if constexpr (kMagnitude) v = abs(v);
      nan = nan | isnan(v);
      b[k] = select(kLargest ? v > b[k] : v < b[k], v, b[k]);
    }
  }
  i = j;
  bool saw_nan = false;
  for (int l = 0; l < W; ++l) saw_nan = saw_nan || nan.v[l] != 0;
  if (saw_nan) {
    for (int64_t j = start;; ++j) {
      const C v = kMagnitude ? std::abs(C(x[j])) : C(x[j]);
      if (is_nan(v)) return v;
    }
  }
  for (const V& lanes : b) {
    for (int l = 0; l < W; ++l) best = replaces(lanes.v[l], best, kLargest) ? lanes.v[l] : best;
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
