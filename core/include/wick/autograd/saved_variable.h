// core/include/wick/autograd/saved_variable.h: a tensor a node keeps for its backward.
#pragma once

#include <memory>

#include "wick/autograd/node.h"
#include "wick/tensor.h"

namespace wick {
namespace autograd {

// Note [Saved variables]
// ~~~~~~~~~~~~~~~~~~~~~~
// A node keeps the tensors its formulas read, with the version of their memory
// when they were saved (Note [Version counter]); unpacking one whose memory was
// written since raises PyTorch's RuntimeError, since the formula would read the
// new values. A node that saves one of its own op's results keeps it without
// its grad_fn (which is the node itself: a cycle that would never be freed) and a
// weak reference to the node instead, and unpacking gives the result its history
// back, so that a formula reading `result` is differentiable again
// (create_graph). After the engine went through the node without retain_graph,
// the tensors are dropped and unpacking raises the error of a second backward.
class SavedVariable {
 public:
  SavedVariable() = default;
  // `is_output`: `t` is a result of the op whose node saves it.
  SavedVariable(const Tensor& t, bool is_output);

  // The saved tensor (undefined if an undefined one was saved); `owner` is the node that saved it.
  Tensor unpack(const std::shared_ptr<Node>& owner) const;
  void reset();
  bool defined() const { return was_defined_; }

 private:
  Tensor data_;
  std::shared_ptr<Node> grad_fn_;  // of an input: the node that made it (null for a leaf)
  std::weak_ptr<Node> grad_accumulator_;  // of a leaf input that requires grad
  uint32_t version_ = 0;
  uint32_t output_nr_ = 0;
  bool was_defined_ = false;
  bool is_output_ = false;
  bool requires_grad_ = false;
  bool released_ = false;
};

}  // namespace autograd
}  // namespace wick
