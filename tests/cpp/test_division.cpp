// tests/cpp/test_division.cpp: div's rounding modes (core/src/division.cpp) and trunc_divide (wick/math.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "helpers.h"
#include "wick/math.h"
#include "wick/ops/div.h"
#include "wick/ops/empty.h"
#include "wick/ops/floor_divide.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT

TEST(TruncDivide, RoundsTowardZeroWithoutTraps) {
  EXPECT_EQ(math::trunc_divide<int64_t>(-7, 2), -3);
  EXPECT_EQ(math::trunc_divide<int64_t>(7, -2), -3);
  EXPECT_EQ(math::trunc_divide<int8_t>(-128, -1), -128);  // wraps, as two's complement does
  EXPECT_EQ(math::trunc_divide<uint8_t>(255, 2), 127);
  EXPECT_THROW(math::trunc_divide<int32_t>(1, 0), Error);
  EXPECT_EQ(math::trunc_divide(-7.5, 2.0), -3.0);
  EXPECT_TRUE(std::signbit(math::trunc_divide(-1.0, 3.0)));  // -0.0
  EXPECT_EQ(math::trunc_divide(1.0f, 0.0f), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(math::trunc_divide(0.0, 0.0)));
}

TEST(Div, EachModeRunsItsKernel) {
  const Tensor a = from({-7, 7, -8, 9}), b = from({2, -2, 3, 3});
  const Tensor t = div(a, b);
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_FLOAT_EQ(t.data<float>()[0], -3.5f);
  EXPECT_EQ(ints(div(a, b, "trunc")), I({-3, -3, -2, 3}));
  EXPECT_EQ(ints(div(a, b, "floor")), I({-4, -4, -3, 3}));
  EXPECT_EQ(ints(div(a, b, "floor")), ints(floor_divide(a, b)));
  EXPECT_EQ(div(a, b, "trunc").dtype(), DType::Int64);
  EXPECT_EQ(ints(div(a, Scalar(int64_t(2)), "trunc")), I({-3, 3, -4, 4}));
  EXPECT_EQ(div(a, Scalar(2.5), "floor").dtype(), DType::Float32);
}

TEST(Div, InPlaceAndOutForms) {
  Tensor a = from({-7, 7});
  EXPECT_TRUE(div_(a, Scalar(int64_t(2)), "floor").is_same(a));
  EXPECT_EQ(ints(a), I({-4, 3}));
  Tensor out = empty({0}, DType::Float64);
  EXPECT_TRUE(div_out(out, from({1, 3}), from({2, 2})).is_same(out));
  EXPECT_DOUBLE_EQ(out.data<double>()[1], 1.5);
  EXPECT_TRUE(div_out(out, to(from({5, -5}), DType::Float64), Scalar(2.0), "trunc").is_same(out));
  EXPECT_EQ(ints(out), I({2, -2}));
  expect_throw<Error>([] { Tensor i = from({1}); div_(i, Scalar(int64_t(2))); }, "can't be cast");
}

TEST(Div, BadRoundingModeIsAValueError) {
  expect_throw<ValueError>([] { div(from({1}), from({1}), "round"); },
                           "expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  Tensor a = from({1});
  expect_throw<ValueError>([&] { div_(a, Scalar(int64_t(1)), ""); }, "but found ''");
}

}  // namespace
}  // namespace wick
