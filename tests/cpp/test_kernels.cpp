// tests/cpp/test_kernels.cpp: CPU kernel values for every dtype: pointwise, copies, reductions, matmul, 16-bit floats.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/abs.h"
#include "wick/ops/add.h"
#include "wick/ops/addmv.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/eq.h"
#include "wick/ops/exp.h"
#include "wick/ops/fill_.h"
#include "wick/ops/gt.h"
#include "wick/ops/log.h"
#include "wick/ops/lt.h"
#include "wick/ops/max.h"
#include "wick/ops/mean.h"
#include "wick/ops/mm.h"
#include "wick/ops/mul.h"
#include "wick/ops/mv.h"
#include "wick/ops/neg.h"
#include "wick/ops/permute.h"
#include "wick/ops/sqrt.h"
#include "wick/ops/sub.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/zero_.h"

namespace wick {
namespace {

constexpr DType kAllDTypes[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                                DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// One element of C++ type T holding `v`, converted as a C++ cast would.
template <typename T>
T to_elem(double v) {
  if constexpr (std::is_same_v<T, bool>) return v != 0;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(v));
  else return T(opmath_t<T>(v));
}

template <typename T>
double from_elem(T x) {
  return double(opmath_t<T>(x));
}

// `v` as it comes out after a round trip through dtype d.
double in_dtype(DType d, double v) {
  return dispatch(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return from_elem(to_elem<T>(v));
  });
}

// A tensor of dtype d, written element by element (not through wick's copy kernels).
Tensor make(const std::vector<double>& values, DType d, IntArrayRef shape) {
  Tensor t = empty(shape, d);
  EXPECT_EQ(t.numel(), int64_t(values.size()));
  dispatch(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) p[i] = to_elem<T>(values[i]);
  });
  return t;
}

Tensor make(const std::vector<double>& values, DType d) { return make(values, d, {int64_t(values.size())}); }

// The elements of any tensor in row-major order, read by walking its strides.
std::vector<double> read(const Tensor& t) {
  std::vector<double> out;
  if (t.numel() == 0) return out;
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* base = t.data<T>();
    DimVector index(size_t(t.dim()), 0);
    for (int64_t n = 0; n < t.numel(); ++n) {
      int64_t offset = 0;
      for (int64_t d = 0; d < t.dim(); ++d) offset += index[size_t(d)] * t.stride(d);
      out.push_back(from_elem(base[offset]));
      for (int64_t d = t.dim() - 1; d >= 0; --d) {
        if (++index[size_t(d)] < t.size(d)) break;
        index[size_t(d)] = 0;
      }
    }
  });
  return out;
}

bool is_signed(DType d) { return d != DType::Bool && d != DType::UInt8; }

std::string param_name(const testing::TestParamInfo<DType>& info) { return dtype_name(info.param); }

// ---------------------------------------------------------------------------
// Every dtype: fill_, add, mul, comparisons, sum, max, copies, strides, aliasing.

class EveryDType : public testing::TestWithParam<DType> {
 protected:
  DType d = GetParam();
  // Values every dtype holds exactly (bool folds them to true/false); negatives where signed.
  std::vector<double> a() const {
    std::vector<double> v{0, 1, 2, 3, 7, 5};
    if (is_signed(d)) v.push_back(-3);
    return v;
  }
  std::vector<double> b() const {
    std::vector<double> v{1, 1, 2, 0, 7, 6};
    if (is_signed(d)) v.push_back(2);
    return v;
  }
  // Applies f to the dtype-converted inputs and converts the result back, as a kernel should.
  template <typename F>
  std::vector<double> expected(const std::vector<double>& x, const std::vector<double>& y, F f) const {
    std::vector<double> out;
    for (size_t i = 0; i < x.size(); ++i) out.push_back(in_dtype(d, f(in_dtype(d, x[i]), in_dtype(d, y[i]))));
    return out;
  }
  std::vector<double> converted(const std::vector<double>& x) const {
    std::vector<double> out;
    for (double v : x) out.push_back(in_dtype(d, v));
    return out;
  }
};

INSTANTIATE_TEST_SUITE_P(Kernels, EveryDType, testing::ValuesIn(kAllDTypes), param_name);

TEST_P(EveryDType, FillAndZero) {
  Tensor t = make({0, 0, 0, 0, 0, 0}, d);
  EXPECT_TRUE(fill_(t, Scalar(3)).is_same(t));
  EXPECT_EQ(read(t), converted({3, 3, 3, 3, 3, 3}));
  zero_(t);
  EXPECT_EQ(read(t), converted({0, 0, 0, 0, 0, 0}));
  fill_(slice(t, 0, 1, std::nullopt, 2), Scalar(true));  // a strided view
  EXPECT_EQ(read(t), converted({0, 1, 0, 1, 0, 1}));
  Tensor m = make({0, 0, 0, 0, 0, 0}, d, {2, 3});
  fill_(transpose(m, 0, 1), Scalar(2));
  EXPECT_EQ(read(m), converted({2, 2, 2, 2, 2, 2}));
}

