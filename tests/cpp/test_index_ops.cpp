// tests/cpp/test_index_ops.cpp: scatter_add, scatter_, put_, take and nonzero through their row loops, on sizes
// that split between threads, against plain loops (core/src/indexed_rows.h, core/src/row_chunks.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "helpers.h"
#include "wick/core_ops.h"
#include "wick/indexing.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/put.h"
#include "wick/ops/scatter.h"
#include "wick/ops/scatter_add.h"
#include "wick/ops/take.h"
#include "wick/ops/transpose.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT

// Values v(i) for i in [0, n).
template <typename F>
I values(int64_t n, F&& v) {
  I out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[size_t(i)] = v(i);
  return out;
}

TEST(IndexedRows, ScatterAddAlongAnOuterDimAddsRepeatsInOrder) {
  const int64_t rows = 200, cols = 300, targets = 4;  // the columns split between threads
  const I idx = values(rows * cols, [](int64_t i) { return (i * 7 + i / 300) % 4; });
  const I src = values(rows * cols, [](int64_t i) { return i % 11 - 5; });
  I expected(size_t(targets * cols), 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const size_t at = size_t(r * cols + c);
      expected[size_t(idx[at] * cols + c)] += src[at];
    }
  }
  Tensor self = zeros({targets, cols}, DType::Int64);
  scatter_add_(self, 0, from(idx, {rows, cols}), from(src, {rows, cols}));
  EXPECT_EQ(ints(self), expected);
}

TEST(IndexedRows, InPlaceWritesLeaveSelfUnchangedOnABadIndex) {
  // See Note [Bad indices leave self unchanged]: the bad index is the last of 200000.
  I idx = values(200000, [](int64_t i) { return i % 4; });
  idx.back() = 4;
  Tensor self = iota({4, 50000});
  expect_throw<IndexError>([&] { scatter_(self, 0, from(idx, {4, 50000}), Scalar(int64_t(-1))); },
                           "index 4 is out of bounds for dimension 0 with size 4");
  EXPECT_EQ(ints(self), ints(iota({4, 50000})));
  idx.back() = 200000;
  expect_throw<IndexError>([&] { put_(self, from(idx), zeros({200000}, DType::Int64), true); },
                           "tried to access index 200000 on a tensor of 200000 elements");
  EXPECT_EQ(ints(self), ints(iota({4, 50000})));
}

TEST(IndexedRows, TakeAndPutCountNegativeIndicesFromTheEnd) {
  Tensor self = transpose(iota({300, 200}), 0, 1);  // element (a, b) holds b * 200 + a
  EXPECT_EQ(ints(take(self, from({-1, 0, 59999, -60000, 200}))), I({59999, 0, 59999, 0, 40000}));
  Tensor x = contiguous(self);
  put_(self, from({-1, 0, -1}), from({5, 6, 7}), /*accumulate=*/true);
  EXPECT_EQ(ints(take(self, from({-1, 0}))), I({59999 + 5 + 7, 6}));
  put_(x, from({-1, 0, -1}), from({5, 6, 7}));
  EXPECT_EQ(ints(take(x, from({-1, 0}))), I({7, 6}));  // the last write wins
}

TEST(IndexedRows, NonzeroOfAStridedTensorAcrossChunks) {
  const int64_t n = 40000;
  Tensor m = transpose(from(values(n * 3, [](int64_t i) { return int64_t(i % 7 == 0); }), {n, 3}), 0, 1);
  I expected;
  for (int64_t r = 0; r < 3; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      if ((c * 3 + r) % 7 == 0) expected.insert(expected.end(), {r, c});
    }
  }
  EXPECT_EQ(ints(nonzero(m)), expected);
}

}  // namespace
}  // namespace wick
