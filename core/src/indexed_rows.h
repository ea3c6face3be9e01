// core/src/indexed_rows.h: the one row loop of gather, take, index_select, scatter(_add), put and index_add on CPU.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "strided_walk.h"
#include "wick/cpu/parallel.h"
#include "wick/dtype.h"
#include "wick/macros.h"
#include "wick/math.h"

namespace wick {
namespace detail {

// Note [Indexed rows]
// ~~~~~~~~~~~~~~~~~~~
// gather, take and index_select read, scatter and put write, scatter_add,
// put with accumulate=True and index_add add. Each of them, for every position p of a loop shape in
// row-major order, takes v = index[p], checks it against the size of the
// indexed dim (with `wrap`, v may also be in [-size, 0) and counts from the
// end), and then
//   Read:  other[p] = target[t(p) + v * step]
//   Write: target[t(p) + v * step] = other[p]
//   Add:   target[t(p) + v * step] += alpha * other[p]    (in opmath_t; alpha
//          is 1 but for index_add, and 1 * x is x)
// where t(p) walks target with a zero stride along the indexed dim (gather and
// scatter, see Note [Scatter and gather geometry]) or zero strides everywhere
// (take and put, on a flat target); a scalar `other` has zero strides too, and
// so does an index that only varies along the indexed dim (index_select and
// index_add).
// One coalesced row walk (Note [Row walk]) serves them all, checking the
// indices of each block of a row (kIndexBlock) before it runs the block. The
// order of writes is row-major, as the op's result with repeated indices
// requires (the last write wins; sums add in order).
enum class IndexedOp { Read, Write, Add };

struct IndexedLoop {
  RowGeometry<3> rows;  // operands: target, index, other
  int64_t step;         // target's stride along the indexed dim
  int64_t size;         // the indexed dim's size
  bool wrap;            // negative indices count from the end

  // The good index values: [low(), low() + span()).
  int64_t low() const { return wrap ? -size : 0; }
  int64_t span() const { return wrap ? 2 * size : size; }
};

inline IndexedLoop indexed_loop(IntArrayRef sizes, IntArrayRef target, IntArrayRef index, IntArrayRef other,
                                int64_t step, int64_t size, bool wrap) {
  return {row_geometry<3>(sizes, {target, index, other}, true), step, size, wrap};
}

// Whether any of the n values at ix (stride `stride`) is outside [low, low + span):
// an unsigned max, which the unit-stride loop vectorises.
inline bool any_outside(const int64_t* ix, int64_t stride, int64_t n, int64_t low, int64_t span) {
  const uint64_t lo = uint64_t(low);
  uint64_t most = 0;  // of v - low, where a v below low wraps round to a huge value
  if (stride == 1) {
    for (int64_t j = 0; j < n; ++j) most = std::max(most, uint64_t(ix[j]) - lo);
  } else {
    for (int64_t j = 0; j < n; ++j) most = std::max(most, uint64_t(ix[j * stride]) - lo);
  }
  return n > 0 && most >= uint64_t(span);
}

// The first index value in row-major order that is out of range, if any.
inline std::optional<int64_t> first_bad_index(const IndexedLoop& loop, const int64_t* index) {
  const int64_t low = loop.low(), span = loop.span(), n = loop.rows.row, stride = loop.rows.inner[1];
  std::optional<int64_t> found;
  loop.rows.walk(0, loop.rows.rows(), [&](const std::array<int64_t, 3>& off, const DimVector&) {
    const int64_t* ix = index + off[1];
    if (found || WICK_LIKELY(!any_outside(ix, stride, n, low, span))) return;
    for (int64_t j = 0; !found; ++j) {
      if (any_outside(ix + j * stride, 1, 1, low, span)) found = ix[j * stride];
    }
  });
  return found;
}

// Calls fail(v) with the first index value out of range, if any: a pass over
// the index alone, in parallel, for an op that must not write before it knows
// that every index is good.
template <typename Fail>
void check_indices(const IndexedLoop& loop, const int64_t* index, Fail&& fail) {
  const int64_t low = loop.low(), span = loop.span(), n = loop.rows.row, stride = loop.rows.inner[1];
  std::atomic<bool> bad{false};
  parallel_for(loop.rows.rows(), std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, n)),
               [&](int64_t begin, int64_t end) {
                 bool any = false;
                 loop.rows.walk(begin, end, [&](const std::array<int64_t, 3>& off, const DimVector&) {
                   any |= any_outside(index + off[1], stride, n, low, span);
                 });
                 if (any) bad.store(true, std::memory_order_relaxed);
               });
  if (bad.load()) fail(*first_bad_index(loop, index));
}

// Positions per block of a row: its indices are checked as a block, by a
// vectorised pass that leaves them in L1 for the loop, which then has no
// branch but its own.
constexpr int64_t kIndexBlock = 512;

// One row of Note [Indexed rows]: n positions, with the operands' strides
// along the row (ts, is, os); false, having stopped short, at a block with an
// index out of range. Every argument is a value, so that the loop keeps them
// in registers.
template <IndexedOp Op, bool Wrap, typename Target, typename Other, typename Acc>
inline bool indexed_row(Target* t, int64_t ts, const int64_t* ix, int64_t is, Other* o, int64_t os, int64_t n,
                        int64_t step, int64_t size, Acc alpha) {
  for (int64_t start = 0; start < n; start += kIndexBlock) {
    const int64_t end = std::min(n, start + kIndexBlock);
    if (WICK_UNLIKELY(any_outside(ix + start * is, is, end - start, Wrap ? -size : 0, Wrap ? 2 * size : size))) {
      return false;
    }
    for (int64_t j = start; j < end; ++j) {
      int64_t v = ix[j * is];
      if constexpr (Wrap) v += v < 0 ? size : 0;
      Target& at = t[j * ts + v * step];
      if constexpr (Op == IndexedOp::Read) {
        o[j * os] = at;
      } else if constexpr (Op == IndexedOp::Write) {
        at = o[j * os];
      } else {
        // Integers wrap around, as in PyTorch (Note [Wrapping integer arithmetic]).
        at = static_cast<Target>(math::wrapping_add(static_cast<Acc>(at),
                                                    math::wrapping_mul(alpha, static_cast<Acc>(o[j * os]))));
      }
    }
  }
  return true;
}

