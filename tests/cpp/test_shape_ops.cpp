// tests/cpp/test_shape_ops.cpp: shape ops (views and copies) and indexing ops against hand-computed results.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <typeinfo>
#include <vector>

#include "helpers.h"
#include "wick/core_ops.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/diag.h"
#include "wick/ops/diagonal.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand_as.h"
#include "wick/ops/flatten.h"
#include "wick/ops/flip.h"
#include "wick/ops/gather.h"
#include "wick/ops/index_add.h"
#include "wick/ops/index_select.h"
#include "wick/ops/masked_fill.h"
#include "wick/ops/masked_select.h"
#include "wick/ops/movedim.h"
#include "wick/indexing.h"
#include "wick/ops/ones.h"
#include "wick/ops/put.h"
#include "wick/ops/repeat.h"
#include "wick/ops/roll.h"
#include "wick/ops/scatter.h"
#include "wick/ops/scatter_add.h"
#include "wick/ops/take.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/tril.h"
#include "wick/ops/triu.h"
#include "wick/ops/unflatten.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT


bool is_view_of(const Tensor& v, const Tensor& x) { return v.storage() == x.storage() && v.base().defined(); }

// ---------------------------------------------------------------------------------------------
// Views

TEST(Flatten, ViewWhenStridesAllowCopyOtherwise) {
  Tensor x = iota({2, 3, 4});
  Tensor f = flatten(x, 1);
  EXPECT_EQ(shape(f), DimVector({2, 12}));
  EXPECT_TRUE(is_view_of(f, x));
  EXPECT_TRUE(flatten(x, 1, 1).is_same(x));
  Tensor t = flatten(transpose(x, 0, 2));
  EXPECT_NE(t.storage(), x.storage());
  EXPECT_EQ(ints(t), ints(contiguous(transpose(x, 0, 2))));
  EXPECT_EQ(shape(flatten(scalar_tensor(3, DType::Float32))), DimVector({1}));
  expect_throw<Error>([&] { flatten(x, 2, 1); }, "start_dim cannot come after end_dim");
  expect_throw<IndexError>([&] { flatten(x, 3); }, "Dimension out of range");
}

TEST(Unflatten, SplitsOneDimAsAView) {
  Tensor x = transpose(iota({4, 6}), 0, 1);  // (6, 4) with strides (1, 6)
  Tensor u = unflatten(x, 0, {3, -1});
  EXPECT_EQ(shape(u), DimVector({3, 2, 4}));
  EXPECT_EQ(u.strides().vec(), DimVector({2, 1, 6}));
  EXPECT_TRUE(is_view_of(u, x));
  EXPECT_EQ(ints(u), ints(x));
  expect_throw<Error>([&] { unflatten(x, 0, {4, 2}); }, "don't multiply up to the size of dim 0 (6)");
  expect_throw<Error>([&] { unflatten(x, 0, {}); }, "sizes must be non-empty");
  expect_throw<Error>([&] { unflatten(x, 1, {int64_t(1) << 32, int64_t(1) << 32, 4}); }, "don't multiply up");
  expect_throw<IndexError>([&] { unflatten(scalar_tensor(1, DType::Int64), 0, {1}); }, "no dimensions");
}

TEST(Diagonal, GeometryAndOffsets) {
  Tensor x = iota({2, 3, 4});
  Tensor d = diagonal(x, 1, 1, 2);
  EXPECT_EQ(shape(d), DimVector({2, 3}));
  EXPECT_EQ(d.strides().vec(), DimVector({12, 5}));
  EXPECT_EQ(d.storage_offset(), 1);
  EXPECT_EQ(ints(d), I({1, 6, 11, 13, 18, 23}));
  EXPECT_TRUE(is_view_of(d, x));
  Tensor e = diagonal(x, -1, 2, 0);  // rows along dim 2, columns along dim 0
  EXPECT_EQ(shape(e), DimVector({3, 2}));
  EXPECT_EQ(ints(e), I({1, 14, 5, 18, 9, 22}));
  EXPECT_EQ(shape(diagonal(x, std::numeric_limits<int64_t>::min())), DimVector({4, 0}));
  EXPECT_EQ(shape(diagonal(x, std::numeric_limits<int64_t>::max())), DimVector({4, 0}));
  expect_throw<Error>([&] { diagonal(x, 0, 1, -2); }, "cannot be identical");
  expect_throw<IndexError>([&] { diagonal(from({1, 2})); }, "Dimension out of range");
}

