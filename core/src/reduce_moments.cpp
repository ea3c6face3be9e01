// core/src/reduce_moments.cpp: var, std, norm, logsumexp (Note [Reduction units] in reducers.h).
#include "reducers.h"
#include "wick/ops/logsumexp.h"
#include "wick/ops/norm.h"
#include "wick/ops/std.h"
#include "wick/ops/to.h"
#include "wick/ops/var.h"

namespace wick {
namespace {

using detail::OutputSpec;

OutputSpec var_std_meta(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  WICK_CHECK_TYPE(is_floating(self.dtype()), "std and var only support floating point dtypes, got ",
                  dtype_type_name(self.dtype()));
  return reduced(plan(self, dim.value_or(IntArrayRef()), keepdim), self.dtype());
}

// Two passes, as PyTorch's full reductions: each group's mean, then the sum of
// squared deviations from it, both in double; no cancellation between a sum of
// squares and a squared sum, and no division per element as in Welford's update.
void var_std(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
             bool keepdim, bool take_sqrt) {
  const Reduction r = plan(self, dim.value_or(IntArrayRef()), keepdim);
  const double n = double(r.group_size);
  // As PyTorch: divide by max(0, N - correction), so that a group without degrees
  // of freedom left gives inf, or NaN where its deviations are 0 (a single element).
  const double divisor = std::max(0.0, n - double(correction.value_or(1)));
  dispatch_floating(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> means(size_t(r.groups));
    detail::reduce_groups<T>(self, r, float_fold<T>(nullptr, 0.0, std::plus<>(), unchanged,
                                                    [n](double s, double) { return s / n; }), means.data());
    reduce_into<T>(out, self, r, float_fold<T>(means.data(), 0.0, std::plus<>(), Mapped<FoldMap::kSquare>{},
                                               [=](double m2, double) {
                                                 const double var = m2 / divisor;
                                                 return cast<T>(take_sqrt ? std::sqrt(var) : var);
                                               }));
  });
}

// logsumexp of integer and bool inputs is in the default float dtype.
DType logsumexp_dtype(const Tensor& self) { return is_floating(self.dtype()) ? self.dtype() : default_float(); }

}  // namespace

namespace detail {

OutputSpec var_meta(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> /*correction*/,
                    bool keepdim) {
  return var_std_meta(self, dim, keepdim);
}

void var_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
              bool keepdim) {
  var_std(out, self, dim, correction, keepdim, false);
}

OutputSpec std_meta(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> /*correction*/,
                    bool keepdim) {
  return var_std_meta(self, dim, keepdim);
}

void std_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
              bool keepdim) {
  var_std(out, self, dim, correction, keepdim, true);
}

// Note [unbiased and correction]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's older spelling: unbiased=true is correction 1 and false is
// correction 0. As in PyTorch's C++ API, a plain integer given where both
// overloads fit, var(x, dim, 2, false), converts to bool and picks this one:
// C++ callers name a correction std::optional<int64_t>(2).
OutputSpec var_meta(const Tensor& self, OptionalIntArrayRef dim, bool /*unbiased*/, bool keepdim) {
  return var_std_meta(self, dim, keepdim);
}

void var_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  var_std(out, self, dim, int64_t(unbiased), keepdim, false);
}

OutputSpec var_meta(const Tensor& self, bool /*unbiased*/) { return var_std_meta(self, std::nullopt, false); }

void var_impl(const Tensor& out, const Tensor& self, bool unbiased) {
  var_std(out, self, std::nullopt, int64_t(unbiased), false, false);
}

OutputSpec std_meta(const Tensor& self, OptionalIntArrayRef dim, bool /*unbiased*/, bool keepdim) {
  return var_std_meta(self, dim, keepdim);
}

void std_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  var_std(out, self, dim, int64_t(unbiased), keepdim, true);
}

OutputSpec std_meta(const Tensor& self, bool /*unbiased*/) { return var_std_meta(self, std::nullopt, false); }

void std_impl(const Tensor& out, const Tensor& self, bool unbiased) {
  var_std(out, self, std::nullopt, int64_t(unbiased), false, true);
}

OutputSpec norm_meta(const Tensor& self, const Scalar& p, OptionalIntArrayRef dim, bool keepdim) {
  WICK_CHECK_TYPE(is_floating(self.dtype()), "input dtype should be either floating point or complex. "
                  "Got ", dtype_type_name(self.dtype()), " instead.");
  WICK_CHECK_TYPE(!p.is_bool(), "the order p must be an int or a float, not a bool");
  return reduced(plan(self, dim.value_or(IntArrayRef()), keepdim), self.dtype());
}

void norm_impl(const Tensor& out, const Tensor& self, const Scalar& p, OptionalIntArrayRef dim, bool keepdim) {
  const double order = p.to_double();
  const Reduction r = plan(self, dim.value_or(IntArrayRef()), keepdim);
  // PyTorch gives 0 for an empty group whatever p, even where no identity
  // exists (p < 0, p = -inf): an empty vector has norm 0.
  const bool empty_groups = r.group_size == 0;
  dispatch_floating(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto result = [empty_groups](double v) { return cast<T>(empty_groups ? 0.0 : v); };
    const auto widened = [&](auto m) { return result(double(m)); };
    if (std::isinf(order)) {  // the largest (p = inf) or smallest (p = -inf) magnitude
      if (order > 0) return reduce_into<T>(out, self, r, extreme_of<T, true>(magnitude, widened));
      return reduce_into<T>(out, self, r, extreme_of<T, false>(magnitude, widened));
    }
    const auto sum_of = [&](auto f, auto root) {
      reduce_into<T>(out, self, r, float_fold<T>(nullptr, 0.0, std::plus<>(), f,
                                                 [=](double a, double) { return result(root(a)); }));
    };
    // The common orders spare the cost of pow.
    if (order == 0) return sum_of([](double d) { return double(d != 0); }, unchanged);  // nonzeros, NaN included
    if (order == 1) return sum_of(magnitude, unchanged);
    if (order == 2) return sum_of(Mapped<FoldMap::kSquare>{}, [](double s) { return std::sqrt(s); });
    sum_of(Mapped<FoldMap::kPower>{order}, [order](double s) { return std::pow(s, 1 / order); });
  });
}

OutputSpec logsumexp_meta(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return reduced(plan(self, dim, keepdim), logsumexp_dtype(self));
}

// Two passes, as PyTorch: the max m of each group, then m + log(sum(exp(x - m))), with m
// taken as 0 where it is infinite so that x - m is never inf - inf.
void logsumexp_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  const Tensor src = to(self, logsumexp_dtype(self));
  const Reduction r = plan(src, dim, keepdim);
  dispatch_floating(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> shifts(size_t(r.groups));
    detail::reduce_groups<T>(src, r, extreme_of<T, true>(unchanged, [](auto m) {
      return std::isinf(double(m)) ? 0.0 : double(m);
    }), shifts.data());
    reduce_into<T>(out, src, r, float_fold<T>(shifts.data(), 0.0, std::plus<>(), Mapped<FoldMap::kExp>{},
                                              [](double s, double shift) { return cast<T>(std::log(s) + shift); }));
  });
}

}  // namespace detail
}  // namespace wick
