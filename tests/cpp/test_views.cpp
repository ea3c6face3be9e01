// tests/cpp/test_views.cpp: view ops share storage with the right geometry; copies (reshape, contiguous, clone) do not.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/add.h"
#include "wick/ops/arange.h"
#include "wick/ops/clone.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/expand.h"
#include "wick/ops/fill_.h"
#include "wick/ops/narrow.h"
#include "wick/ops/permute.h"
#include "wick/ops/reshape.h"
#include "wick/ops/select.h"
#include "wick/ops/squeeze.h"
#include "wick/ops/t.h"
#include "wick/ops/transpose.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/view.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

// The elements of `t` in row-major order, read by walking its strides by hand
// so that the checks do not depend on wick's own copy kernels.
template <typename T>
std::vector<T> elements(const Tensor& t) {
  std::vector<T> out;
  if (t.numel() == 0) return out;
  const T* base = t.data<T>();
  DimVector index(size_t(t.dim()), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[size_t(d)] * t.stride(d);
    out.push_back(base[offset]);
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[size_t(d)] < t.size(d)) break;
      index[size_t(d)] = 0;
    }
  }
  return out;
}

// arange(n) as int64, reshaped: element i holds i.
Tensor iota(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return view(arange(n, DType::Int64), shape);
}

void expect_geometry(const Tensor& t, const DimVector& sizes, const DimVector& strides, int64_t offset) {
  EXPECT_EQ(t.sizes().vec(), sizes);
  EXPECT_EQ(t.strides().vec(), strides);
  EXPECT_EQ(t.storage_offset(), offset);
}

using I = std::vector<int64_t>;

TEST(View, InfersMinusOne) {
  Tensor x = arange(12, DType::Float32);
  Tensor v = view(x, {3, -1});
  expect_geometry(v, {3, 4}, {4, 1}, 0);
  EXPECT_EQ(v.storage(), x.storage());
  expect_geometry(view(x, {-1}), {12}, {1}, 0);
  expect_geometry(view(x, {2, -1, 3}), {2, 2, 3}, {6, 3, 1}, 0);
  expect_geometry(view(x, {1, 12, 1}), {1, 12, 1}, {12, 1, 1}, 0);
}

TEST(View, BadShapesThrow) {
  Tensor x = arange(12, DType::Float32);
  EXPECT_THROW(view(x, {-1, -1}), Error);
  EXPECT_THROW(view(x, {5, -1}), Error);
  EXPECT_THROW(view(x, {5, 2}), Error);
  EXPECT_THROW(view(x, {-2, 6}), Error);
}

TEST(View, ZeroDimAndOneElement) {
  Tensor s = scalar_tensor(Scalar(3.5), DType::Float64);
  Tensor v = view(s, {1, 1});
  expect_geometry(v, {1, 1}, {1, 1}, 0);
  EXPECT_EQ(elements<double>(v), std::vector<double>{3.5});
  Tensor back = view(v, {});
  EXPECT_EQ(back.dim(), 0);
  EXPECT_EQ(back.numel(), 1);
}

TEST(Reshape, ZeroDimToOneElementShapes) {
  Tensor s = scalar_tensor(Scalar(int64_t(4)), DType::Int64);
  Tensor r = reshape(s, {-1});
  expect_geometry(r, {1}, {1}, 0);
  EXPECT_EQ(r.storage(), s.storage());  // a 0-d tensor is always viewable
  EXPECT_EQ(reshape(s, {1, 1, 1}).numel(), 1);
  EXPECT_THROW(reshape(s, {2}), Error);
}

TEST(View, NonContiguousThatCannotBeViewedThrows) {
  Tensor tr = transpose(iota({3, 4}), 0, 1);  // sizes {4, 3}, strides {1, 4}
  ASSERT_FALSE(tr.is_contiguous());
  EXPECT_THROW(view(tr, {12}), Error);
  EXPECT_THROW(view(tr, {3, 4}), Error);
}

TEST(View, NonContiguousThatCanBeViewedSplitsADim) {
  // Dim 0 of the transpose (size 4, stride 1) is contiguous on its own, so it may be split.
  Tensor x = iota({3, 4});
  Tensor tr = transpose(x, 0, 1);
  Tensor v = view(tr, {2, 2, 3});
  expect_geometry(v, {2, 2, 3}, {2, 1, 4}, 0);
  EXPECT_EQ(v.storage(), x.storage());
  EXPECT_EQ(elements<int64_t>(v), elements<int64_t>(contiguous(tr)));
}

