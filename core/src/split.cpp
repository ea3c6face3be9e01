// core/src/split.cpp: a tensor cut along a dim into views: chunk, split (by size or by sizes) and unbind.
#include <algorithm>
#include <vector>

#include "wick/ops/chunk.h"
#include "wick/ops/narrow.h"
#include "wick/ops/select.h"
#include "wick/ops/split.h"
#include "wick/ops/unbind.h"

namespace wick {
namespace {

// The dim to cut along; the tensor must have one.
int64_t cut_dim(const Tensor& self, int64_t dim) {
  WICK_CHECK(self.dim() > 0, "expects at least a 1-dimensional tensor");
  return self.wrap_dim(dim);
}

// An empty vector with room for `count` views: MemoryError when the views could not fit in the
// address space of a process (2**47 bytes on x86-64 and ARM64), before anything is asked of the
// allocator, which may abort rather than throw on such a request (AddressSanitizer's does).
std::vector<Tensor> room_for(int64_t count) {
  constexpr int64_t kAddressSpace = int64_t(1) << 47;
  WICK_CHECK_KIND(OutOfMemoryError, count <= kAddressSpace / int64_t(sizeof(Tensor) + sizeof(TensorImpl)),
                  "cannot make ", count, " views: they need more memory than a process can address");
  std::vector<Tensor> result;
  result.reserve(size_t(count));
  return result;
}

// Views of `self` along `d`, `size` elements each from the start, the last one shorter when
// `size` does not divide the dim: `count` of them (at least one, even of a dim of size 0).
std::vector<Tensor> pieces(const Tensor& self, int64_t d, int64_t size, int64_t count) {
  std::vector<Tensor> result = room_for(count);
  const int64_t length = self.size(d);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t start = std::min(i * size, length);
    result.push_back(narrow(self, d, start, std::min(size, length - start)));
  }
  return result;
}

}  // namespace

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  const int64_t d = cut_dim(self, dim);
  WICK_CHECK_VALUE(split_size >= 0, "split_size must be non-negative, but got split_size=", split_size);
  const int64_t length = self.size(d);
  WICK_CHECK(split_size > 0 || length == 0, "split_size can only be 0 if dimension size is 0, but got ",
             "dimension size of ", length);
  const int64_t count = split_size == 0 ? 1 : std::max<int64_t>(length / split_size + (length % split_size != 0), 1);
  return pieces(self, d, split_size, count);
}

std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  const int64_t d = cut_dim(self, dim);
  const int64_t length = self.size(d);
  int64_t total = 0;
  bool fits = true;
  for (int64_t s : split_sizes) {
    WICK_CHECK_VALUE(s >= 0, "split_sizes must have only non-negative entries, but got split_sizes=",
                     shape_str(split_sizes));
    fits = fits && !__builtin_add_overflow(total, s, &total);
  }
  WICK_CHECK(fits && total == length, "split_sizes must sum exactly to ", length, " (the size of dimension ",
             d, "), but got split_sizes=", shape_str(split_sizes));
  std::vector<Tensor> result = room_for(int64_t(split_sizes.size()));
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    result.push_back(narrow(self, d, start, s));
    start += s;
  }
  return result;
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  const int64_t d = cut_dim(self, dim);
  WICK_CHECK_VALUE(chunks > 0, "chunks must be greater than 0, got: ", chunks);
  const int64_t length = self.size(d);
  const int64_t size = length / chunks + (length % chunks != 0);
  // As PyTorch: an empty dim gives `chunks` empty views, any other at most `chunks` views.
  if (length == 0) return pieces(self, d, 0, chunks);
  return pieces(self, d, size, length / size + (length % size != 0));
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  WICK_CHECK_INDEX(self.dim() > 0, "Dimension specified as ", dim, " but tensor has no dimensions");
  const int64_t d = self.wrap_dim(dim);
  std::vector<Tensor> result = room_for(self.size(d));
  for (int64_t i = 0; i < self.size(d); ++i) result.push_back(select(self, d, i));
  return result;
}

}  // namespace wick
