// tests/cpp/test_overflow.cpp: checked size arithmetic, and the geometry every TensorImpl refuses.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "helpers.h"
#include "wick/ops/add.h"
#include "wick/ops/diagonal.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/flatten.h"
#include "wick/ops/narrow.h"
#include "wick/ops/ones.h"
#include "wick/ops/reshape.h"
#include "wick/ops/resize_.h"
#include "wick/ops/select.h"
#include "wick/ops/unflatten.h"
#include "wick/ops/view.h"
#include "wick/overflow.h"

namespace wick {
namespace {

using test::ints;
using test::iota;
using test::shape;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kBig = int64_t(1) << 62;

TEST(Overflow, CheckedArithmeticKnowsTheExactRange) {
  EXPECT_EQ(mul_checked(kBig, 2), std::nullopt);
  EXPECT_EQ(mul_checked(kBig, -2), kMin);
  EXPECT_EQ(mul_checked(-1, kMin), std::nullopt);
  EXPECT_EQ(add_checked(kMax, 1), std::nullopt);
  EXPECT_EQ(add_checked(kMax, kMin), -1);
  EXPECT_EQ(offset_checked(5, kBig, 2), std::nullopt);
  EXPECT_EQ(offset_checked(1, kBig - 1, 2), kMax);
}

TEST(Overflow, ElementCountsAreZeroAware) {
  EXPECT_EQ(numel_checked({}), 1);
  EXPECT_EQ(numel_checked({kBig, 0, kBig}), 0);
  EXPECT_EQ(numel_checked({kBig, kBig, 0}), 0);
  EXPECT_EQ(numel_checked({kBig, 2}), std::nullopt);
  EXPECT_EQ(numel_checked({kBig, 1, 1}), kBig);
}

TEST(Overflow, TensorsRefuseGeometryOutsideTheirStorage) {
  const Tensor t = iota({4});
  EXPECT_THROW(make_view(t, {5}, {1}, 0), Error);
  EXPECT_THROW(make_view(t, {2}, {3}, 1), Error);
  EXPECT_THROW(make_view(t, {2, 2}, {kBig, 1}, 0), Error);   // past int64 elements
  EXPECT_THROW(make_view(t, {kBig, 4}, {0, 0}, 0), Error);   // numel past int64
  EXPECT_THROW(make_view(t, {1}, {1}, -1), ValueError);
  EXPECT_THROW(make_view(t, {-1}, {1}, 0), ValueError);
  EXPECT_EQ(ints(make_view(t, {2}, {3}, 0)), (test::I{0, 3}));
  EXPECT_EQ(shape(make_view(t, {kBig, 0}, {kMax, 1}, 0)), (DimVector{kBig, 0}));  // no element: any stride
  EXPECT_EQ(make_view(t, {kBig}, {0}, 3).numel(), kBig);                             // expanded
}

TEST(Overflow, ContiguousStridesPastInt64AreRefused) {
  EXPECT_THROW(contiguous_strides({2, kBig, kBig, 0}), Error);
  EXPECT_EQ(contiguous_strides({kBig, kBig, 0}), (DimVector{kBig, 1, 1}));
}

TEST(Overflow, ViewsOfHugeShapes) {
  EXPECT_THROW(view(empty({0}), {kBig, 4}), Error);
  EXPECT_THROW(reshape(empty({4}), {kMax, 1}), Error);
  EXPECT_THROW(expand(empty({1}), {kBig, 4}), Error);
  EXPECT_EQ(shape(view(empty({0, 3}), {-1, kBig})), (DimVector{0, kBig}));
  EXPECT_EQ(shape(flatten(empty({kBig, kBig, 0}), 0, -1)), (DimVector{0}));
  EXPECT_THROW(unflatten(empty({4}), 0, {kBig, 4}), Error);
}

TEST(Overflow, SlicesNarrowsAndSelectsAtTheEdges) {
  const Tensor t = iota({5});
  EXPECT_EQ(ints(slice(t, 0, 0, kMax, kMax)), (test::I{0}));
  EXPECT_EQ(ints(slice(t, 0, kMin, kMax, kBig)), (test::I{0}));
  EXPECT_EQ(ints(slice(t, 0, 1, std::nullopt, 3)), (test::I{1, 4}));
  EXPECT_EQ(slice(t, 0, kMax, std::nullopt, 1).numel(), 0);
  EXPECT_THROW(narrow(t, 0, 3, kMax), Error);
  EXPECT_THROW(narrow(t, 0, kMin, 1), IndexError);
  EXPECT_THROW(select(t, 0, kMin), IndexError);
  EXPECT_EQ(diagonal(iota({3, 4}), kMax, 0, 1).numel(), 0);
  EXPECT_EQ(diagonal(iota({3, 4}), kMin, 0, 1).numel(), 0);
}

TEST(Overflow, AllocationsPastMemoryAreOutOfMemory) {
  EXPECT_THROW(empty({kBig, 4}), OutOfMemoryError);
  EXPECT_THROW(empty({kMax}, DType::Float64), OutOfMemoryError);
  Tensor out = empty({0});
  EXPECT_THROW(add_out(out, expand(ones({1}), {kBig}), ones({1}), 1), OutOfMemoryError);
  EXPECT_EQ(shape(out), (DimVector{0}));  // unchanged by the failed resize
}

TEST(Overflow, AliasesKeepTheirGeometryWhenTheTensorIsResized) {
  const Tensor t = iota({4});
  const Tensor a = alias(t);
  resize_(t, {100});
  EXPECT_EQ(shape(a), (DimVector{4}));
  EXPECT_EQ(ints(a), (test::I{0, 1, 2, 3}));
  EXPECT_TRUE(a.base().is_same(t.base()));  // a view of the same root, as t is
}

}  // namespace
}  // namespace wick
