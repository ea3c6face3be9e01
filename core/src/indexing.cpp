// core/src/indexing.cpp: index, index_put(_) and nonzero on CPU, by a strided walk over the indexed positions.
#include "wick/indexing.h"

#include <algorithm>
#include <array>
#include <vector>

#include "row_chunks.h"
#include "strided_walk.h"
#include "wick/cast.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/clone.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/index_put.h"
#include "wick/ops/item.h"
#include "wick/ops/select.h"
#include "wick/ops/to.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

void check_cpu(const Tensor& t, const char* what) {
  WICK_CHECK_KIND(NotImplementedError, t.device().is_cpu(), what, " on ", t.device().str(),
                  " is not supported yet (advanced indexing is implemented on cpu only)");
}

bool is_mask(const Tensor& t) { return t.dtype() == DType::Bool || t.dtype() == DType::UInt8; }

// Calls fn(offset, coords) for each element of a tensor of these sizes and
// strides, in row-major order; offset is in elements from the first one.
template <typename Fn>
void walk(IntArrayRef sizes, IntArrayRef strides, Fn&& fn) {
  detail::walk_strided<1>(sizes, {strides}, [&](const std::array<int64_t, 1>& offset, const DimVector& coords) {
    fn(offset[0], coords);
  });
}

// The indices with each mask replaced by its coordinates: one integer tensor
// (or nullopt) per leading dim of `self`, which has a new dim of size 1 for
// each 0-d mask (see Note [Advanced indexing]).
struct IntegerIndices {
  Tensor self;
  std::vector<std::optional<Tensor>> indices;
};

IntegerIndices expand_masks(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  IntegerIndices out{self, {}};
  auto too_many = [&](size_t more) {
    WICK_CHECK_INDEX(int64_t(out.indices.size() + more) <= out.self.dim(),
                     "too many indices for tensor of dimension ", self.dim());
  };
  for (const std::optional<Tensor>& entry : indices) {
    if (!entry || !entry->defined()) {
      too_many(1);
      out.indices.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& idx = *entry;
    check_cpu(idx, "an index tensor");
    if (!is_mask(idx)) {
      WICK_CHECK_INDEX(idx.dtype() == DType::Int64 || idx.dtype() == DType::Int32,
                       "tensors used as indices must be long, int, byte or bool tensors (got ",
                       dtype_name(idx.dtype()), ")");
      too_many(1);
      out.indices.emplace_back(idx);
      continue;
    }
    if (idx.dtype() == DType::UInt8) {
      warn("indexing with dtype wick.uint8 is deprecated, please use a dtype wick.bool instead");
    }
    const size_t at = out.indices.size();
    if (idx.dim() == 0) {
      out.self = unsqueeze(out.self, int64_t(at));
      out.indices.emplace_back(zeros({item(idx).to_bool() ? 1 : 0}, DType::Int64));
      continue;
    }
    too_many(size_t(idx.dim()));
    for (int64_t j = 0; j < idx.dim(); ++j) {
      WICK_CHECK_INDEX(idx.size(j) == out.self.size(int64_t(at) + j), "The shape of the mask ", shape_str(idx.sizes()),
                       " at index ", j, " does not match the shape of the indexed tensor ",
                       shape_str(out.self.sizes()), " at index ", int64_t(at) + j);
    }
    const Tensor coords = nonzero(idx);
    for (int64_t j = 0; j < idx.dim(); ++j) out.indices.emplace_back(select(coords, 1, j));
  }
  return out;
}

// Broadcasts `shape` into `acc` (NumPy rules); false when they do not fit.
bool broadcast_into(DimVector& acc, IntArrayRef shape) {
  const size_t n = std::max(acc.size(), shape.size());
  DimVector out(n, int64_t(1));
  for (size_t i = 0; i < n; ++i) {
    const int64_t a = i + acc.size() >= n ? acc[i + acc.size() - n] : 1;
    const int64_t b = i + shape.size() >= n ? shape[i + shape.size() - n] : 1;
    if (a != b && a != 1 && b != 1) return false;
    out[i] = a == 1 ? b : a;
  }
  acc = out;
  return true;
}

// Note [Index plan]
// ~~~~~~~~~~~~~~~~~
// The result of index() is walked in row-major order as `loop` dims: self's
// unindexed dims, with all the broadcast index dims flattened into the one at
// `index_dim` (stride 0). Flattening keeps the row-major order of the result,
// so element n of the walk is element n of the result. For position b of the
// flattened dim, offsets[b] is the element offset in self that the index
// tensors name together; an element's offset in self is the walk's offset
// plus offsets[coords[index_dim]].
struct IndexPlan {
  Tensor self;  // self, or a view of it with a dim for each 0-d mask
  DimVector result_sizes;
  DimVector loop_sizes;
  DimVector loop_strides;
  size_t index_dim = 0;
  std::vector<int64_t> offsets;

  // fn(n, offset): result element n is self's element at offset. The walk goes
  // by rows of the last loop dim (there is always one: the index dim), so that
  // fn runs in a tight loop.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    const size_t last = loop_sizes.size() - 1;
    const int64_t len = loop_sizes[last], step = loop_strides[last];
    int64_t n = 0;
    walk(IntArrayRef(loop_sizes.data(), last), IntArrayRef(loop_strides.data(), last),
         [&](int64_t offset, const DimVector& coords) {
           if (last == index_dim) {
             for (int64_t i = 0; i < len; ++i) fn(n + i, offset + offsets[size_t(i)]);
           } else {
             const int64_t base = offset + offsets[size_t(coords[index_dim])];
             for (int64_t i = 0; i < len; ++i) fn(n + i, base + i * step);
           }
           n += len;
         });
  }
};

