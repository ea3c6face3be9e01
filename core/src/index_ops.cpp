// core/src/index_ops.cpp: index_select, gather, scatter(_add), index_add, masked_fill/select, take and put, on CPU.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "indexed_rows.h"
#include "row_chunks.h"
#include "strided_walk.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/amax.h"
#include "wick/ops/clone.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/gather.h"
#include "wick/ops/index_add.h"
#include "wick/ops/index_select.h"
#include "wick/ops/item.h"
#include "wick/ops/masked_fill.h"
#include "wick/ops/masked_select.h"
#include "wick/ops/put.h"
#include "wick/ops/scatter.h"
#include "wick/ops/scatter_add.h"
#include "wick/ops/take.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

using detail::at_least_1d;
using detail::Geometry1d;
using detail::IndexedOp;
using detail::run_indexed;
using detail::Split;

// index_select copies runs of at least this many contiguous elements with memcpy.
constexpr int64_t kRunCopy = 16;



// `t`, or a copy of it when it shares memory with `written`, which the op is about to change.
Tensor unaliased(const Tensor& t, const Tensor& written) {
  return detail::may_overlap(t, written) ? clone(t) : t;
}

// The index values as int64 in row-major order, validated against [low, high);
// `fail(v)` throws the op's IndexError for a value outside.
template <typename Fail>
std::vector<int64_t> index_values(const Tensor& index, int64_t low, int64_t high, Fail&& fail) {
  const Tensor values = contiguous(to(index, DType::Int64));
  const int64_t* p = values.data<int64_t>();
  std::vector<int64_t> out(p, p + values.numel());
  for (int64_t v : out) {
    if (v < low || v >= high) fail(v);
  }
  return out;
}

bool is_index_dtype(DType d, bool int32_ok) { return d == DType::Int64 || (int32_ok && d == DType::Int32); }

// Bool masks, and uint8 ones with a deprecation warning, as PyTorch takes them.
void check_mask(const char* op, const Tensor& mask) {
  detail::check_cpu(mask);
  if (mask.dtype() == DType::UInt8) {
    warn(op, "() received a mask with dtype wick.uint8, this behavior is now deprecated, please use a mask with "
             "dtype wick.bool instead.");
    WICK_CHECK(mask.numel() == 0 || item(amax(mask)).to_int64() <= 1, "Mask tensor can take 0 and 1 values only");
    return;
  }
  WICK_CHECK(mask.dtype() == DType::Bool, "expected a mask with dtype wick.bool (or the deprecated "
             "wick.uint8), but got ", dtype_name(mask.dtype()));
}

// ---------------------------------------------------------------------------------------------
// scatter, scatter_add

// Note [Scatter and gather geometry]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, a 0-d operand counts as 1-d of size 1, index has as many dims
// as self (and src), and index may be smaller than them: for gather,
// index.size(d) <= self.size(d) for every d but `dim`; for scatter also
// index.size(d) <= src.size(d) for every d. Position p of index names, in the
// other tensor, the position p with its `dim` coordinate replaced by index[p]
// (gather reads self there; scatter writes src[p] there). So one walk over
// index's shape serves both, with self's stride along `dim` zeroed and
// index[p] * stride added (Note [Indexed rows]).
void check_scatter_shapes(const Tensor& self, int64_t d, const Tensor& index, const Tensor* src) {
  const Geometry1d dst = at_least_1d(self), idx = at_least_1d(index);
  const size_t nd = dst.sizes.size();
  WICK_CHECK(idx.sizes.size() == nd, "Index tensor must have the same number of dimensions as self tensor");
  std::optional<Geometry1d> from;
  if (src) {
    from = at_least_1d(*src);
    WICK_CHECK(from->sizes.size() == nd, "Index tensor must have the same number of dimensions as src tensor");
  }
  for (size_t k = 0; k < nd; ++k) {
    const bool inside = (int64_t(k) == d || idx.sizes[k] <= dst.sizes[k]) && (!src || idx.sizes[k] <= from->sizes[k]);
    if (inside) continue;
    if (src) {
      detail::fail<Error>("Expected index ", shape_str(index.sizes()), " to be smaller than self ",
                          shape_str(self.sizes()), " apart from dimension ", d, " and to be smaller size than src ",
                          shape_str(src->sizes()));
    }
    detail::fail<Error>("Expected index ", shape_str(index.sizes()), " to be smaller than self ",
                        shape_str(self.sizes()), " apart from dimension ", d);
  }
}