TEST(View, NarrowedTensorSplitsButDoesNotMerge) {
  Tensor n = narrow(iota({4, 4}), 1, 0, 2);  // {4, 2}, strides {4, 1}
  expect_geometry(view(n, {2, 2, 2}), {2, 2, 2}, {8, 4, 1}, 0);
  expect_geometry(view(n, {4, 2, 1}), {4, 2, 1}, {4, 1, 1}, 0);
  EXPECT_THROW(view(n, {8}), Error);
  Tensor r = reshape(n, {8});
  EXPECT_NE(r.storage(), n.storage());
  EXPECT_EQ(elements<int64_t>(r), (I{0, 1, 4, 5, 8, 9, 12, 13}));
}

TEST(View, EmptyTensorsAreContiguous) {
  // As in PyTorch, a tensor without elements is contiguous whatever its strides,
  // so contiguous() has nothing to copy.
  Tensor x = iota({3, 4});
  Tensor none = narrow(x, 1, 0, 0);  // {3, 0}
  EXPECT_EQ(none.numel(), 0);
  EXPECT_TRUE(none.is_contiguous());
  EXPECT_TRUE(contiguous(none).is_same(none));
  EXPECT_TRUE(slice(x, 0, 5, std::nullopt, 1).is_contiguous());
}

