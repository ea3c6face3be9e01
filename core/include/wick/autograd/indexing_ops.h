// core/include/wick/autograd/indexing_ops.h: the recording forms of the core functions that Python's
// indexing (x[i], x[i] = v) calls and that are no declared op (Note [Recording ops] in codegen/dest/autograd.py).
#pragma once

#include <optional>

#include "wick/array_ref.h"
#include "wick/tensor.h"

namespace wick {
namespace autograd {
namespace ops {

// self[start:end:step] along dim (core's wick::slice).
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);
// A new view of all of self (x[...]).
Tensor alias(const Tensor& self);
// self[indices] (core's wick::index, Note [Advanced indexing]).
Tensor index(const Tensor& self, ArrayRef<std::optional<Tensor>> indices);

}  // namespace ops
}  // namespace autograd
}  // namespace wick