void check_scatter_args(const Tensor& self, const Tensor& index, const Tensor* src) {
  detail::check_cpu(self);
  detail::check_cpu(index);
  WICK_CHECK(index.dtype() == DType::Int64, "Expected dtype int64 for index, but got ",
             dtype_name(index.dtype()));
  if (src) {
    detail::check_cpu(*src);
    WICK_CHECK(src->dtype() == self.dtype(), "Expected self.dtype to be equal to src.dtype (got ",
               dtype_name(self.dtype()), " and ", dtype_name(src->dtype()), ")");
  }
}

// Note [Bad indices leave self unchanged]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An in-place scatter_, index_add_ or put_ with an index out of range raises
// and leaves self as it was. When its impl writes self directly (out.is_same(self), Note
// [Structured ops] in wick/structured.h), the indices are checked by a pass of
// their own before the first write (check_indices, cheap beside the writes).
// Any other out is a tensor of its own, a fresh result or the one that an
// in-place form copies into a self that impl cannot take: the error discards
// it, so impl skips that pass and relies on the check inside the loop alone
// (an out= tensor is then left partly written). index_add reads its 1-d index
// into a vector, checked, before it writes anything, whatever out is.

// The scatters' meta: their checks (Note [Scatter and gather geometry]); the result is self's.
detail::OutputSpec scatter_spec(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  check_scatter_args(self, index, src);
  const int64_t d = self.wrap_dim(dim);  // a bad dim is an error even when index is empty
  if (index.numel() != 0) check_scatter_shapes(self, d, index, src);
  return {self.sizes().vec(), self.dtype(), self.device()};
}

// The scatters' impl: out = self, then out[..., index[p], ...] = src[p] (or += with `add`), or = value
// without src. When out is self (the in-place form writing self directly), every index is checked
// before the first write (Note [Bad indices leave self unchanged]); else out is a tensor of its own.
void scatter_into(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                  const Scalar* value, bool add) {
  const bool in_place = out.is_same(self);
  if (!in_place) copy_(out, self);
  if (index.numel() == 0) return;
  const int64_t d = self.wrap_dim(dim);
  const Geometry1d dst = at_least_1d(out), idx = at_least_1d(index);
  const DimVector scalar(idx.sizes.size(), 0);  // a value is read with zero strides
  DimVector target = dst.strides;
  target[size_t(d)] = 0;
  const int64_t size = dst.sizes[size_t(d)];
  const detail::IndexedLoop loop =
      detail::indexed_loop(idx.sizes, target, idx.strides, src ? at_least_1d(*src).strides : scalar,
                           dst.strides[size_t(d)], size, false);
  const int64_t* pos = index.data<int64_t>();
  const auto fail = [&](int64_t v) {
    detail::fail<IndexError>("index ", v, " is out of bounds for dimension ", d, " with size ", size);
  };
  if (in_place) detail::check_indices(loop, pos, fail);
  const Split split = detail::write_split(loop, dst.sizes, dst.strides);
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* to = out.data<T>();
    if (!src) {
      if (overflows(*value, out.dtype())) detail::check_indices(loop, pos, fail);  // a bad index is reported first
      check_convertible(*value, out.dtype());
      const T v = value->template to<T>();
      run_indexed<IndexedOp::Write>(loop, to, pos, &v, split, fail);
    } else if (add) {
      run_indexed<IndexedOp::Add>(loop, to, pos, src->data<T>(), split, fail);
    } else {
      run_indexed<IndexedOp::Write>(loop, to, pos, src->data<T>(), split, fail);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// masked_fill

void masked_fill_into(const char* op, const Tensor& self, const Tensor& mask, const Scalar& value) {
  detail::check_cpu(self);
  check_mask(op, mask);
  const DimVector shape = broadcast_shapes(self.sizes(), mask.sizes());
  WICK_CHECK(IntArrayRef(shape) == self.sizes(), "output with shape ", shape_str(self.sizes()),
             " doesn't match the broadcast shape ", shape_str(shape));
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.stride(d) == 0 && self.size(d) > 1) {
      warn("Use of ", op, "() on expanded tensors is deprecated. Please clone() the tensor before performing "
           "this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar");
      break;
    }
  }
  const Tensor m = unaliased(expand(mask, self.sizes()), self);
  check_convertible(value, self.dtype());
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.template to<T>();
    if (self.numel() == 0) return;
    T* dst = self.data<T>();
    const uint8_t* bits = reinterpret_cast<const uint8_t*>(m.data_ptr());  // bool and uint8 alike
    const detail::RowGeometry<2> rows = detail::row_geometry<2>(self.sizes(), {self.strides(), m.strides()}, true);
    const int64_t n = rows.row, ds = rows.inner[0], ms = rows.inner[1];
    const auto fill = [&](int64_t begin, int64_t end) {
      rows.walk(begin, end, [&](const std::array<int64_t, 2>& off, const DimVector&) {
        T* d = dst + off[0];
        const uint8_t* b = bits + off[1];
        if (ds == 1 && ms == 1) {
          for (int64_t j = 0; j < n; ++j) d[j] = b[j] ? v : d[j];  // no branch: a blend, vectorised
        } else {
          for (int64_t j = 0; j < n; ++j) {
            if (b[j * ms]) d[j * ds] = v;
          }
        }
      });
    };
    if (detail::non_overlapping(self.sizes(), self.strides())) {  // else rows may share elements
      detail::parallel_for(rows.rows(), std::max<int64_t>(1, detail::kGrainSize / n), fill);
    } else {
      fill(0, rows.rows());
    }
  });
}