TEST_P(EveryDType, Add) {
  Tensor x = make(a(), d), y = make(b(), d);
  Tensor r = add(x, y);
  EXPECT_EQ(r.dtype(), d);
  EXPECT_EQ(read(r), expected(a(), b(), [](double p, double q) { return p + q; }));
  EXPECT_EQ(read(add(x, y, 2)), expected(a(), b(), [](double p, double q) { return p + 2 * q; }));
  // A number keeps the tensor's dtype (a bool tensor only with a bool).
  const bool is_bool = d == DType::Bool;
  Tensor s = add(x, is_bool ? Scalar(true) : Scalar(3));
  EXPECT_EQ(s.dtype(), d);
  EXPECT_EQ(read(s), expected(a(), a(), [&](double p, double) { return p + (is_bool ? 1 : 3); }));
  add_(x, y);
  EXPECT_EQ(read(x), expected(a(), b(), [](double p, double q) { return p + q; }));
}

TEST_P(EveryDType, Mul) {
  Tensor x = make(a(), d), y = make(b(), d);
  Tensor r = mul(x, y);
  EXPECT_EQ(r.dtype(), d);
  EXPECT_EQ(read(r), expected(a(), b(), [](double p, double q) { return p * q; }));
  Tensor out = make(std::vector<double>(a().size(), 0), d);
  EXPECT_TRUE(mul_out(out, x, y).is_same(out));
  EXPECT_EQ(read(out), read(r));
}

TEST_P(EveryDType, Comparisons) {
  Tensor x = make(a(), d), y = make(b(), d);
  Tensor e = eq(x, y), l = lt(x, y), g = gt(x, y);
  EXPECT_EQ(e.dtype(), DType::Bool);
  EXPECT_EQ(l.dtype(), DType::Bool);
  std::vector<double> want_eq, want_lt, want_gt;
  for (size_t i = 0; i < a().size(); ++i) {
    const double p = in_dtype(d, a()[i]), q = in_dtype(d, b()[i]);
    want_eq.push_back(p == q);
    want_lt.push_back(p < q);
    want_gt.push_back(p > q);
  }
  EXPECT_EQ(read(e), want_eq);
  EXPECT_EQ(read(l), want_lt);
  EXPECT_EQ(read(g), want_gt);
  // Against a number, compared in the promoted dtype.
  std::vector<double> want_lt2;
  for (double p : converted(a())) want_lt2.push_back(p < 2);
  EXPECT_EQ(read(lt(x, Scalar(2))), want_lt2);
}

TEST_P(EveryDType, CopyFromEveryDType) {
  // Values that every dtype holds exactly; bool folds them.
  const std::vector<double> v{0, 1, 2, 3, 100, 0};
  for (DType src : kAllDTypes) {
    SCOPED_TRACE(std::string(dtype_name(src)) + " -> " + dtype_name(d));
    Tensor s = make(v, src, {2, 3});
    std::vector<double> want;
    for (double x : v) want.push_back(in_dtype(d, in_dtype(src, x)));

    Tensor dst = make({9, 9, 9, 9, 9, 9}, d, {2, 3});
    EXPECT_TRUE(copy_(dst, s).is_same(dst));
    EXPECT_EQ(read(dst), want);

    // Strided source and destination take the kernel path, not memcpy.
    Tensor dst_t = make({9, 9, 9, 9, 9, 9}, d, {3, 2});
    copy_(transpose(dst_t, 0, 1), s);
    EXPECT_EQ(read(transpose(dst_t, 0, 1)), want);
    Tensor back = make({9, 9, 9, 9, 9, 9}, d, {3, 2});
    copy_(back, transpose(s, 0, 1));
    EXPECT_EQ(read(back), read(transpose(dst, 0, 1)));

    Tensor converted_copy = to(s, d);
    EXPECT_EQ(converted_copy.dtype(), d);
    EXPECT_EQ(read(converted_copy), want);
  }
}

TEST_P(EveryDType, Sum) {
  Tensor x = make(a(), d);
  Tensor s = sum(x);
  const DType want_dtype = is_floating(d) ? d : DType::Int64;
  EXPECT_EQ(s.dtype(), want_dtype);
  EXPECT_EQ(s.dim(), 0);
  double total = 0;
  for (double v : converted(a())) total += v;
  EXPECT_EQ(read(s), std::vector<double>{total});

  Tensor m = make({1, 2, 3, 0, 5, 6}, d, {2, 3});
  Tensor cols = sum(m, {0});
  EXPECT_EQ(cols.sizes().vec(), DimVector{3});
  EXPECT_EQ(read(cols), (std::vector<double>{in_dtype(d, 1) + in_dtype(d, 0), in_dtype(d, 2) + in_dtype(d, 5),
                                             in_dtype(d, 3) + in_dtype(d, 6)}));
  Tensor rows = sum(m, {-1}, /*keepdim=*/true);
  EXPECT_EQ(rows.sizes().vec(), (DimVector{2, 1}));
  EXPECT_EQ(read(rows), (std::vector<double>{in_dtype(d, 1) + in_dtype(d, 2) + in_dtype(d, 3),
                                             in_dtype(d, 0) + in_dtype(d, 5) + in_dtype(d, 6)}));
  EXPECT_EQ(read(sum(transpose(m, 0, 1), {1})), read(cols));  // strided input
  EXPECT_EQ(read(sum(make({}, d))), std::vector<double>{0});
}

