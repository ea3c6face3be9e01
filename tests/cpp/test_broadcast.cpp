// tests/cpp/test_broadcast.cpp: broadcast shapes, broadcasting in pointwise ops, and the in-place and out= shape rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/add.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/fill_.h"
#include "wick/ops/mul.h"
#include "wick/ops/reshape.h"
#include "wick/ops/to.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

// Collects warnings while installed; restores the previous handler when destroyed.
class CapturingHandler : public WarningHandler {
 public:
  CapturingHandler() : previous_(set_warning_handler(this)) {}
  ~CapturingHandler() override { set_warning_handler(previous_); }
  void process(WarningKind /*kind*/, const std::string& msg) override { messages.push_back(msg); }

  std::vector<std::string> messages;

 private:
  WarningHandler* previous_;
};

Tensor tensor_of(const std::vector<double>& values, IntArrayRef shape) {
  Tensor t = empty({int64_t(values.size())}, DType::Float64);
  std::copy(values.begin(), values.end(), t.data<double>());
  return reshape(t, shape);
}

std::vector<double> values_of(const Tensor& t) {
  Tensor c = contiguous(to(t, DType::Float64));
  return std::vector<double>(c.data<double>(), c.data<double>() + c.numel());
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The message of the wick::Error that `f` throws, or "" when it throws none.
template <typename F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(BroadcastShapes, Rules) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {4}), (DimVector{3, 4}));
  EXPECT_EQ(broadcast_shapes({4}, {3, 1}), (DimVector{3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {2, 3}), (DimVector{2, 3}));
  EXPECT_EQ(broadcast_shapes({}, {}), DimVector{});
  EXPECT_EQ(broadcast_shapes({5, 1, 4}, {3, 1}), (DimVector{5, 3, 4}));
  EXPECT_EQ(broadcast_shapes({2, 0}, {2, 1}), (DimVector{2, 0}));
  EXPECT_EQ(broadcast_shapes({0}, {1}), (DimVector{0}));
}

TEST(BroadcastShapes, MismatchThrowsNamingTheSizes) {
  EXPECT_THROW(broadcast_shapes({3}, {4}), Error);
  EXPECT_THROW(broadcast_shapes({2, 3}, {3, 3}), Error);
  EXPECT_THROW(broadcast_shapes({0}, {2}), Error);
  const std::string msg = error_message([] { broadcast_shapes({2, 3}, {4, 3}); });
  EXPECT_EQ(msg, "the size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0 "
                 "(shapes [2, 3] and [4, 3])");
}

TEST(BroadcastAdd, ColumnPlusRow) {
  Tensor col = tensor_of({0, 1, 2}, {3, 1});
  Tensor row = tensor_of({10, 20, 30, 40}, {4});
  Tensor r = add(col, row);
  EXPECT_EQ(r.sizes().vec(), (DimVector{3, 4}));
  EXPECT_TRUE(r.is_contiguous());
  EXPECT_EQ(values_of(r), (std::vector<double>{10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42}));
  // alpha scales the broadcast operand
  EXPECT_EQ(values_of(add(row, col, 2)), (std::vector<double>{10, 20, 30, 40, 12, 22, 32, 42, 14, 24, 34, 44}));
}

