// tests/cpp/test_linalg.cpp: matrix products (BLAS and loop paths, strides, broadcast batches), the factories
// of creation.yaml and the conversions of conversion.yaml, through the C++ API alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/addbmm.h"
#include "wick/ops/addmm.h"
#include "wick/ops/arange.h"
#include "wick/ops/baddbmm.h"
#include "wick/ops/bmm.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/detach.h"
#include "wick/ops/detach_.h"
#include "wick/ops/dot.h"
#include "wick/ops/empty.h"
#include "wick/ops/empty_like_with.h"
#include "wick/ops/expand.h"
#include "wick/ops/eye.h"
#include "wick/ops/full.h"
#include "wick/ops/full_like.h"
#include "wick/ops/linspace.h"
#include "wick/ops/logspace.h"
#include "wick/ops/manual_seed.h"
#include "wick/ops/matmul.h"
#include "wick/ops/mm.h"
#include "wick/ops/ones.h"
#include "wick/ops/outer.h"
#include "wick/ops/rand_like.h"
#include "wick/ops/randint.h"
#include "wick/ops/randperm.h"
#include "wick/ops/t.h"
#include "wick/ops/to.h"
#include "wick/ops/to_bfloat16.h"
#include "wick/ops/to_bool.h"
#include "wick/ops/to_byte.h"
#include "wick/ops/to_char.h"
#include "wick/ops/to_double.h"
#include "wick/ops/to_float.h"
#include "wick/ops/to_half.h"
#include "wick/ops/to_int.h"
#include "wick/ops/to_long.h"
#include "wick/ops/to_short.h"
#include "wick/ops/transpose.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/zeros_like.h"

namespace wick {
namespace {

// The elements of `t` in row-major order as double, read through a contiguous float64 copy.
std::vector<double> values(const Tensor& t) {
  Tensor c = contiguous(to(t, DType::Float64));
  return std::vector<double>(c.data<double>(), c.data<double>() + c.numel());
}

// A tensor of `shape` holding 0, 1, 2, 3, 0, 1, ... in `dtype`: small enough that every product here is
// exact in bfloat16 and uint8.
Tensor iota(IntArrayRef shape, DType dtype) {
  Tensor t = empty(shape, DType::Int64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<int64_t>()[i] = i % 4;
  return to(t, dtype);
}

// The reference product of row-major (b x n x k) and (b x k x m) value arrays, batch by batch.
std::vector<double> naive_bmm(const std::vector<double>& a, const std::vector<double>& b, int64_t batch, int64_t n,
                              int64_t k, int64_t m) {
  std::vector<double> out(size_t(batch * n * m), 0.0);
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < m; ++c)
        for (int64_t p = 0; p < k; ++p)
          out[size_t((i * n + r) * m + c)] += a[size_t((i * n + r) * k + p)] * b[size_t((i * k + p) * m + c)];
  return out;
}

class Products : public ::testing::TestWithParam<DType> {};

TEST_P(Products, BmmOfTransposedOperandsMatchesTheReference) {
  const DType dtype = GetParam();
  // Transposed views: BLAS reads them in place with a transpose flag; the loop through strides.
  const Tensor a = transpose(iota({2, 4, 3}, dtype), 1, 2);  // 2 x 3 x 4
  const Tensor b = transpose(iota({2, 5, 4}, dtype), 1, 2);  // 2 x 4 x 5
  ASSERT_FALSE(a.is_contiguous());
  const Tensor r = bmm(a, b);
  EXPECT_EQ(r.dtype(), dtype);
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 3, 5}));
  EXPECT_EQ(values(r), naive_bmm(values(a), values(b), 2, 3, 4, 5));
}

TEST_P(Products, MatmulBroadcastsBatchDimsWithoutExpanding) {
  const DType dtype = GetParam();
  const Tensor a = iota({2, 1, 2, 3}, dtype);
  const Tensor b = iota({4, 3, 2}, dtype);
  const Tensor r = matmul(a, b);
  ASSERT_EQ(r.sizes(), IntArrayRef({2, 4, 2, 2}));
  const std::vector<double> av = values(a), bv = values(b), rv = values(r);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      const std::vector<double> want = naive_bmm(std::vector<double>(av.begin() + i * 6, av.begin() + i * 6 + 6),
                                                 std::vector<double>(bv.begin() + j * 6, bv.begin() + j * 6 + 6),
                                                 1, 2, 3, 2);
      EXPECT_EQ(std::vector<double>(rv.begin() + (i * 4 + j) * 4, rv.begin() + (i * 4 + j) * 4 + 4), want)
          << "batch " << i << ", " << j;
    }
  }
}

