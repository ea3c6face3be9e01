// core/src/autograd/grad_mode.cpp: the per-thread flags of Note [Grad mode].
#include "wick/autograd/grad_mode.h"

namespace wick {
namespace autograd {
namespace {

thread_local bool grad_enabled = true;
thread_local bool inference_mode = false;

}  // namespace

bool is_grad_enabled() { return grad_enabled; }
void set_grad_enabled(bool enabled) { grad_enabled = enabled; }

bool is_inference_mode_enabled() { return inference_mode; }
void set_inference_mode(bool enabled) {
  inference_mode = enabled;
  grad_enabled = !enabled;
}

}  // namespace autograd
}  // namespace wick
