// tests/cpp/test_tensor_compare.cpp: allclose and equal (core/src/tensor_compare.cpp), and nan_to_num.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "helpers.h"
#include "wick/ops/allclose.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/empty.h"
#include "wick/ops/equal.h"
#include "wick/ops/expand.h"
#include "wick/ops/nan_to_num.h"
#include "wick/ops/narrow.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

Tensor doubles(std::initializer_list<double> values) {
  Tensor t = empty({int64_t(values.size())}, DType::Float64);
  std::copy(values.begin(), values.end(), t.data<double>());
  return t;
}

TEST(Allclose, ToleranceInfinitiesAndNaN) {
  EXPECT_TRUE(allclose(doubles({1.0, 2.0}), doubles({1.0 + 1e-9, 2.0})));
  EXPECT_FALSE(allclose(doubles({1.0}), doubles({1.001})));
  EXPECT_TRUE(allclose(doubles({1.0}), doubles({1.001}), 1e-2));
  EXPECT_TRUE(allclose(doubles({1.0}), doubles({1.5}), 0.0, 0.5));
  EXPECT_TRUE(allclose(doubles({kInf, -kInf}), doubles({kInf, -kInf})));
  EXPECT_FALSE(allclose(doubles({kInf}), doubles({-kInf}), 0.0, kInf));
  EXPECT_FALSE(allclose(doubles({kNaN}), doubles({kNaN})));
  EXPECT_TRUE(allclose(doubles({kNaN}), doubles({kNaN}), 1e-5, 1e-8, true));
  EXPECT_TRUE(allclose(iota({2, 3}), narrow(iota({2, 3}), 0, 0, 2)));
  EXPECT_TRUE(allclose(from({1}), expand(from({1}), {4})));  // broadcasts
  EXPECT_FALSE(allclose(from({int64_t(1) << 60}), from({(int64_t(1) << 60) + 1}), 0.0, 0.5));  // exact difference
}

TEST(Allclose, BadArgumentsThrow) {
  expect_throw<TypeError>([] { allclose(from({1}), doubles({1.0})); }, "Long did not match Double");
  expect_throw<ValueError>([] { allclose(from({1}), from({1}), -1.0); }, "rtol must be greater than or equal to zero");
  expect_throw<ValueError>([] { allclose(from({1}), from({1}), 0.0, -1.0); }, "atol must be greater than or equal");
  expect_throw<Error>([] { allclose(from({1, 2}), from({1, 2, 3})); }, "must match the size of tensor b");
}

TEST(Equal, ShapesAndValuesAcrossDTypes) {
  EXPECT_TRUE(equal(iota({2, 2}), to(iota({2, 2}), DType::Float16)));
  EXPECT_FALSE(equal(iota({2, 2}), iota({4})));
  EXPECT_FALSE(equal(doubles({kNaN}), doubles({kNaN})));
  EXPECT_TRUE(equal(transpose(iota({2, 3}), 0, 1), contiguous(transpose(iota({2, 3}), 0, 1))));
  EXPECT_FALSE(equal(from({int64_t(1) << 60}), from({(int64_t(1) << 60) + 1})));
  EXPECT_TRUE(equal(empty({0, 3}, DType::Bool), empty({0, 3}, DType::Int8)));
}

TEST(NanToNum, DefaultsAreTheDTypesFiniteRange) {
  const Tensor x = doubles({kNaN, kInf, -kInf, 1.5});
  const Tensor r = nan_to_num(x);
  EXPECT_EQ(r.data<double>()[0], 0.0);
  EXPECT_EQ(r.data<double>()[1], std::numeric_limits<double>::max());
  EXPECT_EQ(r.data<double>()[2], -std::numeric_limits<double>::max());
  EXPECT_EQ(r.data<double>()[3], 1.5);
  EXPECT_EQ(ints(nan_to_num(x, 1.0, 2.0, 3.0)), I({1, 2, 3, 1}));
  EXPECT_EQ(ints(nan_to_num(to(x, DType::Float16))), I({0, 65504, -65504, 1}));
  EXPECT_EQ(floating_max(DType::BFloat16), 3.3895313892515355e38);
  Tensor y = to(x, DType::Float32);
  EXPECT_TRUE(nan_to_num_(y, 9.0).is_same(y));
  EXPECT_EQ(y.data<float>()[0], 9.0f);
  EXPECT_EQ(ints(nan_to_num(from({1, 2}), 5.0)), I({1, 2}));  // integers hold no NaN
  expect_throw<TypeError>([&] { nan_to_num_out(empty({4}, DType::Float32), x); },
                          "dtype of out: Float should be same as input: Double");
}

}  // namespace
}  // namespace wick
