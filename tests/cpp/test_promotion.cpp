// tests/cpp/test_promotion.cpp: promote_types, can_cast, and the result dtype of ops on tensors, 0-d tensors, numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/add.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/div.h"
#include "wick/ops/empty.h"
#include "wick/ops/eq.h"
#include "wick/ops/gt.h"
#include "wick/ops/lt.h"
#include "wick/ops/mean.h"
#include "wick/ops/mul.h"
#include "wick/ops/sub.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

constexpr DType b1 = DType::Bool, u1 = DType::UInt8, i1 = DType::Int8, i2 = DType::Int16, i4 = DType::Int32,
                i8 = DType::Int64, f2 = DType::Float16, bf = DType::BFloat16, f4 = DType::Float32,
                f8 = DType::Float64;

// torch.promote_types, transcribed from c10/core/ScalarType.cpp into wick's dtype order.
constexpr DType kPromoted[kNumDTypes][kNumDTypes] = {
    /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8 */
    /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
    /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
    /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
    /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
    /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
    /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
    /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
};

// 0 for bool, 1 for integers, 2 for floats: can_cast never goes down a category.
int category(DType d) { return d == DType::Bool ? 0 : is_floating(d) ? 2 : 1; }

Tensor tensor_of(const std::vector<double>& values, DType dtype) {
  Tensor t = empty({int64_t(values.size())}, DType::Float64);
  std::copy(values.begin(), values.end(), t.data<double>());
  return to(t, dtype);
}

Tensor zero_dim(double value, DType dtype) { return scalar_tensor(Scalar(value), dtype); }

std::vector<double> values_of(const Tensor& t) {
  Tensor c = contiguous(to(t, DType::Float64));
  return std::vector<double>(c.data<double>(), c.data<double>() + c.numel());
}

TEST(PromoteTypes, MatchesPyTorchTable) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      EXPECT_EQ(promote_types(DType(a), DType(b)), kPromoted[a][b])
          << dtype_name(DType(a)) << " + " << dtype_name(DType(b)) << " gave "
          << dtype_name(promote_types(DType(a), DType(b)));
    }
  }
}

TEST(PromoteTypes, NamedCases) {
  EXPECT_EQ(promote_types(u1, i1), i2);
  EXPECT_EQ(promote_types(f2, bf), f4);
  EXPECT_EQ(promote_types(b1, i4), i4);
  EXPECT_EQ(promote_types(i8, f2), f2);
  EXPECT_EQ(promote_types(u1, i8), i8);
  EXPECT_EQ(promote_types(i8, bf), bf);
}

TEST(CanCast, NeverDownACategory) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      EXPECT_EQ(can_cast(DType(a), DType(b)), category(DType(a)) <= category(DType(b)))
          << dtype_name(DType(a)) << " -> " << dtype_name(DType(b));
    }
  }
  EXPECT_TRUE(can_cast(f8, f2));   // narrowing within a category is allowed
  EXPECT_TRUE(can_cast(i8, u1));
  EXPECT_TRUE(can_cast(b1, f4));
  EXPECT_FALSE(can_cast(f4, i8));
  EXPECT_FALSE(can_cast(u1, b1));
  EXPECT_FALSE(can_cast(f2, b1));
}

TEST(ResultType, IntTensorPlusNumbers) {
  Tensor x = tensor_of({1, 2}, i4);
  Tensor plus_int = add(x, Scalar(2));
  EXPECT_EQ(plus_int.dtype(), i4);
  EXPECT_EQ(values_of(plus_int), (std::vector<double>{3, 4}));

  Tensor plus_float = add(x, Scalar(2.5));
  EXPECT_EQ(plus_float.dtype(), f4);  // the default float dtype, not float64
  EXPECT_EQ(values_of(plus_float), (std::vector<double>{3.5, 4.5}));

  EXPECT_EQ(mul(tensor_of({1, 2}, i1), Scalar(2.5)).dtype(), f4);
  EXPECT_EQ(add(x, Scalar(true)).dtype(), i4);
}

