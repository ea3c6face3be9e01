// tests/cpp/test_indexing.cpp: index, index_put_ and nonzero against hand-computed results.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "helpers.h"
#include "wick/core_ops.h"
#include "wick/indexing.h"
#include "wick/ops/expand.h"
#include "wick/ops/full.h"
#include "wick/ops/index_put.h"
#include "wick/ops/select.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT
using Indices = std::vector<std::optional<Tensor>>;


Tensor mask(const std::vector<int>& bits, const DimVector& shape) {
  return from(I(bits.begin(), bits.end()), shape, DType::Bool);
}

TEST(Index, OneIntegerTensorPicksAlongTheFirstDim) {
  Tensor x = iota({3, 4});
  Tensor r = index(x, {from({2, 0, 2, -1})});
  EXPECT_EQ(shape(r), DimVector({4, 4}));
  EXPECT_EQ(ints(r), I({8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11, 8, 9, 10, 11}));
  EXPECT_TRUE(r.is_contiguous());
  EXPECT_NE(r.storage(), x.storage());
}

TEST(Index, Int32IndicesAndLeadingFullSlices) {
  Tensor x = iota({3, 4});
  Tensor r = index(x, {std::nullopt, from({3, 0}, {2}, DType::Int32)});
  EXPECT_EQ(shape(r), DimVector({3, 2}));
  EXPECT_EQ(ints(r), I({3, 0, 7, 4, 11, 8}));
}

TEST(Index, IndicesBroadcastTogether) {
  Tensor x = iota({3, 4});
  Tensor r = index(x, {from({0, 2}, {2, 1}), from({1, 3, 0})});
  EXPECT_EQ(shape(r), DimVector({2, 3}));
  EXPECT_EQ(ints(r), I({1, 3, 0, 9, 11, 8}));
  expect_throw<IndexError>([&] { index(x, {from({0, 1}), from({0, 1, 2})}); },
                           "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]");
}

TEST(Index, AdjacentIndexedDimsStayInPlace) {
  Tensor x = iota({2, 3, 4});
  Tensor r = index(x, {std::nullopt, from({2, 0}), from({1, 1})});
  EXPECT_EQ(shape(r), DimVector({2, 2}));
  EXPECT_EQ(ints(r), I({9, 1, 21, 13}));
  Tensor m = index(x, {std::nullopt, from({0, 2}, {1, 2})});
  EXPECT_EQ(shape(m), DimVector({2, 1, 2, 4}));
}

TEST(Index, SeparatedIndexedDimsGoInFront) {
  Tensor x = iota({2, 3, 4});
  Tensor r = index(x, {from({1, 0}), std::nullopt, from({3, 0})});
  EXPECT_EQ(shape(r), DimVector({2, 3}));
  EXPECT_EQ(ints(r), I({15, 19, 23, 0, 4, 8}));
}

TEST(Index, ZeroDimIndexRemovesTheDim) {
  Tensor x = iota({3, 4});
  Tensor r = index(x, {std::nullopt, from({-2}, {})});
  EXPECT_EQ(shape(r), DimVector({3}));
  EXPECT_EQ(ints(r), I({2, 6, 10}));
}

TEST(Index, NoIndicesCopiesSelf) {
  Tensor x = transpose(iota({2, 3}), 0, 1);
  Tensor r = index(x, {});
  EXPECT_EQ(shape(r), DimVector({3, 2}));
  EXPECT_EQ(ints(r), I({0, 3, 1, 4, 2, 5}));
  EXPECT_NE(r.storage(), x.storage());
  EXPECT_EQ(ints(index(x, {std::nullopt, std::nullopt})), ints(r));
}

TEST(Index, MasksExpandToTheirCoordinates) {
  Tensor x = iota({2, 3});
  Tensor m = mask({1, 0, 1, 0, 0, 1}, {2, 3});
  EXPECT_EQ(ints(index(x, {m})), I({0, 2, 5}));
  Tensor rows = index(x, {mask({0, 1}, {2})});
  EXPECT_EQ(shape(rows), DimVector({1, 3}));
  EXPECT_EQ(ints(rows), I({3, 4, 5}));
  Tensor none = index(x, {mask({0, 0, 0, 0, 0, 0}, {2, 3})});
  EXPECT_EQ(shape(none), DimVector({0}));
  // A mask and an integer index broadcast together: two true rows pair with two columns.
  EXPECT_EQ(ints(index(x, {mask({1, 1}, {2}), from({2, 0})})), I({2, 3}));
}

TEST(Index, Uint8MasksWork) {
  Tensor x = iota({3});
  EXPECT_EQ(ints(index(x, {from({1, 0, 1}, {3}, DType::UInt8)})), I({0, 2}));
}

