// tests/cpp/test_reductions.cpp: the reduction planner and the reductions and scans through the C++ API.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "helpers.h"
#include "wick/core_ops.h"
#include "wick/ops/all.h"
#include "wick/ops/amax.h"
#include "wick/ops/amin.h"
#include "wick/ops/any.h"
#include "wick/ops/argmax.h"
#include "wick/ops/argmin.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/cumprod.h"
#include "wick/ops/cumsum.h"
#include "wick/ops/empty.h"
#include "wick/ops/logsumexp.h"
#include "wick/ops/mean.h"
#include "wick/ops/min.h"
#include "wick/ops/norm.h"
#include "wick/ops/prod.h"
#include "wick/ops/std.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/var.h"
#include "wick/reduce_engine.h"

namespace wick {
namespace {

using wick::test::shape;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// A tensor of `shape` holding `values` in row-major order, converted to dtype d.
Tensor make(const std::vector<double>& values, IntArrayRef shape, DType d = DType::Float64) {
  Tensor t = empty(shape, DType::Float64);
  EXPECT_EQ(t.numel(), int64_t(values.size()));
  std::copy(values.begin(), values.end(), t.data<double>());
  return to(t, d);
}

// The elements of any tensor in row-major order, as doubles.
std::vector<double> values(const Tensor& t) {
  const Tensor c = contiguous(to(t, DType::Float64));
  return std::vector<double>(c.data<double>(), c.data<double>() + c.numel());
}

TEST(ReductionPlan, SplitsKeptAndReducedDims) {
  const Tensor t = empty({2, 3, 4});
  const detail::Reduction r = detail::plan(t, {0, -1}, /*keepdim=*/true);
  EXPECT_EQ(r.groups, 3);
  EXPECT_EQ(r.group_size, 8);
  EXPECT_EQ(r.out_shape, (DimVector{1, 3, 1}));
  EXPECT_EQ(r.reduced_strides, (DimVector{12, 1}));
  const detail::Reduction all = detail::plan(t, {}, /*keepdim=*/false);
  EXPECT_EQ(all.groups, 1);
  EXPECT_EQ(all.group_size, 24);
  EXPECT_TRUE(all.out_shape.empty());
}

TEST(ReductionPlan, RejectsBadDims) {
  const Tensor t = empty({2, 3});
  EXPECT_THROW(detail::plan(t, {2}, false), IndexError);
  EXPECT_THROW(detail::plan(t, {1, -1}, false), Error);
}

// A reducer that records what it folds and, being positional, checks each position against the
// count so far.
template <bool kOrdered>
struct Recorder {
  static constexpr bool kPositional = kOrdered;
  using Acc = int64_t;
  std::vector<double>* seen;
  Acc start(int64_t) const { return 0; }
  Acc fold(Acc n, double x, int64_t i) const {
    seen->push_back(x);
    if (kOrdered) {
      EXPECT_EQ(i, n);
    }
    return n + 1;
  }
  Acc combine(Acc a, Acc b) const { return a + b; }
  int64_t finish(Acc n) const { return n; }
};

TEST(ReduceGroups, AFoldSeesPositionsInsideTheGroup) {
  // Over every dim of a transposed view, the position is the flat row-major index of the view.
  const Tensor t = transpose(make({0, 1, 2, 3, 4, 5}, {2, 3}), 0, 1);  // [[0, 3], [1, 4], [2, 5]]
  const detail::Reduction r = detail::plan(t, {}, false);
  std::vector<double> seen;
  int64_t out = 0;
  detail::reduce_groups<double>(t, r, Recorder<true>{&seen}, &out);
  EXPECT_EQ(out, 6);
  EXPECT_EQ(seen, (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(ReduceGroups, AFoldWithoutPositionsReadsMemoryInOrder) {
  const Tensor t = transpose(make({0, 1, 2, 3, 4, 5}, {2, 3}), 0, 1);
  const detail::Reduction r = detail::plan(t, {}, false);
  std::vector<double> seen;
  int64_t out = 0;
  detail::reduce_groups<double>(t, r, Recorder<false>{&seen}, &out);
  EXPECT_EQ(out, 6);
  EXPECT_EQ(seen, (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST(Reductions, ProdUpcastsIntegersAndKeepsDims) {
  const Tensor t = make({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Int8);
  EXPECT_EQ(prod(t).dtype(), DType::Int64);
  EXPECT_EQ(values(prod(t)), (std::vector<double>{720}));
  const Tensor p = prod(t, 1, /*keepdim=*/true);
  EXPECT_EQ(shape(p), (DimVector{2, 1}));
  EXPECT_EQ(values(p), (std::vector<double>{6, 120}));
  EXPECT_EQ(prod(t, -2, false, DType::Float32).dtype(), DType::Float32);
}

TEST(Reductions, OutFormsFollowPyTorchsDtypeRules) {
  const Tensor t = make({0.6, 0.7, 1.9, 2.5, -1.5, 3.2}, {2, 3});
  // A dtype left None is out's: the input is cast first, so 0.6 + 0.7 + 1.9 sums as 0 + 0 + 1.
  const Tensor ints = empty({0}, DType::Int32);
  EXPECT_TRUE(sum_out(ints, t, {1}).is_same(ints));
  EXPECT_EQ(shape(ints), (DimVector{2}));
  EXPECT_EQ(values(ints), (std::vector<double>{1, 4}));
  const Tensor running = empty({0}, DType::Int64);
  cumsum_out(running, t, 1);
  EXPECT_EQ(values(running), (std::vector<double>{0, 0, 1, 2, 1, 4}));
  // Without a dtype=, out takes any dtype the result casts to, and no narrower one.
  const Tensor wide = empty({0}, DType::Float64);
  var_out(wide, to(t, DType::Float32), {1}, std::optional<int64_t>(0));
  EXPECT_NEAR(values(wide)[0], values(var(t, {1}, std::optional<int64_t>(0)))[0], 1e-6);
  EXPECT_THROW(var_out(ints, t, {1}, std::optional<int64_t>(0)), Error);
  // The others take their own dtype only.
  EXPECT_THROW(amax_out(ints, t, {1}), TypeError);
}

TEST(Reductions, VarianceIsExactFarFromZero) {
  // Welford's update keeps the deviations: a sum of squares minus a squared sum would lose them all.
  const Tensor t = make({1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4}, {4});
  EXPECT_DOUBLE_EQ(values(var(t))[0], 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(values(var(t, std::nullopt, std::optional<int64_t>(0)))[0], 1.25);
  EXPECT_DOUBLE_EQ(values(wick::std(t, {0}, std::optional<int64_t>(0)))[0], std::sqrt(1.25));
  EXPECT_TRUE(std::isinf(values(var(t, std::nullopt, std::optional<int64_t>(4)))[0]));  // no degrees of freedom left
  // Note [unbiased and correction]: a bool is PyTorch's older spelling, false for correction 0.
  EXPECT_DOUBLE_EQ(values(var(t, false))[0], 1.25);
  EXPECT_DOUBLE_EQ(values(wick::std(t, {0}, true, true))[0], std::sqrt(5.0 / 3.0));
  EXPECT_TRUE(std::isnan(values(var(make({7}, {1})))[0]));      // 0 / 0
}

TEST(Reductions, BracedDimListsLiveThroughTheCall) {
  // Note [Optional lists]: an int[]? parameter takes a braced list as an ArrayRef parameter does.
  const Tensor t = make({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values(sum(t, {0, 1})), (std::vector<double>{21}));
  EXPECT_EQ(values(mean(t, {1})), (std::vector<double>{2, 5}));
  EXPECT_EQ(values(amax(t, {-1, 0})), (std::vector<double>{6}));
  EXPECT_EQ(values(var(t, {0}, std::optional<int64_t>(0))), (std::vector<double>{2.25, 2.25, 2.25}));
  EXPECT_EQ(values(amax(t, std::nullopt)), (std::vector<double>{6}));
  const std::vector<int64_t> dims{1};
  EXPECT_EQ(values(amin(t, dims, true)), (std::vector<double>{1, 4}));
}

TEST(Reductions, ExtremesPropagateNaNAndArgExtremesTakeTheFirst) {
  const Tensor t = make({2, kNaN, 5, kNaN, 5}, {5}, DType::Float32);
  EXPECT_TRUE(std::isnan(values(min(t))[0]));
  EXPECT_TRUE(std::isnan(values(amax(t))[0]));
  EXPECT_EQ(values(argmax(t))[0], 1);
  EXPECT_EQ(values(argmin(t))[0], 1);
  const Tensor ties = make({5, 1, 5, 1}, {2, 2}, DType::Int32);
  EXPECT_EQ(values(argmax(ties)), (std::vector<double>{0}));
  EXPECT_EQ(values(argmin(ties, 1)), (std::vector<double>{1, 1}));
  EXPECT_EQ(shape(argmax(ties, std::nullopt, /*keepdim=*/true)), (DimVector{1, 1}));
  const Tensor flags = make({0, 1, 1, 0}, {2, 2}, DType::Bool);  // bool compares as 0 and 1, as in PyTorch
  EXPECT_EQ(values(argmax(flags)), (std::vector<double>{1}));
  EXPECT_EQ(values(argmin(flags, 1)), (std::vector<double>{0, 1}));
}

TEST(Reductions, AllAndAnyKeepUInt8) {
  const Tensor u = make({1, 0, 3, 4}, {2, 2}, DType::UInt8);
  EXPECT_EQ(all(u).dtype(), DType::UInt8);
  EXPECT_EQ(values(all(u, 1)), (std::vector<double>{0, 1}));
  EXPECT_EQ(any(make({0, kNaN}, {2})).dtype(), DType::Bool);
  EXPECT_EQ(values(any(make({0, kNaN}, {2}))), (std::vector<double>{1}));
}

TEST(Reductions, NormOrders) {
  const Tensor t = make({3, 0, -4}, {3});
  EXPECT_DOUBLE_EQ(values(norm(t))[0], 5);
  EXPECT_DOUBLE_EQ(values(norm(t, 1))[0], 7);
  EXPECT_DOUBLE_EQ(values(norm(t, 0))[0], 2);
  EXPECT_DOUBLE_EQ(values(norm(t, kInf))[0], 4);
  EXPECT_DOUBLE_EQ(values(norm(t, -kInf))[0], 0);
  EXPECT_DOUBLE_EQ(values(norm(empty({0}), -1))[0], 0);  // PyTorch: 0 for no elements, whatever p
}

TEST(Reductions, LogSumExpIsStable) {
  EXPECT_DOUBLE_EQ(values(logsumexp(make({1000, 1000}, {2}), 0))[0], 1000 + std::log(2.0));
  EXPECT_EQ(values(logsumexp(make({-kInf, -kInf}, {2}), 0))[0], -kInf);
  EXPECT_EQ(values(logsumexp(make({kInf, 1}, {2}), 0))[0], kInf);
  EXPECT_EQ(logsumexp(make({1, 2}, {2}, DType::Int64), 0).dtype(), default_float());
}

TEST(Scans, FollowTheDimOfANonContiguousInput) {
  const Tensor t = transpose(make({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Int16), 0, 1);  // [[1, 4], [2, 5], [3, 6]]
  const Tensor s = cumsum(t, 0);
  EXPECT_EQ(s.dtype(), DType::Int64);
  EXPECT_EQ(shape(s), (DimVector{3, 2}));
  EXPECT_EQ(values(s), (std::vector<double>{1, 4, 3, 9, 6, 15}));
  EXPECT_EQ(values(cumprod(t, -1, DType::Float64)), (std::vector<double>{1, 4, 2, 10, 3, 18}));
}

TEST(Reductions, UserErrorsThrowTheirTypes) {
  const Tensor ints = make({1, 2}, {2}, DType::Int64);
  EXPECT_THROW(wick::std(ints), TypeError);
  EXPECT_THROW(norm(ints), TypeError);
  EXPECT_THROW(cumsum(ints, 0, DType::Bool), TypeError);
  EXPECT_THROW(amax(empty({0, 2})), Error);
  EXPECT_THROW(amax(empty({0, 2}), {0}), IndexError);
  EXPECT_EQ(shape(amax(empty({0, 2}), {1})), (DimVector{0}));
  EXPECT_THROW(argmin(empty({0})), IndexError);
  EXPECT_THROW(cumprod(ints, 1), IndexError);
  EXPECT_THROW(all(ints, -2), IndexError);
}

}  // namespace
}  // namespace wick