TEST(ResultType, BoolTensorPlusNumbers) {
  Tensor b = tensor_of({0, 1}, b1);
  Tensor plus_int = add(b, Scalar(1));
  EXPECT_EQ(plus_int.dtype(), i8);
  EXPECT_EQ(values_of(plus_int), (std::vector<double>{1, 2}));
  EXPECT_EQ(add(b, Scalar(0.5)).dtype(), f4);
  EXPECT_EQ(add(b, Scalar(true)).dtype(), b1);
}

TEST(ResultType, FloatTensorsKeepTheirDtypeAgainstNumbers) {
  EXPECT_EQ(add(tensor_of({1}, f2), Scalar(2.5)).dtype(), f2);
  EXPECT_EQ(add(tensor_of({1}, bf), Scalar(2)).dtype(), bf);
  EXPECT_EQ(add(tensor_of({1}, f8), Scalar(2.5)).dtype(), f8);
}

TEST(ResultType, ZeroDimTensorsRankBelowDimensionedOnes) {
  Tensor h = add(tensor_of({1, 2}, f2), zero_dim(0.5, f8));
  EXPECT_EQ(h.dtype(), f2);
  EXPECT_EQ(values_of(h), (std::vector<double>{1.5, 2.5}));

  Tensor i = add(tensor_of({1, 2}, i4), zero_dim(3, i8));
  EXPECT_EQ(i.dtype(), i4);
  EXPECT_EQ(values_of(i), (std::vector<double>{4, 5}));

  // A higher category still wins, with the 0-d tensor's own dtype (not the default float).
  EXPECT_EQ(add(tensor_of({1}, i4), zero_dim(0.5, f8)).dtype(), f8);
  EXPECT_EQ(add(tensor_of({1}, b1), zero_dim(2, i2)).dtype(), i2);
  // The order of the operands does not matter.
  EXPECT_EQ(add(zero_dim(3, i8), tensor_of({1, 2}, i4)).dtype(), i4);
}

TEST(ResultType, ZeroDimAgainstZeroDimAndNumbers) {
  EXPECT_EQ(add(zero_dim(1, i4), zero_dim(1, i8)).dtype(), i8);
  EXPECT_EQ(add(zero_dim(1, i8), Scalar(2.5)).dtype(), f4);
  EXPECT_EQ(add(zero_dim(1, i2), Scalar(2)).dtype(), i2);
  EXPECT_EQ(add(zero_dim(1, f8), Scalar(2.5)).dtype(), f8);
}

TEST(ResultType, DimensionedTensorsPromoteFully) {
  Tensor r = add(tensor_of({200, 1}, u1), tensor_of({-100, -2}, i1));
  EXPECT_EQ(r.dtype(), i2);
  EXPECT_EQ(values_of(r), (std::vector<double>{100, -1}));  // no wrap-around in 8 bits
  EXPECT_EQ(add(tensor_of({1}, f2), tensor_of({1}, bf)).dtype(), f4);
  EXPECT_EQ(add(tensor_of({1}, i8), tensor_of({1}, f2)).dtype(), f2);
}

TEST(ResultType, DivOfIntegersIsFloat) {
  Tensor q = div(tensor_of({1, 2, 3}, i4), tensor_of({2, 2, 2}, i4));
  EXPECT_EQ(q.dtype(), f4);
  EXPECT_EQ(values_of(q), (std::vector<double>{0.5, 1, 1.5}));
  EXPECT_EQ(div(tensor_of({1}, i8), Scalar(2)).dtype(), f4);
  EXPECT_EQ(div(tensor_of({1}, b1), tensor_of({1}, u1)).dtype(), f4);
  EXPECT_EQ(div(tensor_of({1}, f8), Scalar(2)).dtype(), f8);
  EXPECT_EQ(div(tensor_of({1}, f2), tensor_of({2}, f2)).dtype(), f2);
}

