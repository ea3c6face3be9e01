// core/src/reducers.h: the reducers of the reductions (Reducer in wick/reduce_engine.h) and the
// helpers the reduction units share: reduce.cpp (sums, products, means), reduce_extreme.cpp
// (max, min and their positions, all, any) and reduce_moments.cpp (var, std, norm, logsumexp).
// Note [Reduction units]: the reductions are instantiated for every dtype, with vector code for
// the float ones; in one unit they made the slowest compile of the build, so each family is a
// unit of its own, compiled in parallel. Everything here has internal linkage.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu_reductions.h"
#include "wick/cast.h"
#include "wick/cpu/level.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/abs.h"
#include "wick/ops/empty.h"
#include "wick/ops/isnan.h"
#include "wick/ops/select.h"
#include "wick/reduce_engine.h"
#include "wick/structured.h"

namespace wick {
namespace {

using detail::plan;
using detail::Reduction;

// Runs reduce_groups into `out`: the contiguous result a structured reduction's impl is given
// (Note [Structured ops] in wick/structured.h), whose dtype is that of the reducer's result.
template <typename T, typename R>
void reduce_into(const Tensor& out, const Tensor& self, const Reduction& r, const R& reducer) {
  using Out = std::decay_t<decltype(reducer.finish(reducer.start(0)))>;
  WICK_INTERNAL_ASSERT(out.dtype() == dtype_of<Out>::value && out.is_contiguous() && out.numel() == r.groups);
  detail::reduce_groups<T>(self, r, reducer, out.data<Out>());
}

// What a reduction's meta says of its result: the plan's shape, in `dtype`.
inline detail::OutputSpec reduced(const Reduction& r, DType dtype) { return {r.out_shape, dtype, kCPU}; }

// Integer (and bool) sums and products, in int64, wrapping around on overflow as
// in PyTorch (Note [Wrapping integer arithmetic]). Exact modulo 2**64, so in any order.
template <typename T, typename Op, typename Finish>
struct IntFold {
  using Acc = int64_t;
  int64_t identity;
  Op op;
  Finish fin;
  Acc start(int64_t) const { return identity; }
  Acc fold(Acc a, T x, int64_t) const { return combine(a, int64_t(x)); }
  Acc combine(Acc a, Acc b) const { return Acc(op(uint64_t(a), uint64_t(b))); }
  auto finish(Acc a) const { return fin(a); }
};

using Unchanged = Mapped<FoldMap::kNone>;
const Unchanged unchanged{};
const Mapped<FoldMap::kMagnitude> magnitude{};

}  // namespace
// Each CPU level's, one entry (cpu_reductions.cpp).
WICK_FOR_EACH_CPU_LEVEL(WICK_CPU_LEVEL_TABLE, ReduceKernels, reduce_cpu_kernels, 1)
namespace {

// The contiguous runs' loops of the CPU level chosen at load time, for elements of type T.
template <typename T>
const FoldRuns<T>& fold_runs() {
  static constexpr const ReduceKernels* kLevels[kNumCpuLevels] = {
      WICK_FOR_EACH_CPU_LEVEL(WICK_CPU_LEVEL_ENTRY, reduce_cpu_kernels, 0)};
  return kLevels[detail::cpu_level]->runs<T>();
}

// op(..op(op(identity, f(x0 - c)), f(x1 - c)).., f(xn - c)) in double, c a value per group
// (`centers`, or 0): sums, products, means and norms of floats, and the second passes of var
// and logsumexp. f runs on doubles; where it is one of the Mapped, contiguous runs and tiles of
// floats go through the CPU level's vector loops (cpu_reductions.cpp).
template <typename T, typename Op, typename F, typename Finish>
struct FloatFold {
  struct Acc {
    double center, value;
  };
  const double* centers;
  double identity;
  Op op;
  F f;
  Finish fin;  // fin(value, center)