TEST(Index, ZeroDimMasksAddADim) {
  Tensor x = iota({2});
  Tensor yes = index(x, {mask({1}, {})});
  EXPECT_EQ(shape(yes), DimVector({1, 2}));
  EXPECT_EQ(ints(yes), I({0, 1}));
  EXPECT_EQ(shape(index(x, {mask({0}, {})})), DimVector({0, 2}));
  Tensor s = from({7}, {});
  EXPECT_EQ(shape(index(s, {mask({1}, {})})), DimVector({1}));
}

TEST(Index, EmptyIndexTensors) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(shape(index(x, {from({})})), DimVector({0, 4}));
  EXPECT_EQ(shape(index(x, {std::nullopt, from({}, {0, 2})})), DimVector({3, 0, 2}));
  EXPECT_EQ(shape(index(iota({0, 2}), {from({})})), DimVector({0, 2}));
}

TEST(Index, NonContiguousSelf) {
  Tensor x = transpose(iota({3, 4}), 0, 1);  // [4, 3]
  EXPECT_EQ(ints(index(x, {from({3, 1})})), I({3, 7, 11, 1, 5, 9}));
  Tensor stepped = slice(iota({6, 2}), 0, 1, std::nullopt, 2);  // rows 1, 3, 5
  EXPECT_EQ(ints(index(stepped, {from({2, 0}), from({1, 0})})), I({11, 2}));
  Tensor expanded = expand(iota({1, 3}), {4, 3});
  EXPECT_EQ(ints(index(expanded, {from({3}), from({2})})), I({2}));
}

TEST(Index, EveryDType) {
  const DType all[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                       DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};
  for (DType d : all) {
    Tensor x = to(from({0, 1, 2, 3, 4, 5}, {2, 3}), d);
    Tensor r = index(x, {std::nullopt, from({2, 0})});
    EXPECT_EQ(r.dtype(), d);
    const I expected = d == DType::Bool ? I({1, 0, 1, 1}) : I({2, 0, 5, 3});
    EXPECT_EQ(ints(r), expected) << dtype_name(d);
    index_put_(x, {from({1}), from({1})}, to(from({1}, {}), d), /*accumulate=*/true);
    EXPECT_EQ(ints(x)[4], d == DType::Bool ? 1 : 5) << dtype_name(d);
  }
}

