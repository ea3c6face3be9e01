// core/src/autograd/node.cpp: what every node of the graph shares.
#include "wick/autograd/node.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "wick/error.h"

namespace wick {
namespace autograd {

namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}  // namespace

Node::Node() : sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

// Note [Releasing long graphs]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A node owns the nodes before it, so dropping the last tensor of a chain of a
// million ops would release a million nodes each from inside the destructor of
// the next, and overflow the stack. The outermost destructor on a thread takes
// the nodes the others would release into a list instead, and releases them one
// by one: the depth stays one node whatever the length of the graph.
namespace {
thread_local std::vector<std::shared_ptr<Node>>* releasing = nullptr;
}  // namespace

Node::~Node() {
  std::vector<std::shared_ptr<Node>> pending;
  const bool outermost = releasing == nullptr;
  if (outermost) releasing = &pending;
  for (Edge& e : next_edges_) {
    if (e.function) releasing->push_back(std::move(e.function));
  }
  if (!outermost) return;
  while (!pending.empty()) {
    std::shared_ptr<Node> next = std::move(pending.back());
    pending.pop_back();
    next.reset();  // may push the nodes before it onto `pending`
  }
  releasing = nullptr;
}

bool Node::should_compute_any_output(size_t begin, size_t end) const {
  for (size_t i = begin; i < end; ++i) {
    if (should_compute_output(i)) return true;
  }
  return false;
}

uint32_t Node::add_input_metadata(const Tensor& t) {
  input_metadata_.emplace_back(t);
  return uint32_t(input_metadata_.size() - 1);
}

Tensor run_hook(const GradHook& hook, Tensor grad) {
  Tensor replaced = hook(grad);
  if (!replaced.defined()) return grad;
  WICK_CHECK(replaced.sizes() == grad.sizes(), "hook has changed the size of value: expected ",
             shape_str(grad.sizes()), ", got ", shape_str(replaced.sizes()));
  WICK_CHECK(replaced.dtype() == grad.dtype() && replaced.device() == grad.device(),
             "hook has changed the type of value: expected ", dtype_name(grad.dtype()), " on ", grad.device().str(),
             ", got ", dtype_name(replaced.dtype()), " on ", replaced.device().str());
  return replaced;
}

std::shared_ptr<InputHook> Node::add_input_hook(uint32_t input_nr, GradHook fn) {
  auto hook = std::make_shared<InputHook>(InputHook{input_nr, std::move(fn)});
  input_hooks_.push_back(hook);
  return hook;
}

void Node::remove_input_hook(const InputHook* hook) {
  input_hooks_.erase(std::remove_if(input_hooks_.begin(), input_hooks_.end(),
                                    [&](const std::shared_ptr<InputHook>& h) { return h.get() == hook; }),
                     input_hooks_.end());
}

Tensor Node::materialized(const TensorList& grads, size_t i) const {
  if (i < grads.size() && grads[i].defined()) return grads[i];
  WICK_INTERNAL_ASSERT(i < input_metadata_.size(), "a formula reads a gradient the node has no input for");
  return input_metadata_[i].zeros();
}

TensorList Node::materialized(const TensorList& grads) const {
  TensorList out(input_metadata_.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = materialized(grads, i);
  return out;
}

TensorList NotImplementedNode::apply(TensorList&&) {
  throw NotImplementedError("the derivative of " + op_ + " is not implemented");
}

}  // namespace autograd
}  // namespace wick
