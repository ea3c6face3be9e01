// core/src/autograd/engine.cpp: Note [Engine].
#include "wick/autograd/engine.h"

#include <map>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "accumulate_grad.h"
#include "wick/autograd/grad_mode.h"
#include "wick/autograd/helpers.h"
#include "wick/autograd/ops.h"
#include "wick/autograd/variable.h"
#include "wick/error.h"

namespace wick {
namespace autograd {

namespace {

using Slot = std::pair<Node*, uint32_t>;  // an input of a node

struct Later {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

bool expandable(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    const int64_t f = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
    if (f != t && f != 1) return false;
  }
  return true;
}

// A node's output i as a gradient of the input it goes to: summed back where that input was
// broadcast, cast to its dtype and device.
Tensor validated(const Node& node, size_t i, Tensor grad, const TensorMeta& input) {
  if (grad.sizes() != IntArrayRef(input.sizes)) {
    WICK_CHECK(expandable(input.sizes, grad.sizes()), "Function ", node.name(),
               " returned an invalid gradient at index ", i, " - got ", shape_str(grad.sizes()),
               " but expected shape compatible with ", shape_str(input.sizes));
    grad = helpers::sum_to(grad, input.sizes);
  }
  if (grad.dtype() != input.dtype || grad.device() != input.device) {
    grad = ops::to(grad, input.device, input.dtype);
  }
  return grad;
}

void accumulate(Tensor& into, Tensor grad) {
  into = into.defined() ? ops::add(into, grad) : std::move(grad);
}

class GraphTask {
 public:
  GraphTask(bool keep_graph, bool accumulate) : keep_graph_(keep_graph), accumulate_(accumulate) {}

  // Only the nodes on a path to one of `targets` run; what reaches a target is captured.
  void capture(const std::vector<Slot>& targets) {
    for (size_t i = 0; i < targets.size(); ++i) captures_[targets[i]].push_back(i);
    captured_.resize(targets.size());
  }

  void run(const std::vector<Edge>& roots, TensorList grads) {
    std::vector<Node*> starts;
    for (const Edge& e : roots) starts.push_back(e.function.get());
    if (!captures_.empty()) mark_needed(starts);
    count_dependencies(starts);
    for (size_t i = 0; i < roots.size(); ++i) {
      accumulate(buffer(roots[i].function.get())[roots[i].input_nr], std::move(grads[i]));
    }
    std::priority_queue<Node*, std::vector<Node*>, Later> ready;
    std::unordered_set<Node*> queued;
    for (Node* n : starts) {
      if (dependencies_[n] == 0 && queued.insert(n).second) ready.push(n);
    }
    while (!ready.empty()) {
      Node* node = ready.top();
      ready.pop();
      TensorList inputs = std::move(buffers_[node]);
      buffers_.erase(node);
      inputs.resize(node->num_inputs());  // a node no gradient reached gets undefined ones
      run_hooks(*node, inputs);
      const bool captured = !captures_.empty() && capture_inputs(*node, inputs);
      const bool leaf = dynamic_cast<AccumulateGrad*>(node) != nullptr;
      // backward(inputs=) accumulates into the leaves it names; autograd.grad only captures.
      const bool executes = leaf ? accumulate_ && (captures_.empty() || captured)
                                 : captures_.empty() || leads_on_.count(node);
      if (!executes) continue;
      TensorList outputs = node->apply(std::move(inputs));
      if (!keep_graph_) node->release_variables();
      const auto& edges = node->next_edges();
      WICK_INTERNAL_ASSERT(outputs.size() == edges.size() || outputs.empty(), node->name(), " returned ",
                           outputs.size(), " gradients for ", edges.size(), " inputs");
      for (size_t i = 0; i < outputs.size(); ++i) {
        const Edge& e = edges[i];
        if (!e.is_valid() || !is_needed(e.function.get())) continue;
        if (outputs[i].defined()) {
          Tensor g = validated(*node, i, std::move(outputs[i]), e.function->input_metadata()[e.input_nr]);
          accumulate(buffer(e.function.get())[e.input_nr], std::move(g));
        }
        if (--dependencies_[e.function.get()] == 0 && queued.insert(e.function.get()).second) {
          ready.push(e.function.get());
        }
      }
      holders_.erase(node);
    }
  }

  TensorList& captured() { return captured_; }

 private:
  bool is_needed(Node* n) const { return captures_.empty() || needed_.count(n); }

  TensorList& buffer(Node* n) {
    TensorList& b = buffers_[n];
    if (b.empty()) b.resize(n->num_inputs());
    return b;
  }

  // The nodes whose outputs reach a captured input (leads_on_: they run), and those and the nodes
  // with a captured input (needed_: they wait for their inputs), from a walk children first.
  void mark_needed(const std::vector<Node*>& starts) {
    std::unordered_set<Node*> targets;
    for (const auto& [slot, _] : captures_) targets.insert(slot.first);
    std::vector<Node*> order;
    std::unordered_set<Node*> seen;
    std::vector<std::pair<Node*, size_t>> stack;
    for (Node* s : starts) {
      if (seen.insert(s).second) stack.emplace_back(s, 0);
      while (!stack.empty()) {
        auto& [n, i] = stack.back();
        if (i < n->next_edges().size()) {
          Node* child = n->next_edges()[i++].function.get();
          if (child && seen.insert(child).second) stack.emplace_back(child, 0);
        } else {
          order.push_back(n);
          stack.pop_back();
        }
      }
    }
    for (Node* n : order) {
      for (const Edge& e : n->next_edges()) {
        if (e.is_valid() && (captures_.count({e.function.get(), e.input_nr}) || leads_on_.count(e.function.get()))) {
          leads_on_.insert(n);
          break;
        }
      }
      if (leads_on_.count(n) || targets.count(n)) needed_.insert(n);
    }
  }

