// core/src/autograd/accumulate_grad.cpp: Note [Accumulating into .grad].
#include "accumulate_grad.h"

#include "wick/autograd/grad_mode.h"
#include "wick/autograd/ops.h"
#include "wick/autograd/variable.h"

namespace wick {
namespace autograd {

AccumulateGrad::AccumulateGrad(Tensor variable) : variable_(std::move(variable)) {
  add_input_metadata(variable_);
}

Tensor AccumulateGrad::run_hooks(Tensor grad) const {
  const AutogradMeta* meta = meta_of(variable_);
  if (!meta) return grad;
  const auto hooks = meta->leaf_hooks;  // a hook may remove itself
  for (const auto& hook : hooks) {
    grad = run_hook(hook->fn, std::move(grad));
  }
  return grad;
}

TensorList AccumulateGrad::apply(TensorList&& grads) {
  if (!grads[0].defined()) return {};
  Tensor grad = run_hooks(std::move(grads[0]));
  AutogradMeta& meta = variable_.impl()->ensure_autograd_meta();
  const bool graph = is_grad_enabled();
  if (!meta.grad.defined()) {
    const bool alone = grad.impl()->use_count() == 1 && grad.storage()->use_count() == 1 &&
                       grad.is_contiguous() && !grad.impl()->base();
    meta.grad = alone ? std::move(grad) : ops::clone(grad);
  } else if (graph || requires_grad(meta.grad)) {
    meta.grad = ops::add(meta.grad, grad);
  } else {
    ops::add_(meta.grad, grad);
  }
  return {};
}

}  // namespace autograd
}  // namespace wick
