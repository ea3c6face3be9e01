// core/src/views.cpp: ops that return a view sharing storage, and the copies beside them.
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/clamp.h"
#include "wick/ops/clone.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/diagonal.h"
#include "wick/ops/empty_like_with.h"
#include "wick/ops/expand.h"
#include "wick/ops/expand_as.h"
#include "wick/ops/flatten.h"
#include "wick/ops/is_contiguous.h"
#include "wick/ops/movedim.h"
#include "wick/ops/narrow.h"
#include "wick/ops/permute.h"
#include "wick/ops/reshape.h"
#include "wick/ops/select.h"
#include "wick/ops/squeeze.h"
#include "wick/ops/stride.h"
#include "wick/ops/t.h"
#include "wick/ops/transpose.h"
#include "wick/ops/unflatten.h"
#include "wick/ops/unfold.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/view.h"
#include "wick/overflow.h"

namespace wick {
namespace {

// Resolves one -1 and checks the element count, as view() and reshape() do.
DimVector infer_size(IntArrayRef shape, int64_t numel) {
  DimVector out = shape.vec();
  std::optional<size_t> infer;
  DimVector given;  // the sizes other than -1
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      WICK_CHECK(!infer, "only one dimension can be inferred");
      infer = i;
    } else {
      WICK_CHECK(out[i] >= 0, "invalid shape dimension ", out[i]);
      given.push_back(out[i]);
    }
  }
  // A product past int64 cannot equal the element count of any tensor (Note [Checked size arithmetic]).
  const std::optional<int64_t> known = numel_checked(given);
  if (infer) {
    WICK_CHECK(numel != 0 || known != 0, "cannot reshape tensor of 0 elements into shape ",
               shape_str(shape), " because the unspecified dimension size -1 can be any value and is ambiguous");
    // Sizes whose product passes int64 are refused even for no elements (where the -1 could be 0),
    // as PyTorch and NumPy refuse them.
    WICK_CHECK(known && *known != 0 && numel % *known == 0, "shape '", shape_str(shape),
               "' is invalid for input of size ", numel);
    out[*infer] = numel / *known;
  } else {
    WICK_CHECK(known == numel, "shape '", shape_str(shape), "' is invalid for input of size ", numel);
  }
  return out;
}

