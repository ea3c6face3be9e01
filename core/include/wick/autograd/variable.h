// core/include/wick/autograd/variable.h: what autograd keeps on a tensor, and the calls that read and set it.
//
// Note [Leaves and views]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A tensor requires grad when it is a leaf the user marked (requires_grad_()), whose
// gradient AccumulateGrad adds into .grad, or when an op recorded in grad mode made
// it (it has a grad_fn). A tensor with a base (Tensor::base(): a view made by a view
// op, but not by detach()) shares its base's memory, so writing into it in place
// changes the base too: the in-place op's node is wrapped in a CopySlices node that
// becomes the base's grad_fn, and the view's grad_fn becomes the view's slice of the
// base's (an AsStridedBackward). Other views of the same base learn of the write
// lazily: a view remembers the version of its memory (Note [Version counter]) when
// it got its grad_fn, and when it is next used after the version moved on, its
// grad_fn is made again from the base's. A leaf that requires grad, or a view of one,
// cannot be written in place in grad mode, as in PyTorch.
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <vector>

#include "wick/array_ref.h"
#include "wick/autograd/node.h"
#include "wick/tensor.h"
#include "wick/tensor_list.h"

namespace wick {
namespace autograd {

// A hook that register_hook put on a leaf, run by its AccumulateGrad before it accumulates.
struct LeafHook {
  GradHook fn;
};

struct AutogradMeta {
  Tensor grad;                              // .grad of a leaf, or of a tensor that retains it
  std::shared_ptr<Node> grad_fn;            // null for a leaf
  std::weak_ptr<Node> grad_accumulator;     // a leaf's AccumulateGrad, while a graph holds it
  std::vector<std::shared_ptr<LeafHook>> leaf_hooks;
  std::shared_ptr<Tensor> retained_grad;    // .grad of a non-leaf that retains it, shared with its hook
  uint32_t output_nr = 0;                   // which input of grad_fn this tensor's gradient is
  uint32_t view_version = 0;                // of a view: its memory's version when grad_fn was set
  bool requires_grad = false;               // a leaf's flag (a non-leaf requires grad by its grad_fn)
};

inline AutogradMeta* meta_of(const Tensor& t) { return t.defined() ? t.impl()->autograd_meta() : nullptr; }

// Whether `t` requires grad: a marked leaf, or a result of a recorded op.
inline bool requires_grad(const Tensor& t) {
  const AutogradMeta* m = meta_of(t);
  return m && (m->requires_grad || m->grad_fn);
}

// Whether one of these (possibly undefined) tensors requires grad; autograd records an op only
// when one of its inputs does and grad mode is on.
inline bool any_requires_grad(std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors) {
    if (requires_grad(*t)) return true;
  }
  return false;
}
inline bool any_requires_grad(TensorListRef list) {
  for (const Tensor& t : list) {
    if (requires_grad(t)) return true;
  }
  return false;
}

// Marks a leaf: ValueError for a tensor that is not floating point, RuntimeError for a non-leaf
// asked to stop requiring grad.
void set_requires_grad(const Tensor& t, bool requires_grad);
bool is_leaf(const Tensor& t);
// The node that made `t`, made again first for a view whose memory was written since (Note [Leaves and views]).
std::shared_ptr<Node> grad_fn(const Tensor& t);
uint32_t output_nr(const Tensor& t);
// Where the gradient of `t` goes: its grad_fn, its AccumulateGrad, or nowhere.
Edge gradient_edge(const Tensor& t);
// The leaf's AccumulateGrad, made on first use; null for a tensor that is no leaf requiring grad.
std::shared_ptr<Node> grad_accumulator(const Tensor& t);

Tensor grad(const Tensor& t);
void set_grad(const Tensor& t, const Tensor& grad);

// Makes `node` the grad_fn of a result of the op it records, as its input `input_nr`.
void set_history(const Tensor& result, const std::shared_ptr<Node>& node, uint32_t input_nr);
// Makes `node` the grad_fn of `self`, which an op wrote in place, as its input `input_nr`, taking care of views
// (Note [Leaves and views]).
void rebase_history(const Tensor& self, const std::shared_ptr<Node>& node, uint32_t input_nr = 0);
// RuntimeError when writing into `self` in place in grad mode is not allowed (a leaf that requires grad).
void check_inplace(const Tensor& self);
// RuntimeError from an out= form whose arguments require grad (PyTorch's refusal).
void check_no_grad_for_out(bool requires_grad);
// Forgets the history of `self` (detach_()).
void detach_in_place(const Tensor& self);

// Bumps the version of what an op wrote (Note [Version counter]).
inline void bump_version(const Tensor& t) { t.storage()->bump_version(); }

// The next edges of a node for these inputs, in order; a list contributes one edge per tensor.
void collect_next_edges(std::vector<Edge>& edges, const Tensor& t);
void collect_next_edges(std::vector<Edge>& edges, TensorListRef list);

// A leaf's gradient hooks (register_hook), or those of a non-leaf on its grad_fn.
std::shared_ptr<void> register_hook(const Tensor& t, GradHook fn);
void remove_hook(const Tensor& t, const std::shared_ptr<void>& handle);
// Keeps the gradient of a non-leaf in its .grad (retain_grad()); nothing for a leaf.
void retain_grad(const Tensor& t);
bool retains_grad(const Tensor& t);

}  // namespace autograd
}  // namespace wick
