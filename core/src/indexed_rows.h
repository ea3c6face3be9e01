// core/src/indexed_rows.h: the one row loop of gather, take, scatter, scatter_add and put on CPU.
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

namespace wick {
namespace detail {

// Note [Indexed rows]
// ~~~~~~~~~~~~~~~~~~~
// gather and take read, scatter and put write, scatter_add and put with
// accumulate=True add. Each of them, for every position p of a loop shape in
// row-major order, takes v = index[p], checks it against the size of the
// indexed dim (with `wrap`, v may also be in [-size, 0) and counts from the
// end), and then
//   Read:  other[p] = target[t(p) + v * step]
//   Write: target[t(p) + v * step] = other[p]
//   Add:   target[t(p) + v * step] += other[p]    (in opmath_t)
// where t(p) walks target with a zero stride along the indexed dim (gather and
// scatter, see Note [Scatter and gather geometry]) or zero strides everywhere
// (take and put, on a flat target); a scalar `other` has zero strides too.
// One coalesced row walk (Note [Row walk]) with the index check in the tight
// loop serves them all. The order of writes is row-major, as the op's result
// with repeated indices requires (the last write wins; sums add in order).
enum class IndexedOp { Read, Write, Add };

struct IndexedLoop {
  RowGeometry<3> rows;  // operands: target, index, other
  int64_t step;         // target's stride along the indexed dim
  int64_t size;         // the indexed dim's size
  bool wrap;            // negative indices count from the end
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

// The first index value in row-major order that is out of range, if any: a
// pass over the index alone, for an op that must not write before it knows
// every index is good (and for the error message of one that found a bad
// index in the middle of its work).
inline std::optional<int64_t> first_bad_index(const IndexedLoop& loop, const int64_t* index) {
  const int64_t low = loop.wrap ? -loop.size : 0, span = loop.wrap ? 2 * loop.size : loop.size;
  const int64_t n = loop.rows.row, stride = loop.rows.inner[1];
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

// Positions per block of a row: its indices are checked as a block (in L1
// by the time the loop reads them again), so the loop itself has no branch
// and a read (gather) vectorises.
constexpr int64_t kIndexBlock = 512;

// One row of Note [Indexed rows]: n positions, with the operands' strides
// along the row (ts, is, os); false, having stopped short, at a block with an
// index out of range. Every argument is a value, so that the loop keeps them
// in registers.
template <IndexedOp Op, bool Wrap, typename Target, typename Other>
inline bool indexed_row(Target* t, int64_t ts, const int64_t* ix, int64_t is, Other* o, int64_t os, int64_t n,
                        int64_t step, int64_t size) {
  using Acc = opmath_t<std::remove_const_t<Target>>;
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
        at = static_cast<Target>(static_cast<Acc>(at) + static_cast<Acc>(o[j * os]));
      }
    }
  }
  return true;
}

// Runs the rows [begin, end) of `loop`; false, having stopped short, at an
// index out of range. Contiguous index and other rows get a loop of their own
// with those strides known.
template <IndexedOp Op, bool Wrap, typename Target, typename Other>
bool indexed_rows(const IndexedLoop& loop, Target* target, const int64_t* index, Other* other, int64_t begin,
                  int64_t end) {
  const int64_t n = loop.rows.row, step = loop.step, size = loop.size;
  const int64_t ts = loop.rows.inner[0], is = loop.rows.inner[1], os = loop.rows.inner[2];
  const bool unit = is == 1 && os == 1;
  bool ok = true;
  loop.rows.walk(begin, end, [&](const std::array<int64_t, 3>& off, const DimVector&) {
    if (WICK_UNLIKELY(!ok)) return;
    Target* t = target + off[0];
    const int64_t* ix = index + off[1];
    Other* o = other + off[2];
    ok = unit ? indexed_row<Op, Wrap>(t, ts, ix, 1, o, 1, n, step, size)
              : indexed_row<Op, Wrap>(t, ts, ix, is, o, os, n, step, size);
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

// Runs the whole of `loop`, then calls fail(v) with the first bad index if
// there was one. Rows run in parallel when `parallel` says that no two of them
// touch the same element of target (each row writes elements of its own).
template <IndexedOp Op, typename Target, typename Other, typename Fail>
void run_indexed(const IndexedLoop& loop, Target* target, const int64_t* index, Other* other, bool parallel,
                 Fail&& fail) {
  const auto run = [&](int64_t begin, int64_t end) {
    return loop.wrap ? indexed_rows<Op, true>(loop, target, index, other, begin, end)
                     : indexed_rows<Op, false>(loop, target, index, other, begin, end);
  };
  const int64_t rows = loop.rows.rows();
  bool ok = true;
  if (parallel) {
    std::atomic<bool> all{true};
    parallel_for(rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, loop.rows.row)),
                 [&](int64_t begin, int64_t end) {
                   if (!run(begin, end)) all.store(false, std::memory_order_relaxed);
                 });
    ok = all.load();
  } else {
    ok = run(0, rows);
  }
  if (!ok) fail(*first_bad_index(loop, index));
}

// Whether the rows of `loop` may be written in parallel into a target of
// these sizes and strides: every outer dim moves through target (a zero
// stride there, the indexed dim, would let rows collide) and the target's
// elements are distinct.
inline bool rows_write_apart(const IndexedLoop& loop, IntArrayRef sizes, IntArrayRef strides) {
  for (int64_t s : loop.rows.outer_strides[0]) {
    if (s == 0) return false;
  }
  return non_overlapping(sizes, strides);
}

}  // namespace detail
}  // namespace wick
