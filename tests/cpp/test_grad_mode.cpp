// tests/cpp/test_grad_mode.cpp: the per-thread flags of Note [Grad mode] and their guards.
#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

#include "wick/autograd/grad_mode.h"

namespace wick {
namespace {

using autograd::is_grad_enabled;
using autograd::is_inference_mode_enabled;

TEST(GradMode, OnByDefaultAndSetPerThread) {
  EXPECT_TRUE(is_grad_enabled());
  EXPECT_FALSE(is_inference_mode_enabled());
  autograd::NoGradGuard off;
  EXPECT_FALSE(is_grad_enabled());
  bool in_thread = false, inference_in_thread = true;
  std::thread([&] {
    in_thread = is_grad_enabled();
    inference_in_thread = is_inference_mode_enabled();
  }).join();
  EXPECT_TRUE(in_thread);  // a new thread starts with its own flags, not its parent's
  EXPECT_FALSE(inference_in_thread);
}

TEST(GradMode, GuardsRestoreWhatTheyFoundAlsoThroughAnException) {
  try {
    autograd::GradModeGuard off(false);
    {
      autograd::GradModeGuard on(true);
      EXPECT_TRUE(is_grad_enabled());
    }
    EXPECT_FALSE(is_grad_enabled());
    throw std::runtime_error("leaving the scope");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(is_grad_enabled());
}

TEST(GradMode, InferenceModeSetsGradModeToItsOppositeAndBothComeBack) {
  {
    autograd::InferenceModeGuard inference;
    EXPECT_TRUE(is_inference_mode_enabled());
    EXPECT_FALSE(is_grad_enabled());
    {
      autograd::InferenceModeGuard off(false);  // inference mode off turns grad mode on, as PyTorch's
      EXPECT_FALSE(is_inference_mode_enabled());
      EXPECT_TRUE(is_grad_enabled());
    }
    EXPECT_TRUE(is_inference_mode_enabled());
  }
  EXPECT_FALSE(is_inference_mode_enabled());
  EXPECT_TRUE(is_grad_enabled());
}

}  // namespace
}  // namespace wick
