// tests/cpp/test_cpu_kernels.cpp: the machinery under the CPU kernels: parallel ranges, TensorIter
// ranges, bulk 16-bit conversions against the scalar ones, and results independent of layout.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "wick/core_ops.h"
#include "wick/cpu/parallel.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/empty.h"
#include "wick/ops/exp.h"
#include "wick/ops/expand.h"
#include "wick/ops/log1p.h"
#include "wick/ops/mul.h"
#include "wick/ops/narrow.h"
#include "wick/ops/permute.h"
#include "wick/ops/sigmoid.h"
#include "wick/ops/tanh.h"
#include "wick/ops/to.h"
#include "wick/tensor_iter.h"

namespace wick {
namespace {

TEST(ParallelFor, CoversEveryIndexOnce) {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(100), detail::kGrainSize, detail::kGrainSize + 1,
                    int64_t(1000003)}) {
    std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
    detail::parallel_for(n, 1000, [&](int64_t begin, int64_t end) {
      EXPECT_LT(begin, end);
      for (int64_t i = begin; i < end; ++i) seen[size_t(i)]++;
    });
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(seen[size_t(i)].load(), 1) << "n = " << n << ", i = " << i;
  }
}

TEST(ParallelFor, SmallWorkStaysOnTheCallingThreadAsOneRange) {
  int calls = 0;
  detail::parallel_for(detail::kGrainSize, detail::kGrainSize, [&](int64_t begin, int64_t end) {
    ++calls;  // not atomic: a second thread here would be a data race, and a second call a failure
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, detail::kGrainSize);
  });
  EXPECT_EQ(calls, 1);
}

TEST(ParallelFor, ASerialScopeKeepsWorkOnTheCallingThread) {
  // Note [OpenMP beside BLAS]: one range, on this thread, however large the work.
  const int threads = detail::max_threads();
  {
    const detail::SerialScope serial;
    EXPECT_EQ(detail::max_threads(), 1);
    int calls = 0;
    detail::parallel_for(int64_t(1) << 22, 1000, [&](int64_t begin, int64_t end) {
      ++calls;  // not atomic, as above
      EXPECT_EQ(begin, 0);
      EXPECT_EQ(end, int64_t(1) << 22);
    });
    EXPECT_EQ(calls, 1);
  }
  EXPECT_EQ(detail::max_threads(), threads);  // and back to normal once the scope ends
}

TEST(ParallelFor, AnExceptionInARangeReachesTheCaller) {
  EXPECT_THROW(detail::parallel_for(int64_t(1) << 20, 1000,
                                    [](int64_t begin, int64_t end) {
                                      if (begin <= 700000 && 700000 < end) throw std::runtime_error("range");
                                    }),
               std::runtime_error);
}

// Every (pointers, length) run of for_each, in order.
using Runs = std::vector<std::tuple<std::vector<char*>, int64_t>>;

Runs runs_of(const TensorIter& iter, int64_t begin, int64_t end) {
  Runs runs;
  iter.for_each([&](char** data, const int64_t*, int64_t n) {
    runs.emplace_back(std::vector<char*>(data, data + iter.noperands()), n);
  }, begin, end);
  return runs;
}

// The element addresses visited, run by run, of every operand.
std::vector<std::vector<char*>> elements(const TensorIter& iter, const Runs& runs) {
  std::vector<std::vector<char*>> out(size_t(iter.noperands()));
  for (const auto& [ptrs, n] : runs) {
    for (int k = 0; k < iter.noperands(); ++k) {
      for (int64_t i = 0; i < n; ++i) out[size_t(k)].push_back(ptrs[size_t(k)] + i * iter.strides(0)[k]);
    }
  }
  return out;
}

TEST(TensorIterRanges, SplitsVisitTheWholeWalkInOrder) {
  // Three dims that do not coalesce: a permuted output and a broadcast input.
  const Tensor out = permute(empty({4, 5, 6}), {2, 0, 1});  // sizes (6, 4, 5)
  const Tensor in = expand(empty({1, 4, 1}), {6, 4, 5});
  const Tensor operands[] = {out, in};
  TensorIter iter(operands);
  ASSERT_GT(iter.ndim(), 1);
  const auto whole = elements(iter, runs_of(iter, 0, iter.numel()));
  for (int64_t cut : {int64_t(1), int64_t(5), int64_t(7), int64_t(59), int64_t(119)}) {
    Runs parts = runs_of(iter, 0, cut);
    const Runs rest = runs_of(iter, cut, iter.numel());
    parts.insert(parts.end(), rest.begin(), rest.end());
    EXPECT_EQ(elements(iter, parts), whole) << "cut at " << cut;
  }
}

// The bits of every element of a 16-bit tensor.
std::vector<uint16_t> bits_of(const Tensor& t) {
  const Tensor c = contiguous(t);
  std::vector<uint16_t> bits(size_t(c.numel()));
  std::memcpy(bits.data(), c.data_ptr(), bits.size() * 2);
  return bits;
}

