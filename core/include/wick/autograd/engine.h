// core/include/wick/autograd/engine.h: going back through the graph.
#pragma once

#include <vector>

#include "wick/autograd/node.h"
#include "wick/tensor.h"

namespace wick {
namespace autograd {

// Note [Engine]
// ~~~~~~~~~~~~~
// backward() runs every node that the roots' gradients reach, each once all the
// nodes that feed it have run (their count is taken first, by a walk of the graph),
// later-made nodes first among those ready, as PyTorch's engine on one thread. A
// node's inputs are the sums of what reached them; its outputs are checked against
// the shapes, dtypes and devices of the inputs they are gradients of (summed back
// where the input was broadcast, cast where its dtype differs). Without
// retain_graph each node drops what it saved once it has run; with create_graph
// the formulas run in grad mode, so the gradients have a graph of their own. With
// `inputs`, only the nodes on a path to them run, and what reaches them is
// captured and returned rather than accumulated (autograd.grad); without, every
// leaf that requires grad accumulates into its .grad.

// Gradients of `outputs` with respect to `inputs` (autograd.grad), or, with `inputs` empty and
// `accumulate`, accumulation into the leaves' .grad (Tensor.backward); returns one gradient per input
// (undefined where none reaches it).
TensorList run_backward(const TensorList& outputs, const TensorList& grad_outputs, bool keep_graph,
                        bool create_graph, const TensorList& inputs, bool allow_unused, bool accumulate);

// Tensor.backward(): `grad` may be undefined for a tensor of one element (a gradient of 1).
void backward(const TensorList& tensors, const TensorList& grads, bool keep_graph, bool create_graph,
              const TensorList& inputs = {});
// autograd.grad().
TensorList grad(const TensorList& outputs, const TensorList& inputs, const TensorList& grad_outputs,
                bool keep_graph, bool create_graph, bool allow_unused);

}  // namespace autograd
}  // namespace wick