IndexPlan make_plan(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  IntegerIndices expanded = expand_masks(self, indices);
  IndexPlan plan;
  plan.self = expanded.self;
  const Tensor& src = plan.self;

  std::vector<int64_t> indexed;
  DimVector shape;
  bool fits = true;
  for (size_t d = 0; d < expanded.indices.size(); ++d) {
    if (!expanded.indices[d]) continue;
    indexed.push_back(int64_t(d));
    fits = broadcast_into(shape, expanded.indices[d]->sizes()) && fits;
  }
  if (!fits) {
    std::string shapes;
    for (int64_t d : indexed) shapes += (shapes.empty() ? "" : ", ") + shape_str(expanded.indices[size_t(d)]->sizes());
    detail::fail<IndexError>("shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
  }

  const int64_t count = checked_numel(shape);
  plan.offsets.assign(size_t(count), 0);
  for (int64_t d : indexed) {
    if (count == 0) break;
    const Tensor positions = contiguous(to(expand(*expanded.indices[size_t(d)], shape), DType::Int64));
    const int64_t* p = positions.data<int64_t>();
    const int64_t size = src.size(d), stride = src.stride(d);
    for (int64_t b = 0; b < count; ++b) {
      int64_t v = p[b];
      WICK_CHECK_INDEX(v >= -size && v < size, "index ", v, " is out of bounds for dimension ", d, " with size ",
                       size);
      if (v < 0) v += size;
      plan.offsets[size_t(b)] += v * stride;
    }
  }

  // Adjacent indexed dims (or none) put the index dims where the first one
  // was; indexed dims with unindexed ones between them put them in front.
  const bool adjacent = indexed.empty() || indexed.back() - indexed.front() + 1 == int64_t(indexed.size());
  const int64_t first = indexed.empty() ? 0 : indexed.front();
  auto place_index_dims = [&] {
    plan.index_dim = plan.loop_sizes.size();
    plan.loop_sizes.push_back(count);
    plan.loop_strides.push_back(0);
    plan.result_sizes.insert(plan.result_sizes.end(), shape.begin(), shape.end());
  };
  if (!adjacent) place_index_dims();
  for (int64_t d = 0; d < src.dim(); ++d) {
    if (adjacent && d == first) place_index_dims();
    if (d < int64_t(expanded.indices.size()) && expanded.indices[size_t(d)]) continue;
    plan.loop_sizes.push_back(src.size(d));
    plan.loop_strides.push_back(src.stride(d));
    plan.result_sizes.push_back(src.size(d));
  }
  if (adjacent && first == src.dim()) place_index_dims();  // a 0-d self
  return plan;
}

}  // namespace

Tensor index(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  WICK_CHECK_VALUE(self.defined(), "expected a tensor, got None");
  check_cpu(self, "indexing a tensor");
  const IndexPlan plan = make_plan(self, indices);
  Tensor result = empty(plan.result_sizes, self.dtype(), self.device());
  if (result.numel() == 0) return result;
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = plan.self.data<T>();
    T* out = result.data<T>();
    plan.for_each([&](int64_t n, int64_t offset) { out[n] = src[offset]; });
  });
  return result;
}