  Acc start(int64_t g) const { return {centers ? centers[g] : 0.0, identity}; }
  Acc fold(Acc a, T x, int64_t) const {
    a.value = op(a.value, f(cast<double>(x) - a.center));
    return a;
  }
  Acc combine(Acc a, Acc b) const {
    a.value = op(a.value, b.value);
    return a;
  }
  auto finish(Acc a) const { return fin(a.value, a.center); }

  Acc fold_run(Acc a, const T* x, int64_t n) const {
    int64_t i = 0;
    double rest = identity;
    const double* center = centers ? &a.center : nullptr;
    if constexpr (kHasFoldRuns<T> && IsMapped<F>::value) {
      if constexpr (std::is_same_v<Op, std::plus<>>) {
        rest = fold_runs<T>().sum[int(F::kMap)](x, n, i, identity, center, f.p);
      } else if constexpr (std::is_same_v<Op, std::multiplies<>> && std::is_same_v<F, Unchanged>) {
        rest = fold_runs<T>().product(x, n, i, identity, center, f.p);
      }
    }
    for (; i < n; ++i) rest = op(rest, f(cast<double>(x[i]) - a.center));
    a.value = op(a.value, rest);
    return a;
  }

  bool fold_tile_rows(Acc* acc, int64_t lanes, const T* base, const detail::Dims& in, int64_t begin,
                      int64_t end) const {
    if constexpr (kHasFoldRuns<T> && IsMapped<F>::value && std::is_same_v<Op, std::plus<>>) {
      std::array<double, detail::kTile> values, lane_centers;
      for (int64_t b = 0; b < lanes; ++b) {
        values[size_t(b)] = acc[b].value;
        lane_centers[size_t(b)] = acc[b].center;
      }
      fold_runs<T>().sum_tile[int(F::kMap)](base, in, begin, end, lanes, centers ? lane_centers.data() : nullptr,
                                            f.p, values.data());
      for (int64_t b = 0; b < lanes; ++b) acc[b].value = values[size_t(b)];
      return true;
    }
    return false;
  }
};

template <typename T, typename Op, typename F, typename Finish>
FloatFold<T, Op, F, Finish> float_fold(const double* centers, double identity, Op op, F f, Finish fin) {
  return {centers, identity, op, f, fin};
}

// The running max (min) of tr(x), NaN propagating: max, min, amax, amin, the infinity norms,
// and the first pass of logsumexp.
template <typename T, bool kLargest, typename Transform, typename Finish>
struct Extreme {
  using C = opmath_t<T>;
  using Acc = C;
  Transform tr;
  Finish fin;
  Acc start(int64_t) const { return extreme_start<C>(kLargest); }
  Acc fold(Acc best, T x, int64_t) const {
    const C v = tr(C(x));
    return replaces(v, best, kLargest) ? v : best;
  }
  Acc combine(Acc a, Acc b) const { return replaces(b, a, kLargest) ? b : a; }
  auto finish(Acc a) const { return fin(a); }

  // Floats, of x or |x|, through the CPU level's vector loops (cpu_reductions.cpp).
  Acc fold_run(Acc best, const T* x, int64_t n) const {
    int64_t i = 0;
    if constexpr (kHasFoldRuns<T> && (std::is_same_v<Transform, Unchanged> ||
                                      std::is_same_v<Transform, Mapped<FoldMap::kMagnitude>>)) {
      best = fold_runs<T>().extreme[kLargest][std::is_same_v<Transform, Unchanged> ? 0 : 1](x, n, i, best);
    }
    for (; i < n; ++i) best = fold(best, x[i], 0);
    return best;
  }
};

template <typename T, bool kLargest, typename Transform, typename Finish>
Extreme<T, kLargest, Transform, Finish> extreme_of(Transform tr, Finish fin) {
  return {tr, fin};
}

// The position of the first largest (smallest) element, NaN counting as the extreme.
template <typename T>
struct ArgExtreme {
  using C = opmath_t<T>;
  struct Acc {
    C value;
    int64_t index;  // -1 until the first element
  };
  static constexpr bool kPositional = true;
  bool largest;
  Acc start(int64_t) const { return {C(0), -1}; }
  Acc fold(Acc best, T x, int64_t i) const {
    const C v = C(x);
    return best.index < 0 || replaces(v, best.value, largest) ? Acc{v, i} : best;
  }
  Acc combine(Acc a, Acc b) const {
    return b.index >= 0 && (a.index < 0 || replaces(b.value, a.value, largest)) ? b : a;
  }
  int64_t finish(Acc a) const { return a.index; }

