// tests/cpp/test_join_split.cpp: cat, stack, hstack, vstack (copies) and chunk, split, unbind (views),
// and the three ways C++ hands them a TensorListRef.
#include <gtest/gtest.h>

#include <vector>

#include "helpers.h"
#include "wick/ops/cat.h"
#include "wick/ops/chunk.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/hstack.h"
#include "wick/ops/narrow.h"
#include "wick/ops/split.h"
#include "wick/ops/stack.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/unbind.h"
#include "wick/ops/vstack.h"
#include "wick/tensor_list.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT

TEST(TensorListRef, ViewsVectorsBracedListsAndPointers) {
  const Tensor a = from({1, 2}), b = from({3});
  const std::vector<Tensor> v{a, b};
  const Tensor* pointers[] = {&b, &a};
  const TensorListRef from_vector(v), from_pointers(pointers, 2);
  ASSERT_EQ(from_vector.size(), 2u);
  EXPECT_TRUE(from_vector[0].is_same(a) && from_vector[1].is_same(b));
  EXPECT_TRUE(from_pointers[0].is_same(b) && from_pointers[1].is_same(a));
  EXPECT_EQ(&from_pointers[1], &a);  // the tensor itself, not a copy of its handle
  EXPECT_EQ(a.impl()->use_count(), 2u);  // `a` and the vector: the views hold no reference
  size_t n = 0;
  for (const Tensor& t : from_pointers) n += size_t(t.numel());
  EXPECT_EQ(n, 3u);
  EXPECT_TRUE(TensorListRef().empty());
  EXPECT_EQ(ints(cat({a, b})), I({1, 2, 3}));
  EXPECT_EQ(ints(cat(from_pointers)), I({3, 1, 2}));
}