const Tensor& index_put_(const Tensor& self, ArrayRef<std::optional<Tensor>> indices, const Tensor& values,
                         bool accumulate) {
  WICK_CHECK_VALUE(self.defined() && values.defined(), "expected tensors, got None");
  WICK_CHECK_TYPE(values.dtype() == self.dtype(), "Index put requires the source and destination ",
                  "dtypes match, got ", dtype_type_name(self.dtype()), " for the destination and ",
                  dtype_type_name(values.dtype()), " for the source.");
  check_cpu(self, "writing into a tensor");
  for (int64_t d = 0; d < self.dim(); ++d) {
    WICK_CHECK(self.stride(d) != 0 || self.size(d) <= 1,
               "unsupported operation: more than one element of the written-to tensor refers to a "
               "single memory location. Please clone() the tensor before performing the operation.");
  }
  const IndexPlan plan = make_plan(self, indices);
  WICK_CHECK(detail::broadcasts_to(values.sizes(), plan.result_sizes), "shape mismatch: value tensor of shape ",
             shape_str(values.sizes()), " cannot be broadcast to indexing result of shape ",
             shape_str(plan.result_sizes));
  // The values in walk order: values itself when it is laid out so and does not
  // overlap self, else a fresh buffer (broadcast, and safe from the writes).
  if (checked_numel(plan.result_sizes) == 0) return self;
  const bool as_is = values.sizes() == IntArrayRef(plan.result_sizes) && values.is_contiguous() &&
                     values.device().is_cpu() && !detail::may_overlap(values, self);
  Tensor source = as_is ? values : empty(plan.result_sizes, self.dtype(), kCPU);
  if (!as_is) copy_(source, values);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = opmath_t<T>;
    T* dst = plan.self.data<T>();
    const T* src = source.data<T>();
    if (accumulate) {
      plan.for_each([&](int64_t n, int64_t offset) {
        dst[offset] = static_cast<T>(static_cast<Acc>(dst[offset]) + static_cast<Acc>(src[n]));
      });
    } else {
      plan.for_each([&](int64_t n, int64_t offset) { dst[offset] = src[n]; });
    }
  });
  return self;
}

Tensor index_put(const Tensor& self, ArrayRef<std::optional<Tensor>> indices, const Tensor& values, bool accumulate) {
  WICK_CHECK_VALUE(self.defined(), "expected a tensor, got None");
  Tensor result = clone(self);
  index_put_(result, indices, values, accumulate);
  return result;
}

namespace {

// Writes the coordinates of the set elements of a row, whose outer coords are
// `outer`, at `out`; returns the end of what it wrote.
template <typename T>
int64_t* write_set(const T* p, int64_t stride, int64_t n, const DimVector& outer, int64_t* out) {
  const size_t last = outer.size(), nd = last + 1;
  std::array<int64_t, detail::kSelectBlock> columns;  // See Note [Two-pass selection]
  for (int64_t start = 0; start < n; start += detail::kSelectBlock) {
    const int64_t end = std::min(n, start + detail::kSelectBlock);
    size_t count = 0;
    for (int64_t j = start; j < end; ++j) {
      columns[count] = j;
      count += cast<bool>(p[j * stride]);
    }
    for (size_t k = 0; k < last; ++k) {
      const int64_t coord = outer[k];  // a local: stores into out may not change it
      for (size_t i = 0; i < count; ++i) out[i * nd + k] = coord;
    }
    for (size_t i = 0; i < count; ++i) out[i * nd + last] = columns[i];
    out += count * nd;
  }
  return out;
}

}  // namespace

Tensor nonzero(const Tensor& self) {
  WICK_CHECK_VALUE(self.defined(), "expected a tensor, got None");
  check_cpu(self, "a tensor");
  const detail::RowGeometry<1> rows = detail::row_geometry<1>(self.sizes(), {self.strides()}, false);
  const detail::RowChunks<1> chunks(rows);
  const int64_t n = rows.row, stride = rows.inner[0], nd = self.dim();
  Tensor result;
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* data = self.data<T>();
    detail::count_then_write(
        chunks.size(),
        [&](int64_t c) { return chunks.count_true(c, 0, data); },
        [&](int64_t total) { result = empty({total, nd}, DType::Int64, kCPU); },
        [&](int64_t c, int64_t start) {
          if (nd == 0) return;  // a (1, 0) or (0, 0) result has no coordinates to write
          int64_t* out = result.data<int64_t>() + start * nd;
          chunks.walk(c, [&](const std::array<int64_t, 1>& off, const DimVector& outer) {
            out = write_set(data + off[0], stride, n, outer, out);
          });
        });
  });
  return result;
}

}  // namespace wick