Scalar fill_value(const Tensor& value) {
  WICK_CHECK(value.dim() == 0, "only supports a 0-dimensional value tensor, but got tensor with ", value.dim(),
             " dimension(s).");
  return item(value);
}

// Writes the values of a row whose mask is set at dst, in order; returns the
// end of what it wrote (Note [Two-pass selection]).
template <typename T>
T* select_row(const T* from, int64_t vs, const uint8_t* bits, int64_t ms, int64_t n, T* dst) {
  std::array<T, detail::kSelectBlock> picked;
  for (int64_t start = 0; start < n; start += detail::kSelectBlock) {
    const int64_t end = std::min(n, start + detail::kSelectBlock);
    size_t count = 0;
    for (int64_t j = start; j < end; ++j) {
      picked[count] = from[j * vs];
      count += bits[j * ms] != 0;
    }
    dst = std::copy(picked.begin(), picked.begin() + count, dst);
  }
  return dst;
}

Tensor masked_fill_copy(const Tensor& self, const Tensor& mask, const Scalar& value) {
  const DimVector shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor result = empty(shape, self.dtype(), self.device());
  copy_(result, self);
  masked_fill_into("masked_fill", result, mask, value);
  return result;
}

// take and put_ see self as a flat tensor of its numel elements, with one
// stride-0 target dim per index dim (Note [Indexed rows]); `other` (the
// result of take, put_'s source made contiguous) has index's shape,
// contiguous. Negative positions count from the end.
detail::IndexedLoop flat_loop(const Tensor& index, int64_t numel) {
  const Geometry1d idx = at_least_1d(index);
  return detail::indexed_loop(idx.sizes, DimVector(idx.sizes.size(), 0), idx.strides, contiguous_strides(idx.sizes),
                              1, numel, true);
}