TEST(Reduce, SumOfNarrowIntegersDoesNotOverflow) {
  for (DType d : {DType::UInt8, DType::Int8, DType::Int16, DType::Int32}) {
    SCOPED_TRACE(dtype_name(d));
    Tensor s = sum(make({100, 100, 100, 100}, d));
    EXPECT_EQ(s.dtype(), DType::Int64);
    EXPECT_EQ(read(s), std::vector<double>{400});
  }
}

TEST(Reduce, SumOverSeveralDims) {
  std::vector<double> v;
  for (int i = 0; i < 24; ++i) v.push_back(i);
  Tensor x = make(v, DType::Int32, {2, 3, 4});
  // sum over dims 0 and 2: for each j, the sum of i*12 + j*4 + k
  Tensor s = sum(x, {0, -1});
  EXPECT_EQ(s.sizes().vec(), DimVector{3});
  EXPECT_EQ(read(s), (std::vector<double>{60, 92, 124}));
  Tensor kept = sum(x, {2, 0}, /*keepdim=*/true);
  EXPECT_EQ(kept.sizes().vec(), (DimVector{1, 3, 1}));
  EXPECT_EQ(read(kept), (std::vector<double>{60, 92, 124}));
  EXPECT_EQ(read(sum(x, {1})), (std::vector<double>{12, 15, 18, 21, 48, 51, 54, 57}));
  EXPECT_EQ(read(sum(permute(x, {2, 0, 1}), {0, 1})), (std::vector<double>{60, 92, 124}));
  EXPECT_THROW(sum(x, {0, 0}), Error);
  EXPECT_THROW(sum(x, {1, -2}), Error);
  EXPECT_EQ(read(sum(make({}, DType::Float32, {0, 3}), {0})), (std::vector<double>{0, 0, 0}));
}

TEST_P(EveryDType, Max) {
  Tensor x = make({3, 1, 7, 2}, d);
  Tensor m = max(x);
  EXPECT_EQ(m.dtype(), d);
  EXPECT_EQ(m.dim(), 0);
  EXPECT_EQ(read(m), std::vector<double>{in_dtype(d, 7)});
  EXPECT_EQ(read(max(slice(x, 0, 0, std::nullopt, 2))), std::vector<double>{in_dtype(d, 7)});
  EXPECT_EQ(read(max(slice(x, 0, 1, std::nullopt, 2))), std::vector<double>{in_dtype(d, 2)});
  if (is_signed(d)) {
    EXPECT_EQ(read(max(make({-5, -2, -9}, d))), std::vector<double>{-2});
  }
  EXPECT_THROW(max(make({}, d)), Error);
}

TEST_P(EveryDType, StridedOperands) {
  std::vector<double> v{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  Tensor base = make(v, d, {3, 4});
  Tensor xt = transpose(base, 0, 1);  // {4, 3}, strides {1, 4}
  Tensor y = make({1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2}, d, {4, 3});
  std::vector<double> xt_values;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j) xt_values.push_back(v[size_t(j * 4 + i)]);
  const std::vector<double> yv = read(y);
  EXPECT_EQ(read(xt), converted(xt_values));

  const auto want = expected(xt_values, yv, [](double p, double q) { return p + q; });
  EXPECT_EQ(read(add(xt, y)), want);
  EXPECT_EQ(read(add(y, xt)), want);
  EXPECT_EQ(read(mul(xt, xt)), expected(xt_values, xt_values, [](double p, double q) { return p * q; }));

  // A transposed output.
  Tensor out = transpose(make(std::vector<double>(12, 0), d, {3, 4}), 0, 1);
  add_out(out, xt, y);
  EXPECT_EQ(out.strides().vec(), (DimVector{1, 4}));
  EXPECT_EQ(read(out), want);

  // A broadcast (stride 0) operand.
  Tensor row = make({1, 2, 0}, d);
  std::vector<double> rows3;
  for (int i = 0; i < 4; ++i) rows3.insert(rows3.end(), {1, 2, 0});
  EXPECT_EQ(read(add(xt, row)), expected(xt_values, rows3, [](double p, double q) { return p + q; }));
}

