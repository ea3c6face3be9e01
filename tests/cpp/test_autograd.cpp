// tests/cpp/test_autograd.cpp: autograd from C++: the recording ops, the engine, versions and views.
#include <gtest/gtest.h>

#include <vector>

#include "helpers.h"
#include "wick/autograd/engine.h"
#include "wick/autograd/grad_mode.h"
#include "wick/autograd/ops.h"
#include "wick/autograd/variable.h"

namespace wick {
namespace {

namespace ops = autograd::ops;
using test::from;
using test::reals;

Tensor leaf(const test::I& values) {
  Tensor t = to(from(values), DType::Float64);
  autograd::set_requires_grad(t, true);
  return t;
}

TEST(Autograd, RecordsOnlyWhenAnInputRequiresGrad) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor plain = to(from({1, 2, 3}), DType::Float64);
  EXPECT_EQ(autograd::grad_fn(ops::mul(plain, plain)), nullptr);
  const Tensor y = ops::mul(x, plain);
  ASSERT_NE(autograd::grad_fn(y), nullptr);
  EXPECT_EQ(autograd::grad_fn(y)->name(), "MulBackward0");
  autograd::NoGradGuard off;
  EXPECT_EQ(autograd::grad_fn(ops::mul(x, plain)), nullptr);
}

TEST(Autograd, BackwardAccumulatesIntoLeaves) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor y = ops::sum(ops::mul(x, x));
  autograd::backward({y}, {Tensor()}, false, false);
  EXPECT_EQ(reals(autograd::grad(x)), (std::vector<double>{2, 4, 6}));
  autograd::backward({ops::sum(ops::mul(x, 3))}, {Tensor()}, false, false);
  EXPECT_EQ(reals(autograd::grad(x)), (std::vector<double>{5, 7, 9}));
}

TEST(Autograd, GradOfAGradient) {
  const Tensor x = leaf({1, 2});
  const Tensor y = ops::sum(ops::mul(ops::mul(x, x), x));  // sum(x^3)
  const Tensor g = autograd::grad({y}, {x}, {Tensor()}, true, true, false)[0];  // 3 x^2
  EXPECT_EQ(reals(g), (std::vector<double>{3, 12}));
  const Tensor h = autograd::grad({ops::sum(g)}, {x}, {Tensor()}, false, false, false)[0];  // 6 x
  EXPECT_EQ(reals(h), (std::vector<double>{6, 12}));
}

TEST(Autograd, AWriteToASavedTensorIsRefused) {
  const Tensor x = leaf({1, 2});
  const Tensor y = ops::mul(x, 2);
  const Tensor z = ops::sum(ops::mul(y, y));
  const uint32_t before = y.storage()->version();
  ops::add_(y, 1);
  EXPECT_EQ(y.storage()->version(), before + 1);
  test::expect_throw<Error>([&] { autograd::backward({z}, {Tensor()}, false, false); },
                            "modified by an inplace operation");
}

TEST(Autograd, AWriteThroughAViewReachesTheBase) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor y = ops::mul(x, 1);
  ops::mul_(ops::select(y, 0, 1), 5);  // y[1] *= 5
  EXPECT_EQ(autograd::grad_fn(y)->name(), "CopySlices");
  autograd::backward({ops::sum(y)}, {Tensor()}, false, false);
  EXPECT_EQ(reals(autograd::grad(x)), (std::vector<double>{1, 5, 1}));
}

TEST(Autograd, ALongChainIsReleasedWithoutRecursion) {
  const Tensor x = leaf({1});
  Tensor y = x;
  for (int i = 0; i < 100000; ++i) y = ops::add(y, 1);
  y = Tensor();  // drops a hundred thousand nodes
  EXPECT_TRUE(autograd::is_leaf(x));
}

}  // namespace
}  // namespace wick