[[noreturn]] void fail_flat(int64_t v, int64_t numel) {
  detail::fail<IndexError>("out of range: tried to access index ", v, " on a tensor of ", numel, " elements.");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// index_select, gather

namespace detail {

OutputSpec index_select_meta(const Tensor& self, int64_t dim, const Tensor& index) {
  check_cpu(self);
  check_cpu(index);
  const int64_t d = self.wrap_dim(dim);
  WICK_CHECK_INDEX(index.dim() <= 1, "Index is supposed to be a vector, but got a ", index.dim(),
                   "-D tensor");
  WICK_CHECK(self.dim() > 0 || index.numel() == 1, "Index to scalar can have only 1 value, got ",
             index.numel(), " value(s)");
  WICK_CHECK(is_index_dtype(index.dtype(), true), "Expected dtype int32 or int64 for index, but got ",
             dtype_name(index.dtype()));
  DimVector sizes = self.sizes().vec();
  if (self.dim() > 0) sizes[size_t(d)] = index.numel();
  return {std::move(sizes), self.dtype(), self.device()};
}

void index_select_impl(const Tensor& result, const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = self.wrap_dim(dim);
  const Geometry1d src = at_least_1d(self);
  const int64_t size = src.sizes[size_t(d)], step = src.strides[size_t(d)];
  const auto fail = [&](int64_t v) {
    detail::fail<IndexError>("index ", v, " is out of bounds for dimension ", d, " with size ", size);
  };
  const std::vector<int64_t> pos = index_values(index, 0, size, fail);
  // Else self has elements too, and products of its sizes fit.
  if (result.numel() == 0) return;
  int64_t inner = 1;  // elements per run: the dims after d, when self is contiguous
  for (int64_t e = d + 1; e < self.dim(); ++e) inner *= self.size(e);
  if (self.is_contiguous()) {
    // Runs of `inner` contiguous elements: whole as bytes when long, else element by element.
    const int64_t outer = result.numel() / std::max<int64_t>(int64_t(pos.size()) * inner, 1);
    dispatch(self.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* from = self.data<T>();
      T* dst = result.data<T>();
      const int64_t picks = int64_t(pos.size());
      for (int64_t o = 0; o < outer; ++o, dst += picks * inner) {
        const T* block = from + o * size * inner;
        if (inner == 1) {  // the last dim: one element per index
          for (int64_t k = 0; k < picks; ++k) dst[k] = block[pos[size_t(k)]];
        } else {
          for (int64_t k = 0; k < picks; ++k) {
            const T* run = block + pos[size_t(k)] * inner;
            if (inner >= kRunCopy) {
              std::memcpy(dst + k * inner, run, size_t(inner) * sizeof(T));
            } else {
              for (int64_t j = 0; j < inner; ++j) dst[k * inner + j] = run[j];
            }
          }
        }
      }
    });
  } else {
    // A gather (Note [Indexed rows]) whose index is pos along d, the same (stride 0) along every other dim.
    DimVector loop = src.sizes, target = src.strides, along(src.sizes.size(), 0);
    loop[size_t(d)] = int64_t(pos.size());
    target[size_t(d)] = 0;
    along[size_t(d)] = 1;
    const IndexedLoop rows = indexed_loop(loop, target, along, contiguous_strides(loop), step, size, false);
    dispatch(self.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      run_indexed<IndexedOp::Read>(rows, self.data<T>(), pos.data(), result.data<T>(), read_split(rows), fail);
    });
  }
}

OutputSpec gather_meta(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  check_cpu(self);
  check_cpu(index);
  const int64_t d = self.wrap_dim(dim);
  WICK_CHECK(index.dtype() == DType::Int64, "Expected dtype int64 for index, but got ",
             dtype_name(index.dtype()));
  if (index.numel() != 0) {
    const Geometry1d src = at_least_1d(self), idx = at_least_1d(index);
    WICK_CHECK(idx.sizes.size() == src.sizes.size(),
               "Index tensor must have the same number of dimensions as input tensor");
    for (size_t k = 0; k < src.sizes.size(); ++k) {
      WICK_CHECK(int64_t(k) == d || idx.sizes[k] <= src.sizes[k], "Size does not match at dimension ", k,
                 " expected index ", shape_str(index.sizes()), " to be smaller than self ",
                 shape_str(self.sizes()), " apart from dimension ", d);
    }
  }
  return {index.sizes().vec(), self.dtype(), self.device()};
}

void gather_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  if (index.numel() == 0) return;
  const int64_t d = self.wrap_dim(dim);
  const Geometry1d src = at_least_1d(self), idx = at_least_1d(index);
  const int64_t size = src.sizes[size_t(d)];
  DimVector strides = src.strides;
  strides[size_t(d)] = 0;
  const IndexedLoop loop =
      indexed_loop(idx.sizes, strides, idx.strides, at_least_1d(out).strides, src.strides[size_t(d)], size, false);
  const auto fail = [&](int64_t v) {
    detail::fail<IndexError>("index ", v, " is out of bounds for dimension ", d, " with size ", size);
  };
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_indexed<IndexedOp::Read>(loop, self.data<T>(), index.data<int64_t>(), out.data<T>(), read_split(loop), fail);
  });
}

// ---------------------------------------------------------------------------------------------
// scatter, scatter_add (See Note [Scatter and gather geometry])

OutputSpec scatter_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_spec(self, dim, index, &src);
}

OutputSpec scatter_meta(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& /*value*/) {
  return scatter_spec(self, dim, index, nullptr);
}

void scatter_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_into(out, self, dim, index, &src, nullptr, false);
}

void scatter_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  scatter_into(out, self, dim, index, nullptr, &value, false);
}

OutputSpec scatter_add_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_spec(self, dim, index, &src);
}

void scatter_add_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_into(out, self, dim, index, &src, nullptr, true);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// index_add