TEST_P(EveryDType, OverlappingInPlaceBehavesAsIfInputWereCopied) {
  // x[1:] += x[:-1]: a kernel that reads what it just wrote would give running sums.
  const bool is_bool = d == DType::Bool;
  const std::vector<double> init = is_bool ? std::vector<double>{1, 0, 0, 0, 0, 0}
                                           : std::vector<double>{0, 1, 2, 3, 4, 5};
  const std::vector<double> want = is_bool ? std::vector<double>{1, 1, 0, 0, 0, 0}
                                           : std::vector<double>{0, 1, 3, 5, 7, 9};
  Tensor x = make(init, d);
  add_(slice(x, 0, 1, std::nullopt, 1), slice(x, 0, std::nullopt, -1, 1));
  EXPECT_EQ(read(x), converted(want));

  // x[:-1] += x[1:], the other direction.
  Tensor y = make(init, d);
  add_(slice(y, 0, std::nullopt, -1, 1), slice(y, 0, 1, std::nullopt, 1));
  std::vector<double> want_rev;
  for (size_t i = 0; i < init.size(); ++i) {
    want_rev.push_back(i + 1 < init.size() ? init[i] + init[i + 1] : init[i]);
  }
  EXPECT_EQ(read(y), converted(want_rev));

  // out= overlapping an input with another geometry.
  Tensor z = make(init, d);
  add_out(slice(z, 0, 1, std::nullopt, 1), slice(z, 0, std::nullopt, -1, 1), make({0, 0, 0, 0, 0}, d));
  std::vector<double> shifted{init[0]};
  shifted.insert(shifted.end(), init.begin(), init.end() - 1);
  EXPECT_EQ(read(z), converted(shifted));

  // Exact aliasing is fine and needs no copy: x += x.
  Tensor w = make(init, d);
  add_(w, w);
  EXPECT_EQ(read(w), expected(init, init, [](double p, double q) { return p + q; }));

  // copy_ between overlapping views.
  Tensor c = make(init, d);
  copy_(slice(c, 0, 1, std::nullopt, 1), slice(c, 0, std::nullopt, -1, 1));
  EXPECT_EQ(read(c), converted(shifted));
}

// ---------------------------------------------------------------------------
// Conversions at the edges of each dtype.

TEST(Copy, ConversionEdgeCases) {
  auto convert = [](double v, DType from, DType to_dtype) { return read(to(make({v}, from), to_dtype))[0]; };
  EXPECT_EQ(convert(2.7, DType::Float32, DType::Int32), 2);     // truncation toward zero
  EXPECT_EQ(convert(-2.7, DType::Float64, DType::Int64), -2);
  EXPECT_EQ(convert(300, DType::Int16, DType::UInt8), 44);      // integers wrap
  EXPECT_EQ(convert(-1, DType::Int32, DType::UInt8), 255);
  EXPECT_EQ(convert(200, DType::UInt8, DType::Int8), -56);
  EXPECT_EQ(convert(-1, DType::Float32, DType::UInt8), 255);    // through int64, as on x86 PyTorch
  EXPECT_EQ(convert(0.5, DType::Float32, DType::Bool), 1);
  EXPECT_EQ(convert(-0.0, DType::Float64, DType::Bool), 0);
  EXPECT_EQ(convert(256, DType::Int32, DType::Bool), 1);        // not truncated to 8 bits first
  EXPECT_TRUE(std::isnan(convert(kNaN, DType::Float64, DType::Float16)));
  EXPECT_EQ(convert(kInf, DType::Float32, DType::BFloat16), kInf);
  EXPECT_EQ(convert(65504, DType::Float64, DType::Float16), 65504);
  EXPECT_EQ(convert(65520, DType::Int64, DType::Float16), kInf);  // rounds past the largest half
  EXPECT_EQ(convert(1e-7, DType::Float32, DType::Float16), std::ldexp(1.0, -23));
  EXPECT_EQ(convert(16777217, DType::Int64, DType::Float32), 16777216);
  EXPECT_EQ(convert(257, DType::Int32, DType::BFloat16), 256);  // 8 significant bits, ties to even
}

// ---------------------------------------------------------------------------
// Unary math.

TEST(Unary, NegAndAbsOnIntegers) {
  EXPECT_EQ(read(neg(make({1, -2, 0, 127, -128}, DType::Int8))), (std::vector<double>{-1, 2, 0, -127, -128}));
  EXPECT_EQ(read(abs(make({1, -2, 0, 127, -128}, DType::Int8))), (std::vector<double>{1, 2, 0, 127, -128}));
  EXPECT_EQ(read(neg(make({5, -7}, DType::Int32))), (std::vector<double>{-5, 7}));
  EXPECT_EQ(read(abs(make({-40000, 3}, DType::Int32))), (std::vector<double>{40000, 3}));
  EXPECT_EQ(read(abs(make({-5000000000.0, 3}, DType::Int64))), (std::vector<double>{5000000000.0, 3}));
  EXPECT_EQ(read(neg(make({1, 0, 255}, DType::UInt8))), (std::vector<double>{255, 0, 1}));
  EXPECT_EQ(read(abs(make({1, 0, 255}, DType::UInt8))), (std::vector<double>{1, 0, 255}));
  Tensor x = make({3, -4}, DType::Int16);
  EXPECT_TRUE(neg_(x).is_same(x));
  EXPECT_EQ(read(x), (std::vector<double>{-3, 4}));
  EXPECT_EQ(neg(x).dtype(), DType::Int16);
}

