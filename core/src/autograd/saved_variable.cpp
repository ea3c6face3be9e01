// core/src/autograd/saved_variable.cpp: Note [Saved variables].
#include "wick/autograd/saved_variable.h"

#include "wick/autograd/grad_mode.h"
#include "wick/autograd/variable.h"
#include "wick/core_ops.h"
#include "wick/error.h"

namespace wick {
namespace autograd {

namespace {

// A tensor over the same memory and geometry, with no history and no base.
Tensor bare_alias(const Tensor& t) {
  return make_tensor(t.storage(), t.dtype(), t.sizes().vec(), t.strides().vec(), t.storage_offset());
}

}  // namespace

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  if (!t.defined()) return;
  was_defined_ = true;
  is_output_ = is_output;
  version_ = t.storage()->version();
  if (is_output) {
    // Without its grad_fn, which is the node saving it (Note [Saved variables]).
    requires_grad_ = requires_grad(t);
    output_nr_ = autograd::output_nr(t);
    data_ = bare_alias(t);
  } else {
    data_ = t;
  }
}

Tensor SavedVariable::unpack(const std::shared_ptr<Node>& owner) const {
  if (released_) {
    throw Error(
        "Trying to backward through the graph a second time (or directly access saved tensors after they "
        "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
        "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
        "time or if you need to access saved tensors after calling backward.");
  }
  if (!was_defined_) return Tensor();
  const uint32_t now = data_.storage()->version();
  if (now != version_) {
    const std::string what = is_output_ ? "output " + std::to_string(output_nr_) + " of " + owner->name()
                                        : "an input of " + owner->name();
    detail::fail<Error>("one of the variables needed for gradient computation has been modified by an inplace "
                        "operation: [", dtype_name(data_.dtype()), " tensor ", shape_str(data_.sizes()),
                        "], which is ", what, ", is at version ", now, "; expected version ", version_,
                        " instead. Hint: clone() a tensor before writing into it in place if its old values "
                        "are needed for backward.");
  }
  if (!is_output_ || !requires_grad_ || !is_grad_enabled()) return data_;
  // Differentiable again (create_graph): the result with its history given back.
  Tensor out = bare_alias(data_);
  AutogradMeta& m = out.impl()->ensure_autograd_meta();
  m.grad_fn = owner;
  m.output_nr = output_nr_;
  return out;
}

void SavedVariable::reset() {
  data_ = Tensor();
  released_ = true;
}

}  // namespace autograd
}  // namespace wick
