// core/include/wick/reduce_engine.h: the reduction engine behind core/src/reduce.cpp and scan.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "wick/array_ref.h"
#include "wick/dtype.h"
#include "wick/tensor.h"

namespace wick {
namespace detail {

// Note [Reduction plans]
// ~~~~~~~~~~~~~~~~~~~~~~
// A reduction over `dims` sees `self` as `groups` groups of `group_size`
// elements each: the kept dims number the groups and the reduced dims number
// the elements of a group, both in row-major order. So group g is element g
// of a contiguous result, and inside a group the position of an element is
// its flat index over the reduced dims (over every dim when `dims` is empty),
// which is what argmax returns. An empty `dims` reduces every dim, as
// PyTorch's sum(dim=[]) does; a 0-d tensor is one group of one element.
struct Reduction {
  DimVector kept_sizes, kept_strides;        // dims that stay, in order
  DimVector reduced_sizes, reduced_strides;  // dims that are reduced
  DimVector out_shape;                       // with or without the size-1 dims, as keepdim says
  int64_t groups = 1, group_size = 1;
};

// Splits self's dims; IndexError for a dim out of range, RuntimeError for a
// repeated one, NotImplementedError off the CPU.
Reduction plan(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim);

// Steps a row-major counter over `sizes`, keeping `offset` (in elements) in step.
inline void advance(DimVector& counter, IntArrayRef sizes, IntArrayRef strides, int64_t& offset) {
  for (size_t d = counter.size(); d-- > 0;) {
    offset += strides[d];
    if (++counter[d] < sizes[d]) return;
    offset -= strides[d] * sizes[d];
    counter[d] = 0;
  }
}

// out[g] = finish(fold(...fold(fold(init, x0), x1)..., xn)) over the elements
// x of each group g of `r`. A fold that takes a third argument also gets the
// element's position in its group (Note [Reduction plans]).
template <typename T, typename Acc, typename Fold, typename Finish, typename Out>
void reduce_groups(const Tensor& self, const Reduction& r, Acc init, Fold fold, Finish finish, Out* out) {
  constexpr bool kIndexed = std::is_invocable_v<Fold&, Acc, T, int64_t>;
  const T* base = self.data<T>();
  DimVector kept(r.kept_sizes.size(), 0), inner(r.reduced_sizes.size(), 0);
  int64_t group_offset = 0;
  for (int64_t g = 0; g < r.groups; ++g) {
    Acc acc = init;
    int64_t offset = 0;
    for (int64_t i = 0; i < r.group_size; ++i) {
      if constexpr (kIndexed) {
        acc = fold(acc, base[group_offset + offset], i);
      } else {
        acc = fold(acc, base[group_offset + offset]);
      }
      advance(inner, r.reduced_sizes, r.reduced_strides, offset);
    }
    out[g] = finish(acc);
    advance(kept, r.kept_sizes, r.kept_strides, group_offset);
  }
}

// The result dtype of sum, prod, cumsum and cumprod: `dtype` when given, else
// int64 for integer and bool inputs (so that small integers do not overflow),
// else the input's.
inline DType integer_upcast(DType self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self, /*include_bool=*/true) ? DType::Int64 : self;
}

}  // namespace detail
}  // namespace wick