TEST(Unary, UnsupportedDtypeThrowsTypeError) {
  Tensor b = make({1, 0}, DType::Bool);
  EXPECT_THROW(abs(b), TypeError);
  EXPECT_THROW(abs_(b), TypeError);
  try {
    abs(b);
  } catch (const TypeError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("not supported for dtype bool on cpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("bool"), std::string::npos) << msg;
  }
  EXPECT_EQ(read(b), (std::vector<double>{1, 0}));
}

// PyTorch's own refusals (Note [Pointwise checks]) are Errors, as its RuntimeErrors, and leave self as it was.
TEST(Unary, PyTorchRefusalsOfBoolAreErrors) {
  Tensor b = make({1, 0}, DType::Bool);
  EXPECT_THROW(neg(b), Error);
  EXPECT_THROW(neg_(b), Error);
  EXPECT_THROW(sub(b, b), Error);
  EXPECT_THROW(sub_(b, b), Error);
  EXPECT_EQ(read(b), (std::vector<double>{1, 0}));
}

template <typename T>
void check_transcendentals() {
  const DType d = dtype_of<T>::value;
  const std::vector<double> xs{-2, -0.5, 0, 0.5, 1, 3, 10};
  const std::vector<double> ex = read(exp(make(xs, d)));
  for (size_t i = 0; i < xs.size(); ++i) {
    const T want = std::exp(T(xs[i]));
    EXPECT_NEAR(ex[i], want, std::abs(want) * 4 * std::numeric_limits<T>::epsilon()) << "exp(" << xs[i] << ")";
  }
  const std::vector<double> ps{1e-3, 0.5, 1, 2, 100, 1e30};
  const std::vector<double> lg = read(log(make(ps, d)));
  const std::vector<double> sq = read(sqrt(make(ps, d)));
  for (size_t i = 0; i < ps.size(); ++i) {
    const T want_log = std::log(T(ps[i])), want_sqrt = std::sqrt(T(ps[i]));
    EXPECT_NEAR(lg[i], want_log, 4 * std::numeric_limits<T>::epsilon() * std::max<T>(1, std::abs(want_log)))
        << "log(" << ps[i] << ")";
    EXPECT_EQ(sq[i], want_sqrt) << "sqrt(" << ps[i] << ")";  // sqrt is correctly rounded
  }
  const std::vector<double> special = read(log(make({0, -1, kInf}, d)));
  EXPECT_EQ(special[0], -kInf);
  EXPECT_TRUE(std::isnan(special[1]));
  EXPECT_EQ(special[2], kInf);
  EXPECT_TRUE(std::isnan(read(sqrt(make({-1}, d)))[0]));
  EXPECT_EQ(read(exp(make({-kInf, 1000}, d))), (std::vector<double>{0, kInf}));
}

TEST(Unary, ExpLogSqrtFloat32) { check_transcendentals<float>(); }
TEST(Unary, ExpLogSqrtFloat64) { check_transcendentals<double>(); }

TEST(Unary, TranscendentalsOn16BitFloatsAndIntegers) {
  const std::vector<double> xs{0, 0.5, 1, 2};
  const std::vector<double> h = read(exp(make(xs, DType::Float16)));
  const std::vector<double> bfv = read(exp(make(xs, DType::BFloat16)));
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NEAR(h[i], std::exp(xs[i]), std::exp(xs[i]) * 1e-3) << xs[i];   // 11-bit significand
    EXPECT_NEAR(bfv[i], std::exp(xs[i]), std::exp(xs[i]) * 8e-3) << xs[i];  // 8-bit significand
  }
  Tensor e = exp(make({0, 1}, DType::Int32));  // integers compute in the default float dtype
  EXPECT_EQ(e.dtype(), DType::Float32);
  EXPECT_EQ(read(e), (std::vector<double>{1, double(std::exp(1.0f))}));
  EXPECT_EQ(read(sqrt(make({4, 9}, DType::UInt8))), (std::vector<double>{2, 3}));
  EXPECT_THROW(exp_(make({1}, DType::Int32)), Error);  // float result into an int tensor
}

// ---------------------------------------------------------------------------
// NaN in floating-point comparisons and reductions.

