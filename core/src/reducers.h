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
#include "wick/cpu/vec_double.h"
#include "wick/dispatch.h"
#include "wick/ops/abs.h"
#include "wick/ops/empty.h"
#include "wick/ops/isnan.h"
#include "wick/ops/select.h"
#include "wick/reduce_engine.h"

namespace wick {
namespace {

using detail::plan;
using detail::Reduction;

// Runs reduce_groups into a new tensor whose dtype is that of the reducer's result.
template <typename T, typename R>
Tensor reduce_into_new(const Tensor& self, const Reduction& r, const R& reducer) {
  using Out = std::decay_t<decltype(reducer.finish(reducer.start(0)))>;
  Tensor out = empty(r.out_shape, dtype_of<Out>::value, kCPU);
  detail::reduce_groups<T>(self, r, reducer, out.data<Out>());
  return out;
}

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

// |x| on doubles and vectors alike.
const auto magnitude = [](auto d) {
  using math::abs;
  return abs(d);
};
const auto unchanged = [](auto d) { return d; };
using Unchanged = std::decay_t<decltype(unchanged)>;

}  // namespace
// Each CPU level's, one entry (cpu_reductions.cpp).
WICK_FOR_EACH_CPU_LEVEL(WICK_CPU_LEVEL_TABLE, ReduceKernels, reduce_cpu_kernels, 1)
namespace {

// A float32 sum in blocks (cpu_reductions.cpp), at the CPU level chosen at load time.
inline double float_block_sum(const float* x, int64_t n, int64_t& i) {
  static constexpr const ReduceKernels* kLevels[kNumCpuLevels] = {
      WICK_FOR_EACH_CPU_LEVEL(WICK_CPU_LEVEL_ENTRY, reduce_cpu_kernels, 0)};
  return kLevels[detail::cpu_level]->float_block_sum(x, n, i);
}

// op(..op(op(identity, f(x0 - c)), f(x1 - c)).., f(xn - c)) in double, c a value per group
// (`centers`, or 0): sums, products, means and norms of floats, and the second passes of var
// and logsumexp. f runs on doubles, and on vectors of them where it can (a generic lambda).
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

  // float32 sums in float blocks (float_block_sum), the rest in eight accumulators of double
  // lanes, each combined in a fixed order (Note [Deterministic reductions]).
  Acc fold_run(Acc a, const T* x, int64_t n) const {
    using C = opmath_t<T>;
    using VD = vec::Vec<double>;
    int64_t i = 0;
    double rest = identity;
    if constexpr (std::is_same_v<T, float> && std::is_same_v<Op, std::plus<>> && std::is_same_v<F, Unchanged>) {
      if (!centers) rest = float_block_sum(x, n, i);
    }
    if constexpr (std::is_floating_point_v<C> && std::is_invocable_r_v<VD, const F&, VD>) {
      constexpr int64_t W = VD::kSize;
      const auto lanes = [&](auto shift) {
        std::array<VD, 8> acc;
        acc.fill(VD(identity));
        for (; i + 8 * W <= n; i += 8 * W) {
          for (int64_t k = 0; k < 8; ++k) {
            acc[size_t(k)] = op(acc[size_t(k)], f(shift(vec::load_double(x + i + k * W))));
          }
        }
        const VD total = op(op(op(acc[0], acc[1]), op(acc[2], acc[3])), op(op(acc[4], acc[5]), op(acc[6], acc[7])));
        for (int l = 0; l < W; ++l) rest = op(rest, total.v[l]);
      };
      if (centers) {
        lanes([center = VD(a.center)](VD v) { return v - center; });
      } else {
        lanes([](VD v) { return v; });
      }
    }
    for (; i < n; ++i) rest = op(rest, f(cast<double>(x[i]) - a.center));
    a.value = op(a.value, rest);
    return a;
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

  // Two vectors of running extremes, combined lane by lane in order.
  Acc fold_run(Acc best, const T* x, int64_t n) const {
    int64_t i = 0;
    if constexpr (std::is_floating_point_v<C>) {
      using V = vec::Vec<C>;
      constexpr int64_t W = V::kSize;
      const auto step = [this](V b, V v) {
        v = tr(v);
        return select((!isnan(b)) & (isnan(v) | (kLargest ? v > b : v < b)), v, b);
      };
      V b0(start(0)), b1(start(0));
      for (; i + 2 * W <= n; i += 2 * W) {
        b0 = step(b0, vec::load(x + i));
        b1 = step(b1, vec::load(x + i + W));
      }
      for (int l = 0; l < W; ++l) best = combine(best, b0.v[l]);
      for (int l = 0; l < W; ++l) best = combine(best, b1.v[l]);
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
};

// all (every) and any: NaN is nonzero, so it counts as true.
template <typename T, bool kEvery>
struct AllAny {
  using Acc = bool;
  Acc start(int64_t) const { return kEvery; }
  Acc fold(Acc a, T x, int64_t) const { return kEvery ? a & cast<bool>(x) : a | cast<bool>(x); }
  Acc combine(Acc a, Acc b) const { return kEvery ? a & b : a | b; }
  bool finish(Acc a) const { return a; }
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
