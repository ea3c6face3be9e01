// core/src/autograd/indexing_ops.cpp: the recording forms of slice, alias and index.
#include "wick/autograd/indexing_ops.h"

#include <memory>
#include <vector>

#include "wick/autograd/grad_mode.h"
#include "wick/autograd/helpers.h"
#include "wick/autograd/recording.h"
#include "wick/core_ops.h"
#include "wick/indexing.h"

namespace wick {
namespace autograd {

namespace {

struct SliceBackward final : Node {
  TensorList apply(TensorList&& grads) override {
    if (all_undefined(grads)) return TensorList(num_outputs());
    return {helpers::slice_backward(materialized(grads, 0), self, dim, start, end, step)};
  }
  std::string name() const override { return "SliceBackward0"; }

  TensorMeta self;
  int64_t dim = 0, start = 0, end = 0, step = 1;
};

struct AliasBackward final : Node {
  TensorList apply(TensorList&& grads) override { return {std::move(grads[0])}; }
  std::string name() const override { return "AliasBackward0"; }
};

struct IndexBackward final : Node {
  TensorList apply(TensorList&& grads) override {
    if (all_undefined(grads)) return TensorList(num_outputs());
    return {helpers::index_backward(materialized(grads, 0), self, indices)};
  }
  std::string name() const override { return "IndexBackward0"; }

  TensorMeta self;
  std::vector<std::optional<Tensor>> indices;
};

bool records(const Tensor& self) { return requires_grad(self) && is_grad_enabled(); }

// Makes `node`, with self's edge, the grad_fn of the result.
const Tensor& record(const std::shared_ptr<Node>& node, const Tensor& self, const Tensor& result) {
  std::vector<Edge> edges;
  collect_next_edges(edges, self);
  node->set_next_edges(std::move(edges));
  node->add_input_metadata(result);
  set_history(result, node, 0);
  return result;
}

}  // namespace

namespace ops {

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  Tensor result = ::wick::slice(self, dim, start, end, step);
  if (!records(self)) return result;
  auto node = std::make_shared<SliceBackward>();
  node->self = TensorMeta(self);
  node->dim = dim;
  node->start = start.value_or(0);
  node->end = end.value_or(self.dim() > 0 ? self.size(dim) : 0);
  node->step = step;
  return record(node, self, result);
}

Tensor alias(const Tensor& self) {
  Tensor result = ::wick::alias(self);
  if (!records(self)) return result;
  return record(std::make_shared<AliasBackward>(), self, result);
}

Tensor index(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  Tensor result = ::wick::index(self, indices);
  if (!records(self)) return result;
  auto node = std::make_shared<IndexBackward>();
  node->self = TensorMeta(self);
  node->indices = owned(indices);
  return record(node, self, result);
}

}  // namespace ops
}  // namespace autograd
}  // namespace wick