TEST(Floats, NaNComparesFalse) {
  Tensor x = make({kNaN, 1, kNaN}, DType::Float32);
  Tensor y = make({kNaN, kNaN, 2}, DType::Float32);
  EXPECT_EQ(read(eq(x, y)), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(read(lt(x, y)), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(read(gt(x, y)), (std::vector<double>{0, 0, 0}));
}

TEST(Reduce, MaxWithNaNIsNaN) {
  for (DType d : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    SCOPED_TRACE(dtype_name(d));
    EXPECT_TRUE(std::isnan(read(max(make({kNaN, 1, 2}, d)))[0])) << "NaN first";
    EXPECT_TRUE(std::isnan(read(max(make({1, kNaN, 2}, d)))[0])) << "NaN in the middle";
    EXPECT_TRUE(std::isnan(read(max(make({1, 2, kNaN}, d)))[0])) << "NaN last";
    EXPECT_EQ(read(max(make({-kInf, 1, kInf}, d)))[0], kInf);
  }
}

TEST(Reduce, Mean) {
  Tensor x = make({1, 2, 3, 4}, DType::Float32);
  Tensor m = mean(x);
  EXPECT_EQ(m.dtype(), DType::Float32);
  EXPECT_EQ(m.dim(), 0);
  EXPECT_EQ(read(m), std::vector<double>{2.5});

  Tensor g = make({1, 2, 3, 4, 5, 9}, DType::Float64, {2, 3});
  EXPECT_EQ(read(mean(g, {1})), (std::vector<double>{2, 6}));
  Tensor kept = mean(g, {0}, /*keepdim=*/true);
  EXPECT_EQ(kept.sizes().vec(), (DimVector{1, 3}));
  EXPECT_EQ(read(kept), (std::vector<double>{2.5, 3.5, 6}));
  EXPECT_EQ(read(mean(transpose(g, 0, 1), {0})), (std::vector<double>{2, 6}));
  EXPECT_EQ(read(mean(make({1, 2}, DType::Float16))), std::vector<double>{1.5});
  EXPECT_EQ(read(mean(make({1, 2}, DType::Int32), DType::Float64)), std::vector<double>{1.5});
  EXPECT_TRUE(std::isnan(read(mean(make({}, DType::Float32)))[0]));
  EXPECT_TRUE(std::isnan(read(mean(make({1, kNaN}, DType::Float64)))[0]));
  EXPECT_THROW(mean(make({1, 0}, DType::Bool)), TypeError);
}

// ---------------------------------------------------------------------------
// Matrix products against a naive loop in double.

std::vector<double> naive_mm(const std::vector<double>& a, const std::vector<double>& b, int64_t n, int64_t k,
                             int64_t m) {
  std::vector<double> out(size_t(n * m), 0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t p = 0; p < k; ++p) out[size_t(i * m + j)] += a[size_t(i * k + p)] * b[size_t(p * m + j)];
  return out;
}

// Small values: exact in every dtype tested, and exact sums, so results compare exactly.
std::vector<double> matrix_values(int64_t count, DType d, int seed) {
  std::vector<double> v;
  for (int64_t i = 0; i < count; ++i) {
    const double x = double((i * 7 + seed * 3) % 9 - 4);
    v.push_back(is_floating(d) ? x * 0.5 + 0.25 : x);
  }
  return v;
}

class MatMul : public testing::TestWithParam<DType> {
 protected:
  DType d = GetParam();
};

INSTANTIATE_TEST_SUITE_P(Linalg, MatMul,
                         testing::Values(DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Float16),
                         param_name);

TEST_P(MatMul, MmMatchesNaiveLoop) {
  const int64_t n = 3, k = 4, m = 5;
  const auto av = matrix_values(n * k, d, 1), bv = matrix_values(k * m, d, 2);
  const auto want = naive_mm(av, bv, n, k, m);
  Tensor a = make(av, d, {n, k}), b = make(bv, d, {k, m});
  Tensor r = mm(a, b);
  EXPECT_EQ(r.dtype(), d);
  EXPECT_EQ(r.sizes().vec(), (DimVector{n, m}));
  EXPECT_EQ(read(r), want);

  // Transposed operands (BLAS transposes them) and non-unit strides (copied first).
  Tensor at = transpose(contiguous(transpose(a, 0, 1)), 0, 1);
  Tensor bt = transpose(contiguous(transpose(b, 0, 1)), 0, 1);
  ASSERT_FALSE(at.is_contiguous());
  EXPECT_EQ(read(mm(at, bt)), want);
  EXPECT_EQ(read(mm(a, bt)), want);
  Tensor wide = make(std::vector<double>(size_t(4 * n * k), 0), d, {2 * n, 2 * k});
  Tensor as = slice(slice(wide, 0, 0, std::nullopt, 2), 1, 1, std::nullopt, 2);
  copy_(as, a);
  EXPECT_EQ(as.strides().vec(), (DimVector{4 * k, 2}));
  EXPECT_EQ(read(mm(as, b)), want);

  Tensor out = empty({0}, d);
  EXPECT_TRUE(mm_out(out, a, b).is_same(out));
  EXPECT_EQ(read(out), want);
}

TEST_P(MatMul, MvAndAddmvMatchNaiveLoop) {
  const int64_t n = 3, k = 4;
  const auto av = matrix_values(n * k, d, 3), vv = matrix_values(k, d, 4), sv = matrix_values(n, d, 5);
  const auto prod = naive_mm(av, vv, n, k, 1);
  Tensor a = make(av, d, {n, k}), v = make(vv, d), self = make(sv, d);

  Tensor r = mv(a, v);
  EXPECT_EQ(r.sizes().vec(), DimVector{n});
  EXPECT_EQ(r.dtype(), d);
  EXPECT_EQ(read(r), prod);
  EXPECT_EQ(read(mv(transpose(contiguous(transpose(a, 0, 1)), 0, 1), v)), prod);
  Tensor v2 = make(std::vector<double>(size_t(2 * k), 0), d);
  copy_(slice(v2, 0, 0, std::nullopt, 2), v);
  EXPECT_EQ(read(mv(a, slice(v2, 0, 0, std::nullopt, 2))), prod);

  // beta * self + alpha * (a @ v)
  const int64_t beta = 2, alpha = is_floating(d) ? 3 : -1;
  std::vector<double> want;
  for (int64_t i = 0; i < n; ++i) want.push_back(double(beta) * sv[size_t(i)] + double(alpha) * prod[size_t(i)]);
  EXPECT_EQ(read(addmv(self, a, v, beta, alpha)), want);
  EXPECT_EQ(read(self), sv);
  EXPECT_TRUE(addmv_(self, a, v, beta, alpha).is_same(self));
  EXPECT_EQ(read(self), want);
  // A self of one element broadcasts; beta and alpha default to 1.
  EXPECT_EQ(read(addmv(make({1}, d), a, v)), (std::vector<double>{prod[0] + 1, prod[1] + 1, prod[2] + 1}));
}

TEST(Linalg, AddmvWithZeroBetaIgnoresSelf) {
  Tensor self = make({kNaN, kInf}, DType::Float32);
  Tensor a = make({1, 2, 3, 4}, DType::Float32, {2, 2});
  Tensor v = make({1, 1}, DType::Float32);
  EXPECT_EQ(read(addmv(self, a, v, 0, 2)), (std::vector<double>{6, 14}));
}

TEST(Linalg, BadOperandsThrow) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, DType::Float32, {2, 3});
  EXPECT_THROW(mm(a, a), Error);
  EXPECT_THROW(mm(a, make({1, 2, 3}, DType::Float32)), Error);
  EXPECT_THROW(mm(a, make({1, 2, 3}, DType::Float64, {3, 1})), TypeError);
  EXPECT_THROW(mv(a, make({1, 2}, DType::Float32)), Error);
  Tensor ai = make({1, 2, 3, 4}, DType::Int32, {2, 2});
  Tensor vi = make({1, 2}, DType::Int32);
  EXPECT_THROW(addmv(vi, ai, vi, 1, int64_t(1) << 40), Error);  // alpha does not fit int32
  EXPECT_THROW(addmv(make({1, 2, 3}, DType::Int32), ai, vi), Error);
}