TEST(ResultType, ComparisonsAreBool) {
  Tensor e = eq(tensor_of({1, 2}, i4), tensor_of({1, 3}, f8));
  EXPECT_EQ(e.dtype(), b1);
  EXPECT_EQ(values_of(e), (std::vector<double>{1, 0}));
  Tensor l = lt(tensor_of({2, 3}, f2), Scalar(2.5));
  EXPECT_EQ(l.dtype(), b1);
  EXPECT_EQ(values_of(l), (std::vector<double>{1, 0}));
  // Compared in the promoted dtype: 2 < 2.5 is true, not 2 < int(2.5).
  EXPECT_EQ(values_of(lt(tensor_of({2}, i4), Scalar(2.5))), (std::vector<double>{1}));
  EXPECT_EQ(gt(tensor_of({1}, b1), tensor_of({0}, u1)).dtype(), b1);
}

TEST(ResultType, InPlaceKeepsSelfDtypeAndRefusesToNarrowACategory) {
  Tensor x = tensor_of({1, 2}, i4);
  Tensor r = add_(x, tensor_of({10, 20}, i8));  // int64 result cast back into int32
  EXPECT_TRUE(r.is_same(x));
  EXPECT_EQ(x.dtype(), i4);
  EXPECT_EQ(values_of(x), (std::vector<double>{11, 22}));
  EXPECT_THROW(add_(x, Scalar(0.5)), Error);   // float result into int32
  EXPECT_THROW(mul_(tensor_of({1}, b1), Scalar(2)), Error);
  EXPECT_THROW(div_(x, Scalar(2)), Error);
  EXPECT_EQ(values_of(x), (std::vector<double>{11, 22})) << "a refused in-place op must not write";
}

TEST(ResultType, FloatAlphaIsRefusedForIntegerInputs) {
  // PyTorch: "For integral input tensors, argument alpha must not be a floating point number."
  // Truncating alpha to an integer would silently give a wrong result.
  Tensor x = tensor_of({1, 2}, i4), y = tensor_of({10, 20}, i4);
  EXPECT_THROW(add(x, y, Scalar(0.5)), Error);
  EXPECT_THROW(sub(x, y, Scalar(1.5)), Error);
  EXPECT_THROW(add_(x, y, Scalar(0.5)), Error);
  EXPECT_EQ(values_of(x), (std::vector<double>{1, 2}));
  EXPECT_EQ(values_of(add(x, y, Scalar(3))), (std::vector<double>{31, 62}));
  EXPECT_EQ(values_of(add(tensor_of({1, 2}, f4), tensor_of({10, 20}, f4), Scalar(0.5))),
            (std::vector<double>{6, 12}));
}

TEST(ResultType, OutDtypeReceivesAConvertedResult) {
  Tensor out = empty({2}, f8);
  add_out(out, tensor_of({1, 2}, i4), tensor_of({3, 4}, i4));
  EXPECT_EQ(out.dtype(), f8);
  EXPECT_EQ(values_of(out), (std::vector<double>{4, 6}));
  Tensor int_out = empty({2}, i4);
  EXPECT_THROW(add_out(int_out, tensor_of({1, 2}, f4), tensor_of({3, 4}, f4)), Error);
}

TEST(ResultType, ReductionsWidenIntegers) {
  EXPECT_EQ(sum(tensor_of({1, 2}, i1)).dtype(), i8);
  EXPECT_EQ(sum(tensor_of({1, 1}, b1)).dtype(), i8);
  EXPECT_EQ(sum(tensor_of({1, 2}, f2)).dtype(), f2);
  EXPECT_EQ(sum(tensor_of({1, 2}, i4), f8).dtype(), f8);
  EXPECT_THROW(mean(tensor_of({1, 2}, i4)), TypeError);
  EXPECT_EQ(mean(tensor_of({1, 2}, i4), f8).dtype(), f8);
}

}  // namespace
}  // namespace wick
