// core/src/shape_ops.cpp: copies that rearrange elements: repeat, flip, roll, tril, triu and diag.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "strided_walk.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/clone.h"
#include "wick/ops/copy_.h"
#include "wick/ops/diag.h"
#include "wick/ops/diagonal.h"
#include "wick/ops/empty.h"
#include "wick/ops/flip.h"
#include "wick/ops/narrow.h"
#include "wick/ops/repeat.h"
#include "wick/ops/reshape.h"
#include "wick/ops/roll.h"
#include "wick/ops/tril.h"
#include "wick/ops/triu.h"
#include "wick/ops/view.h"
#include "wick/ops/zero_.h"
#include "wick/overflow.h"

namespace wick {
namespace {



// Zeroes, in each matrix of the contiguous `t` (its last two dims), the
// elements outside the triangle that tril (lower) or triu keeps.
void zero_outside_triangle(const Tensor& t, bool lower, int64_t diagonal) {
  const int64_t rows = t.size(-2), cols = t.size(-1);
  if (t.numel() == 0) return;
  // Past these bounds every diagonal keeps all or nothing; clamping keeps i + k from overflowing.
  const int64_t k = std::clamp<int64_t>(diagonal, -rows - 1, cols + 1);
  const int64_t matrices = t.numel() / (rows * cols);
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = t.data<T>();
    for (int64_t m = 0; m < matrices; ++m) {
      for (int64_t i = 0; i < rows; ++i) {
        T* row = data + (m * rows + i) * cols;
        // tril keeps j <= i + k; triu keeps j >= i + k.
        const int64_t lo = lower ? std::clamp<int64_t>(i + k + 1, 0, cols) : 0;
        const int64_t hi = lower ? cols : std::clamp<int64_t>(i + k, 0, cols);
        std::fill(row + lo, row + hi, T(0));
      }
    }
  });
}

detail::OutputSpec triangle_meta(const Tensor& self) {
  WICK_CHECK_INDEX(self.dim() >= 2, "input tensor must have at least 2 dimensions, got ", self.dim());
  detail::check_cpu(self);
  return {self.sizes().vec(), self.dtype(), self.device()};
}

// self's elements into out (unless out is self: the in-place form), then the others zeroed.
void triangle_impl(bool lower, const Tensor& out, const Tensor& self, int64_t diagonal) {
  if (!out.is_same(self)) copy_(out, self);
  zero_outside_triangle(out, lower, diagonal);
}

}  // namespace

Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  WICK_CHECK(int64_t(repeats.size()) >= self.dim(), "Number of dimensions of repeat dims (",
             repeats.size(), ") can not be smaller than number of dimensions of tensor (", self.dim(), ")");
  const size_t n = repeats.size(), lead = n - size_t(self.dim());
  DimVector sizes(n);
  for (size_t i = 0; i < n; ++i) {
    WICK_CHECK(repeats[i] >= 0, "Trying to create tensor with negative dimension ", repeats[i], ": ",
               shape_str(repeats));
    const int64_t have = i >= lead ? self.sizes()[i - lead] : 1;
    WICK_CHECK_KIND(OutOfMemoryError, !__builtin_mul_overflow(have, repeats[i], &sizes[i]),
                    "the result of repeating ", shape_str(self.sizes()), " by ", shape_str(repeats),
                    " is too large");
  }
  Tensor result = empty(sizes, self.dtype(), self.device());  // MemoryError when the elements pass int64
  // As PyTorch (and NumPy's tile): repeats whose product passes int64 are refused for an empty self too.
  WICK_CHECK(numel_checked(repeats).has_value(), "numel: integer multiplication overflow for the repeats ",
             shape_str(repeats));
  if (result.numel() == 0) return result;
  // The result seen as [r0, s0, r1, s1, ...] receives self seen as [1, s0, 1, s1, ...]
  // by a broadcasting copy; dims where r or s is 1 stay single, so few dims reach the copy.
  const DimVector strides = contiguous_strides(sizes);
  DimVector dst_sizes, dst_strides, src_sizes, src_strides;
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = repeats[i], have = i >= lead ? self.sizes()[i - lead] : 1;
    const int64_t have_stride = i >= lead ? self.strides()[i - lead] : 0;
    if (r != 1) {
      dst_sizes.push_back(r);
      dst_strides.push_back(have * strides[i]);
      src_sizes.push_back(1);
      src_strides.push_back(0);
    }
    if (r == 1 || have != 1) {
      dst_sizes.push_back(have);
      dst_strides.push_back(strides[i]);
      src_sizes.push_back(have);
      src_strides.push_back(have_stride);
    }
  }
  copy_(make_view(result, std::move(dst_sizes), std::move(dst_strides), 0),
        make_view(self, std::move(src_sizes), std::move(src_strides), self.storage_offset()));
  return result;
}