TEST(Linalg, EmptyInnerDimGivesZeros) {
  Tensor a = empty({2, 0}, DType::Float64), b = empty({0, 3}, DType::Float64);
  Tensor r = mm(a, b);
  EXPECT_EQ(r.sizes().vec(), (DimVector{2, 3}));
  EXPECT_EQ(read(r), std::vector<double>(6, 0));
}

// ---------------------------------------------------------------------------
// float16 and bfloat16 conversions.

float half_value(uint16_t bits) { return float(Half::from_bits(bits)); }

TEST(Half, KnownValues) {
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(float(Half(1.0f)), 1.0f);
  EXPECT_EQ(Half(-2.0f).bits, 0xc000);
  EXPECT_EQ(Half(65504.0f).bits, 0x7bff);  // the largest half
  EXPECT_EQ(float(Half(65504.0f)), 65504.0f);
  EXPECT_EQ(Half(65519.0f).bits, 0x7bff);  // below the rounding boundary
  EXPECT_EQ(Half(65520.0f).bits, 0x7c00);  // the boundary rounds to infinity
  EXPECT_EQ(Half(1e10f).bits, 0x7c00);
  EXPECT_EQ(Half(std::ldexp(1.0f, -14)).bits, 0x0400);  // the smallest normal
  EXPECT_EQ(Half(-0.0f).bits, 0x8000);
  EXPECT_EQ(Half(std::numeric_limits<float>::infinity()).bits, 0x7c00);
  EXPECT_EQ(Half(-std::numeric_limits<float>::infinity()).bits, 0xfc00);
  EXPECT_TRUE(std::isinf(float(Half::from_bits(0x7c00))));
  EXPECT_TRUE(std::isnan(float(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isnan(half_value(0x7e00)));
}

TEST(Half, Subnormals) {
  const float step = std::ldexp(1.0f, -24);  // the smallest subnormal half
  EXPECT_EQ(Half(step).bits, 0x0001);
  EXPECT_EQ(Half(1e-7f).bits, 0x0002);  // 1e-7 / 2^-24 = 1.68, rounds to 2
  EXPECT_EQ(float(Half(1e-7f)), 2 * step);
  EXPECT_EQ(Half(-1e-7f).bits, 0x8002);
  EXPECT_EQ(Half(0.5f * step).bits, 0x0000);   // a tie rounds to even (0)
  EXPECT_EQ(Half(1.5f * step).bits, 0x0002);   // a tie rounds to even (2)
  EXPECT_EQ(Half(2.5f * step).bits, 0x0002);
  EXPECT_EQ(Half(1e-9f).bits, 0x0000);
  EXPECT_EQ(half_value(0x03ff), 1023 * step);  // the largest subnormal
}

TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11)).bits, 0x3c00);      // tie: 1.0 is even
  EXPECT_EQ(Half(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3c02);  // tie: 0x3c02 is even
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)).bits, 0x3c01);  // above the tie
  EXPECT_EQ(Half(2049.0f).bits, Half(2048.0f).bits);
  EXPECT_EQ(float(Half(2051.0f)), 2052.0f);
}