namespace detail {

OutputSpec index_add_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                          const Scalar& /*alpha*/) {
  check_cpu(self);
  check_cpu(index);
  check_cpu(source);
  const int64_t d = self.wrap_dim(dim);
  WICK_CHECK_INDEX(index.dim() <= 1, "Index is supposed to be a vector, but got dim: ", index.dim(),
                   " with type: ", dtype_type_name(index.dtype()), " and size: ", shape_str(index.sizes()));
  WICK_CHECK(is_index_dtype(index.dtype(), true), "Expected dtype int32/int64 for index but got: ",
             dtype_type_name(index.dtype()));
  WICK_CHECK(self.dtype() == source.dtype(), "self (", dtype_type_name(self.dtype()), ") and source (",
             dtype_type_name(source.dtype()), ") must have the same scalar type");
  WICK_CHECK(d == 0 || d < source.dim(), "Indexing dim ", d, " is out of bounds of the source tensor with dim ",
             source.dim());
  const Geometry1d dst = at_least_1d(self), from = at_least_1d(source);
  WICK_CHECK(index.numel() == from.sizes[size_t(d)], "Number of indices (", index.numel(),
             ") should be equal to source.size(dim): (", from.sizes[size_t(d)], "), for dim: ", d);
  bool same = dst.sizes.size() == from.sizes.size();
  for (size_t k = 0; same && k < dst.sizes.size(); ++k) same = int64_t(k) == d || dst.sizes[k] == from.sizes[k];
  WICK_CHECK(same, "source tensor shape must match self tensor shape, excluding the specified dimension. "
             "Got self.shape = ", shape_str(self.sizes()), " source.shape = ", shape_str(source.sizes()));
  return {self.sizes().vec(), self.dtype(), self.device()};
}

// out = self, then alpha * source added at the positions index along dim; repeated positions accumulate,
// in the order of index. Every index is checked before the first write, so an in-place form that writes
// self directly leaves it as it was (Note [Bad indices leave self unchanged]).
void index_add_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                    const Scalar& alpha) {
  const int64_t d = self.wrap_dim(dim);
  const Geometry1d dst = at_least_1d(out), from = at_least_1d(source);
  const int64_t size = dst.sizes[size_t(d)], step = dst.strides[size_t(d)];
  const auto fail = [&](int64_t v) {
    detail::fail<IndexError>("index ", v, " is out of bounds for dimension ", d, " with size ", size);
  };
  const std::vector<int64_t> pos = index_values(index, 0, size, fail);
  if (!out.is_same(self)) copy_(out, self);
  if (source.numel() == 0) return;
  check_convertible(alpha, out.dtype());
  // A scatter_add (Note [Indexed rows]) whose index is pos along d, the same (stride 0) along every other dim.
  DimVector target = dst.strides, along(dst.sizes.size(), 0);
  target[size_t(d)] = 0;
  along[size_t(d)] = 1;
  const IndexedLoop loop = indexed_loop(from.sizes, target, along, from.strides, step, size, false);
  const Split split = write_split(loop, dst.sizes, dst.strides);
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_indexed<IndexedOp::Add>(loop, out.data<T>(), pos.data(), source.data<T>(), split, fail,
                                static_cast<opmath_t<T>>(alpha.to<T>()));
  });
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// masked_fill, masked_select

const Tensor& masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  masked_fill_into("masked_fill_", self, mask, value);
  return self;
}

const Tensor& masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  masked_fill_into("masked_fill_", self, mask, fill_value(value));
  return self;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return masked_fill_copy(self, mask, value);
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return masked_fill_copy(self, mask, fill_value(value));
}

