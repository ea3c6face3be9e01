// core/src/reduce.cpp: the reduction planner and the reductions, each a reducer over the groups of a plan
// (wick/reduce_engine.h): sum, prod, mean, var, std, max, min (also along a dim), amax, amin, argmax,
// argmin, all, any, norm, logsumexp.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

#include "wick/cast.h"
#include "wick/core_ops.h"
#include "wick/cpu/vec_double.h"
#include "wick/dispatch.h"
#include "wick/ops.h"
#include "wick/reduce_engine.h"

namespace wick {
namespace detail {

Reduction plan(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim) {
  check_cpu(op, self);
  std::vector<bool> reduce(size_t(self.dim()), dims.empty());
  for (int64_t d : dims) {
    const int64_t w = self.wrap_dim(d);
    if (self.dim() == 0) continue;
    WICK_CHECK(!reduce[size_t(w)], op, "(): dim ", w, " appears multiple times in the list of dims");
    reduce[size_t(w)] = true;
  }
  Reduction r;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t size = self.sizes()[size_t(d)], stride = self.strides()[size_t(d)];
    if (reduce[size_t(d)]) {
      r.reduced_sizes.push_back(size);
      r.reduced_strides.push_back(stride);
      r.group_size *= size;
      if (keepdim) r.out_shape.push_back(1);
    } else {
      r.kept_sizes.push_back(size);
      r.kept_strides.push_back(stride);
      r.groups *= size;
      r.out_shape.push_back(size);
    }
  }
  return r;
}

Dims coalesce(IntArrayRef sizes, IntArrayRef strides) {
  Dims d;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 1) continue;
    if (!d.sizes.empty() && d.strides.back() == strides[i] * sizes[i]) {
      d.sizes.back() *= sizes[i];
      d.strides.back() = strides[i];
    } else {
      d.sizes.push_back(sizes[i]);
      d.strides.push_back(strides[i]);
    }
  }
  return d;
}

}  // namespace detail

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

// Integer (and bool) sums and products, in int64: core builds with -fwrapv, so
// they wrap around on overflow, as in PyTorch. Exact, so in any order.
template <typename T, typename Op, typename Finish>
struct IntFold {
  using Acc = int64_t;
  int64_t identity;
  Op op;
  Finish fin;
  Acc start(int64_t) const { return identity; }
  Acc fold(Acc a, T x, int64_t) const { return op(a, int64_t(x)); }
  Acc combine(Acc a, Acc b) const { return op(a, b); }
  auto finish(Acc a) const { return fin(a); }
};

// |x| on doubles and vectors alike.
const auto magnitude = [](auto d) {
  using math::abs;
  return abs(d);
};
const auto unchanged = [](auto d) { return d; };
using Unchanged = std::decay_t<decltype(unchanged)>;

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
};

// sum and prod. With dtype= the input is cast first, as PyTorch does; without
// it, integers and bool give int64, their accumulator.
template <typename Op>
Tensor accumulate(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim,
                  std::optional<DType> dtype, int identity, Op combine) {
  const Tensor src = dtype ? to(self, *dtype) : self;
  const bool upcast = detail::integer_upcast(src.dtype(), dtype) != src.dtype();
  const Reduction r = plan(op, src, dims, keepdim);
  return dispatch(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      if (upcast) return reduce_into_new<T>(src, r, IntFold<T, Op, decltype(unchanged)>{identity, combine, unchanged});
      const auto narrow = [](int64_t a) { return cast<T>(a); };
      return reduce_into_new<T>(src, r, IntFold<T, Op, decltype(narrow)>{identity, combine, narrow});
    } else {
      return reduce_into_new<T>(src, r, float_fold<T>(nullptr, identity, combine, unchanged,
                                                     [](double a, double) { return cast<T>(a); }));
    }
  });
}

// The checks of PyTorch's max, amax, argmax... on an empty input: a reduction
// that has no identity needs every group to have an element.
void check_nonempty_groups(const char* op, const Tensor& self, IntArrayRef dims) {
  if (self.numel() != 0) return;
  WICK_CHECK(!dims.empty(), op, "(): Expected reduction dim to be specified for input.numel() == 0. "
             "Specify the reduction dim with the 'dim' argument.");
  for (int64_t d : dims) {
    const int64_t w = self.wrap_dim(d);
    WICK_CHECK_INDEX(self.size(w) != 0, op, "(): Expected reduction dim ", w, " to have non-zero size.");
  }
}

// max, min, amax, amin: the largest (smallest) element of each group, in self's dtype.
Tensor extreme(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim, bool largest) {
  check_nonempty_groups(op, self, dims);
  const Reduction r = plan(op, self, dims, keepdim);
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto narrow = [](opmath_t<T> best) { return T(best); };
    if (largest) return reduce_into_new<T>(self, r, extreme_of<T, true>(unchanged, narrow));
    return reduce_into_new<T>(self, r, extreme_of<T, false>(unchanged, narrow));
  });
}