TEST_P(Products, OneDimensionalOperandsDropTheirDim) {
  const DType dtype = GetParam();
  const Tensor v = iota({3}, dtype), m = iota({3, 2}, dtype), batch = iota({4, 2, 3}, dtype);
  EXPECT_EQ(matmul(v, v).dim(), 0);
  EXPECT_EQ(values(matmul(v, v)), std::vector<double>({5}));
  EXPECT_EQ(values(matmul(v, m)), std::vector<double>({2, 5}));  // [0 1 2] @ [[0 1] [2 3] [0 1]]
  EXPECT_EQ(matmul(batch, v).sizes(), IntArrayRef({4, 2}));
  EXPECT_EQ(matmul(v, transpose(batch, 1, 2)).sizes(), IntArrayRef({4, 2}));
  EXPECT_EQ(values(dot(v, v)), std::vector<double>({5}));
}

TEST_P(Products, AddmmScalesSelfAndProduct) {
  const DType dtype = GetParam();
  const Tensor self = ones({2, 2}, dtype), a = iota({2, 3}, dtype), b = iota({3, 2}, dtype);
  // a = [[0 1 2] [3 0 1]], b = [[0 1] [2 3] [0 1]]: a @ b = [[2, 5], [0, 4]]
  EXPECT_EQ(values(addmm(self, a, b, 2, 3)), std::vector<double>({8, 17, 2, 14}));
  EXPECT_EQ(values(addmm(self, a, b, 0, 1)), std::vector<double>({2, 5, 0, 4}));
  const Tensor c = ones({2, 2}, dtype);
  EXPECT_TRUE(addmm_(c, a, b).is_same(c));
  EXPECT_EQ(values(c), std::vector<double>({3, 6, 1, 5}));
  // addbmm sums the batch: two copies of a @ b, read through a batch stride of 0.
  const Tensor a2 = expand(unsqueeze(a, 0), {2, 2, 3}), b2 = expand(unsqueeze(b, 0), {2, 3, 2});
  EXPECT_EQ(values(addbmm(self, a2, b2, 1, 1)), std::vector<double>({5, 11, 1, 9}));
  EXPECT_EQ(values(baddbmm(self, a2, b2, 1, 1)), std::vector<double>({3, 6, 1, 5, 3, 6, 1, 5}));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, Products,
                         ::testing::Values(DType::Float32, DType::Float64, DType::Int64, DType::Int32, DType::UInt8,
                                           DType::Float16, DType::BFloat16),
                         [](const ::testing::TestParamInfo<DType>& info) { return dtype_name(info.param); });

TEST(Linalg, SlicedOperandsAreCopiedForBlas) {
  const Tensor base = iota({4, 6}, DType::Float64);
  const Tensor a = slice(base, 1, 0, 6, 2);  // 4 x 3 with a column stride of 2: no BLAS layout
  const Tensor b = slice(t(base), 0, 0, 6, 2);  // 3 x 4, likewise
  EXPECT_EQ(values(mm(a, b)), naive_bmm(values(a), values(b), 1, 4, 3, 4));
}

TEST(Linalg, BetaZeroIgnoresNaN) {
  const Tensor self = full({2, 2}, Scalar(std::numeric_limits<double>::quiet_NaN()), DType::Float32);
  EXPECT_EQ(values(addmm(self, ones({2, 3}), ones({3, 2}), 0, 1)), std::vector<double>({3, 3, 3, 3}));
}

TEST(Linalg, EmptyDims) {
  EXPECT_EQ(values(mm(ones({2, 0}), ones({0, 3}))), std::vector<double>(6, 0.0));
  EXPECT_EQ(bmm(ones({0, 2, 3}), ones({0, 3, 4})).sizes(), IntArrayRef({0, 2, 4}));
  EXPECT_EQ(values(addbmm(ones({2}), ones({0, 2, 3}), ones({0, 3, 2}), 3, 1)), std::vector<double>(4, 3.0));
}

TEST(Linalg, ErrorsHaveTheirTypes) {
  EXPECT_THROW(matmul(ones({}), ones({2})), Error);
  EXPECT_THROW(matmul(ones({2, 3}), ones({3, 2}, DType::Float64)), TypeError);
  EXPECT_THROW(matmul(ones({2, 3}, DType::Bool), ones({3, 2}, DType::Bool)), TypeError);
  EXPECT_THROW(bmm(ones({2, 3}), ones({2, 3, 2})), Error);
  EXPECT_THROW(dot(ones({2}), ones({3})), Error);
  EXPECT_THROW(outer(ones({2, 2}), ones({2})), Error);
  EXPECT_THROW(addmm(ones({3}), ones({2, 3}), ones({3, 4})), Error);
  EXPECT_THROW(addmm(ones({2}, DType::Int8), ones({2, 2}, DType::Int8), ones({2, 2}, DType::Int8), 1, 128), Error);
}

TEST(Linalg, OuterPromotes) {
  const Tensor r = outer(arange(3, DType::Int64), ones({2}, DType::Float32));
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(values(r), std::vector<double>({0, 0, 1, 1, 2, 2}));
}