TEST(Reshape, ViewsWhenItCanAndCopiesWhenItCannot) {
  Tensor x = iota({3, 4});
  Tensor r = reshape(x, {4, -1});
  expect_geometry(r, {4, 3}, {3, 1}, 0);
  EXPECT_EQ(r.storage(), x.storage());

  Tensor tr = transpose(x, 0, 1);
  Tensor c = reshape(tr, {-1});
  EXPECT_NE(c.storage(), x.storage());
  expect_geometry(c, {12}, {1}, 0);
  EXPECT_EQ(elements<int64_t>(c), (I{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // The copy is independent of its source.
  fill_(c, 0);
  EXPECT_EQ(x.data<int64_t>()[1], 1);
  EXPECT_THROW(reshape(x, {5, -1}), Error);
}

TEST(Transpose, SwapsSizesAndStrides) {
  Tensor x = iota({2, 3, 4});
  Tensor tr = transpose(x, 0, 2);
  expect_geometry(tr, {4, 3, 2}, {1, 4, 12}, 0);
  EXPECT_EQ(tr.storage(), x.storage());
  EXPECT_FALSE(tr.is_contiguous());
  expect_geometry(transpose(x, -1, 1), {2, 4, 3}, {12, 1, 4}, 0);
  expect_geometry(transpose(x, 1, 1), {2, 3, 4}, {12, 4, 1}, 0);
  // Element [i][j][k] of the transpose is element [k][j][i] of x.
  EXPECT_EQ(elements<int64_t>(tr)[size_t(1 * 6 + 2 * 2 + 1)], 1 * 12 + 2 * 4 + 1);
}

TEST(Transpose, TOnTwoOneAndThreeDims) {
  Tensor m = iota({2, 3});
  Tensor mt = t(m);
  expect_geometry(mt, {3, 2}, {1, 3}, 0);
  EXPECT_EQ(elements<int64_t>(mt), (I{0, 3, 1, 4, 2, 5}));
  Tensor v = iota({5});
  expect_geometry(t(v), {5}, {1}, 0);
  EXPECT_EQ(t(v).storage(), v.storage());
  EXPECT_THROW(t(iota({2, 2, 2})), Error);
}

TEST(Permute, ReordersDims) {
  Tensor x = iota({2, 3, 4});
  Tensor p = permute(x, {2, 0, 1});
  expect_geometry(p, {4, 2, 3}, {1, 12, 4}, 0);
  EXPECT_EQ(p.storage(), x.storage());
  // p[k][i][j] == x[i][j][k]
  EXPECT_EQ(elements<int64_t>(p)[size_t(3 * 6 + 1 * 3 + 2)], 1 * 12 + 2 * 4 + 3);
  expect_geometry(permute(x, {-1, -2, -3}), {4, 3, 2}, {1, 4, 12}, 0);
  EXPECT_THROW(permute(x, {0, 0, 1}), Error);
  EXPECT_THROW(permute(x, {0, 1}), Error);
  EXPECT_THROW(permute(x, {0, 1, 3}), IndexError);
}

TEST(Narrow, OffsetsIntoTheStorage) {
  Tensor x = iota({3, 4});
  Tensor n = narrow(x, 1, 1, 2);
  expect_geometry(n, {3, 2}, {4, 1}, 1);
  EXPECT_EQ(n.storage(), x.storage());
  EXPECT_FALSE(n.is_contiguous());
  EXPECT_EQ(elements<int64_t>(n), (I{1, 2, 5, 6, 9, 10}));

  Tensor rows = narrow(x, 0, -2, 2);  // a negative start counts from the end
  expect_geometry(rows, {2, 4}, {4, 1}, 4);
  EXPECT_TRUE(rows.is_contiguous());

  EXPECT_EQ(narrow(x, 0, 3, 0).sizes().vec(), (DimVector{0, 4}));  // start == size is allowed when empty
  EXPECT_THROW(narrow(x, 1, 3, 2), Error);
  EXPECT_THROW(narrow(x, 1, 5, 0), IndexError);
  EXPECT_THROW(narrow(x, 1, 0, -1), Error);
}

TEST(Select, DropsADim) {
  Tensor x = iota({3, 4});
  Tensor row = select(x, 0, 1);
  expect_geometry(row, {4}, {1}, 4);
  EXPECT_EQ(elements<int64_t>(row), (I{4, 5, 6, 7}));
  Tensor col = select(x, 1, -1);
  expect_geometry(col, {3}, {4}, 3);
  EXPECT_EQ(elements<int64_t>(col), (I{3, 7, 11}));
  Tensor elem = select(col, 0, 2);
  expect_geometry(elem, {}, {}, 11);
  EXPECT_EQ(*elem.data<int64_t>(), 11);

  EXPECT_THROW(select(x, 0, 3), IndexError);
  EXPECT_THROW(select(x, 1, -5), IndexError);
  EXPECT_THROW(select(elem, 0, 0), IndexError);
}

TEST(Slice, StepsAndClamping) {
  Tensor x = iota({10});
  Tensor s = slice(x, 0, 1, 8, 3);
  expect_geometry(s, {3}, {3}, 1);
  EXPECT_EQ(elements<int64_t>(s), (I{1, 4, 7}));
  EXPECT_EQ(s.storage(), x.storage());

  EXPECT_EQ(elements<int64_t>(slice(x, 0, std::nullopt, std::nullopt, 2)), (I{0, 2, 4, 6, 8}));
  EXPECT_EQ(elements<int64_t>(slice(x, 0, -3, std::nullopt, 1)), (I{7, 8, 9}));
  EXPECT_EQ(elements<int64_t>(slice(x, 0, 8, 100, 1)), (I{8, 9}));
  EXPECT_EQ(elements<int64_t>(slice(x, 0, -100, 2, 1)), (I{0, 1}));
  EXPECT_EQ(elements<int64_t>(slice(x, 0, 2, 10, 4)), (I{2, 6}));
  EXPECT_EQ(slice(x, 0, 6, 3, 1).numel(), 0);  // start past end: empty, not negative
  EXPECT_EQ(slice(x, 0, 9, 10, 5).numel(), 1);
  EXPECT_THROW(slice(x, 0, 0, 5, 0), ValueError);
  EXPECT_THROW(slice(x, 0, 0, 5, -1), ValueError);
  EXPECT_THROW(slice(x, 1, 0, 5, 1), IndexError);
}

TEST(Slice, AlongAnInnerDimWithSteps) {
  Tensor x = iota({3, 5});
  Tensor s = slice(slice(x, 1, 0, std::nullopt, 2), 0, 1, std::nullopt, 1);
  expect_geometry(s, {2, 3}, {5, 2}, 5);
  EXPECT_EQ(elements<int64_t>(s), (I{5, 7, 9, 10, 12, 14}));
}

TEST(Expand, BroadcastsWithStrideZero) {
  Tensor col = iota({3, 1});
  Tensor e = expand(col, {3, 4});
  expect_geometry(e, {3, 4}, {1, 0}, 0);
  EXPECT_EQ(e.storage(), col.storage());
  EXPECT_FALSE(e.is_contiguous());
  EXPECT_EQ(elements<int64_t>(e), (I{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));

  Tensor lead = expand(col, {2, -1, 2});  // a new leading dim and -1 to keep one
  expect_geometry(lead, {2, 3, 2}, {0, 1, 0}, 0);

  // A write to the base shows through every broadcast copy.
  col.data<int64_t>()[1] = 42;
  EXPECT_EQ(elements<int64_t>(e)[5], 42);
  EXPECT_EQ(elements<int64_t>(e)[7], 42);

  EXPECT_THROW(expand(col, {3, 4, 5}), Error);  // existing size 3 cannot become 4
  EXPECT_THROW(expand(iota({3}), {2}), Error);
  EXPECT_THROW(expand(iota({2, 3}), {3}), Error);
  EXPECT_THROW(expand(col, {-1, 3, 4}), Error);
}

TEST(Squeeze, RemovesSizeOneDims) {
  Tensor x = iota({1, 3, 1, 2});
  expect_geometry(squeeze(x), {3, 2}, {2, 1}, 0);
  expect_geometry(squeeze(x, 0), {3, 1, 2}, {2, 2, 1}, 0);
  expect_geometry(squeeze(x, -2), {1, 3, 2}, {6, 2, 1}, 0);
  expect_geometry(squeeze(x, 1), {1, 3, 1, 2}, {6, 2, 2, 1}, 0);  // size 3: unchanged
  EXPECT_EQ(squeeze(x).storage(), x.storage());
  EXPECT_THROW(squeeze(x, 4), IndexError);
  Tensor one = iota({1, 1});
  expect_geometry(squeeze(one), {}, {}, 0);
}

TEST(Unsqueeze, InsertsSizeOneDims) {
  Tensor x = iota({3, 4});
  expect_geometry(unsqueeze(x, 0), {1, 3, 4}, {12, 4, 1}, 0);
  expect_geometry(unsqueeze(x, 1), {3, 1, 4}, {4, 4, 1}, 0);
  expect_geometry(unsqueeze(x, 2), {3, 4, 1}, {4, 1, 1}, 0);
  expect_geometry(unsqueeze(x, -1), {3, 4, 1}, {4, 1, 1}, 0);
  EXPECT_TRUE(unsqueeze(x, 1).is_contiguous());
  EXPECT_THROW(unsqueeze(x, 3), IndexError);
  EXPECT_THROW(unsqueeze(x, -4), IndexError);
  Tensor s = scalar_tensor(Scalar(int64_t(1)), DType::Int64);
  expect_geometry(unsqueeze(s, 0), {1}, {1}, 0);
}

TEST(Contiguous, ReturnsSameHandleWhenAlreadyContiguous) {
  Tensor x = iota({3, 4});
  EXPECT_TRUE(contiguous(x).is_same(x));
  Tensor rows = narrow(x, 0, 1, 2);
  EXPECT_TRUE(contiguous(rows).is_same(rows));

  Tensor tr = transpose(x, 0, 1);
  Tensor c = contiguous(tr);
  EXPECT_FALSE(c.is_same(tr));
  EXPECT_NE(c.storage(), x.storage());
  expect_geometry(c, {4, 3}, {3, 1}, 0);
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(elements<int64_t>(c), elements<int64_t>(tr));
  EXPECT_EQ(elements<int64_t>(c), (I{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(Clone, CopiesIntoNewStorage) {
  Tensor x = iota({2, 3});
  Tensor c = clone(x);
  EXPECT_NE(c.storage(), x.storage());
  EXPECT_FALSE(c.is_same(x));
  expect_geometry(c, {2, 3}, {3, 1}, 0);
  EXPECT_EQ(elements<int64_t>(c), elements<int64_t>(x));
  fill_(c, -1);
  EXPECT_EQ(elements<int64_t>(x), (I{0, 1, 2, 3, 4, 5}));

  // A clone of a strided view is a compact copy of just the viewed elements.
  Tensor sv = clone(slice(iota({10}), 0, 1, std::nullopt, 4));
  expect_geometry(sv, {3}, {1}, 0);
  EXPECT_EQ(sv.storage()->nbytes(), 3 * sizeof(int64_t));
  EXPECT_EQ(elements<int64_t>(sv), (I{1, 5, 9}));
}

TEST(ViewWrites, AreVisibleInTheBase) {
  Tensor x = zeros({3, 4}, DType::Int64);
  fill_(select(x, 0, 1), 7);
  fill_(narrow(x, 1, 3, 1), 9);
  add_(transpose(x, 0, 1), Scalar(int64_t(100)));
  fill_(slice(select(x, 0, 2), 0, 0, std::nullopt, 2), -5);
  EXPECT_EQ(elements<int64_t>(x), (I{100, 100, 100, 109,    //
                                     107, 107, 107, 109,    //
                                     -5, 100, -5, 109}));
  Tensor flat = view(x, {12});
  flat.data<int64_t>()[0] = 1;
  EXPECT_EQ(x.data<int64_t>()[0], 1);
  copy_(unsqueeze(select(x, 1, 1), 0), iota({1, 3}));
  EXPECT_EQ(elements<int64_t>(select(x, 1, 1)), (I{0, 1, 2}));
}

}  // namespace
}  // namespace wick