// Runs the positions [first, last) of the rows [begin, end) of `loop`; false,
// having stopped short, at an index out of range. Contiguous index and other
// rows get a loop of their own with those strides known.
template <IndexedOp Op, bool Wrap, typename Target, typename Other, typename Acc>
bool indexed_rows(const IndexedLoop& loop, Target* target, const int64_t* index, Other* other, int64_t begin,
                  int64_t end, int64_t first, int64_t last, Acc alpha) {
  const int64_t n = last - first, step = loop.step, size = loop.size;
  const int64_t ts = loop.rows.inner[0], is = loop.rows.inner[1], os = loop.rows.inner[2];
  const bool unit = is == 1 && os == 1;
  bool ok = true;
  loop.rows.walk(begin, end, [&](const std::array<int64_t, 3>& off, const DimVector&) {
    if (WICK_UNLIKELY(!ok)) return;
    Target* t = target + off[0] + first * ts;
    const int64_t* ix = index + off[1] + first * is;
    Other* o = other + off[2] + first * os;
    ok = unit ? indexed_row<Op, Wrap>(t, ts, ix, 1, o, 1, n, step, size, alpha)
              : indexed_row<Op, Wrap>(t, ts, ix, is, o, os, n, step, size, alpha);
  });
  return ok;
}

// Whether no two positions of this geometry share an element. Sufficient, not
// necessary: each dim (by increasing stride) must step over all of the ones
// before it.
inline bool non_overlapping(IntArrayRef sizes, IntArrayRef strides) {
  DimVector order;  // the dims that move, by increasing |stride|
  const auto step = [&](int64_t d) { return strides[size_t(d)] < 0 ? -strides[size_t(d)] : strides[size_t(d)]; };
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1) order.push_back(int64_t(d));
  }
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return step(a) < step(b); });
  int64_t extent = 1;  // elements spanned by the dims so far
  for (int64_t d : order) {
    if (step(d) < extent) return false;
    extent += step(d) * (sizes[size_t(d)] - 1);
  }
  return true;
}

// How the positions of a loop may be split between threads: by whole rows,
// by runs of columns (the same run of every row), or not at all.
enum class Split { None, Rows, Columns };

// Columns per run when a loop splits by columns: a few cache lines.
constexpr int64_t kColumnRun = 64;

// Runs the whole of `loop`, split as `split` says, then calls fail(v) with the
// first bad index if there was one.
template <IndexedOp Op, typename Target, typename Other, typename Fail>
void run_indexed(const IndexedLoop& loop, Target* target, const int64_t* index, Other* other, Split split,
                 Fail&& fail, opmath_t<std::remove_const_t<Target>> alpha = 1) {
  const int64_t rows = loop.rows.rows(), row = loop.rows.row;
  const auto run = [&](int64_t begin, int64_t end, int64_t first, int64_t last) {
    return loop.wrap ? indexed_rows<Op, true>(loop, target, index, other, begin, end, first, last, alpha)
                     : indexed_rows<Op, false>(loop, target, index, other, begin, end, first, last, alpha);
  };
  std::atomic<bool> ok{true};
  if (split == Split::Rows) {
    parallel_for(rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, row)), [&](int64_t begin, int64_t end) {
      if (!run(begin, end, 0, row)) ok.store(false, std::memory_order_relaxed);
    });
  } else if (split == Split::Columns) {
    const int64_t grain = std::max(kColumnRun, kGrainSize / std::max<int64_t>(1, rows));
    parallel_for(row, grain, [&](int64_t first, int64_t last) {
      if (!run(0, rows, first, last)) ok.store(false, std::memory_order_relaxed);
    });
  } else if (!run(0, rows, 0, row)) {
    ok = false;
  }
  if (!ok.load()) fail(*first_bad_index(loop, index));
}

// How a loop that writes into a target of these sizes and strides may split
// (Note [Indexed rows]): two positions write the same element only when they
// differ along a dim where target's stride is zero (the indexed dim, or every
// dim of a flat target), given that the target's elements are distinct. So
// rows run apart when every outer dim moves through target, and runs of
// columns when the row does; each element then sees its writes in the same
// order on any number of threads.
inline Split write_split(const IndexedLoop& loop, IntArrayRef sizes, IntArrayRef strides) {
  if (!non_overlapping(sizes, strides)) return Split::None;
  const DimVector& outer = loop.rows.outer_strides[0];
  if (std::find(outer.begin(), outer.end(), int64_t(0)) == outer.end()) return Split::Rows;
  return loop.rows.inner[0] != 0 ? Split::Columns : Split::None;
}

// How a loop that reads into a fresh `other` may split: any way, since each
// position writes its own element; by rows unless they are fewer than the
// columns.
inline Split read_split(const IndexedLoop& loop) {
  return loop.rows.rows() >= loop.rows.row ? Split::Rows : Split::Columns;
}

}  // namespace detail
}  // namespace wick