TEST(Index, BadIndicesThrow) {
  Tensor x = iota({3, 4});
  expect_throw<IndexError>([&] { index(x, {from({5})}); }, "index 5 is out of bounds for dimension 0 with size 3");
  expect_throw<IndexError>([&] { index(x, {std::nullopt, from({-5})}); },
                           "index -5 is out of bounds for dimension 1 with size 4");
  expect_throw<IndexError>([&] { index(x, {from({0}, {1}, DType::Float32)}); },
                           "tensors used as indices must be long, int, byte or bool tensors");
  expect_throw<IndexError>([&] { index(x, {from({0}, {1}, DType::Int16)}); }, "must be long, int, byte or bool");
  expect_throw<IndexError>([&] { index(x, {mask({1, 0}, {2})}); },
                           "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
                           "[3, 4] at index 0");
  expect_throw<IndexError>([&] { index(x, {std::nullopt, mask({1, 0, 1, 1, 1}, {5})}); }, "at index 1");
  expect_throw<IndexError>([&] { index(x, {from({0}), from({0}), from({0})}); }, "too many indices");
  expect_throw<IndexError>([&] { index(x, {mask({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {3, 4}), from({0})}); },
                           "too many indices");
  expect_throw<IndexError>([&] { index(iota({0}), {from({0})}); },
                           "index 0 is out of bounds for dimension 0 with size 0");
  expect_throw<ValueError>([&] { index(Tensor(), {}); }, "expected a tensor");
}

TEST(IndexPut, WritesAtThePositions) {
  Tensor x = zeros({3, 3}, DType::Int64);
  index_put_(x, {from({0, 2}), from({1, 0})}, from({7, 8}), false);
  EXPECT_EQ(ints(x), I({0, 7, 0, 0, 0, 0, 8, 0, 0}));
  index_put_(x, {std::nullopt, from({2})}, from({-1}, {}), false);  // broadcast to [3, 1]
  EXPECT_EQ(ints(x), I({0, 7, -1, 0, 0, -1, 8, 0, -1}));
  index_put_(x, {mask({0, 1, 0}, {3})}, from({4, 5, 6}), false);
  EXPECT_EQ(ints(x), I({0, 7, -1, 4, 5, 6, 8, 0, -1}));
}

TEST(IndexPut, RepeatedIndicesLastWinsOrAccumulate) {
  Tensor x = zeros({4}, DType::Float32);
  index_put_(x, {from({1, 1, 3, 1})}, from({1, 2, 3, 4}, {4}, DType::Float32), false);
  EXPECT_EQ(ints(x), I({0, 4, 0, 3}));
  Tensor y = zeros({4}, DType::Float32);
  index_put_(y, {from({1, 1, 3, 1})}, from({1, 2, 3, 4}, {4}, DType::Float32), true);
  EXPECT_EQ(ints(y), I({0, 7, 0, 3}));
  index_put_(y, {from({0, 0, 0})}, scalar_tensor(Scalar(0.5), DType::Float32), true);
  EXPECT_FLOAT_EQ(y.data<float>()[0], 1.5f);
  Tensor b = zeros({2}, DType::Bool);
  index_put_(b, {from({0, 0})}, mask({1, 1}, {2}), true);
  EXPECT_EQ(ints(b), I({1, 0}));
}

TEST(IndexPut, WritesThroughViewsAndReturnsSelf) {
  Tensor base = zeros({2, 3}, DType::Int32);
  Tensor col = select(base, 1, 1);  // non-contiguous view
  EXPECT_TRUE(index_put_(col, {from({1})}, scalar_tensor(Scalar(2), DType::Int32), false).is_same(col));
  EXPECT_EQ(ints(base), I({0, 0, 0, 0, 2, 0}));
}

TEST(IndexPut, ValuesMustHaveTheDTypeOfSelf) {
  Tensor x = zeros({3}, DType::Int32);
  expect_throw<TypeError>([&] { index_put_(x, {from({1})}, scalar_tensor(Scalar(2.9), DType::Float64), false); },
                          "Index put requires the source and destination dtypes match, got Int for the destination "
                          "and Double for the source.");
  EXPECT_EQ(ints(x), I({0, 0, 0}));
}

TEST(IndexPut, FunctionalFormLeavesSelfAlone) {
  Tensor x = iota({2, 2});
  Tensor r = index_put(x, {std::nullopt, from({1, 1})}, from({5}, {}), true);
  EXPECT_EQ(ints(r), I({0, 11, 2, 13}));
  EXPECT_EQ(ints(x), I({0, 1, 2, 3}));
}

TEST(IndexPut, ValuesOverlappingSelfAreReadFirst) {
  Tensor x = iota({5});
  index_put_(x, {from({4, 3, 2, 1, 0})}, x, false);
  EXPECT_EQ(ints(x), I({4, 3, 2, 1, 0}));
}

TEST(IndexPut, BadCallsThrowAndLeaveSelfAlone) {
  Tensor x = iota({3});
  expect_throw<Error>([&] { index_put_(x, {from({0, 1})}, from({1, 2, 3}), false); },
                      "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2]");
  expect_throw<IndexError>([&] { index_put_(x, {from({0, 3})}, from({9}, {}), false); }, "index 3 is out of bounds");
  EXPECT_EQ(ints(x), I({0, 1, 2}));
  expect_throw<Error>([&] { index_put_(expand(iota({1}), {3}), {from({0})}, from({9}, {}), false); },
                      "single memory location");
}

TEST(Nonzero, CoordinatesInRowMajorOrder) {
  Tensor m = from({0, 3, 0, -1, 0, 2}, {2, 3});
  Tensor nz = nonzero(m);
  EXPECT_EQ(nz.dtype(), DType::Int64);
  EXPECT_EQ(shape(nz), DimVector({3, 2}));
  EXPECT_EQ(ints(nz), I({0, 1, 1, 0, 1, 2}));
  EXPECT_EQ(ints(nonzero(transpose(m, 0, 1))), I({0, 1, 1, 0, 2, 1}));
}

TEST(Nonzero, EdgeCases) {
  EXPECT_EQ(shape(nonzero(from({5}, {}))), DimVector({1, 0}));
  EXPECT_EQ(shape(nonzero(from({0}, {}))), DimVector({0, 0}));
  EXPECT_EQ(shape(nonzero(zeros({0, 3}))), DimVector({0, 2}));
  EXPECT_EQ(shape(nonzero(zeros({2, 2}, DType::Bool))), DimVector({0, 2}));
  Tensor f = full({3}, Scalar(std::nan("")), DType::Float16);
  EXPECT_EQ(ints(nonzero(f)), I({0, 1, 2}));  // NaN is nonzero
  EXPECT_EQ(ints(nonzero(mask({0, 1, 1}, {3}))), I({1, 2}));
}

}  // namespace
}  // namespace wick