TEST(Movedim, PermutesTheRestInOrder) {
  Tensor x = iota({2, 3, 4, 5});
  Tensor m = movedim(x, {0, 1}, {3, 0});
  EXPECT_EQ(shape(m), DimVector({3, 4, 5, 2}));
  EXPECT_TRUE(is_view_of(m, x));
  EXPECT_EQ(shape(movedim(x, {-1}, {1})), DimVector({2, 5, 3, 4}));
  expect_throw<Error>([&] { movedim(x, {0, 1}, {1}); }, "same number of dims");
  expect_throw<Error>([&] { movedim(x, {1, 1}, {0, 2}); }, "repeated dim in `source`");
}

TEST(ExpandAs, SharesStorage) {
  Tensor x = iota({3, 1});
  Tensor e = expand_as(x, empty({2, 3, 4}, DType::Float32));
  EXPECT_EQ(shape(e), DimVector({2, 3, 4}));
  EXPECT_EQ(e.strides().vec(), DimVector({0, 1, 0}));
  EXPECT_TRUE(is_view_of(e, x));
}

// ---------------------------------------------------------------------------------------------
// Copies

TEST(Repeat, TilesLikeNumPy) {
  Tensor x = iota({2, 2});
  Tensor r = repeat(x, {2, 1, 2});
  EXPECT_EQ(shape(r), DimVector({2, 2, 4}));
  EXPECT_EQ(ints(r), I({0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3}));
  EXPECT_NE(r.storage(), x.storage());
  EXPECT_FALSE(r.base().defined());
  EXPECT_EQ(ints(repeat(transpose(x, 0, 1), {1, 2})), I({0, 2, 0, 2, 1, 3, 1, 3}));
  EXPECT_EQ(shape(repeat(x, {0, 3})), DimVector({0, 6}));
  EXPECT_EQ(ints(repeat(scalar_tensor(7, DType::Int64), {3})), I({7, 7, 7}));
  expect_throw<Error>([&] { repeat(x, {2}); }, "can not be smaller");
  expect_throw<Error>([&] { repeat(x, {-1, 2}); }, "negative dimension -1");
  expect_throw<OutOfMemoryError>([&] { repeat(x, {int64_t(1) << 62, 4}); }, "too large");
}

