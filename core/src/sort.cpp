// core/src/sort.cpp: sort, argsort, topk, kthvalue, median and nanmedian, each a pick of the line engine
// (core/src/sort_lines.h) in the order of Note [Ordering with NaN].
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "sort_lines.h"
#include "wick/ops/argsort.h"
#include "wick/ops/kthvalue.h"
#include "wick/ops/median.h"
#include "wick/ops/nanmedian.h"
#include "wick/ops/empty.h"
#include "wick/ops/fill_.h"
#include "wick/ops/reshape.h"
#include "wick/ops/sort.h"
#include "wick/ops/topk.h"

namespace wick {
namespace {

using detail::ByValueThenIndex;
using detail::Entry;
using detail::OutputSpec;
using detail::select_lines_into;
using detail::select_lines_shape;

template <typename Line>
using value_of = std::decay_t<decltype(std::declval<Line&>()[0].value)>;

// PyTorch 1.13 orders bool in sort but not in topk, kthvalue and median.
void check_not_bool(const Tensor& self) {
  WICK_CHECK_TYPE(self.dtype() != DType::Bool, "not implemented for 'Bool'");
}

// The number of elements in a line along dim; IndexError for a dim out of range.
int64_t line_length(const Tensor& self, int64_t dim) {
  const int64_t d = self.wrap_dim(dim);
  return self.dim() == 0 ? 1 : self.size(d);
}

// sort's pick. The NaNs are set apart first, after the numbers, so that the
// numbers sort with a plain comparison; descending, they then move to the front.
template <typename C>
void sort_line(std::vector<Entry<C>>& line, bool descending, bool stable) {
  auto numbers_end = line.end();
  if constexpr (std::is_floating_point_v<C>) {
    const auto is_number = [](const Entry<C>& e) { return !std::isnan(e.value); };
    if (!std::all_of(line.begin(), line.end(), is_number)) {
      numbers_end = stable ? std::stable_partition(line.begin(), line.end(), is_number)
                           : std::partition(line.begin(), line.end(), is_number);
    }
  }
  const auto sort_numbers = [&](auto less) {
    if (stable) {
      std::stable_sort(line.begin(), numbers_end, less);
    } else {
      std::sort(line.begin(), numbers_end, less);
    }
  };
  if (descending) {
    sort_numbers([](const Entry<C>& a, const Entry<C>& b) { return b.value < a.value; });
    std::rotate(line.begin(), numbers_end, line.end());
  } else {
    sort_numbers([](const Entry<C>& a, const Entry<C>& b) { return a.value < b.value; });
  }
}

// Puts the entry of rank k in ascending order first.
template <typename C>
void select_rank(std::vector<Entry<C>>& line, size_t k) {
  std::nth_element(line.begin(), line.begin() + k, line.end(), ByValueThenIndex<C>{false});
  std::swap(line[0], line[k]);
}

// median and nanmedian: the lower middle of the numbers of each line; without
// ignore_nan, the first NaN of a line that has one; with it, the first NaN of a
// line that has nothing else.
auto median_pick(bool ignore_nan) {
  return [ignore_nan](auto& line) {
    using C = value_of<decltype(line)>;
    const size_t nans = size_t(std::count_if(line.begin(), line.end(),
                                             [](const Entry<C>& e) { return detail::is_nan_value(e.value); }));
    const size_t numbers = line.size() - nans;
    // NaNs rank after every number, the first of them at rank `numbers`.
    select_rank(line, nans && !ignore_nan ? numbers : numbers ? (numbers - 1) / 2 : 0);
  };
}

// The values (self's dtype) and int64 indices of select_lines_into.
std::array<OutputSpec, 2> line_results(const Tensor& self, int64_t dim, int64_t m, bool keepdim) {
  const DimVector shape = select_lines_shape(self, dim, m, keepdim);
  return {OutputSpec{shape, self.dtype(), self.device()}, OutputSpec{shape, DType::Int64, self.device()}};
}

// median(dim) and nanmedian(dim).
std::array<OutputSpec, 2> median_along_meta(const Tensor& self, int64_t dim, bool keepdim) {
  check_not_bool(self);
  WICK_CHECK_INDEX(line_length(self, dim) != 0, "Expected reduction dim ", self.wrap_dim(dim),
                   " to have non-zero size.");
  detail::check_cpu(self);
  return line_results(self, dim, 1, keepdim);
}

// median() and nanmedian(): over every element; NaN for none.
OutputSpec median_all_meta(const Tensor& self) {
  check_not_bool(self);
  WICK_CHECK(self.numel() != 0 || is_floating(self.dtype()), "the median of no elements is NaN, which ",
             dtype_type_name(self.dtype()), " cannot hold");
  detail::check_cpu(self);
  return OutputSpec{{}, self.dtype(), self.device()};
}

void median_all(const Tensor& out, const Tensor& self, bool ignore_nan) {
  if (self.numel() == 0) {
    fill_(out, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  const Tensor positions = empty({}, DType::Int64, kCPU);  // not part of the result
  select_lines_into(out, positions, reshape(self, {-1}), 0, 1, false, median_pick(ignore_nan));
}

}  // namespace

namespace detail {

std::array<OutputSpec, 2> sort_meta(const Tensor& self, int64_t dim, bool /*descending*/, bool /*stable*/) {
  const int64_t length = line_length(self, dim);
  check_cpu(self);
  return line_results(self, dim, length, true);
}

void sort_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, bool descending,
               bool stable) {
  select_lines_into(values, indices, self, dim, line_length(self, dim), true,
                    [=](auto& line) { sort_line(line, descending, stable); });
}

std::array<OutputSpec, 2> topk_meta(const Tensor& self, int64_t k, int64_t dim, bool /*largest*/, bool /*sorted*/) {
  check_not_bool(self);
  WICK_CHECK(k >= 0 && k <= line_length(self, dim), "selected index k out of range");
  check_cpu(self);
  return line_results(self, dim, k, true);
}

void topk_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t k, int64_t dim,
               bool largest, bool sorted) {
  select_lines_into(values, indices, self, dim, k, true, [=](auto& line) {
    const ByValueThenIndex<value_of<decltype(line)>> order{largest};  // largest first: descending
    if (sorted) {
      std::partial_sort(line.begin(), line.begin() + k, line.end(), order);
    } else {
      std::nth_element(line.begin(), line.begin() + k, line.end(), order);
    }
  });
}

std::array<OutputSpec, 2> kthvalue_meta(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  check_not_bool(self);
  WICK_CHECK(k >= 1 && k <= line_length(self, dim), "selected number k out of range for dimension ",
             self.wrap_dim(dim));
  check_cpu(self);
  return line_results(self, dim, 1, keepdim);
}

void kthvalue_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t k, int64_t dim,
                   bool keepdim) {
  select_lines_into(values, indices, self, dim, 1, keepdim,
                    [k](auto& line) { select_rank(line, size_t(k - 1)); });
}

std::array<OutputSpec, 2> median_meta(const Tensor& self, int64_t dim, bool keepdim) {
  return median_along_meta(self, dim, keepdim);
}

void median_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, bool keepdim) {
  select_lines_into(values, indices, self, dim, 1, keepdim, median_pick(false));
}

OutputSpec median_meta(const Tensor& self) { return median_all_meta(self); }

void median_impl(const Tensor& out, const Tensor& self) { median_all(out, self, false); }

std::array<OutputSpec, 2> nanmedian_meta(const Tensor& self, int64_t dim, bool keepdim) {
  return median_along_meta(self, dim, keepdim);
}

void nanmedian_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, bool keepdim) {
  select_lines_into(values, indices, self, dim, 1, keepdim, median_pick(true));
}

OutputSpec nanmedian_meta(const Tensor& self) { return median_all_meta(self); }

void nanmedian_impl(const Tensor& out, const Tensor& self) { median_all(out, self, true); }

}  // namespace detail

Tensor argsort(const Tensor& self, int64_t dim, bool descending, bool stable) {
  return std::get<1>(sort(self, dim, descending, stable));
}

}  // namespace wick