  // Contiguous floats: the run's extreme through the CPU level's vector loop, then the first element
  // equal to it (the first NaN, where it is NaN), which is where fold, element by element, would stop.
  Acc fold_run_at(Acc best, const T* x, int64_t n, int64_t position) const {
    if constexpr (kHasFoldRuns<T>) {
      if (n == 0 || (best.index >= 0 && is_nan(best.value))) return best;  // nothing replaces a NaN
      int64_t i = 0;
      C m = fold_runs<T>().extreme[int(largest)][0](x, n, i, extreme_start<C>(largest));
      for (; i < n; ++i) m = replaces(C(x[i]), m, largest) ? C(x[i]) : m;
      if (best.index >= 0 && !replaces(m, best.value, largest)) return best;
      for (int64_t j = 0; j < n; ++j) {
        const C v = C(x[j]);
        if (is_nan(m) ? is_nan(v) : v == m) return {v, position + j};
      }
    }
    for (int64_t j = 0; j < n; ++j) best = fold(best, x[j], position + j);
    return best;
  }
};

// all (every) and any: NaN is nonzero, so it counts as true.
template <typename T, bool kEvery>
struct AllAny {
  using Acc = bool;
  Acc start(int64_t) const { return kEvery; }
  Acc fold(Acc a, T x, int64_t) const { return kEvery ? a & cast<bool>(x) : a | cast<bool>(x); }
  Acc combine(Acc a, Acc b) const { return kEvery ? a & b : a | b; }
  // bool, except that uint8 stays uint8 as in PyTorch 1.13 (a relic of the days before bool tensors).
  auto finish(Acc a) const { return std::conditional_t<std::is_same_v<T, uint8_t>, uint8_t, bool>(a); }
  // Contiguous elements in blocks of branch-free loops, which the compiler vectorises; the
  // answer known, the rest is skipped (it cannot change it).
  Acc fold_run(Acc a, const T* x, int64_t n) const {
    constexpr int64_t kChunk = 256;
    using Raw = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;  // bools read as the bytes they are
    const Raw* raw = reinterpret_cast<const Raw*>(x);
    for (int64_t i = 0; i < n && a == kEvery; i += kChunk) {
      const int64_t m = std::min(kChunk, n - i);
      // Whether an element settles the answer (zero for all, nonzero for any), as an integer:
      // GCC leaves a bool reduction unvectorised.
      unsigned found = 0;
      for (int64_t j = 0; j < m; ++j) found |= unsigned(cast<bool>(raw[i + j]) != kEvery);
      a = found ? !kEvery : kEvery;
    }
    return a;
  }
};

// The checks of PyTorch's max, amax, argmax... on an empty input: a reduction
// that has no identity needs every group to have an element.
inline void check_nonempty_groups(const Tensor& self, IntArrayRef dims) {
  if (self.numel() != 0) return;
  WICK_CHECK(!dims.empty(), "Expected reduction dim to be specified for input.numel() == 0. "
             "Specify the reduction dim with the 'dim' argument.");
  for (int64_t d : dims) {
    const int64_t w = self.wrap_dim(d);
    WICK_CHECK_INDEX(self.size(w) != 0, "Expected reduction dim ", w, " to have non-zero size.");
  }
}

}  // namespace
}  // namespace wick