// The strides that let a tensor of (sizes, strides) be viewed as `shape`, if any:
// each run of dims that is contiguous in memory may be split or merged freely.
std::optional<DimVector> view_strides(IntArrayRef sizes, IntArrayRef strides, const DimVector& shape) {
  DimVector out(shape.size());
  if (shape.empty()) return out;
  if (sizes.empty()) return DimVector(shape.size(), 1);  // a 0-d tensor: any all-ones shape
  if (numel_checked(sizes) == 0) return contiguous_strides(shape);
  int64_t view_d = int64_t(shape.size()) - 1;
  int64_t chunk_base_stride = strides.empty() ? 1 : strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[size_t(d)];
    // Partial products of sizes stay below the element count; times a stride they may not.
    if (d == 0 || (sizes[size_t(d - 1)] != 1 &&
                   strides[size_t(d - 1)] != mul_checked(tensor_numel, chunk_base_stride))) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[size_t(view_d)] == 1)) {
        const std::optional<int64_t> stride = mul_checked(view_numel, chunk_base_stride);
        if (!stride) return std::nullopt;
        out[size_t(view_d)] = *stride;
        view_numel *= shape[size_t(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = strides[size_t(d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

}  // namespace

Tensor view(const Tensor& self, IntArrayRef size) {
  DimVector shape = infer_size(size, self.numel());
  std::optional<DimVector> strides = view_strides(self.sizes(), self.strides(), shape);
  WICK_CHECK(strides, "view size is not compatible with input tensor's size and stride (at least one "
             "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(self, std::move(shape), std::move(*strides), self.storage_offset());
}

Tensor reshape(const Tensor& self, IntArrayRef shape) {
  DimVector sizes = infer_size(shape, self.numel());
  if (std::optional<DimVector> strides = view_strides(self.sizes(), self.strides(), sizes)) {
    return make_view(self, std::move(sizes), std::move(*strides), self.storage_offset());
  }
  // No view fits: a fresh contiguous copy, which is nobody's view.
  Tensor copy = clone(self, MemoryFormat::Contiguous);
  DimVector strides = contiguous_strides(sizes);
  copy.impl()->set_geometry(copy.storage(), std::move(sizes), std::move(strides), 0);
  return copy;
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t a = self.wrap_dim(dim0), b = self.wrap_dim(dim1);
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  if (self.dim() > 0) {
    std::swap(sizes[size_t(a)], sizes[size_t(b)]);
    std::swap(strides[size_t(a)], strides[size_t(b)]);
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor t(const Tensor& self) {
  WICK_CHECK(self.dim() <= 2, "expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return self.dim() < 2 ? make_view(self, self.sizes().vec(), self.strides().vec(), self.storage_offset())
                        : transpose(self, 0, 1);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  WICK_CHECK(int64_t(dims.size()) == self.dim(), "number of dims don't match in permute (got ",
                   dims.size(), " for a tensor of ", self.dim(), " dims)");
  DimVector sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = self.wrap_dim(dims[i]);
    WICK_CHECK(!seen[size_t(d)], "repeated dim ", d, " in ", shape_str(dims));
    seen[size_t(d)] = true;
    sizes[i] = self.sizes()[size_t(d)];
    strides[i] = self.strides()[size_t(d)];
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  WICK_CHECK_INDEX(self.dim() > 0, "cannot slice a 0-d tensor");
  WICK_CHECK_VALUE(step > 0, "step must be greater than zero, got ", step);
  const int64_t d = self.wrap_dim(dim);
  const int64_t n = self.sizes()[size_t(d)];
  auto clamp = [n](std::optional<int64_t> v, int64_t fallback) {
    if (!v) return fallback;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::clamp<int64_t>(x, 0, n);
  };
  const int64_t lo = clamp(start, 0), hi = std::max(lo, clamp(end, n));
  const int64_t length = hi == lo ? 0 : (hi - lo - 1) / step + 1;  // any step, up to 2**63 - 1
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  sizes[size_t(d)] = length;
  // A dim of one element keeps its stride: a step past the end must not make a new one overflow.
  if (length > 1) strides[size_t(d)] = or_overflow_error(mul_checked(strides[size_t(d)], step));
  const int64_t offset =
      length == 0 ? self.storage_offset()
                  : or_overflow_error(offset_checked(self.storage_offset(), lo, self.strides()[size_t(d)]));
  return make_view(self, std::move(sizes), std::move(strides), offset);
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  WICK_CHECK_INDEX(self.dim() > 0, "cannot be applied to a 0-d tensor");
  const int64_t d = self.wrap_dim(dim);
  const int64_t n = self.sizes()[size_t(d)];
  if (start < 0) start += n;
  WICK_CHECK_INDEX(start >= 0 && start <= n, "start (", start, ") is out of bounds for dim ", d,
                   " of size ", n);
  WICK_CHECK(length >= 0 && length <= n - start, "start (", start, ") + length (", length,
                   ") exceeds dimension size (", n, ")");
  return slice(self, d, start, start + length, 1);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  WICK_CHECK_INDEX(self.dim() > 0, "cannot be applied to a 0-d tensor");
  const int64_t d = self.wrap_dim(dim);
  const int64_t n = self.sizes()[size_t(d)];
  WICK_CHECK_INDEX(index >= -n && index < n, "index ", index, " is out of bounds for dimension ", d,
                   " with size ", n);
  if (index < 0) index += n;
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  const int64_t offset = or_overflow_error(offset_checked(self.storage_offset(), index, strides[size_t(d)]));
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(self, std::move(sizes), std::move(strides), offset);
}

Tensor expand(const Tensor& self, IntArrayRef size) {
  WICK_CHECK(int64_t(size.size()) >= self.dim(), "the number of sizes provided (", size.size(),
             ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  const size_t n = size.size(), lead = n - size_t(self.dim());
  DimVector sizes(n), strides(n);
  for (size_t i = 0; i < n; ++i) {
    const bool existing = i >= lead;
    const int64_t have = existing ? self.sizes()[i - lead] : 1;
    int64_t want = size[i];
    if (want == -1) {
      WICK_CHECK(existing, "-1 is not allowed in a leading, non-existing dimension");
      want = have;
    }
    WICK_CHECK(want >= 0, "invalid size ", want);
    WICK_CHECK(have == want || have == 1, "the expanded size of the tensor (", want,
               ") must match the existing size (", have, ") at non-singleton dimension ", i,
               ".  Target sizes: ", shape_str(size), ".  Tensor sizes: ", shape_str(self.sizes()));
    sizes[i] = want;
    strides[i] = existing && have == want ? self.strides()[i - lead] : 0;
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor squeeze(const Tensor& self) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.sizes()[size_t(d)] == 1) continue;
    sizes.push_back(self.sizes()[size_t(d)]);
    strides.push_back(self.strides()[size_t(d)]);
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  const int64_t d = self.wrap_dim(dim);
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  if (self.dim() > 0 && sizes[size_t(d)] == 1) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim() + 1);
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  // The new dim has one element, so any stride serves where this product passes int64.
  const int64_t stride = d < self.dim() ? mul_checked(sizes[size_t(d)], strides[size_t(d)]).value_or(1) : 1;
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

// Windows of `size` elements along dimension, `step` apart, in a new last dim; a 0-d self is one element long.
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t d = wrap_dim(dimension, std::max<int64_t>(self.dim(), 1));
  const int64_t length = self.dim() == 0 ? 1 : self.sizes()[size_t(d)];
  WICK_CHECK(size <= length, "maximum size for tensor at dimension ", d, " is ", length, " but size is ", size);
  WICK_CHECK(size >= 0, "size is ", size, " but must be >= 0");
  WICK_CHECK(step > 0, "step is ", step, " but must be > 0");
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  const int64_t stride = self.dim() == 0 ? 1 : strides[size_t(d)];
  if (self.dim() > 0) {
    sizes[size_t(d)] = (length - size) / step + 1;
    // Two windows or more lie within the tensor's extent, so step * stride (in bytes too) overflows only for
    // one, whose stride serves no element: the element stride then keeps byte strides in range.
    const std::optional<int64_t> window_stride = mul_checked(step, stride);
    strides[size_t(d)] = window_stride && mul_checked(*window_stride, self.itemsize()) ? *window_stride : stride;
  }
  sizes.push_back(size);
  strides.push_back(stride);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  const int64_t start = self.wrap_dim(start_dim), end = self.wrap_dim(end_dim);
  if (self.dim() == 0) return reshape(self, {1});
  WICK_CHECK(start <= end, "has invalid args: start_dim cannot come after end_dim");
  if (start == end) return self;  // as PyTorch: the same tensor, not a new view
  DimVector shape(self.sizes().begin(), self.sizes().begin() + start);
  shape.push_back(*numel_checked(IntArrayRef(self.sizes().data() + start, size_t(end - start + 1))));
  shape.insert(shape.end(), self.sizes().begin() + end + 1, self.sizes().end());
  return reshape(self, shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  const int64_t d = self.existing_dim(dim);
  WICK_CHECK(!sizes.empty(), "sizes must be non-empty");
  const int64_t n = self.size(d);
  std::optional<size_t> infer;
  DimVector given;  // the sizes other than -1
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      WICK_CHECK(!infer, "only one dimension can be inferred");
      infer = i;
      continue;
    }
    WICK_CHECK(sizes[i] >= 0, "invalid size ", sizes[i], " in ", shape_str(sizes));
    given.push_back(sizes[i]);
  }
  const std::optional<int64_t> known = numel_checked(given);  // nullopt: past int64, so not n
  DimVector split = sizes.vec();
  bool fits = known == n;
  if (infer) {
    WICK_CHECK(known != 0, "cannot unflatten a dim of size ", n, " into ",
               shape_str(sizes), ": the size -1 can be any value and is ambiguous");
    fits = known && n % *known == 0;
    if (fits) split[*infer] = n / *known;
  }
  WICK_CHECK(fits, "Provided sizes ", shape_str(sizes), " don't multiply up to the size of dim ",
             d, " (", n, ") in the input tensor");
  // Splitting one dim is always a view: the new dims step through the old one's stride.
  DimVector new_sizes(self.sizes().begin(), self.sizes().begin() + d);
  DimVector new_strides(self.strides().begin(), self.strides().begin() + d);
  const DimVector inner = contiguous_strides(split);
  for (size_t i = 0; i < split.size(); ++i) {
    new_sizes.push_back(split[i]);
    new_strides.push_back(or_overflow_error(mul_checked(inner[i], self.stride(d))));
  }
  new_sizes.insert(new_sizes.end(), self.sizes().begin() + d + 1, self.sizes().end());
  new_strides.insert(new_strides.end(), self.strides().begin() + d + 1, self.strides().end());
  return make_view(self, std::move(new_sizes), std::move(new_strides), self.storage_offset());
}

Tensor expand_as(const Tensor& self, const Tensor& other) { return expand(self, other.sizes()); }

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t a = self.wrap_dim(dim1), b = self.wrap_dim(dim2);
  WICK_CHECK(a != b, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t rows = self.size(a), cols = self.size(b);
  // Written so that no offset, however large, overflows.
  int64_t length = 0;
  if (offset >= 0) {
    length = offset >= cols ? 0 : std::min(rows, cols - offset);
  } else {
    length = offset <= -rows ? 0 : std::min(rows + offset, cols);
  }
  int64_t start = self.storage_offset();
  if (length > 0) {
    start = or_overflow_error(offset >= 0 ? offset_checked(start, offset, self.stride(b))
                                          : offset_checked(start, -offset, self.stride(a)));
  }
  DimVector sizes = self.sizes().vec(), strides = self.strides().vec();
  // A diagonal of one element or none takes any stride.
  const int64_t step = length > 1 ? or_overflow_error(add_checked(strides[size_t(a)], strides[size_t(b)])) : 1;
  for (int64_t d : {std::max(a, b), std::min(a, b)}) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  sizes.push_back(length);
  strides.push_back(step);
  return make_view(self, std::move(sizes), std::move(strides), start);
}

Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  WICK_CHECK(source.size() == destination.size(), "Invalid source or destination dims: source (",
             shape_str(source), " dims) should contain the same number of dims as destination (",
             shape_str(destination), " dims)");
  const size_t n = size_t(std::max<int64_t>(self.dim(), 1));
  DimVector from, dest;  // every dim is range-checked before any is checked for repeats
  for (int64_t d : source) from.push_back(self.wrap_dim(d));
  for (int64_t d : destination) dest.push_back(self.wrap_dim(d));
  auto mark = [&](const DimVector& dims, IntArrayRef given, const char* what) {
    std::vector<bool> seen(n, false);
    for (int64_t w : dims) {
      WICK_CHECK(!seen[size_t(w)], "repeated dim in `", what, "` (", shape_str(given), ")");
      seen[size_t(w)] = true;
    }
    return seen;
  };
  const std::vector<bool> moved = mark(from, source, "source");
  const std::vector<bool> taken = mark(dest, destination, "destination");
  if (self.dim() == 0) return make_view(self, {}, {}, self.storage_offset());
  // Moved dims land where they are sent; the others fill the free places in order.
  DimVector order(n, -1);
  for (size_t i = 0; i < from.size(); ++i) order[size_t(dest[i])] = from[i];
  size_t next = 0;
  for (size_t slot = 0; slot < n; ++slot) {
    if (taken[slot]) continue;
    while (moved[next]) ++next;
    order[slot] = int64_t(next++);
  }
  return permute(self, order);
}

Tensor contiguous(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  if (is_contiguous(self, format)) return self;
  WICK_CHECK(format != MemoryFormat::Preserve, "preserve memory format is unsupported by the contiguous operator");
  return clone(self, format);
}

// None keeps self's layout, as PyTorch's clone (Note [Strides of *_like results]).
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  return copy_(empty_like_with(self, std::nullopt, std::nullopt, memory_format), self);
}

}  // namespace wick
