// core/src/autograd/variable.cpp: autograd's state of a tensor (Note [Leaves and views]).
#include "wick/autograd/variable.h"

#include <algorithm>

#include "accumulate_grad.h"
#include "view_nodes.h"
#include "wick/autograd/grad_mode.h"
#include "wick/autograd/ops.h"
#include "wick/autograd/tensor_meta.h"
#include "wick/error.h"
#include "wick/overflow.h"

namespace wick {
namespace autograd {

int64_t TensorMeta::numel() const { return checked_numel(sizes); }

Tensor TensorMeta::zeros() const { return ::wick::zeros(sizes, dtype, device); }

namespace {

bool is_view(const Tensor& t) { return t.impl()->base() != nullptr; }

Tensor base_of(const Tensor& t) { return t.base(); }

// The view's grad_fn as its slice of the base's, and the version it is current for.
void regenerate_view_history(const Tensor& view) {
  const Tensor base = base_of(view);
  auto node = std::make_shared<AsStridedBackward>(base, view);
  node->add_next_edge(gradient_edge(base));
  node->add_input_metadata(view);
  AutogradMeta& meta = view.impl()->ensure_autograd_meta();
  meta.grad_fn = std::move(node);
  meta.output_nr = 0;
  meta.view_version = view.storage()->version();
}

}  // namespace

void set_requires_grad(const Tensor& t, bool flag) {
  AutogradMeta* meta = meta_of(t);
  if (meta && meta->grad_fn) {
    WICK_CHECK(flag, "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                     "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return;
  }
  if (flag) {
    WICK_CHECK(is_floating(t.dtype()), "only Tensors of floating point dtype can require gradients, not ",
               dtype_name(t.dtype()));
    t.impl()->ensure_autograd_meta().requires_grad = true;
  } else if (meta) {
    meta->requires_grad = false;
  }
}

bool is_leaf(const Tensor& t) { return grad_fn(t) == nullptr; }

std::shared_ptr<Node> grad_fn(const Tensor& t) {
  AutogradMeta* meta = meta_of(t);
  if (!meta || !meta->grad_fn) return nullptr;
  if (is_view(t) && meta->view_version != t.storage()->version() && requires_grad(base_of(t))) {
    regenerate_view_history(t);
  }
  return meta->grad_fn;
}

uint32_t output_nr(const Tensor& t) {
  const AutogradMeta* meta = meta_of(t);
  return meta ? meta->output_nr : 0;
}

Edge gradient_edge(const Tensor& t) {
  if (std::shared_ptr<Node> fn = grad_fn(t)) return Edge{std::move(fn), output_nr(t)};
  return Edge{grad_accumulator(t), 0};
}

std::shared_ptr<Node> grad_accumulator(const Tensor& t) {
  AutogradMeta* meta = meta_of(t);
  if (!meta || !meta->requires_grad || meta->grad_fn) return nullptr;
  if (std::shared_ptr<Node> existing = meta->grad_accumulator.lock()) return existing;
  auto node = std::make_shared<AccumulateGrad>(t);
  meta->grad_accumulator = node;
  return node;
}

Tensor grad(const Tensor& t) {
  const AutogradMeta* meta = meta_of(t);
  if (!meta) return Tensor();
  return meta->retained_grad ? *meta->retained_grad : meta->grad;
}

void set_grad(const Tensor& t, const Tensor& g) {
  if (g.defined()) {
    WICK_CHECK(g.dtype() == t.dtype(), "assigned grad has data of a different type");
    WICK_CHECK(g.device() == t.device(), "assigned grad has data located on a different device");
    WICK_CHECK(g.sizes() == t.sizes(), "assigned grad has data of a different size");
  }
  AutogradMeta* meta = meta_of(t);
  if (!meta && !g.defined()) return;
  AutogradMeta& m = meta ? *meta : t.impl()->ensure_autograd_meta();
  if (m.retained_grad) {
    *m.retained_grad = g;
  } else {
    m.grad = g;
  }
}

void set_history(const Tensor& result, const std::shared_ptr<Node>& node, uint32_t input_nr) {
  if (!is_floating(result.dtype())) return;  // integer results have no gradient
  AutogradMeta& meta = result.impl()->ensure_autograd_meta();
  meta.grad_fn = node;
  meta.output_nr = input_nr;
  if (is_view(result)) meta.view_version = result.storage()->version();
}

void check_inplace(const Tensor& self) {
  const AutogradMeta* meta = meta_of(self);
  WICK_CHECK(!(meta && meta->requires_grad && !meta->grad_fn),
             "a leaf Variable that requires grad is being used in an in-place operation.");
  if (is_view(self)) {
    const Tensor base = base_of(self);
    const AutogradMeta* base_meta = meta_of(base);
    WICK_CHECK(!(base_meta && base_meta->requires_grad && !base_meta->grad_fn),
               "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
}

void rebase_history(const Tensor& self, const std::shared_ptr<Node>& node, uint32_t input_nr) {
  if (!is_view(self)) {
    AutogradMeta& meta = self.impl()->ensure_autograd_meta();
    meta.grad_fn = node;
    meta.output_nr = input_nr;
    return;
  }
  WICK_CHECK(input_nr == 0, "a view written in place must be the first result of the op that writes it");
  // The write goes to the base: its grad_fn becomes CopySlices of the op's node, and the view's its slice.
  const Tensor base = base_of(self);
  auto copy = std::make_shared<CopySlices>(base, self, node);
  copy->add_next_edge(gradient_edge(base));
  for (size_t i = 1; i < node->next_edges().size(); ++i) copy->add_next_edge(node->next_edges()[i]);
  copy->add_input_metadata(base);
  AutogradMeta& base_meta = base.impl()->ensure_autograd_meta();
  base_meta.grad_fn = std::move(copy);
  base_meta.output_nr = 0;
  regenerate_view_history(self);
}

void check_no_grad_for_out(bool requires) {
  WICK_CHECK(!requires, "functions with out=... arguments don't support automatic differentiation, "
                            "but one of the arguments requires grad.");
}

void detach_in_place(const Tensor& self) {
  AutogradMeta* meta = meta_of(self);
  if (!meta) return;
  WICK_CHECK(!(is_view(self) && meta->grad_fn), "Can't detach views in-place. Use detach() instead.");
  meta->grad_fn = nullptr;
  meta->requires_grad = false;
  meta->output_nr = 0;
  meta->retained_grad = nullptr;
}

void collect_next_edges(std::vector<Edge>& edges, const Tensor& t) {
  edges.push_back(t.defined() ? gradient_edge(t) : Edge{});
}

void collect_next_edges(std::vector<Edge>& edges, TensorListRef list) {
  for (const Tensor& t : list) collect_next_edges(edges, t);
}

std::shared_ptr<void> register_hook(const Tensor& t, GradHook fn) {
  WICK_CHECK(requires_grad(t), "cannot register a hook on a tensor that doesn't require gradient");
  if (std::shared_ptr<Node> node = grad_fn(t)) return node->add_input_hook(output_nr(t), std::move(fn));
  auto hook = std::make_shared<LeafHook>(LeafHook{std::move(fn)});
  meta_of(t)->leaf_hooks.push_back(hook);
  return hook;
}

void remove_hook(const Tensor& t, const std::shared_ptr<void>& handle) {
  AutogradMeta* meta = meta_of(t);
  if (!meta) return;
  auto& leaf = meta->leaf_hooks;
  leaf.erase(std::remove_if(leaf.begin(), leaf.end(), [&](const auto& h) { return h.get() == handle.get(); }),
             leaf.end());
  if (meta->grad_fn) meta->grad_fn->remove_input_hook(static_cast<const InputHook*>(handle.get()));
}

void retain_grad(const Tensor& t) {
  WICK_CHECK(requires_grad(t), "can't retain_grad on Tensor that has requires_grad=False");
  std::shared_ptr<Node> node = grad_fn(t);
  AutogradMeta* meta = meta_of(t);
  if (!node || meta->retained_grad) return;  // a leaf keeps its .grad anyway
  auto slot = std::make_shared<Tensor>();
  meta->retained_grad = slot;
  node->add_input_hook(output_nr(t), [slot](const Tensor& g) {
    *slot = !slot->defined() ? ops::clone(g) : ops::add(*slot, g);
    return Tensor();
  });
}

bool retains_grad(const Tensor& t) {
  const AutogradMeta* meta = meta_of(t);
  return meta && meta->retained_grad;
}

}  // namespace autograd
}  // namespace wick