template <typename H>
void check_bulk_conversions(DType d) {
  // Every bit pattern, widened in bulk, is what the scalar conversion gives.
  Tensor all = empty({65536}, d);
  for (uint32_t b = 0; b <= 0xffff; ++b) all.data<H>()[b] = H::from_bits(uint16_t(b));
  const Tensor wide = to(all, DType::Float32);
  const Tensor wider = to(all, DType::Float64);
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const float want = float(H::from_bits(uint16_t(b)));
    const float got = wide.data<float>()[b];
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << b;
      ASSERT_TRUE(std::isnan(wider.data<double>()[b])) << std::hex << b;
    } else {
      ASSERT_EQ(std::memcmp(&got, &want, 4), 0) << std::hex << b;  // signed zeros included
      ASSERT_EQ(wider.data<double>()[b], double(want)) << std::hex << b;
    }
  }
  // Narrowing in bulk rounds as the scalar conversion does: a sweep over every float exponent,
  // with ties and their neighbours, from float32 and from float64.
  std::vector<float> floats;
  for (uint64_t u = 0; u <= 0xffffffffu; u += 4099) {
    const uint32_t b = uint32_t(u);
    float f;
    std::memcpy(&f, &b, 4);
    floats.push_back(f);
  }
  for (uint32_t b = 0; b < 0xffff; ++b) {
    const float lo = float(H::from_bits(uint16_t(b))), hi = float(H::from_bits(uint16_t(b + 1)));
    const float mid = float((double(lo) + double(hi)) / 2);
    if (std::isfinite(mid)) floats.insert(floats.end(), {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)});
  }
  Tensor source = empty({int64_t(floats.size())}, DType::Float32);
  std::copy(floats.begin(), floats.end(), source.data<float>());
  for (const Tensor& from : {source, to(source, DType::Float64)}) {
    const std::vector<uint16_t> got = bits_of(to(from, d));
    for (size_t i = 0; i < floats.size(); ++i) {
      const float f = from.dtype() == DType::Float32 ? floats[i] : float(double(floats[i]));
      if (std::isnan(f)) {
        ASSERT_TRUE(std::isnan(float(H::from_bits(got[i]))));
      } else {
        ASSERT_EQ(got[i], H(f).bits) << std::hexfloat << f;
      }
    }
  }
}

TEST(BulkConversion, Float16MatchesTheScalarConversion) { check_bulk_conversions<Half>(DType::Float16); }
TEST(BulkConversion, BFloat16MatchesTheScalarConversion) { check_bulk_conversions<BFloat16>(DType::BFloat16); }

TEST(BulkConversion, BetweenSixteenBitFloatsAndIntegers) {
  // Every integer float16 holds as finite, most of them rounded.
  Tensor ints = empty({70001}, DType::Int32);
  for (int32_t i = 0; i < 70001; ++i) ints.data<int32_t>()[i] = i - 35000;
  const Tensor h = to(ints, DType::Float16), b = to(ints, DType::BFloat16);
  const Tensor back = to(h, DType::Int32);
  for (int32_t i = 0; i < 70001; ++i) {
    const int32_t v = i - 35000;
    ASSERT_EQ(h.data<Half>()[i].bits, Half(float(v)).bits) << v;
    ASSERT_EQ(b.data<BFloat16>()[i].bits, BFloat16(float(v)).bits) << v;
    ASSERT_EQ(back.data<int32_t>()[i], int32_t(float(Half(float(v))))) << v;
  }
  // Between the two 16-bit formats: through float, rounding once.
  const Tensor hb = to(h, DType::BFloat16);
  for (int32_t i = 0; i < 70001; ++i) {
    ASSERT_EQ(hb.data<BFloat16>()[i].bits, BFloat16(float(h.data<Half>()[i])).bits);
  }
}

// A float32 tensor of n values spread over [-4, 4], with the specials up front.
Tensor spread(int64_t n) {
  Tensor t = empty({n}, DType::Float32);
  float* p = t.data<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = float(std::sin(double(i) * 0.37) * 4.0);
  const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f};
  std::copy(std::begin(specials), std::end(specials), p);
  return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  const Tensor ca = contiguous(a), cb = contiguous(b);
  return ca.numel() == cb.numel() && std::memcmp(ca.data_ptr(), cb.data_ptr(), size_t(ca.numel() * 4)) == 0;
}

TEST(VectorisedKernels, ResultsDoNotDependOnLayoutOrOffset) {
  const int64_t n = 3 * detail::kGrainSize + 17;  // parallel, and not a multiple of any vector width
  const Tensor x = spread(3 * n);
  const Tensor strided = as_strided(x, {n}, {3}, 1);  // every third element, from the second
  const Tensor packed = contiguous(strided);
  const Tensor shifted = narrow(contiguous(x), 0, 5, n);  // contiguous, but off the allocation's alignment
  const Tensor shifted_packed = contiguous(shifted);
  for (auto op : {+[](const Tensor& t) { return exp(t); }, +[](const Tensor& t) { return tanh(t); },
                  +[](const Tensor& t) { return sigmoid(t); }, +[](const Tensor& t) { return log1p(t); },
                  +[](const Tensor& t) { return mul(t, t); }}) {
    EXPECT_TRUE(same_bits(op(strided), op(packed)));
    EXPECT_TRUE(same_bits(op(shifted), op(shifted_packed)));
    // One element alone (a padded partial vector) is that element of the whole.
    const Tensor one = op(narrow(packed, 0, 1000, 1));
    EXPECT_TRUE(same_bits(one, narrow(op(packed), 0, 1000, 1)));
  }
}

}  // namespace
}  // namespace wick
