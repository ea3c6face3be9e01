// core/src/reduce.cpp: the reduction planner and the reductions, each a fold over the groups of a plan:
// sum, prod, mean, var, std, max, min (also along a dim), amax, amin, argmax, argmin, all, any, norm,
// logsumexp.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

#include "wick/cast.h"
#include "wick/core_ops.h"
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

}  // namespace detail

namespace {

using detail::plan;
using detail::Reduction;

struct Identity {
  template <typename A> A operator()(A a) const { return a; }
};

// Runs reduce_groups into a new tensor whose dtype is that of finish's C++ result.
template <typename T, typename Acc, typename Fold, typename Finish = Identity>
Tensor fold_groups(const Tensor& self, const Reduction& r, Acc init, Fold fold, Finish finish = {}) {
  using Out = std::decay_t<decltype(finish(init))>;
  Tensor out = empty(r.out_shape, dtype_of<Out>::value, kCPU);
  detail::reduce_groups<T>(self, r, init, fold, finish, out.data<Out>());
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

// sum and prod, accumulated in acc_t (core builds with -fwrapv: int64 wraps
// around on overflow, as in PyTorch). With dtype= the input is cast first, as
// PyTorch does; without it, integers and bool give int64, their accumulator.
template <typename Combine>
Tensor accumulate(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim,
                  std::optional<DType> dtype, int identity, Combine combine) {
  const Tensor src = dtype ? to(self, *dtype) : self;
  const bool upcast = detail::integer_upcast(src.dtype(), dtype) != src.dtype();
  const Reduction r = plan(op, src, dims, keepdim);
  return dispatch(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    const auto fold = [&](Acc a, T x) { return combine(a, cast<Acc>(x)); };
    if (upcast) return fold_groups<T>(src, r, Acc(identity), fold);
    return fold_groups<T>(src, r, Acc(identity), fold, [](Acc a) { return cast<T>(a); });
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
    using C = opmath_t<T>;
    return fold_groups<T>(self, r, extreme_start<C>(largest), [largest](C best, T x) {
      const C v = C(x);
      return replaces(v, best, largest) ? v : best;
    }, [](C best) { return T(best); });
  });
}

template <typename C> struct Best {
  C value;
  int64_t index;  // -1 until the first element
};

// The fold of argmax, argmin, max(dim) and min(dim): the first largest
// (smallest) element of a group and its position, NaN counting as the extreme.
template <typename T, typename C = opmath_t<T>>
auto first_extreme(bool largest) {
  return [largest](Best<C> best, T x, int64_t i) {
    const C v = C(x);
    return best.index < 0 || replaces(v, best.value, largest) ? Best<C>{v, i} : best;
  };
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
    using C = opmath_t<T>;
    return fold_groups<T>(self, r, Best<C>{C(0), -1}, first_extreme<T>(largest),
                          [](Best<C> best) { return best.index; });
  });
}

// max(dim), min(dim): the values of argmax and argmin along dim, with their positions.
std::tuple<Tensor, Tensor> extreme_along(const char* op, const Tensor& self, int64_t dim, bool keepdim,
                                         bool largest) {
  check_nonempty_groups(op, self, dim);
  const Reduction r = plan(op, self, dim, keepdim);
  const Tensor values = empty(r.out_shape, self.dtype(), kCPU), indices = empty(r.out_shape, DType::Int64, kCPU);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    std::vector<Best<C>> best(size_t(r.groups));
    detail::reduce_groups<T>(self, r, Best<C>{C(0), -1}, first_extreme<T>(largest), Identity{}, best.data());
    for (int64_t g = 0; g < r.groups; ++g) {
      values.data<T>()[g] = T(best[size_t(g)].value);
      indices.data<int64_t>()[g] = best[size_t(g)].index;
    }
  });
  return {values, indices};
}

// all, any: bool, except that uint8 stays uint8 as in PyTorch 1.13 (a relic of
// the days before bool tensors). NaN is nonzero, so it counts as true.
Tensor all_any(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim, bool every) {
  const Reduction r = plan(op, self, dims, keepdim);
  const Tensor result = dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return fold_groups<T>(self, r, every, [every](bool a, T x) {
      return every ? a && cast<bool>(x) : a || cast<bool>(x);
    });
  });
  return self.dtype() == DType::UInt8 ? to(result, DType::UInt8) : result;
}

// Welford's running count, mean and sum of squared deviations from the mean:
// one pass, and no cancellation between a sum of squares and a squared sum.
struct Moments {
  int64_t n = 0;
  double mean = 0, m2 = 0;
};

