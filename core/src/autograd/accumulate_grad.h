// core/src/autograd/accumulate_grad.h: the node that ends every path to a leaf.
#pragma once

#include "wick/autograd/node.h"

namespace wick {
namespace autograd {

// Note [Accumulating into .grad]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The first gradient becomes .grad itself when nothing else can see it (its
// TensorImpl and storage held by this call alone, and contiguous), and a copy
// otherwise, so that a later accumulation in place never writes into another
// tensor's memory; later ones are added in place, or out of place in grad mode
// (create_graph), where .grad keeps a graph of its own.

// Adds the gradient that reaches a leaf into its .grad, after the leaf's hooks.
class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  TensorList apply(TensorList&& grads) override;
  std::string name() const override { return "AccumulateGrad"; }
  // The gradient after the leaf's hooks (what autograd.grad returns for a leaf).
  Tensor run_hooks(Tensor grad) const;
  const Tensor& variable() const { return variable_; }

 private:
  Tensor variable_;
};

}  // namespace autograd
}  // namespace wick