TEST(Half, EveryBitPatternRoundTrips) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const float f = half_value(uint16_t(b));
    if (std::isnan(f)) {
      EXPECT_EQ(b & 0x7c00u, 0x7c00u);
      EXPECT_TRUE(std::isnan(float(Half(f))));
      continue;
    }
    ASSERT_EQ(Half(f).bits, b) << "bits 0x" << std::hex << b << " -> " << f;
  }
}

TEST(BFloat16, KnownValuesAndRounding) {
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(float(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(BFloat16(-2.0f).bits, 0xc000);
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);      // tie: 1.0 is even
  EXPECT_EQ(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);  // tie: 0x3f82 is even
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)).bits, 0x3f81);
  EXPECT_EQ(float(BFloat16(257.0f)), 256.0f);
  EXPECT_EQ(float(BFloat16(259.0f)), 260.0f);
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::infinity()).bits, 0x7f80);
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::max()).bits, 0x7f80);  // rounds past the largest bfloat16
  EXPECT_EQ(float(BFloat16(1e-7f)), std::ldexp(215.0f, -31));          // 1e-7 has 8 significant bits kept
  EXPECT_TRUE(std::isnan(float(BFloat16(std::numeric_limits<float>::quiet_NaN()))));
  // A NaN whose payload sits only in the low bits must stay NaN, not become infinity.
  float low_nan;
  const uint32_t low_nan_bits = 0x7f800001u;
  std::memcpy(&low_nan, &low_nan_bits, sizeof low_nan);
  EXPECT_TRUE(std::isnan(float(BFloat16(low_nan))));
}

TEST(BFloat16, EveryBitPatternRoundTrips) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const float f = float(BFloat16::from_bits(uint16_t(b)));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(float(BFloat16(f))));
      continue;
    }
    ASSERT_EQ(BFloat16(f).bits, b) << "bits 0x" << std::hex << b;
  }
}

// Rounds |f| to the nearest of `values` (every finite positive value of a 16-bit
// format, indexed by its bits, followed by a virtual next value standing for
// infinity), ties to the even bit pattern. Independent of the bit tricks in half.h.
uint16_t reference_round(float f, const std::vector<double>& values) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(double(f));
  const uint16_t inf_bits = uint16_t(values.size() - 1);
  if (a >= values.back()) return uint16_t(sign | inf_bits);
  const size_t hi = size_t(std::lower_bound(values.begin(), values.end(), a) - values.begin());
  if (values[hi] == a) return uint16_t(sign | hi);
  const size_t lo = hi - 1;
  const double below = a - values[lo], above = values[hi] - a;
  const size_t pick = below < above ? lo : above < below ? hi : (lo % 2 == 0 ? lo : hi);
  return uint16_t(sign | pick);
}

template <typename H>
std::vector<double> finite_positive_values(uint16_t inf_bits) {
  std::vector<double> v;
  for (uint32_t b = 0; b < inf_bits; ++b) v.push_back(double(float(H::from_bits(uint16_t(b)))));
  v.push_back(2 * v.back() - v[v.size() - 2]);  // where infinity would sit: rounding past the max gives inf
  return v;
}

// Every midpoint between neighbours (the ties) and the floats just beside them,
// and a sweep over the whole float range.
template <typename H>
void check_rounding_against_reference(uint16_t inf_bits) {
  const std::vector<double> values = finite_positive_values<H>(inf_bits);
  auto check = [&](float f) {
    if (std::isnan(f)) return true;
    const uint16_t got = H(f).bits, want = reference_round(f, values);
    EXPECT_EQ(got, want) << std::hexfloat << f << ": got 0x" << std::hex << got << ", want 0x" << want;
    return got == want;
  };
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    const float mid = float((values[i] + values[i + 1]) / 2);
    ASSERT_EQ(double(mid), (values[i] + values[i + 1]) / 2) << "a midpoint is not a float";
    for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f), -mid}) {
      if (!check(f)) return;
    }
  }
  for (uint64_t u = 0; u <= 0xffffffffu; u += 4099) {
    const uint32_t bits = uint32_t(u);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (!check(f)) return;
  }
}

TEST(Half, RoundingMatchesReferenceEverywhere) { check_rounding_against_reference<Half>(0x7c00); }
TEST(BFloat16, RoundingMatchesReferenceEverywhere) { check_rounding_against_reference<BFloat16>(0x7f80); }

TEST(Half, ArithmeticRoundsOnceThroughFloat) {
  Tensor x = make({2048, 1}, DType::Float16);
  EXPECT_EQ(read(add(x, make({1, 1e-4}, DType::Float16))), (std::vector<double>{2048, 1}));
  EXPECT_EQ(read(mul(make({300}, DType::Float16), make({300}, DType::Float16))), std::vector<double>{kInf});
  EXPECT_EQ(read(add(make({256}, DType::BFloat16), make({1}, DType::BFloat16))), std::vector<double>{256});
}

}  // namespace
}  // namespace wick