Tensor var_std(const char* op, const Tensor& self, std::optional<IntArrayRef> dim,
               std::optional<int64_t> correction, bool keepdim, bool take_sqrt) {
  WICK_CHECK_TYPE(is_floating(self.dtype()), op, "(): std and var only support floating point dtypes, got ",
                  dtype_type_name(self.dtype()));
  const Reduction r = plan(op, self, dim.value_or(IntArrayRef()), keepdim);
  // As PyTorch: divide by max(0, N - correction), so that a group without degrees
  // of freedom left gives inf, or NaN where its deviations are 0 (a single element).
  const double divisor = std::max(0.0, double(r.group_size) - double(correction.value_or(1)));
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return fold_groups<T>(self, r, Moments{}, [](Moments m, T x) {
      const double v = cast<double>(x), delta = v - m.mean;
      m.n += 1;
      m.mean += delta / double(m.n);
      m.m2 += delta * (v - m.mean);
      return m;
    }, [divisor, take_sqrt](Moments m) {
      const double var = m.m2 / divisor;
      return cast<T>(take_sqrt ? std::sqrt(var) : var);
    });
  });
}

// A running max and the sum of exp(x - max): logsumexp in one stable pass.
struct LogSumExp {
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0;
};

LogSumExp add_exp(LogSumExp s, double v) {
  if (v > s.max) {  // a new max: rescale what was summed against the old one
    s.sum = s.sum * std::exp(s.max - v) + 1;
    s.max = v;
  } else if (v == s.max) {  // also for v = max = +-inf, where v - max would be NaN
    s.sum += 1;
  } else if (v < s.max) {
    s.sum += std::exp(v - s.max);
  } else {  // v or the max is NaN
    s.max = std::numeric_limits<double>::quiet_NaN();
  }
  return s;
}

}  // namespace

Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  return accumulate("sum", self, dim, keepdim, dtype, 0, std::plus<>());
}

Tensor sum(const Tensor& self, std::optional<DType> dtype) { return sum(self, IntArrayRef(), false, dtype); }

Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<DType> dtype) {
  return accumulate("prod", self, dim, keepdim, dtype, 1, std::multiplies<>());
}

Tensor prod(const Tensor& self, std::optional<DType> dtype) {
  return accumulate("prod", self, {}, false, dtype, 1, std::multiplies<>());
}

Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  const DType out_dtype = dtype.value_or(self.dtype());
  WICK_CHECK_TYPE(is_floating(out_dtype), "mean(): could not infer output dtype. Input dtype must be either a "
                  "floating point or complex dtype. Got: ", dtype_type_name(out_dtype));
  const Tensor src = to(self, out_dtype);
  const Reduction r = plan("mean", src, dim, keepdim);
  const double n = double(r.group_size);  // an empty group gives 0/0 = NaN, as in PyTorch and NumPy
  return dispatch(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return fold_groups<T>(src, r, 0.0, [](double a, T x) { return a + cast<double>(x); },
                          [n](double a) { return cast<T>(a / n); });
  });
}

Tensor mean(const Tensor& self, std::optional<DType> dtype) { return mean(self, IntArrayRef(), false, dtype); }

Tensor var(const Tensor& self, std::optional<IntArrayRef> dim, std::optional<int64_t> correction, bool keepdim) {
  return var_std("var", self, dim, correction, keepdim, false);
}

Tensor std(const Tensor& self, std::optional<IntArrayRef> dim, std::optional<int64_t> correction, bool keepdim) {
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

Tensor amax(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  return extreme("amax", self, dim.value_or(IntArrayRef()), keepdim, true);
}

Tensor amin(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
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

Tensor norm(const Tensor& self, const Scalar& p, std::optional<IntArrayRef> dim, bool keepdim) {
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
    const auto magnitude = [](T x) { return std::abs(cast<double>(x)); };
    const auto result = [empty_groups](double v) { return cast<T>(empty_groups ? 0.0 : v); };
    if (std::isinf(order)) {  // the largest (p = inf) or smallest (p = -inf) magnitude
      const bool largest = order > 0;
      return fold_groups<T>(self, r, extreme_start<double>(largest), [=](double best, T x) {
        const double v = magnitude(x);
        return replaces(v, best, largest) ? v : best;
      }, result);
    }
    if (order == 0) {  // the number of nonzero elements, NaN included
      return fold_groups<T>(self, r, 0.0, [](double n, T x) { return n + double(cast<bool>(x)); }, result);
    }
    // (sum |x|^p)^(1/p), sparing p = 1 and p = 2, the common orders, the cost of pow.
    const auto power = [order](double m) { return order == 1 ? m : order == 2 ? m * m : std::pow(m, order); };
    const auto root = [order](double s) { return order == 1 ? s : order == 2 ? std::sqrt(s) : std::pow(s, 1 / order); };
    return fold_groups<T>(self, r, 0.0, [=](double a, T x) { return a + power(magnitude(x)); },
                          [=](double a) { return result(root(a)); });
  });
}

Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const Reduction r = plan("logsumexp", self, dim, keepdim);
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Integer and bool inputs give the default float dtype.
    using Out = std::conditional_t<std::is_floating_point_v<opmath_t<T>>, T, cpp_type_of<kDefaultFloat>::type>;
    return fold_groups<T>(self, r, LogSumExp{}, [](LogSumExp s, T x) { return add_exp(s, cast<double>(x)); },
                          [](LogSumExp s) { return cast<Out>(s.max + std::log(s.sum)); });
  });
}

}  // namespace wick