Tensor flip(const Tensor& self, IntArrayRef dims) {
  std::vector<bool> flipped(size_t(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t d : dims) {
    const int64_t w = self.wrap_dim(d);
    WICK_CHECK(!flipped[size_t(w)], "dim ", w, " appears multiple times in the list of dims");
    flipped[size_t(w)] = true;
  }
  detail::check_cpu(self);
  Tensor result = empty(self.sizes(), self.dtype(), self.device());
  if (result.numel() == 0) return result;
  // Read self backwards along the flipped dims: a view that starts at their last element and
  // steps by -stride, copied into the result by the copy kernels (in blocks, on every core). It
  // never leaves this function: no tensor a user holds has a negative stride.
  DimVector strides = self.strides().vec();
  int64_t start = self.storage_offset();
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!flipped[size_t(d)]) continue;
    start += (self.size(d) - 1) * strides[size_t(d)];
    strides[size_t(d)] = -strides[size_t(d)];
  }
  copy_(result, make_view(self, self.sizes().vec(), std::move(strides), start));
  return result;
}

Tensor roll(const Tensor& self, IntArrayRef shifts, OptionalIntArrayRef dims) {
  WICK_CHECK(!shifts.empty(), "`shifts` required");
  const IntArrayRef along = dims.value_or(IntArrayRef());
  WICK_CHECK(shifts.size() == along.size() || (along.empty() && shifts.size() == 1),
             "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", along.size());
  // Without dims, roll the flattened tensor (as dim 0 of a 1-d view).
  const Tensor input = along.empty() ? reshape(self, {-1}) : self;
  std::vector<std::pair<int64_t, int64_t>> moves;  // (dim, shift in [1, size))
  for (size_t i = 0; i < shifts.size(); ++i) {
    const int64_t d = along.empty() ? 0 : self.existing_dim(along[i]);
    const int64_t n = input.size(d);
    const int64_t s = n == 0 ? 0 : ((shifts[i] % n) + n) % n;
    if (s != 0) moves.emplace_back(d, s);
  }
  if (moves.empty()) return clone(self);
  Tensor result = empty(self.sizes(), self.dtype(), self.device());
  const Tensor target = along.empty() ? view(result, {-1}) : result;
  // One dim at a time: the last n - s entries along it move to the front.
  for (size_t i = 0; i < moves.size(); ++i) {
    const auto [d, s] = moves[i];
    const int64_t n = input.size(d);
    const Tensor source = i == 0 ? input : clone(target);
    copy_(narrow(target, d, s, n - s), narrow(source, d, 0, n - s));
    copy_(narrow(target, d, 0, s), narrow(source, d, n - s, s));
  }
  return result;
}

namespace detail {

OutputSpec tril_meta(const Tensor& self, int64_t /*diagonal*/) { return triangle_meta(self); }

void tril_impl(const Tensor& out, const Tensor& self, int64_t diagonal) { triangle_impl(true, out, self, diagonal); }

OutputSpec triu_meta(const Tensor& self, int64_t /*diagonal*/) { return triangle_meta(self); }

void triu_impl(const Tensor& out, const Tensor& self, int64_t diagonal) { triangle_impl(false, out, self, diagonal); }

OutputSpec diag_meta(const Tensor& self, int64_t diagonal) {
  WICK_CHECK(self.dim() == 1 || self.dim() == 2, "matrix or a vector expected, got a ", self.dim(),
             "-D tensor");
  if (self.dim() == 2) return {wick::diagonal(self, diagonal).sizes().vec(), self.dtype(), self.device()};
  const int64_t n = self.size(0);
  const uint64_t shift = diagonal < 0 ? 0 - uint64_t(diagonal) : uint64_t(diagonal);
  WICK_CHECK_KIND(OutOfMemoryError, shift <= uint64_t(std::numeric_limits<int64_t>::max() - n),
                  "a matrix for diagonal ", diagonal, " is too large");
  const int64_t side = n + int64_t(shift);
  return {DimVector{side, side}, self.dtype(), self.device()};
}

void diag_impl(const Tensor& out, const Tensor& self, int64_t diagonal) {
  if (self.dim() == 1) {
    zero_(out);
    copy_(wick::diagonal(out, diagonal), self);
  } else {
    copy_(out, wick::diagonal(self, diagonal));
  }
}

}  // namespace detail

}  // namespace wick