TEST(BroadcastAdd, ZeroDimAndEmptyOperands) {
  Tensor m = tensor_of({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor r = add(scalar_tensor(Scalar(100.0), DType::Float64), m);
  EXPECT_EQ(r.sizes().vec(), (DimVector{2, 3}));
  EXPECT_EQ(values_of(r), (std::vector<double>{101, 102, 103, 104, 105, 106}));

  Tensor e = add(empty({0, 1}, DType::Float64), tensor_of({1, 2, 3}, {3}));
  EXPECT_EQ(e.sizes().vec(), (DimVector{0, 3}));
  EXPECT_EQ(e.numel(), 0);
}

TEST(BroadcastAdd, MismatchedShapesThrow) {
  EXPECT_THROW(add(tensor_of({1, 2, 3}, {3}), tensor_of({1, 2, 3, 4}, {4})), Error);
  EXPECT_THROW(mul(tensor_of({1, 2, 3, 4, 5, 6}, {2, 3}), tensor_of({1, 2}, {2})), Error);
  const std::string msg = error_message([] { add(tensor_of({1, 2}, {2}), tensor_of({1, 2, 3}, {3})); });
  EXPECT_TRUE(contains(msg, "the size of tensor a (2) must match the size of tensor b (3)")) << msg;
}

TEST(BroadcastInPlace, OtherMayBroadcastIntoSelf) {
  Tensor self = tensor_of({1, 2, 3, 4, 5, 6}, {2, 3});
  add_(self, tensor_of({10, 20, 30}, {3}));
  EXPECT_EQ(values_of(self), (std::vector<double>{11, 22, 33, 14, 25, 36}));
  add_(self, tensor_of({100, 200}, {2, 1}));
  EXPECT_EQ(values_of(self), (std::vector<double>{111, 122, 133, 214, 225, 236}));
}

TEST(BroadcastInPlace, SelfMayNotChangeShape) {
  Tensor col = tensor_of({0, 1, 2}, {3, 1});
  Tensor row = tensor_of({10, 20, 30, 40}, {4});
  EXPECT_THROW(add_(col, row), Error);
  EXPECT_THROW(add_(row, col), Error);
  EXPECT_THROW(mul_(scalar_tensor(Scalar(1.0), DType::Float64), row), Error);
  EXPECT_EQ(col.sizes().vec(), (DimVector{3, 1}));
  EXPECT_EQ(values_of(col), (std::vector<double>{0, 1, 2})) << "a refused in-place op must not write";
  EXPECT_EQ(values_of(row), (std::vector<double>{10, 20, 30, 40}));
}

TEST(BroadcastOut, RightShapeIsWrittenInPlaceWithoutWarning) {
  CapturingHandler warnings;
  Tensor out = empty({3, 4}, DType::Float64);
  char* before = out.data_ptr();
  Tensor r = add_out(out, tensor_of({0, 1, 2}, {3, 1}), tensor_of({10, 20, 30, 40}, {4}));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.data_ptr(), before);
  EXPECT_EQ(values_of(out)[5], 21);
  EXPECT_TRUE(warnings.messages.empty());
}

TEST(BroadcastOut, WrongShapeIsResizedWithAWarning) {
  CapturingHandler warnings;
  Tensor out = zeros({5}, DType::Float64);
  Tensor r = add_out(out, tensor_of({0, 1, 2}, {3, 1}), tensor_of({10, 20, 30, 40}, {4}));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.sizes().vec(), (DimVector{3, 4}));
  EXPECT_EQ(out.strides().vec(), (DimVector{4, 1}));
  EXPECT_EQ(values_of(out), (std::vector<double>{10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_TRUE(contains(warnings.messages[0], "resized")) << warnings.messages[0];
  EXPECT_TRUE(contains(warnings.messages[0], "[5]")) << warnings.messages[0];
  EXPECT_TRUE(contains(warnings.messages[0], "[3, 4]")) << warnings.messages[0];
}

TEST(BroadcastOut, EmptyOutIsResizedSilently) {
  CapturingHandler warnings;
  Tensor out = empty({0}, DType::Float64);
  add_out(out, tensor_of({1, 2}, {2}), tensor_of({3, 4}, {2}));
  EXPECT_EQ(out.sizes().vec(), (DimVector{2}));
  EXPECT_EQ(values_of(out), (std::vector<double>{4, 6}));
  EXPECT_TRUE(warnings.messages.empty());
}

TEST(BroadcastOut, HandlerIsRestored) {
  WarningHandler* before = warning_handler();
  {
    CapturingHandler warnings;
    EXPECT_EQ(warning_handler(), &warnings);
  }
  EXPECT_EQ(warning_handler(), before);
  EXPECT_NE(before, nullptr);
}

TEST(BroadcastOut, ExpandedOutputIsRefused) {
  Tensor base = zeros({1, 4}, DType::Float64);
  Tensor expanded = expand(base, {3, 4});
  Tensor a = tensor_of({0, 1, 2}, {3, 1});
  Tensor b = tensor_of({10, 20, 30, 40}, {4});
  EXPECT_THROW(add_out(expanded, a, b), Error);
  EXPECT_THROW(add_(expanded, Scalar(1.0)), Error);
  EXPECT_THROW(fill_(expanded, Scalar(1.0)), Error);
  EXPECT_THROW(copy_(expanded, a), Error);
  EXPECT_EQ(values_of(base), (std::vector<double>{0, 0, 0, 0}));
  // A stride-0 dim of size 1 is harmless.
  Tensor one = expand(zeros({1}, DType::Float64), {1, 1});
  add_(one, Scalar(2.0));
  EXPECT_EQ(values_of(one), std::vector<double>{2});
}

TEST(BroadcastCopy, SourceBroadcastsToDestination) {
  Tensor dst = zeros({2, 3}, DType::Int32);
  copy_(dst, tensor_of({7, 8, 9}, {3}));
  EXPECT_EQ(values_of(dst), (std::vector<double>{7, 8, 9, 7, 8, 9}));
  copy_(dst, scalar_tensor(Scalar(int64_t(-1)), DType::Int64));
  EXPECT_EQ(values_of(dst), (std::vector<double>{-1, -1, -1, -1, -1, -1}));
  EXPECT_THROW(copy_(zeros({3}), tensor_of({1, 2, 3, 4, 5, 6}, {2, 3})), Error);
  EXPECT_THROW(copy_(zeros({2, 3}), tensor_of({1, 2}, {2})), Error);
}

}  // namespace
}  // namespace wick