  void count_dependencies(const std::vector<Node*>& starts) {
    std::vector<Node*> stack;
    std::unordered_set<Node*> seen;
    for (Node* s : starts) {
      if (is_needed(s) && seen.insert(s).second) stack.push_back(s);
    }
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      holders_[n] = n->shared_from_this();
      dependencies_.emplace(n, 0);
      for (const Edge& e : n->next_edges()) {
        Node* next = e.function.get();
        if (!next || !is_needed(next)) continue;
        ++dependencies_[next];
        if (seen.insert(next).second) stack.push_back(next);
      }
    }
  }

  static void run_hooks(const Node& node, TensorList& inputs) {
    const auto hooks = node.input_hooks();  // a hook may remove itself
    for (const auto& hook : hooks) {
      Tensor& g = inputs[hook->input_nr];
      if (!g.defined()) continue;
      g = run_hook(hook->fn, std::move(g));
    }
  }

  // Keeps what reached the captured inputs of `node`; whether it has any.
  bool capture_inputs(Node& node, const TensorList& inputs) {
    bool any = false;
    auto* leaf = dynamic_cast<AccumulateGrad*>(&node);
    for (uint32_t nr = 0; nr < inputs.size(); ++nr) {
      auto it = captures_.find({&node, nr});
      if (it == captures_.end()) continue;
      any = true;
      const Tensor g = leaf && inputs[nr].defined() ? leaf->run_hooks(inputs[nr]) : inputs[nr];
      for (size_t i : it->second) captured_[i] = g;
    }
    return any;
  }

  bool keep_graph_, accumulate_;
  std::map<Slot, std::vector<size_t>> captures_;
  TensorList captured_;
  std::unordered_set<Node*> needed_, leads_on_;
  std::unordered_map<Node*, int64_t> dependencies_;
  std::unordered_map<Node*, TensorList> buffers_;
  std::unordered_map<Node*, std::shared_ptr<Node>> holders_;  // every node stays alive until it ran
};

}  // namespace

TensorList run_backward(const TensorList& outputs, const TensorList& grad_outputs, bool keep_graph,
                        bool create_graph, const TensorList& inputs, bool allow_unused, bool accumulate) {
  WICK_CHECK_VALUE(outputs.size() == grad_outputs.size(), "got ", grad_outputs.size(), " gradients for ",
                   outputs.size(), " tensors");
  GradModeGuard mode(create_graph);
  std::vector<Edge> roots;
  TensorList grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    Edge edge = gradient_edge(out);
    WICK_CHECK(edge.is_valid(), "element ", i, " of tensors does not require grad and does not have a grad_fn");
    Tensor g = grad_outputs[i];
    if (!g.defined()) {
      WICK_CHECK(out.numel() == 1, "grad can be implicitly created only for scalar outputs");
      g = ::wick::ones_like(out);
    } else {
      WICK_CHECK(g.sizes() == out.sizes(), "Mismatch in shape: grad_output[", i, "] has a shape of ",
                 shape_str(g.sizes()), " and output[", i, "] has a shape of ", shape_str(out.sizes()), ".");
      if (g.dtype() != out.dtype() || g.device() != out.device()) g = ops::to(g, out.device(), out.dtype());
    }
    roots.push_back(std::move(edge));
    grads.push_back(std::move(g));
  }
  GraphTask task(keep_graph, accumulate);
  std::vector<Slot> targets;
  for (const Tensor& in : inputs) {
    Edge edge = gradient_edge(in);
    WICK_CHECK(edge.is_valid(), "One of the differentiated Tensors does not require grad");
    targets.emplace_back(edge.function.get(), edge.input_nr);
  }
  if (!targets.empty()) task.capture(targets);
  task.run(roots, std::move(grads));
  TensorList result = std::move(task.captured());
  for (size_t i = 0; i < result.size(); ++i) {
    WICK_CHECK(allow_unused || result[i].defined() || accumulate,
               "One of the differentiated Tensors appears to not have been used in the graph. "
               "Set allow_unused=True if this is the desired behavior.");
  }
  return result;
}

void backward(const TensorList& tensors, const TensorList& grads, bool keep_graph, bool create_graph,
              const TensorList& inputs) {
  run_backward(tensors, grads, keep_graph, create_graph, inputs, true, true);
}

TensorList grad(const TensorList& outputs, const TensorList& inputs, const TensorList& grad_outputs,
                bool keep_graph, bool create_graph, bool allow_unused) {
  return run_backward(outputs, grad_outputs, keep_graph, create_graph, inputs, allow_unused, false);
}

}  // namespace autograd
}  // namespace wick
