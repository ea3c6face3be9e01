// tests/cpp/test_sort.cpp: sort, argsort, topk, kthvalue, (nan)median, max/min along a dim and _unique2
// through the C++ API, with NaN, ties, strides and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "helpers.h"
#include "wick/ops/_unique2.h"
#include "wick/ops/argsort.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/empty.h"
#include "wick/ops/kthvalue.h"
#include "wick/ops/max.h"
#include "wick/ops/median.h"
#include "wick/ops/min.h"
#include "wick/ops/nanmedian.h"
#include "wick/ops/sort.h"
#include "wick/ops/to.h"
#include "wick/ops/topk.h"
#include "wick/ops/transpose.h"

namespace wick {
namespace {

using test::expect_throw;
using test::from;
using test::I;
using test::ints;
using test::shape;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// `values` as float64 of `shape`, where NaN stands in for the elements listed in `nans`.
Tensor floats(const I& values, const DimVector& dims, const I& nans = {}) {
  Tensor t = from(values, dims, DType::Float64);
  for (int64_t i : nans) t.data<double>()[i] = kNaN;
  return t;
}

// Elements in row-major order; NaN compares equal to NaN here so that whole vectors can be compared.
std::vector<double> doubles(const Tensor& t) {
  const Tensor c = contiguous(to(t, DType::Float64));
  std::vector<double> out(c.data<double>(), c.data<double>() + c.numel());
  for (double& v : out) v = std::isnan(v) ? -12345.0 : v;
  return out;
}
const double N = -12345.0;  // NaN as doubles() shows it

TEST(Sort, AlongEitherDimWithNaNLast) {
  const Tensor x = floats({3, 1, 0, 0, 5, 0}, {2, 3}, {3});  // [[3, 1, 0], [nan, 5, 0]]
  auto [values, indices] = sort(x);
  EXPECT_EQ(doubles(values), (std::vector<double>{0, 1, 3, 0, 5, N}));
  EXPECT_EQ(ints(indices), (I{2, 1, 0, 2, 1, 0}));
  std::tie(values, indices) = sort(x, 0, /*descending=*/true);
  EXPECT_EQ(doubles(values), (std::vector<double>{N, 5, 0, 3, 1, 0}));
  EXPECT_EQ(ints(indices), (I{1, 1, 0, 0, 0, 1}));
  EXPECT_EQ(indices.dtype(), DType::Int64);
  EXPECT_EQ(ints(argsort(x, 0, true)), ints(indices));
}

TEST(Sort, StableKeepsTiesInOrderAndStridesAreRespected) {
  const Tensor x = transpose(from({2, 1, 2, 1, 2, 1, 1, 2}, {2, 4}), 0, 1);  // 4 x 2, not contiguous
  const auto [values, indices] = sort(x, 0, false, /*stable=*/true);
  EXPECT_EQ(shape(values), (DimVector{4, 2}));
  EXPECT_EQ(ints(values), (I{1, 1, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(ints(indices), (I{1, 1, 3, 2, 0, 0, 2, 3}));  // columns [2, 1, 2, 1] and [2, 1, 1, 2]
  const auto down = sort(x, 0, true, true);
  EXPECT_EQ(ints(std::get<1>(down)), (I{0, 0, 2, 3, 1, 1, 3, 2}));
}

TEST(Sort, ZeroDimEmptyAndOut) {
  const auto [v0, i0] = sort(from({7}, {}));
  EXPECT_EQ(shape(v0), DimVector{});
  EXPECT_EQ(ints(i0), (I{0}));
  EXPECT_EQ(shape(std::get<0>(sort(empty({0, 3}), 0))), (DimVector{0, 3}));
  const Tensor values = empty({0}, DType::Int64), indices = empty({0}, DType::Int64);
  const auto result = sort_out(values, indices, from({3, 1, 2}), -1, false, false);
  EXPECT_TRUE(std::get<0>(result).is_same(values));
  EXPECT_EQ(ints(values), (I{1, 2, 3}));
  EXPECT_EQ(ints(indices), (I{1, 2, 0}));
  expect_throw<TypeError>([&] { sort_out(values, empty({3}, DType::Int32), from({1, 0, 2}), -1, false, false); },
                          "expected out= to have dtype int64");
  expect_throw<IndexError>([] { sort(empty({2, 2}), 2); }, "Dimension out of range");
}

TEST(TopK, LargestOrSmallestWithNaNAsLargest) {
  const Tensor x = floats({3, 0, 1, 0, 2, 1}, {6}, {1, 3});  // [3, nan, 1, nan, 2, 1]
  auto [values, indices] = topk(x, 3);
  EXPECT_EQ(doubles(values), (std::vector<double>{N, N, 3}));
  EXPECT_EQ(ints(indices), (I{1, 3, 0}));
  std::tie(values, indices) = topk(x, 3, 0, /*largest=*/false);
  EXPECT_EQ(doubles(values), (std::vector<double>{1, 1, 2}));
  EXPECT_EQ(ints(indices), (I{2, 5, 4}));
  std::tie(values, indices) = topk(x, 2, 0, true, /*sorted=*/false);
  std::vector<int64_t> got = ints(indices);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (I{1, 3}));
  EXPECT_EQ(shape(std::get<0>(topk(x, 0))), (DimVector{0}));
  expect_throw<Error>([&] { topk(x, 7); }, "selected index k out of range");
  expect_throw<Error>([&] { topk(x, -1); }, "selected index k out of range");
  expect_throw<TypeError>([] { topk(to(from({1, 0}), DType::Bool), 1); }, "not implemented for 'Bool'");
}

TEST(KthValue, RankWithTiesAndKeepdim) {
  const Tensor x = from({4, 1, 1, 2, 5, 3}, {2, 3});
  auto [values, indices] = kthvalue(x, 2, 1);
  EXPECT_EQ(ints(values), (I{1, 3}));
  EXPECT_EQ(ints(indices), (I{2, 2}));  // the second 1, as a stable sort places it
  std::tie(values, indices) = kthvalue(x, 1, 0, /*keepdim=*/true);
  EXPECT_EQ(shape(values), (DimVector{1, 3}));
  EXPECT_EQ(ints(values), (I{2, 1, 1}));
  expect_throw<Error>([&] { kthvalue(x, 4, 1); }, "selected number k out of range for dimension 1");
  expect_throw<Error>([&] { kthvalue(x, 0); }, "selected number k out of range");
}

TEST(Median, LowerMedianAndNaN) {
  EXPECT_EQ(ints(median(from({4, 1, 3, 2}))), (I{2}));
  EXPECT_EQ(doubles(median(floats({1, 0, 2}, {3}, {1}))), (std::vector<double>{N}));
  const Tensor x = floats({4, 1, 3, 0, 0, 2, 2, 7, 1, 0}, {2, 5}, {3, 4, 9});  // [[4,1,3,nan,nan],[2,2,7,1,nan]]
  auto [values, indices] = median(x, 1);
  EXPECT_EQ(doubles(values), (std::vector<double>{N, N}));
  EXPECT_EQ(ints(indices), (I{3, 4}));  // the first NaN
  std::tie(values, indices) = nanmedian(x, 1, true);
  EXPECT_EQ(shape(values), (DimVector{2, 1}));
  EXPECT_EQ(doubles(values), (std::vector<double>{3, 2}));
  EXPECT_EQ(ints(indices), (I{2, 0}));
  EXPECT_EQ(doubles(nanmedian(x)), (std::vector<double>{2}));
  const auto all_nan = nanmedian(floats({0, 0}, {2}, {0, 1}), 0);
  EXPECT_EQ(doubles(std::get<0>(all_nan)), (std::vector<double>{N}));
  EXPECT_EQ(ints(std::get<1>(all_nan)), (I{0}));
}

TEST(Median, EmptyInputs) {
  EXPECT_EQ(doubles(median(empty({0}, DType::Float32))), (std::vector<double>{N}));
  expect_throw<Error>([] { median(empty({0}, DType::Int64)); }, "the median of no elements is NaN");
  expect_throw<IndexError>([] { median(empty({3, 0}), 1); },
                           "Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(shape(std::get<0>(median(empty({0, 3}), 1))), (DimVector{0}));
  expect_throw<TypeError>([] { median(to(from({1}), DType::Bool)); }, "not implemented for 'Bool'");
}

TEST(MaxMinAlongDim, FirstExtremeAndNaN) {
  const Tensor x = floats({1, 5, 5, 0, 2, 0}, {2, 3}, {3, 5});  // [[1, 5, 5], [nan, 2, nan]]
  auto [values, indices] = max(x, 1);
  EXPECT_EQ(doubles(values), (std::vector<double>{5, N}));
  EXPECT_EQ(ints(indices), (I{1, 0}));
  std::tie(values, indices) = min(x, 0, /*keepdim=*/true);
  EXPECT_EQ(shape(values), (DimVector{1, 3}));
  EXPECT_EQ(doubles(values), (std::vector<double>{N, 2, N}));
  EXPECT_EQ(ints(indices), (I{1, 1, 1}));
  std::tie(values, indices) = max(to(from({0, 1, 1}), DType::Bool), 0);
  EXPECT_EQ(ints(values), (I{1}));
  EXPECT_EQ(ints(indices), (I{1}));
  expect_throw<IndexError>([] { max(empty({2, 0}), 1); }, "Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(doubles(max(from({1, 4}), floats({3, 0}, {2}, {1}))), (std::vector<double>{3, N}));
  EXPECT_EQ(ints(min(from({1, 4}), from({3, 0}))), (I{1, 0}));
}

TEST(Unique, ElementsInverseCountsAndNaN) {
  const Tensor x = from({3, 1, 3, 2, 1, 3}, {2, 3});
  auto [output, inverse, counts] = _unique2(x, true, true, true);
  EXPECT_EQ(ints(output), (I{1, 2, 3}));
  EXPECT_EQ(shape(inverse), (DimVector{2, 3}));
  EXPECT_EQ(ints(inverse), (I{2, 0, 2, 1, 0, 2}));
  EXPECT_EQ(ints(counts), (I{2, 1, 3}));
  std::tie(output, inverse, counts) = _unique2(floats({1, 0, 0, 1}, {4}, {1, 2}));
  EXPECT_EQ(doubles(output), (std::vector<double>{1, N, N}));  // each NaN apart
  EXPECT_EQ(inverse.numel(), 0);
  EXPECT_EQ(counts.numel(), 0);
}

TEST(Unique, SlicesAlongADim) {
  const Tensor x = from({1, 2, 0, 5, 1, 2}, {3, 2});  // rows [1, 2], [0, 5], [1, 2]
  auto [output, inverse, counts] = _unique2(x, true, true, true, 0);
  EXPECT_EQ(shape(output), (DimVector{2, 2}));
  EXPECT_EQ(ints(output), (I{0, 5, 1, 2}));
  EXPECT_EQ(ints(inverse), (I{1, 0, 1}));
  EXPECT_EQ(ints(counts), (I{1, 2}));
  std::tie(output, inverse, counts) = _unique2(transpose(x, 0, 1), true, true, false, 1);
  EXPECT_EQ(ints(output), (I{0, 1, 5, 2}));
  EXPECT_EQ(ints(inverse), (I{1, 0, 1}));
  expect_throw<Error>([] { _unique2(empty({2, 0}), true, false, false, 0); }, "there are 0 sized dimensions");
  expect_throw<IndexError>([] { _unique2(from({1}, {}), true, false, false, 0); }, "tensor has no dimensions");
}

}  // namespace
}  // namespace wick