namespace {

// The selection written where it belongs: a new tensor when `out` is undefined, else out= once it is
// resized to the count (Note [Two-pass selection]) when it is contiguous and overlaps no argument, and
// otherwise a new tensor copied into it.
Tensor masked_select_into(const Tensor& out, const Tensor& self, const Tensor& mask) {
  detail::check_cpu(self);
  check_mask("masked_select", mask);
  const DimVector shape = broadcast_shapes(self.sizes(), mask.sizes());
  const Tensor values = expand(self, shape), m = expand(mask, shape);
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(m.data_ptr());  // bool and uint8 alike
  const detail::RowGeometry<2> rows = detail::row_geometry<2>(shape, {values.strides(), m.strides()}, true);
  const detail::RowChunks<2> chunks(rows);  // See Note [Two-pass selection]
  const int64_t n = rows.row, vs = rows.inner[0], ms = rows.inner[1];
  Tensor result;
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* from = values.data<T>();
    detail::count_then_write(
        chunks.size(),
        [&](int64_t c) { return chunks.count_true(c, 1, bits); },
        [&](int64_t total) {
          if (out.defined()) result = detail::prepare_out("masked_select", out, {total}, self.dtype(), self.device());
          if (!result.defined() || !result.is_contiguous() || detail::may_overlap(result, self) ||
              detail::may_overlap(result, mask)) {
            result = empty({total}, self.dtype(), self.device());
          }
        },
        [&](int64_t c, int64_t start) {
          T* dst = result.data<T>() + start;
          chunks.walk(c, [&](const std::array<int64_t, 2>& off, const DimVector&) {
            dst = select_row(from + off[0], vs, bits + off[1], ms, n, dst);
          });
        });
  });
  if (out.defined() && !result.is_same(out)) copy_(out, result);
  return result;
}

}  // namespace

Tensor masked_select(const Tensor& self, const Tensor& mask) { return masked_select_into(Tensor(), self, mask); }

const Tensor& masked_select_out(const Tensor& out, const Tensor& self, const Tensor& mask) {
  WICK_CHECK_VALUE(out.defined(), "expected a tensor for out=, got None");
  masked_select_into(out, self, mask);
  return out;
}

// ---------------------------------------------------------------------------------------------
// take, put

namespace detail {

OutputSpec take_meta(const Tensor& self, const Tensor& index) {
  check_cpu(self);
  check_cpu(index);
  WICK_CHECK(index.dtype() == DType::Int64, "Expected a long tensor for index, but got ",
             dtype_type_name(index.dtype()));
  WICK_CHECK_INDEX(self.numel() > 0 || index.numel() == 0, "tried to take from an empty tensor");
  return {index.sizes().vec(), self.dtype(), self.device()};
}

void take_impl(const Tensor& out, const Tensor& self, const Tensor& index) {
  if (index.numel() == 0) return;
  const Tensor flat = contiguous(self);
  const int64_t numel = self.numel();
  const IndexedLoop loop = flat_loop(index, numel);  // out is contiguous, of index's shape
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_indexed<IndexedOp::Read>(loop, flat.data<T>(), index.data<int64_t>(), out.data<T>(), read_split(loop),
                                 [&](int64_t v) { fail_flat(v, numel); });
  });
}

OutputSpec put_meta(const Tensor& self, const Tensor& index, const Tensor& source, bool /*accumulate*/) {
  check_cpu(self);
  check_cpu(index);
  check_cpu(source);
  WICK_CHECK(index.dtype() == DType::Int64, "Expected a long tensor for index, but got ",
             dtype_type_name(index.dtype()));
  WICK_CHECK(self.dtype() == source.dtype(), "self and source expected to have the same dtype, but got "
             "self.dtype = ", dtype_type_name(self.dtype()), " and source.dtype = ", dtype_type_name(source.dtype()));
  WICK_CHECK_INDEX(source.numel() == index.numel(), "Expected source and index to have the same number of "
                   "elements, but got source.numel() = ", source.numel(), ", index.numel() = ", index.numel());
  WICK_CHECK_INDEX(self.numel() > 0 || index.numel() == 0, "Tried to put elements into an empty tensor");
  return {self.sizes().vec(), self.dtype(), self.device()};
}

// out = self, then source written (or added) at the flat positions index of out, which is contiguous.
// When out is self, every index is checked before the first write (Note [Bad indices leave self unchanged]).
void put_impl(const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  const bool in_place = out.is_same(self);
  if (!in_place) copy_(out, self);
  if (index.numel() == 0) return;
  const int64_t numel = out.numel();
  const int64_t* pos = index.data<int64_t>();
  const IndexedLoop loop = flat_loop(index, numel);
  const auto fail = [&](int64_t v) { fail_flat(v, numel); };
  if (in_place) check_indices(loop, pos, fail);
  const Tensor values = contiguous(source);
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (accumulate) {
      run_indexed<IndexedOp::Add>(loop, out.data<T>(), pos, values.data<T>(), Split::None, fail);
    } else {
      run_indexed<IndexedOp::Write>(loop, out.data<T>(), pos, values.data<T>(), Split::None, fail);
    }
  });
}

}  // namespace detail

}  // namespace wick
