// core/include/wick/indexing.h: advanced indexing (PyTorch's index, index_put_ and nonzero), CPU only.
#pragma once

#include <optional>

#include "wick/array_ref.h"
#include "wick/tensor.h"

namespace wick {

// Note [Advanced indexing]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// `indices` has one entry per leading dim of self, in order (as aten::index):
//  - nullopt takes the dim whole;
//  - an int64 or int32 tensor picks positions along the dim; negative ones
//    count from the end, and any outside [-size, size) is an IndexError;
//  - a bool or uint8 mask consumes mask.dim() dims, whose sizes must equal
//    self's, and stands for the coordinates of its true elements, one index
//    tensor per dim (nonzero(mask)); a 0-d mask consumes no dim and adds one
//    of size 1 or 0, as NumPy's x[True] and x[False] do.
// The index tensors broadcast together to one shape B. The result keeps
// self's unindexed dims in order and puts B where the first indexed dim was
// when the indexed dims are adjacent, else in front (the NumPy rule). Empty
// `indices`, or only nullopts, index nothing: the result is a copy of self.

// self[indices], always a new contiguous tensor.
Tensor index(const Tensor& self, ArrayRef<std::optional<Tensor>> indices);

// The coordinates of self's nonzero elements in row-major order: int64, [count, self.dim()].
Tensor nonzero(const Tensor& self);

}  // namespace wick
