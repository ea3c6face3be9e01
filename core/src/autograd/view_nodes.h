// core/src/autograd/view_nodes.h: the nodes of writes through views (Note [Leaves and views]).
#pragma once

#include <memory>

#include "wick/autograd/node.h"

namespace wick {
namespace autograd {

// Where a tensor's elements lie in its storage.
struct Geometry {
  DimVector sizes;
  DimVector strides;
  int64_t offset = 0;

  Geometry() = default;
  explicit Geometry(const Tensor& t) : sizes(t.sizes().vec()), strides(t.strides().vec()), offset(t.storage_offset()) {}
};

// Note [Gradients through storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A view and its base are two sets of positions in one storage. The nodes below
// move gradients between them through a flat buffer of those positions: a
// gradient is put at the positions of the tensor it belongs to (index_put) and read
// back at those of the other (index_select). Built from recording ops, this is
// differentiable again (create_graph), and it holds for any view, strided or
// expanded (an expanded view's positions repeat, and its gradient accumulates).
class StoragePositions {
 public:
  StoragePositions(const Geometry& base, const Geometry& view, Device device);
  // A gradient of the view, as one of the base: zero outside the view, summed where the view repeats elements.
  Tensor view_to_base(const Tensor& grad_view, IntArrayRef base_sizes) const;
  // The part of a gradient of the base that the view sees.
  Tensor base_to_view(const Tensor& flat, IntArrayRef view_sizes) const;
  // A gradient of the base as the flat buffer of the storage positions.
  Tensor flat_of_base(const Tensor& grad_base) const;
  // The flat buffer with the view's positions replaced by `grad_view`, read back as a gradient of the base.
  Tensor replace_view(const Tensor& flat, const Tensor& grad_view, IntArrayRef base_sizes) const;

 private:
  Tensor base_positions_;  // int64, one per element of the base, relative to the lowest position of either
  Tensor view_positions_;
  int64_t extent_ = 0;
};

// The grad_fn of a view made again from its base's (Note [Leaves and views]).
class AsStridedBackward : public Node {
 public:
  AsStridedBackward(const Tensor& base, const Tensor& view);
  TensorList apply(TensorList&& grads) override;
  std::string name() const override { return "AsStridedBackward0"; }

 private:
  DimVector base_sizes_;
  StoragePositions positions_;
};

// The grad_fn of a base after an op wrote into one of its views in place: the
// gradient of the view's part goes through the op's node `fn`, the rest passes.
// Its next edges are the base's old edge, then fn's other edges.
class CopySlices : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);
  TensorList apply(TensorList&& grads) override;
  std::string name() const override { return "CopySlices"; }
  void release_variables() override { fn_->release_variables(); }

 private:
  DimVector base_sizes_;
  DimVector view_sizes_;
  StoragePositions positions_;
  std::shared_ptr<Node> fn_;
};

}  // namespace autograd
}  // namespace wick
