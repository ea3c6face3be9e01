// core/src/sort_lines.h: ordering with NaN, and the engine that sorts or selects along the lines of a dim.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "strided_walk.h"
#include "wick/cast.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"

namespace wick {
namespace detail {

// Note [Ordering with NaN]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// sort, topk, kthvalue, median and unique order elements as PyTorch does:
// NaN is above every number, so it comes last in ascending order and first in
// descending order, and NaNs are equal to each other in the order (unique
// still counts each NaN apart, as NaN != NaN). sort sets the NaNs apart and
// sorts the numbers with a plain <, keeping equal elements in their order only
// when asked (stable=True: std::stable_partition, std::stable_sort). Selection
// (topk, kthvalue, median) uses std::nth_element, which is not stable, with
// ties broken by position: its results are those of a stable sort, the same
// on every run and every platform.

template <typename C>
bool is_nan_value(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  return false;
}

// a < b, with NaN above every number.
template <typename C>
bool nan_last_less(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(b)) return !std::isnan(a);
  }
  return a < b;
}

// An element of a line and its position along it.
template <typename C>
struct Entry {
  C value;
  int64_t index;
};

// The order of selection: by value, ascending or descending with NaN above
// every number, then by position (Note [Ordering with NaN]).
template <typename C>
struct ByValueThenIndex {
  bool descending;
  bool before(C a, C b) const { return descending ? nan_last_less(b, a) : nan_last_less(a, b); }
  bool operator()(const Entry<C>& a, const Entry<C>& b) const {
    return before(a.value, b.value) || (!before(b.value, a.value) && a.index < b.index);
  }
};

// Note [Lines along a dim]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// select_lines_into reads each line of `self` along `dim` (of any strides; a 0-d
// tensor is one line of one element) into entries (value, position), in
// opmath_t so that Half and BFloat16 compare as float. pick(entries) reorders
// them so that the first m are the results of that line, which go, in order,
// to the same line of `values` and the int64 `indices`: contiguous, of the
// shape select_lines_shape gives (size m along dim, or without dim when
// !keepdim, then m is 1). Lines are independent, so an op is only its pick.

// The shape of the results of select_lines_into.
inline DimVector select_lines_shape(const Tensor& self, int64_t dim, int64_t m, bool keepdim) {
  const int64_t d = self.wrap_dim(dim);
  WICK_INTERNAL_ASSERT(keepdim || m == 1 || self.dim() == 0, "only a line of one result drops its dim");
  DimVector shape;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k != d) shape.push_back(self.size(k));
    else if (keepdim) shape.push_back(m);
  }
  return shape;
}

template <typename Pick>
void select_lines_into(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, int64_t m,
                       bool keepdim, Pick pick) {
  const int64_t d = self.wrap_dim(dim);
  const bool zero_dim = self.dim() == 0;
  // No line to pick from: the dim along the lines may still be longer than memory.
  if (values.numel() == 0) return;
  // The other dims, and the strides of self and of the results along them: the
  // results have no dim d when !keepdim, and are contiguous, like each other.
  DimVector kept, self_strides, out_strides;
  for (int64_t k = 0, j = 0; k < self.dim(); ++k) {
    if (k == d) {
      j += keepdim;
      continue;
    }
    kept.push_back(self.size(k));
    self_strides.push_back(self.stride(k));
    out_strides.push_back(values.stride(j++));
  }
  const int64_t length = zero_dim ? 1 : self.size(d), in_step = zero_dim ? 0 : self.stride(d);
  const int64_t out_step = keepdim && !zero_dim ? values.stride(d) : 0, count = zero_dim ? 1 : m;
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* in = self.data<T>();
    T* out = values.data<T>();
    int64_t* positions = indices.data<int64_t>();
    std::vector<Entry<C>> line(size_t(length), Entry<C>{});
    walk_strided<2>(kept, {IntArrayRef(self_strides), IntArrayRef(out_strides)},
                    [&](const std::array<int64_t, 2>& offset, const DimVector&) {
      for (int64_t i = 0; i < length; ++i) line[size_t(i)] = {C(in[offset[0] + i * in_step]), i};
      pick(line);
      for (int64_t j = 0; j < count; ++j) {
        out[offset[1] + j * out_step] = cast<T>(line[size_t(j)].value);
        positions[offset[1] + j * out_step] = line[size_t(j)].index;
      }
    });
  });
}

}  // namespace detail
}  // namespace wick