TEST(Factories, LinspaceLogspaceEye) {
  EXPECT_EQ(values(linspace(0, 10, 5)), std::vector<double>({0, 2.5, 5, 7.5, 10}));
  EXPECT_EQ(linspace(0, 10, 5).dtype(), DType::Float32);
  EXPECT_EQ(values(linspace(-7, 3, 4, DType::Int64)), std::vector<double>({-7, -3, 0, 3}));
  EXPECT_EQ(values(logspace(0, 3, 4, 2.0, DType::Float64)), std::vector<double>({1, 2, 4, 8}));
  EXPECT_EQ(values(eye(2, 3)), std::vector<double>({1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values(eye(2, DType::Int8)), std::vector<double>({1, 0, 0, 1}));
  EXPECT_THROW(linspace(0, 1, -1), ValueError);
  EXPECT_THROW(eye(-1), ValueError);
}

TEST(Factories, RandintOverloadsAndSeeding) {
  manual_seed(7);
  const Tensor a = randint(10, {100});      // randint(high, size)
  const Tensor b = randint(5, 8, {2, 50});  // randint(low, high, size)
  EXPECT_EQ(a.dtype(), DType::Int64);
  const std::vector<double> av = values(a), bv = values(b);
  EXPECT_EQ(*std::min_element(av.begin(), av.end()), 0);
  EXPECT_EQ(*std::max_element(av.begin(), av.end()), 9);
  EXPECT_EQ(*std::min_element(bv.begin(), bv.end()), 5);
  EXPECT_EQ(*std::max_element(bv.begin(), bv.end()), 7);
  manual_seed(7);
  EXPECT_EQ(values(randint(10, {100})), av);
  EXPECT_THROW(randint(3, 3, {1}), ValueError);
  EXPECT_THROW(randint(0, 257, {1}, DType::UInt8), ValueError);
}

TEST(Factories, RandpermIsAPermutation) {
  std::vector<double> p = values(randperm(100));
  std::sort(p.begin(), p.end());
  std::vector<double> want(100);
  std::iota(want.begin(), want.end(), 0.0);
  EXPECT_EQ(p, want);
  EXPECT_THROW(randperm(-1), ValueError);
  EXPECT_THROW(randperm(2, DType::Bool), TypeError);
}

TEST(Factories, LikeKeepsLayoutDtypeAndDevice) {
  const Tensor x = t(ones({3, 4}, DType::Int16));
  const Tensor z = zeros_like(x);
  EXPECT_EQ(z.dtype(), DType::Int16);
  EXPECT_EQ(z.sizes(), x.sizes());
  EXPECT_EQ(z.strides(), x.strides());
  EXPECT_EQ(full_like(x, 3, DType::Float64).dtype(), DType::Float64);
  EXPECT_EQ(values(full_like(x, 3)), std::vector<double>(12, 3.0));
  EXPECT_EQ(empty_like_with(slice(ones({3, 4}), 1, 0, 4, 2)).strides(), IntArrayRef({2, 1}));
  EXPECT_THROW(rand_like(x), TypeError);
  EXPECT_EQ(rand_like(x, DType::Float32).strides(), x.strides());
}

TEST(Conversions, ShorthandsAreTo) {
  const Tensor x = ones({2}, DType::Float32);
  EXPECT_TRUE(to_float(x).is_same(x));
  EXPECT_EQ(to_double(x).dtype(), DType::Float64);
  EXPECT_EQ(to_half(x).dtype(), DType::Float16);
  EXPECT_EQ(to_bfloat16(x).dtype(), DType::BFloat16);
  EXPECT_EQ(to_int(x).dtype(), DType::Int32);
  EXPECT_EQ(to_long(x).dtype(), DType::Int64);
  EXPECT_EQ(to_short(x).dtype(), DType::Int16);
  EXPECT_EQ(to_char(x).dtype(), DType::Int8);
  EXPECT_EQ(to_byte(x).dtype(), DType::UInt8);
  EXPECT_EQ(to_bool(x).dtype(), DType::Bool);
  EXPECT_EQ(to(x, DType::Int8).dtype(), DType::Int8);
}

TEST(Conversions, DetachAliasesWithoutBeingAView) {
  const Tensor x = slice(arange(6, DType::Float32), 0, 1, 5, 2);
  const Tensor d = detach(x);
  EXPECT_FALSE(d.is_same(x));
  EXPECT_FALSE(d.base().defined());
  EXPECT_EQ(d.storage(), x.storage());
  EXPECT_EQ(d.storage_offset(), x.storage_offset());
  EXPECT_EQ(d.strides(), x.strides());
  EXPECT_TRUE(detach_(x).is_same(x));
}

}  // namespace
}  // namespace wick