// argmax, argmin: the position of the first largest (smallest) element, NaN counting as the extreme.
Tensor arg_extreme(const char* op, const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool largest) {
  WICK_CHECK_TYPE(self.dtype() != DType::Bool, op, "(): not implemented for 'Bool'");
  if (dim) {
    check_nonempty_groups(op, self, *dim);
  } else {
    WICK_CHECK_INDEX(self.numel() != 0, op, "(): Expected reduction dim to be specified for input.numel() == 0.");
  }
  // Without a dim the position is a flat index over every dim (Note [Reduction plans]).
  const Reduction r = dim ? plan(op, self, *dim, keepdim) : plan(op, self, {}, keepdim);
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return reduce_into_new<T>(self, r, ArgExtreme<T>{largest});
  });
}

// The reducer of max(dim) and min(dim): argmax's (argmin's), finishing with the value and its position.
template <typename T> struct ArgExtremeWithValue : ArgExtreme<T> {
  typename ArgExtreme<T>::Acc finish(typename ArgExtreme<T>::Acc a) const { return a; }
};

// max(dim), min(dim): the values of argmax and argmin along dim, with their positions.
std::tuple<Tensor, Tensor> extreme_along(const char* op, const Tensor& self, int64_t dim, bool keepdim,
                                         bool largest) {
  check_nonempty_groups(op, self, dim);
  const Reduction r = plan(op, self, dim, keepdim);
  const Tensor values = empty(r.out_shape, self.dtype(), kCPU), indices = empty(r.out_shape, DType::Int64, kCPU);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<typename ArgExtreme<T>::Acc> best(size_t(r.groups));
    detail::reduce_groups<T>(self, r, ArgExtremeWithValue<T>{{largest}}, best.data());
    for (int64_t g = 0; g < r.groups; ++g) {
      values.data<T>()[g] = T(best[size_t(g)].value);
      indices.data<int64_t>()[g] = best[size_t(g)].index;
    }
  });
  return {values, indices};
}

// all, any: bool, except that uint8 stays uint8 as in PyTorch 1.13 (a relic of
// the days before bool tensors).
Tensor all_any(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim, bool every) {
  const Reduction r = plan(op, self, dims, keepdim);
  const Tensor result = dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (every) return reduce_into_new<T>(self, r, AllAny<T, true>{});
    return reduce_into_new<T>(self, r, AllAny<T, false>{});
  });
  return self.dtype() == DType::UInt8 ? to(result, DType::UInt8) : result;
}

// Two passes, as PyTorch's full reductions: each group's mean, then the sum of
// squared deviations from it, both in double; no cancellation between a sum of
// squares and a squared sum, and no division per element as in Welford's update.
Tensor var_std(const char* op, const Tensor& self, OptionalIntArrayRef dim,
               std::optional<int64_t> correction, bool keepdim, bool take_sqrt) {
  WICK_CHECK_TYPE(is_floating(self.dtype()), op, "(): std and var only support floating point dtypes, got ",
                  dtype_type_name(self.dtype()));
  const Reduction r = plan(op, self, dim.value_or(IntArrayRef()), keepdim);
  const double n = double(r.group_size);
  // As PyTorch: divide by max(0, N - correction), so that a group without degrees
  // of freedom left gives inf, or NaN where its deviations are 0 (a single element).
  const double divisor = std::max(0.0, n - double(correction.value_or(1)));
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> means(size_t(r.groups));
    detail::reduce_groups<T>(self, r, float_fold<T>(nullptr, 0.0, std::plus<>(), unchanged,
                                                    [n](double s, double) { return s / n; }), means.data());
    return reduce_into_new<T>(self, r, float_fold<T>(means.data(), 0.0, std::plus<>(), [](auto d) { return d * d; },
                                                     [=](double m2, double) {
                                                       const double var = m2 / divisor;
                                                       return cast<T>(take_sqrt ? std::sqrt(var) : var);
                                                     }));
  });
}

}  // namespace

Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  return accumulate("sum", self, dim.value_or(IntArrayRef()), keepdim, dtype, 0, std::plus<>());
}

Tensor sum(const Tensor& self, std::optional<DType> dtype) { return sum(self, IntArrayRef(), false, dtype); }

Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<DType> dtype) {
  return accumulate("prod", self, dim, keepdim, dtype, 1, std::multiplies<>());
}

Tensor prod(const Tensor& self, std::optional<DType> dtype) {
  return accumulate("prod", self, {}, false, dtype, 1, std::multiplies<>());
}

Tensor mean(const Tensor& self, OptionalIntArrayRef dim_or_all, bool keepdim, std::optional<DType> dtype) {
  const IntArrayRef dim = dim_or_all.value_or(IntArrayRef());  // None: every dim, as an empty list
  const DType out_dtype = dtype.value_or(self.dtype());
  WICK_CHECK_TYPE(is_floating(out_dtype), "mean(): could not infer output dtype. Input dtype must be either a "
                  "floating point or complex dtype. Got: ", dtype_type_name(out_dtype));
  const Tensor src = to(self, out_dtype);
  const Reduction r = plan("mean", src, dim, keepdim);
  const double n = double(r.group_size);  // an empty group gives 0/0 = NaN, as in PyTorch and NumPy
  return dispatch(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return reduce_into_new<T>(src, r, float_fold<T>(nullptr, 0.0, std::plus<>(), unchanged,
                                                    [n](double a, double) { return cast<T>(a / n); }));
  });
}

