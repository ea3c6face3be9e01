// core/src/unique.cpp: _unique2, the distinct elements of a tensor or its distinct slices along a dim.
#include <algorithm>
#include <numeric>
#include <vector>

#include "sort_lines.h"
#include "wick/ops/_unique2.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/empty.h"
#include "wick/ops/index_select.h"
#include "wick/ops/movedim.h"
#include "wick/ops/reshape.h"
#include "wick/ops/sort.h"

namespace wick {

// Sees the input as n rows of `width` elements (the elements themselves, or
// the slices along dim), sorts the rows' numbers lexicographically in the order
// of Note [Ordering with NaN], and makes a group of each run of equal rows. A
// row holding NaN equals no other row, since NaN != NaN, as in PyTorch and
// np.unique(equal_nan=False); such rows come in their order.
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool /*sorted: always*/, bool return_inverse,
                                            bool return_counts, std::optional<int64_t> dim) {
  detail::check_cpu(self);
  const int64_t d = dim ? self.existing_dim(*dim) : 0;
  if (dim) {
    for (int64_t k = 0; k < self.dim(); ++k) {
      WICK_CHECK(k == d || self.size(k) != 0,
                 "there are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
    }
  }
  const Tensor source = dim ? self : reshape(self, {-1});
  const int64_t n = source.size(d), width = n ? source.numel() / n : 0;
  const Tensor rows = contiguous(dim ? movedim(self, d, 0) : source);
  std::vector<int64_t> order, starts;  // the rows in sorted order, and where each group begins in it
  if (!dim) {  // single elements: as a stable sort() orders them
    const Tensor positions = std::get<1>(sort(rows, 0, false, /*stable=*/true));
    order.assign(positions.data<int64_t>(), positions.data<int64_t>() + n);
  }
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* data = rows.data<T>();
    const auto row_less = [&](int64_t a, int64_t b) {
      for (int64_t j = 0; j < width; ++j) {
        const C x = C(data[a * width + j]), y = C(data[b * width + j]);
        if (detail::nan_last_less(x, y)) return true;
        if (detail::nan_last_less(y, x)) return false;
      }
      return false;
    };
    const auto row_equal = [&](int64_t a, int64_t b) {
      for (int64_t j = 0; j < width; ++j) {
        if (!(C(data[a * width + j]) == C(data[b * width + j]))) return false;
      }
      return true;
    };
    if (dim) {
      order.resize(size_t(n));
      std::iota(order.begin(), order.end(), int64_t(0));
      std::stable_sort(order.begin(), order.end(), row_less);  // rows with NaN, each a group, in their order
    }
    for (size_t i = 0; i < order.size(); ++i) {
      if (i == 0 || !row_equal(order[i - 1], order[i])) starts.push_back(int64_t(i));
    }
  });
  const int64_t groups = int64_t(starts.size());
  starts.push_back(n);
  const Tensor firsts = empty({groups}, DType::Int64, kCPU);
  // The inverse numbers the rows, which are the elements of self in row-major order, or its slices.
  const DimVector inverse_shape = !return_inverse ? DimVector{0} : dim ? DimVector{n} : self.sizes().vec();
  const Tensor inverse = empty(inverse_shape, DType::Int64, kCPU);
  const Tensor counts = empty({return_counts ? groups : 0}, DType::Int64, kCPU);
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t begin = starts[size_t(g)], end = starts[size_t(g) + 1];
    firsts.data<int64_t>()[g] = order[size_t(begin)];
    if (return_counts) counts.data<int64_t>()[g] = end - begin;
    for (int64_t i = begin; return_inverse && i < end; ++i) inverse.data<int64_t>()[order[size_t(i)]] = g;
  }
  return {index_select(source, d, firsts), inverse, counts};
}

}  // namespace wick