TEST(Flip, ReversesTheListedDims) {
  Tensor x = iota({2, 3});
  EXPECT_EQ(ints(flip(x, {0})), I({3, 4, 5, 0, 1, 2}));
  EXPECT_EQ(ints(flip(x, {-1, 0})), I({5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(ints(flip(transpose(x, 0, 1), {1})), I({3, 0, 4, 1, 5, 2}));
  EXPECT_EQ(ints(flip(x, {})), ints(x));
  EXPECT_NE(flip(x, {}).storage(), x.storage());
  expect_throw<Error>([&] { flip(x, {1, -1}); }, "appears multiple times");
}

TEST(Roll, ShiftsWithWraparound) {
  Tensor x = iota({2, 3});
  EXPECT_EQ(ints(roll(x, {1})), I({5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(shape(roll(x, {1})), DimVector({2, 3}));
  EXPECT_EQ(ints(roll(x, {-1}, IntArrayRef({1}))), I({1, 2, 0, 4, 5, 3}));
  EXPECT_EQ(ints(roll(x, {1, 4}, IntArrayRef({0, 1}))), I({5, 3, 4, 2, 0, 1}));
  EXPECT_EQ(ints(roll(x, {std::numeric_limits<int64_t>::min()})), ints(roll(x, {-2})));
  expect_throw<Error>([&] { roll(x, {}); }, "`shifts` required");
  expect_throw<Error>([&] { roll(x, {1, 2}); }, "must align");
}

TEST(Triangles, TrilTriuAndInPlace) {
  Tensor x = iota({3, 3});
  EXPECT_EQ(ints(tril(x)), I({0, 0, 0, 3, 4, 0, 6, 7, 8}));
  EXPECT_EQ(ints(tril(x, 1)), I({0, 1, 0, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(ints(triu(x, -1)), I({0, 1, 2, 3, 4, 5, 0, 7, 8}));
  EXPECT_EQ(ints(triu(x, std::numeric_limits<int64_t>::max())), I(9, 0));
  EXPECT_EQ(ints(tril(x, std::numeric_limits<int64_t>::min())), I(9, 0));
  Tensor v = transpose(x, 0, 1);
  EXPECT_TRUE(triu_(v).is_same(v));
  EXPECT_EQ(ints(x), I({0, 0, 0, 3, 4, 0, 6, 7, 8}));  // written through the view
  Tensor out = empty({0}, DType::Int64);
  EXPECT_TRUE(tril_out(out, iota({2, 2})).is_same(out));
  EXPECT_EQ(ints(out), I({0, 0, 2, 3}));
  expect_throw<IndexError>([&] { tril(from({1, 2})); }, "at least 2 dimensions");
}

TEST(Diag, VectorToMatrixAndBack) {
  Tensor m = diag(from({1, 2}), 1);
  EXPECT_EQ(shape(m), DimVector({3, 3}));
  EXPECT_EQ(ints(m), I({0, 1, 0, 0, 0, 2, 0, 0, 0}));
  Tensor d = diag(iota({3, 4}), -1);
  EXPECT_EQ(ints(d), I({4, 9}));
  EXPECT_TRUE(d.is_contiguous());
  EXPECT_FALSE(d.base().defined());
  EXPECT_EQ(shape(diag(iota({3, 4}), 9)), DimVector({0}));
  expect_throw<Error>([&] { diag(iota({2, 2, 2})); }, "matrix or a vector expected");
  expect_throw<OutOfMemoryError>([&] { diag(from({1}), std::numeric_limits<int64_t>::min()); }, "too large");
}

// ---------------------------------------------------------------------------------------------
// Indexing ops

TEST(IndexSelect, PicksAlongADim) {
  Tensor x = iota({2, 3});
  EXPECT_EQ(ints(index_select(x, 1, from({2, 0, 2}))), I({2, 0, 2, 5, 3, 5}));
  EXPECT_EQ(ints(index_select(x, 0, from({1}, {1}, DType::Int32))), I({3, 4, 5}));
  expect_throw<IndexError>([&] { index_select(x, 1, from({3})); }, "index 3 is out of bounds for dimension 1 with size 3");
  expect_throw<Error>([&] { index_select(x, 1, from({0}, {1}, DType::Int16)); }, "int32 or int64");
}

TEST(Gather, ReadsAtIndexAlongDim) {
  Tensor x = iota({2, 3});
  Tensor r = gather(x, 1, from({2, 0, 1, 1}, {2, 2}));
  EXPECT_EQ(shape(r), DimVector({2, 2}));
  EXPECT_EQ(ints(r), I({2, 0, 4, 4}));
  expect_throw<IndexError>([&] { gather(x, 0, from({2}, {1, 1})); }, "index 2 is out of bounds for dimension 0");
  expect_throw<Error>([&] { gather(x, 0, from({0}, {1, 1}, DType::Int32)); }, "Expected dtype int64");
  expect_throw<Error>([&] { gather(x, 1, from({0, 0, 0}, {3, 1})); }, "Size does not match at dimension 0");
}

TEST(Scatter, WritesAndAccumulates) {
  Tensor x = zeros({2, 3}, DType::Int64);
  Tensor idx = from({0, 0, 2, 1, 1, 1}, {2, 3});
  Tensor src = from({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(ints(scatter_add(x, 1, idx, src)), I({3, 0, 3, 0, 15, 0}));
  EXPECT_EQ(ints(scatter(x, 1, idx, Scalar(9))), I({9, 0, 9, 0, 9, 0}));
  EXPECT_EQ(ints(x), I(6, 0));  // functional forms leave self alone
  EXPECT_TRUE(scatter_(x, 0, from({1, 0, 1}, {1, 3}), src).is_same(x));
  EXPECT_EQ(ints(x), I({0, 2, 0, 1, 0, 3}));
  EXPECT_TRUE(scatter_add_(x, 0, from({1, 1, 1}, {1, 3}), src).is_same(x));
  EXPECT_EQ(ints(x), I({0, 2, 0, 2, 2, 6}));
  expect_throw<IndexError>([&] { scatter_(x, 1, from({3}, {1, 1}), src); }, "out of bounds");
  expect_throw<Error>([&] { scatter_(x, 1, from({0}, {1, 1}), to(src, DType::Float32)); }, "src.dtype");
  expect_throw<Error>([&] { scatter(zeros({2}, DType::Int8), 0, from({0}), Scalar(int64_t(200))); },
                      "without overflow");
  EXPECT_EQ(ints(x), I({0, 2, 0, 2, 2, 6}));
}

TEST(IndexAdd, AccumulatesWithAlpha) {
  Tensor x = zeros({2, 3}, DType::Float64);
  EXPECT_TRUE(index_add_(x, 1, from({0, 0, 2}), ones({2, 3}, DType::Float64), 2).is_same(x));
  EXPECT_EQ(ints(x), I({4, 0, 2, 4, 0, 2}));
  expect_throw<Error>([&] { index_add_(x, 1, from({0, 0, 2}), ones({2, 3}, DType::Float32)); },
                      "must have the same scalar type");
  expect_throw<IndexError>([&] { index_add(x, 1, from({3, 0, 0}), ones({2, 3}, DType::Float64)); },
                           "index 3 is out of bounds");
}

TEST(Masked, FillAndSelect) {
  Tensor x = iota({2, 3});
  Tensor mask = from({1, 0, 1}, {3}, DType::Bool);
  EXPECT_EQ(ints(masked_fill(x, mask, Scalar(-1))), I({-1, 1, -1, -1, 4, -1}));
  EXPECT_EQ(ints(masked_select(x, mask)), I({0, 2, 3, 5}));
  EXPECT_TRUE(masked_fill_(x, mask, scalar_tensor(7, DType::Int64)).is_same(x));
  EXPECT_EQ(ints(x), I({7, 1, 7, 7, 4, 7}));
  expect_throw<Error>([&] { masked_fill(x, from({1, 0, 1}), Scalar(1)); }, "mask with dtype wick.bool");
  expect_throw<Error>([&] { masked_fill(x, mask, from({1})); }, "0-dimensional value tensor");
  expect_throw<Error>([&] { masked_fill_(from({1, 2, 3}), from({1, 0}, {2, 1}, DType::Bool), Scalar(0)); },
                      "doesn't match the broadcast shape");
}

TEST(TakePut, FlatPositions) {
  Tensor x = iota({2, 3});
  EXPECT_EQ(ints(take(transpose(x, 0, 1), from({1, -1}))), I({3, 5}));
  Tensor y = zeros({2, 3}, DType::Int64);
  EXPECT_TRUE(put_(y, from({0, 5, 5}), from({1, 2, 3}), true).is_same(y));
  EXPECT_EQ(ints(y), I({1, 0, 0, 0, 0, 5}));
  EXPECT_EQ(ints(put(y, from({-6}), from({9}))), I({9, 0, 0, 0, 0, 5}));
  expect_throw<IndexError>([&] { take(x, from({6})); }, "tried to access index 6 on a tensor of 6 elements");
  expect_throw<IndexError>([&] { put_(y, from({-7}), from({1})); }, "tried to access index -7");
}

TEST(Nonzero, DeclaredAsAnOp) {
  Tensor r = nonzero(from({0, 3, 0, 4}, {2, 2}));
  EXPECT_EQ(shape(r), DimVector({2, 2}));
  EXPECT_EQ(ints(r), I({0, 1, 1, 1}));
}

}  // namespace
}  // namespace wick