Tensor mean(const Tensor& self, std::optional<DType> dtype) { return mean(self, IntArrayRef(), false, dtype); }

Tensor var(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction, bool keepdim) {
  return var_std("var", self, dim, correction, keepdim, false);
}

Tensor std(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction, bool keepdim) {
  return var_std("std", self, dim, correction, keepdim, true);
}

Tensor max(const Tensor& self) { return extreme("max", self, {}, false, true); }

Tensor min(const Tensor& self) { return extreme("min", self, {}, false, false); }

std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_along("max", self, dim, keepdim, true);
}

std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_along("min", self, dim, keepdim, false);
}

Tensor max(const Tensor& self, const Tensor& other) { return maximum(self, other); }

Tensor min(const Tensor& self, const Tensor& other) { return minimum(self, other); }

Tensor amax(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return extreme("amax", self, dim.value_or(IntArrayRef()), keepdim, true);
}

Tensor amin(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return extreme("amin", self, dim.value_or(IntArrayRef()), keepdim, false);
}

Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme("argmax", self, dim, keepdim, true);
}

Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme("argmin", self, dim, keepdim, false);
}

Tensor all(const Tensor& self) { return all_any("all", self, {}, false, true); }

Tensor all(const Tensor& self, int64_t dim, bool keepdim) { return all_any("all", self, dim, keepdim, true); }

Tensor any(const Tensor& self) { return all_any("any", self, {}, false, false); }

Tensor any(const Tensor& self, int64_t dim, bool keepdim) { return all_any("any", self, dim, keepdim, false); }

Tensor norm(const Tensor& self, const Scalar& p, OptionalIntArrayRef dim, bool keepdim) {
  WICK_CHECK_TYPE(is_floating(self.dtype()), "norm(): input dtype should be either floating point or complex. "
                  "Got ", dtype_type_name(self.dtype()), " instead.");
  WICK_CHECK_TYPE(!p.is_bool(), "norm(): the order p must be an int or a float, not a bool");
  const double order = p.to_double();
  const Reduction r = plan("norm", self, dim.value_or(IntArrayRef()), keepdim);
  // PyTorch gives 0 for an empty group whatever p, even where no identity
  // exists (p < 0, p = -inf): an empty vector has norm 0.
  const bool empty_groups = r.group_size == 0;
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto result = [empty_groups](double v) { return cast<T>(empty_groups ? 0.0 : v); };
    const auto widened = [&](auto m) { return result(double(m)); };
    if (std::isinf(order)) {  // the largest (p = inf) or smallest (p = -inf) magnitude
      if (order > 0) return reduce_into_new<T>(self, r, extreme_of<T, true>(magnitude, widened));
      return reduce_into_new<T>(self, r, extreme_of<T, false>(magnitude, widened));
    }
    const auto sum_of = [&](auto f, auto root) {
      return reduce_into_new<T>(self, r, float_fold<T>(nullptr, 0.0, std::plus<>(), f,
                                                       [=](double a, double) { return result(root(a)); }));
    };
    // The common orders spare the cost of pow.
    if (order == 0) return sum_of([](double d) { return double(d != 0); }, unchanged);  // nonzeros, NaN included
    if (order == 1) return sum_of(magnitude, unchanged);
    if (order == 2) return sum_of([](auto d) { return d * d; }, [](double s) { return std::sqrt(s); });
    return sum_of([order](auto d) {
      using math::pow;
      return pow(magnitude(d), decltype(d)(order));
    }, [order](double s) { return std::pow(s, 1 / order); });
  });
}

// Two passes, as PyTorch: the max m of each group, then m + log(sum(exp(x - m))), with m
// taken as 0 where it is infinite so that x - m is never inf - inf.
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const Reduction r = plan("logsumexp", self, dim, keepdim);
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Integer and bool inputs give the default float dtype.
    using Out = std::conditional_t<std::is_floating_point_v<opmath_t<T>>, T, cpp_type_of<kDefaultFloat>::type>;
    std::vector<double> shifts(size_t(r.groups));
    detail::reduce_groups<T>(self, r, extreme_of<T, true>(unchanged, [](auto m) {
      return std::isinf(double(m)) ? 0.0 : double(m);
    }), shifts.data());
    return reduce_into_new<T>(self, r, float_fold<T>(shifts.data(), 0.0, std::plus<>(), [](auto d) {
      using math::exp;
      return exp(d);
    }, [](double s, double shift) { return cast<Out>(std::log(s) + shift); }));
  });
}

}  // namespace wick
