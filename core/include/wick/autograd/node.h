// core/include/wick/autograd/node.h: a node of the graph autograd records, and the edges between them.
//
// Note [Autograd graph]
// ~~~~~~~~~~~~~~~~~~~~~
// An op that runs in grad mode on an input that requires grad records a Node: the
// backward of that op, which takes the gradients of its results (the node's inputs)
// and gives those of the op's differentiable inputs (its outputs). Each output goes
// along an Edge to the node that made that input (its grad_fn), or to the
// AccumulateGrad node of a leaf, which adds it into the leaf's .grad; an input that
// needs no gradient has an invalid edge, and the node does not compute its output.
// Each tensor an op produces knows its node and which of the node's inputs it feeds
// (output_nr). Nodes own their next edges, so a result keeps its whole history
// alive, and nothing keeps a node alive but the nodes and tensors after it.
// A node also keeps, for each of its inputs, the shape, dtype and device of the
// tensor it is the gradient of, so that the engine can sum a gradient back to the
// shape of an input that was broadcast, and cast it to the input's dtype.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wick/autograd/tensor_meta.h"
#include "wick/tensor.h"

namespace wick {
namespace autograd {

using TensorList = std::vector<Tensor>;

class Node;

// Where a gradient goes: input `input_nr` of `function`. Invalid without a function.
struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;

  bool is_valid() const { return function != nullptr; }
};

// A function of a gradient that a hook runs on it: an undefined result keeps the gradient.
using GradHook = std::function<Tensor(const Tensor&)>;

// The gradient after `hook`: the one it returns, which must keep the gradient's shape, dtype and device,
// or `grad` itself when it returns none.
Tensor run_hook(const GradHook& hook, Tensor grad);

// A hook on one input of a node (register_hook of the tensor that input belongs to).
struct InputHook {
  uint32_t input_nr;
  GradHook fn;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  virtual ~Node();  // Note [Releasing long graphs]
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // The gradients of the node's outputs, one per next edge, from those of its inputs
  // (undefined where no gradient reached an input, or an output needs none).
  virtual TensorList apply(TensorList&& grads) = 0;
  // The name grad_fn shows: MulBackward0, AccumulateGrad.
  virtual std::string name() const = 0;
  // Drops what the node saved for backward, once the engine went through it without retain_graph.
  virtual void release_variables() {}
  // The Python object a node made by the binding holds (a Function's backward), which the garbage
  // collector must see through a tensor that owns the node; null for every node of core.
  virtual void* python_object() const { return nullptr; }

  const std::vector<Edge>& next_edges() const { return next_edges_; }
  void set_next_edges(std::vector<Edge> edges) { next_edges_ = std::move(edges); }
  void add_next_edge(Edge edge) { next_edges_.push_back(std::move(edge)); }
  uint32_t num_outputs() const { return uint32_t(next_edges_.size()); }
  // Whether output i's gradient goes anywhere.
  bool should_compute_output(size_t i) const { return i < next_edges_.size() && next_edges_[i].is_valid(); }
  bool should_compute_any_output(size_t begin, size_t end) const;

  // One per input: the tensor whose gradient it receives. Returns the input's number.
  uint32_t add_input_metadata(const Tensor& t);
  const std::vector<TensorMeta>& input_metadata() const { return input_metadata_; }
  uint32_t num_inputs() const { return uint32_t(input_metadata_.size()); }

  // The order nodes were made in: the engine runs later ones first.
  uint64_t sequence_nr() const { return sequence_nr_; }

  // Hooks that see (and may replace) the gradient of an input before the node runs.
  std::shared_ptr<InputHook> add_input_hook(uint32_t input_nr, GradHook fn);
  void remove_input_hook(const InputHook* hook);
  const std::vector<std::shared_ptr<InputHook>>& input_hooks() const { return input_hooks_; }

 protected:
  // Undefined gradients of the inputs as zeros of the input's shape, for formulas that read them.
  Tensor materialized(const TensorList& grads, size_t i) const;
  TensorList materialized(const TensorList& grads) const;

 private:
  std::vector<Edge> next_edges_;
  std::vector<TensorMeta> input_metadata_;
  std::vector<std::shared_ptr<InputHook>> input_hooks_;
  uint64_t sequence_nr_;
};

// A node that refuses to run: what a graph holds where going back is not possible.
class NotImplementedNode : public Node {
 public:
  explicit NotImplementedNode(std::string op) : op_(std::move(op)) {}
  TensorList apply(TensorList&& grads) override;
  std::string name() const override { return "NotImplemented"; }

 private:
  std::string op_;
};

}  // namespace autograd
}  // namespace wick