TEST(Cat, JoinsAlongADimAndPromotes) {
  const Tensor x = iota({2, 3}), y = from({6, 7, 8}, {1, 3}, DType::Int32);
  Tensor r = cat({x, y});
  EXPECT_EQ(shape(r), DimVector({3, 3}));
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), I({0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(ints(cat({x, transpose(iota({3, 2}), 0, 1)}, -1)), I({0, 1, 2, 0, 2, 4, 3, 4, 5, 1, 3, 5}));
  EXPECT_EQ(cat({to(x, DType::Bool), to(y, DType::Float16)}).dtype(), DType::Float16);
  EXPECT_EQ(r.base().defined(), false);
}

TEST(Cat, SkipsLegacyEmptyTensorsInShapeChecks) {
  const Tensor e = empty({0}, DType::Float64);
  Tensor r = cat({e, iota({2, 2}), e}, 1);
  EXPECT_EQ(r.dtype(), DType::Float64);
  EXPECT_EQ(ints(r), I({0, 1, 2, 3}));
  EXPECT_EQ(shape(cat({e, e}, 7)), DimVector({0}));
}

TEST(Cat, OutCastsAndChecks) {
  Tensor out = empty({0}, DType::Float32);
  EXPECT_TRUE(cat_out(out, {from({1}), from({2, 3})}, 0).is_same(out));
  EXPECT_EQ(ints(out), I({1, 2, 3}));
  expect_throw<TypeError>([] { cat_out(empty({2}, DType::Int64), {empty({2}, DType::Float32)}, 0); },
                          "input types can't be cast to the desired output type Long");
  Tensor x = iota({4});
  expect_throw<Error>([&] { cat_out(x, {narrow(x, 0, 0, 2), narrow(x, 0, 2, 2)}, 0); }, "single memory location");
}

TEST(Cat, BadInputsThrow) {
  expect_throw<Error>([] { cat(std::vector<Tensor>{}); }, "expected a non-empty list of Tensors");
  expect_throw<ValueError>([] { cat({from({1}), Tensor()}); }, "expected a Tensor at position 1, got None");
  expect_throw<Error>([] { cat({from({1}), from({2}, {})}); }, "zero-dimensional tensor (at position 1)");
  expect_throw<Error>([] { cat({iota({2, 3}), iota({3, 2})}); },
                      "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor "
                      "number 1 in the list.");
  expect_throw<Error>([] { cat({iota({2, 3}), iota({3})}); }, "Tensors must have same number of dimensions: got 2 and 1");
  expect_throw<IndexError>([] { cat({iota({2, 3})}, 2); }, "Dimension out of range");
  expect_throw<OutOfMemoryError>([] { cat({expand(iota({1}), {int64_t(1) << 62}), expand(iota({1}), {int64_t(1) << 62})}); },
                                 "too large");
}

TEST(Stack, AddsADim) {
  const Tensor a = from({1, 2}), b = from({3, 4});
  EXPECT_EQ(shape(stack({a, b})), DimVector({2, 2}));
  EXPECT_EQ(ints(stack({a, b}, 1)), I({1, 3, 2, 4}));
  EXPECT_EQ(ints(stack({a, b}, -1)), I({1, 3, 2, 4}));
  EXPECT_EQ(shape(stack({from({5}, {})})), DimVector({1}));
  expect_throw<Error>([&] { stack({a, from({1})}); }, "but got [2] at entry 0 and [1] at entry 1");
  expect_throw<IndexError>([&] { stack({a}, 2); }, "Dimension out of range");
  expect_throw<Error>([] { stack(std::vector<Tensor>{}); }, "expected a non-empty list");
}

TEST(HstackVstack, PromoteLowDimsFirst) {
  const Tensor s = from({7}, {}), v = from({1, 2});
  EXPECT_EQ(ints(hstack({s, v})), I({7, 1, 2}));
  EXPECT_EQ(shape(hstack({iota({2, 1}), iota({2, 2})})), DimVector({2, 3}));
  EXPECT_EQ(shape(vstack({v, v, iota({1, 2})})), DimVector({3, 2}));
  EXPECT_EQ(ints(vstack({s, s})), I({7, 7}));
  expect_throw<Error>([] { hstack(std::vector<Tensor>{}); }, "expected a non-empty list");
  expect_throw<Error>([] { vstack(std::vector<Tensor>{}); }, "expected a non-empty list");
}

TEST(Split, ViewsOfEqualSizesButTheLast) {
  const Tensor x = iota({5, 2});
  std::vector<Tensor> parts = split(x, 2);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(ints(parts[2]), I({8, 9}));
  for (const Tensor& p : parts) EXPECT_TRUE(p.base().is_same(x.base().defined() ? x.base() : x));
  EXPECT_EQ(parts[1].storage_offset(), 4);
  EXPECT_EQ(split(x, 1, 1).size(), 2u);
  EXPECT_EQ(split(empty({0}, DType::Int64), 0).size(), 1u);
  std::vector<Tensor> sized = split(x, IntArrayRef({1, 0, 4}), -2);
  ASSERT_EQ(sized.size(), 3u);
  EXPECT_EQ(shape(sized[1]), DimVector({0, 2}));
  EXPECT_EQ(ints(sized[2]), I({2, 3, 4, 5, 6, 7, 8, 9}));
  expect_throw<ValueError>([&] { split(x, -1); }, "split_size must be non-negative");
  expect_throw<Error>([&] { split(x, 0); }, "split_size can only be 0 if dimension size is 0");
  expect_throw<Error>([&] { split(x, IntArrayRef({2, 2})); }, "must sum exactly to 5");
  expect_throw<ValueError>([&] { split(x, IntArrayRef({-1, 6})); }, "non-negative entries");
  expect_throw<Error>([] { split(from({1}, {}), 1); }, "expects at least a 1-dimensional tensor");
}

TEST(Chunk, AtMostChunksViews) {
  const Tensor x = iota({6});
  EXPECT_EQ(chunk(x, 4).size(), 3u);  // chunks of 2 fill the dim first, as PyTorch
  EXPECT_EQ(ints(chunk(x, 4)[2]), I({4, 5}));
  EXPECT_EQ(chunk(x, 6).size(), 6u);
  EXPECT_EQ(chunk(x, 100).size(), 6u);
  EXPECT_EQ(chunk(empty({0, 2}, DType::Int64), 3).size(), 3u);
  expect_throw<ValueError>([&] { chunk(x, 0); }, "chunks must be greater than 0, got: 0");
  expect_throw<OutOfMemoryError>([] { chunk(empty({0}, DType::Int64), int64_t(1) << 62); }, "cannot make");
}

TEST(Unbind, SelectsEachIndex) {
  const Tensor x = iota({2, 3});
  std::vector<Tensor> cols = unbind(x, 1);
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(ints(cols[1]), I({1, 4}));
  EXPECT_EQ(cols[2].dim(), 1);
  EXPECT_TRUE(unbind(empty({0, 3}, DType::Int64)).empty());
  expect_throw<IndexError>([] { unbind(from({1}, {})); }, "Dimension specified as 0 but tensor has no dimensions");
}

}  // namespace
}  // namespace wick
