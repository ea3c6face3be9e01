// core/include/wick/autograd/grad_mode.h: whether autograd records the ops a thread runs.
//
// Note [Grad mode]
// ~~~~~~~~~~~~~~~~
// Two flags per thread, as PyTorch's: grad mode (on by default; no_grad turns it
// off) and inference mode (off by default; inference_mode turns it on, and grad
// mode off with it; inference_mode(False) turns it off, and grad mode on). They belong to the thread that set them, so a thread that
// starts runs with grad mode on whatever its parent had, and the flags of one
// Python thread never leak into another. Autograd records an op only in grad
// mode, and only when an input requires grad. The guards below restore what
// they found, also when the scope is left by an exception.
#pragma once

namespace wick {
namespace autograd {

bool is_grad_enabled();
void set_grad_enabled(bool enabled);

bool is_inference_mode_enabled();
// Turns inference mode on, and grad mode off; or inference mode off, and grad mode on (as PyTorch's).
void set_inference_mode(bool enabled);

// Grad mode as `enabled` for the guard's scope.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : previous_(is_grad_enabled()) { set_grad_enabled(enabled); }
  ~GradModeGuard() { set_grad_enabled(previous_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

// Grad mode off for the guard's scope: torch::NoGradGuard.
class NoGradGuard : public GradModeGuard {
 public:
  NoGradGuard() : GradModeGuard(false) {}
};

// Inference mode as `enabled`, and grad mode as its opposite, for the guard's scope.
class InferenceModeGuard {
 public:
  explicit InferenceModeGuard(bool enabled = true)
      : grad_(is_grad_enabled()), inference_(is_inference_mode_enabled()) {
    set_inference_mode(enabled);
  }
  ~InferenceModeGuard() {
    set_inference_mode(inference_);
    set_grad_enabled(grad_);
  }
  InferenceModeGuard(const InferenceModeGuard&) = delete;
  InferenceModeGuard& operator=(const InferenceModeGuard&) = delete;

 private:
  bool grad_, inference_;
};

}  // namespace autograd
}  // namespace wick
