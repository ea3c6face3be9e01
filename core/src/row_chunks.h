// core/src/row_chunks.h: selections (nonzero, masked_select) that count, then write, by chunks of rows on CPU.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "strided_walk.h"
#include "wick/cast.h"
#include "wick/cpu/parallel.h"

namespace wick {
namespace detail {

// Note [Two-pass selection]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// nonzero and masked_select have one result entry per selected position. They
// count first, per chunk of whole rows (Note [Row walk]) of about a grain,
// then write each chunk's entries from the sum of the counts of the chunks
// before it: the result is sized exactly, and both passes may run chunks on
// any thread with the same result. Their writing loops have no branch on the
// data: a block of kSelectBlock positions of a row stores every candidate at
// the end of a local list, which moves on by the position's truth, and then
// the list goes to the result.
constexpr int64_t kSelectBlock = 1024;

// How many of the n values at p (stride `stride`) are true (nonzero).
template <typename T>
int64_t count_true(const T* p, int64_t stride, int64_t n) {
  int64_t count = 0;
  if (stride == 1) {
    for (int64_t j = 0; j < n; ++j) count += cast<bool>(p[j]);
  } else {
    for (int64_t j = 0; j < n; ++j) count += cast<bool>(p[j * stride]);
  }
  return count;
}

template <size_t N>
class RowChunks {
 public:
  explicit RowChunks(const RowGeometry<N>& rows)
      : rows_(rows), per_chunk_(std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, rows.row))) {}

  int64_t size() const { return (rows_.rows() + per_chunk_ - 1) / per_chunk_; }

  // fn(offsets, coords) for the rows of chunk c (RowGeometry::walk).
  template <typename Fn>
  void walk(int64_t c, Fn&& fn) const {
    rows_.walk(c * per_chunk_, std::min(rows_.rows(), (c + 1) * per_chunk_), fn);
  }

  // How many values of operand k, whose first element is at data, are true in chunk c.
  template <typename T>
  int64_t count_true(int64_t c, size_t k, const T* data) const {
    int64_t count = 0;
    walk(c, [&](const std::array<int64_t, N>& off, const DimVector&) {
      count += detail::count_true(data + off[k], rows_.inner[k], rows_.row);
    });
    return count;
  }

 private:
  RowGeometry<N> rows_;
  int64_t per_chunk_;
};

// count(c) for every chunk, in parallel; then allocate(total); then
// write(c, start) for every chunk, in parallel, where start is the sum of the
// counts of the chunks before c.
template <typename Count, typename Allocate, typename Write>
void count_then_write(int64_t chunks, Count&& count, Allocate&& allocate, Write&& write) {
  std::vector<int64_t> starts(size_t(chunks) + 1, 0);
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) starts[size_t(c) + 1] = count(c);
  });
  std::partial_sum(starts.begin(), starts.end(), starts.begin());
  allocate(starts.back());
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) write(c, starts[size_t(c)]);
  });
}

}  // namespace detail
}  // namespace wick
