// tests/cpp/test_tensor_operators.cpp: C++'s operators on tensors (Note [C++ operators]);
// the expected values and dtypes are PyTorch's for the same expressions in Python.
#include <gtest/gtest.h>

#include <vector>

#include "helpers.h"
#include "wick/tensor_operators.h"

namespace wick {
namespace {

using test::from;
using test::I;
using test::ints;
using test::reals;

void expect_ints(const Tensor& t, DType dtype, const I& values) {
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(ints(t), values);
}

void expect_reals(const Tensor& t, DType dtype, const std::vector<double>& values) {
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(reals(t), values);
}

constexpr DType i4 = DType::Int32, b1 = DType::Bool, f4 = DType::Float32;

TEST(TensorOperators, ArithmeticOnTwoTensors) {
  const Tensor a = from({7, -7, 5}, {3}, i4), b = from({3, 3, -2}, {3}, i4);
  expect_ints(a + b, i4, {10, -4, 3});
  expect_ints(a - b, i4, {4, -10, 7});
  expect_ints(a * b, i4, {21, -21, -10});
  expect_reals(a / from({2, 4, -2}, {3}, i4), f4, {3.5, -1.75, -2.5});  // true division
  expect_ints(a % b, i4, {1, 2, -1});                                  // the sign of the divisor
  expect_ints(-a, i4, {-7, 7, -5});
}

TEST(TensorOperators, BitwiseOps) {
  const Tensor a = from({7, -7, 5}, {3}, i4), b = from({3, 3, -2}, {3}, i4);
  expect_ints(a & b, i4, {3, 1, 4});
  expect_ints(a | b, i4, {7, -5, -1});
  expect_ints(a ^ b, i4, {4, -6, -5});
  expect_ints(~a, i4, {-8, 6, -6});
  const Tensor t = from({1, 0}, {2}, b1);
  expect_ints(t & true, b1, {1, 0});
  expect_ints(false | t, b1, {1, 0});
  expect_ints(t ^ true, b1, {0, 1});
  expect_ints(~t, b1, {0, 1});
}

TEST(TensorOperators, ComparisonsGiveBoolTensors) {
  const Tensor a = from({7, -7, 5}, {3}, i4), b = from({3, 3, 5}, {3}, i4);
  expect_ints(a < b, b1, {0, 1, 0});
  expect_ints(a <= b, b1, {0, 1, 1});
  expect_ints(a > b, b1, {1, 0, 0});
  expect_ints(a >= b, b1, {1, 0, 1});
  expect_ints(a == b, b1, {0, 0, 1});
  expect_ints(a != b, b1, {1, 1, 0});
  // A number on the left turns the comparison around.
  expect_ints(2 < a, b1, {1, 0, 1});
  expect_ints(5 <= a, b1, {1, 0, 1});
  expect_ints(5 > a, b1, {0, 1, 0});
  expect_ints(5 >= a, b1, {0, 1, 1});
  expect_ints(5 == a, b1, {0, 0, 1});
  expect_ints(5.0 != a, b1, {1, 1, 0});
  expect_ints(a < 5.5, b1, {0, 1, 1});
}

TEST(TensorOperators, NumbersOnEitherSidePromoteAsWrappedNumbers) {
  const Tensor a = from({7, -7, 5}, {3}, i4);
  expect_ints(a + 1, i4, {8, -6, 6});
  expect_ints(1 + a, i4, {8, -6, 6});
  expect_reals(2.5 * a, f4, {17.5, -17.5, 12.5});
  expect_ints(10 - a, i4, {3, 17, 5});
  expect_reals(2.5 - a, f4, {-4.5, 9.5, -2.5});
  expect_reals(14 / from({4, -8, 7}, {3}, i4), f4, {3.5, -1.75, 2.0});
  expect_ints(7 % a, i4, {0, 0, 2});
  expect_reals(a / 2, f4, {3.5, -3.5, 2.5});
  expect_ints(a % 3, i4, {1, 2, 2});
  // With a 0-d tensor the number still ranks below it: int32, not int64.
  expect_ints(2 - from({3}, {}, i4), i4, {-1});
  expect_reals(2.5 - from({3}, {}, i4), f4, {-0.5});
  // An operand wraps into the dtype as it does on the right (1000 is -24 in int8).
  expect_ints(1000 - from({1}, {1}, DType::Int8), DType::Int8, {-25});
  expect_ints(from({1}, {1}, DType::Int8) - 1000, DType::Int8, {25});
  test::expect_throw<Error>([&] { (void)(true - from({2}, {1})); }, "with a bool tensor is not supported");
}

TEST(TensorOperators, CompoundAssignmentWritesInPlace) {
  const Tensor a = from({7, -7, 5}, {3}, i4), b = from({3, 3, -2}, {3}, i4);
  EXPECT_TRUE((a += b).is_same(a));
  expect_ints(a, i4, {10, -4, 3});
  a -= 1;
  expect_ints(a, i4, {9, -5, 2});
  a *= b;
  expect_ints(a, i4, {27, -15, -4});
  a %= 4;
  expect_ints(a, i4, {3, 1, 0});
  a &= b;
  a |= 8;
  a ^= 1;
  expect_ints(a, i4, {10, 8, 9});
  const Tensor f = to(from({7, -7, 5}, {3}), f4);
  f /= 2;
  expect_reals(f, f4, {3.5, -3.5, 2.5});
  // The result's dtype cannot change in place: an int tensor /= 2 is refused, as in PyTorch.
  test::expect_throw<Error>([&] { a /= 2; }, "Float can't be cast to the desired output type Int");
}

}  // namespace
}  // namespace wick
