// core/include/wick/reduce_engine.h: the reduction engine behind core/src/reduce.cpp and scan.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "wick/array_ref.h"
#include "wick/cpu/parallel.h"
#include "wick/dtype.h"
#include "wick/tensor.h"

namespace wick {
namespace detail {

// Note [Reduction plans]
// ~~~~~~~~~~~~~~~~~~~~~~
// A reduction over `dims` sees `self` as `groups` groups of `group_size`
// elements each: the kept dims number the groups and the reduced dims number
// the elements of a group, both in row-major order. So group g is element g
// of a contiguous result, and inside a group the position of an element is
// its flat index over the reduced dims (over every dim when `dims` is empty),
// which is what argmax returns. An empty `dims` reduces every dim, as
// PyTorch's sum(dim=[]) does; a 0-d tensor is one group of one element.
struct Reduction {
  DimVector kept_sizes, kept_strides;        // dims that stay, in order
  DimVector reduced_sizes, reduced_strides;  // dims that are reduced
  DimVector out_shape;                       // with or without the size-1 dims, as keepdim says
  int64_t groups = 1, group_size = 1;
};

// Splits self's dims; IndexError for a dim out of range, RuntimeError for a
// repeated one, NotImplementedError off the CPU.
Reduction plan(const Tensor& self, IntArrayRef dims, bool keepdim);

// Steps a row-major counter over `sizes`, keeping `offset` (in elements) in step.
inline void advance(DimVector& counter, IntArrayRef sizes, IntArrayRef strides, int64_t& offset) {
  for (size_t d = counter.size(); d-- > 0;) {
    offset += strides[d];
    if (++counter[d] < sizes[d]) return;
    offset -= strides[d] * sizes[d];
    counter[d] = 0;
  }
}

// The row-major coordinates of the flat index `index` over `sizes`.
inline DimVector coordinates(IntArrayRef sizes, int64_t index) {
  DimVector counter(sizes.size(), 0);
  for (size_t d = sizes.size(); d-- > 0;) {
    counter[d] = index % sizes[d];
    index /= sizes[d];
  }
  return counter;
}

// The element offset of `coords` along dims of `strides`.
inline int64_t offset_of(const DimVector& coords, IntArrayRef strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < coords.size(); ++d) offset += coords[d] * strides[d];
  return offset;
}

// Calls fn(g, offsets) for the groups [begin, end) of a plan whose kept dims are `sizes`, where
// offsets[k] is the element offset of group g in an operand whose kept dims have strides[k].
template <size_t N, typename Fn>
void walk_groups(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, int64_t begin, int64_t end, Fn&& fn) {
  DimVector counter = coordinates(sizes, begin);
  std::array<int64_t, N> offsets;
  for (size_t k = 0; k < N; ++k) offsets[k] = offset_of(counter, strides[k]);
  for (int64_t g = begin; g < end; ++g) {
    fn(g, static_cast<const std::array<int64_t, N>&>(offsets));
    for (size_t d = sizes.size(); d-- > 0;) {
      for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
      if (++counter[d] < sizes[d]) break;
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * sizes[d];
      counter[d] = 0;
    }
  }
}

// Note [Deterministic reductions]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A group of more than kReduceChunk elements is folded in chunks of
// kReduceChunk consecutive positions, each from the reducer's start, and the
// chunks' results are combined in a binary tree fixed by their count
// (PairwiseStack). Inside a chunk, a contiguous run may go through the
// reducer's vectorised fold_run, which keeps several accumulators and
// combines them in a fixed order. A reducer that ignores positions takes the
// reduced dims in memory order (coalesce_in_memory_order). So the order of every floating-point
// operation depends on the input's shape and strides and on the vector width
// of the CPU level (Note [CPU levels]) alone, never on the thread count or on
// which thread folds which chunk; and the rounding error of a long sum grows
// with log2(n / kReduceChunk), as in pairwise summation, not with n (a float32
// sum adds first at most 3 float roundings per element: float_block_sum in
// core/src/cpu_reductions.cpp).
constexpr int64_t kReduceChunk = 4096;

// Combines a stream of partial results in a binary tree fixed by their count:
// entries of equal level merge as soon as both exist, as a binary counter carries.
template <typename Acc, typename Reducer>
class PairwiseStack {
 public:
  explicit PairwiseStack(const Reducer& r) : r_(r) {}
  void push(Acc a) {
    int level = 0;
    while (!stack_.empty() && stack_.back().second == level) {
      a = r_.combine(stack_.back().first, a);
      stack_.pop_back();
      ++level;
    }
    stack_.emplace_back(a, level);
  }
  Acc result() const {  // non-empty
    Acc a = stack_.back().first;
    for (size_t i = stack_.size() - 1; i-- > 0;) a = r_.combine(stack_[i].first, a);
    return a;
  }

 private:
  const Reducer& r_;
  std::vector<std::pair<Acc, int>> stack_;
};

// A plan's dims, merged where consecutive dims step as one and without size-1 dims: outermost first.
// Merging keeps row-major order, so positions and group numbers stay those of the plan.
struct Dims {
  DimVector sizes, strides;
};
Dims coalesce(IntArrayRef sizes, IntArrayRef strides);
// The same dims taken in memory order, largest stride first (ties keep their order), then merged: the
// walk of a reducer that ignores positions, which may visit a group's elements in any fixed order
// (x.t().sum() reads memory straight through).
Dims coalesce_in_memory_order(IntArrayRef sizes, IntArrayRef strides);

// A Reducer over elements of type T, for reduce_groups:
//   using Acc = ...;
//   Acc start(int64_t group) const;                       // a group's initial value
//   Acc fold(Acc a, T x, int64_t position) const;         // Note [Reduction plans] for the position
//   Acc combine(Acc earlier, Acc later) const;            // results of consecutive positions
//   auto finish(Acc a) const;                             // a group's result
// and, where it can do better than fold on contiguous elements (vectors), without positions:
//   Acc fold_run(Acc a, const T* x, int64_t n) const;
// or with them, x[0] being at `position`:
//   Acc fold_run_at(Acc a, const T* x, int64_t n, int64_t position) const;
// A reducer whose fold or fold_run_at reads the position declares
//   static constexpr bool kPositional = true;
// the others see a group's elements in memory order, not in the order of Note [Reduction plans].
// And, where it can do better than fold lane by lane on a tile (fold_tile below), without
// positions, returning false where it cannot after all:
//   bool fold_tile_rows(Acc* acc, int64_t lanes, const T* base, const Dims& in, int64_t begin, int64_t end) const;
template <typename R, typename T, typename = void> struct HasFoldRun : std::false_type {};
template <typename R, typename T>
struct HasFoldRun<R, T, std::void_t<decltype(std::declval<const R&>().fold_run(
                            std::declval<typename R::Acc>(), std::declval<const T*>(), int64_t(0)))>>
    : std::true_type {};
template <typename R, typename T, typename = void> struct HasFoldRunAt : std::false_type {};
template <typename R, typename T>
struct HasFoldRunAt<R, T, std::void_t<decltype(std::declval<const R&>().fold_run_at(
                              std::declval<typename R::Acc>(), std::declval<const T*>(), int64_t(0), int64_t(0)))>>
    : std::true_type {};
template <typename R, typename = void> struct IsPositional : std::false_type {};
template <typename R> struct IsPositional<R, std::enable_if_t<R::kPositional>> : std::true_type {};
template <typename R, typename T, typename = void> struct HasFoldTileRows : std::false_type {};
template <typename R, typename T>
struct HasFoldTileRows<R, T, std::void_t<decltype(std::declval<const R&>().fold_tile_rows(
                                 std::declval<typename R::Acc*>(), int64_t(0), std::declval<const T*>(),
                                 std::declval<const Dims&>(), int64_t(0), int64_t(0)))>> : std::true_type {};

// Folds n elements of one run, x[0] at position p, stepping by `step` elements.
template <typename T, typename R>
typename R::Acc fold_one_run(const R& r, typename R::Acc acc, const T* x, int64_t step, int64_t n, int64_t p) {
  if constexpr (HasFoldRunAt<R, T>::value) {
    if (step == 1) return r.fold_run_at(acc, x, n, p);
  } else if constexpr (HasFoldRun<R, T>::value) {
    if (step == 1) return r.fold_run(acc, x, n);
  }
  for (int64_t j = 0; j < n; ++j) acc = r.fold(acc, x[j * step], p + j);
  return acc;
}

// Folds the positions [begin, end) of the group whose first element is `base`.
template <typename T, typename R>
typename R::Acc fold_positions(const R& r, typename R::Acc acc, const T* base, const Dims& in, int64_t begin,
                               int64_t end) {
  const size_t nd = in.sizes.size();
  const int64_t inner = in.sizes[nd - 1], step = in.strides[nd - 1];
  if (nd == 1) return fold_one_run(r, acc, base + begin * step, step, end - begin, begin);  // no counter to keep
  DimVector counter = coordinates(in.sizes, begin);
  int64_t offset = offset_of(counter, in.strides);
  for (int64_t p = begin;;) {
    const int64_t n = std::min(inner - counter[nd - 1], end - p);
    acc = fold_one_run(r, acc, base + offset, step, n, p);
    p += n;
    if (p == end) return acc;
    offset -= counter[nd - 1] * step;  // back to the run's start, then one step along the outer dims
    counter[nd - 1] = 0;
    for (size_t d = nd - 1; d-- > 0;) {
      offset += in.strides[d];
      if (++counter[d] < in.sizes[d]) break;
      offset -= in.strides[d] * in.sizes[d];
      counter[d] = 0;
    }
  }
}

// The number of chunks of a group, and the fold of chunk c. See Note [Deterministic reductions].
inline int64_t chunk_count(int64_t group_size) { return (group_size + kReduceChunk - 1) / kReduceChunk; }

template <typename T, typename R>
typename R::Acc fold_chunk(const R& r, int64_t g, const T* base, const Dims& in, int64_t group_size, int64_t c) {
  return fold_positions(r, r.start(g), base, in, c * kReduceChunk, std::min(group_size, (c + 1) * kReduceChunk));
}

template <typename T, typename R>
typename R::Acc fold_group(const R& r, int64_t g, const T* base, const Dims& in, int64_t group_size) {
  const int64_t chunks = chunk_count(group_size);
  if (chunks == 1) return fold_chunk(r, g, base, in, group_size, 0);
  PairwiseStack<typename R::Acc, R> stack(r);
  for (int64_t c = 0; c < chunks; ++c) stack.push(fold_chunk(r, g, base, in, group_size, c));
  return stack.result();
}

// Groups whose innermost kept dim is contiguous while their own elements are not (a sum over
// dim 0 of a matrix) are folded kTile at a time: lane b holds group g + b, and each step reads
// kTile consecutive elements, a kilobyte of floats, long enough for the hardware prefetcher to
// follow each row it starts. Same folds in the same order as fold_group (each lane is one group's
// fold), only cache-friendly.
constexpr int64_t kTile = 256;

template <typename T, typename R, typename Out>
void fold_tile(const R& r, int64_t g, int64_t lanes, const T* base, const Dims& in, int64_t group_size, Out* out) {
  using Acc = typename R::Acc;
  const int64_t chunks = chunk_count(group_size);
  std::vector<PairwiseStack<Acc, R>> stacks;
  for (int64_t b = 0; b < lanes && chunks > 1; ++b) stacks.emplace_back(r);
  std::array<Acc, kTile> acc;
  for (int64_t c = 0; c < chunks; ++c) {
    for (int64_t b = 0; b < lanes; ++b) acc[size_t(b)] = r.start(g + b);
    const int64_t begin = c * kReduceChunk, end = std::min(group_size, begin + kReduceChunk);
    bool folded = false;
    if constexpr (HasFoldTileRows<R, T>::value) folded = r.fold_tile_rows(acc.data(), lanes, base, in, begin, end);
    if (!folded) {
      DimVector counter = coordinates(in.sizes, begin);
      int64_t offset = offset_of(counter, in.strides);
      for (int64_t p = begin; p < end; ++p) {
        const T* x = base + offset;
        for (int64_t b = 0; b < lanes; ++b) acc[size_t(b)] = r.fold(acc[size_t(b)], x[b], p);
        advance(counter, in.sizes, in.strides, offset);
      }
    }
    if (chunks > 1) {
      for (int64_t b = 0; b < lanes; ++b) stacks[size_t(b)].push(acc[size_t(b)]);
    }
  }
  for (int64_t b = 0; b < lanes; ++b) out[b] = r.finish(chunks > 1 ? stacks[size_t(b)].result() : acc[size_t(b)]);
}

// out[g] = r.finish(fold of group g), for every group of `plan` over `self`, in parallel
// (Note [Parallel grain]) and deterministically (Note [Deterministic reductions]).
template <typename T, typename R, typename Out>
void reduce_groups(const Tensor& self, const Reduction& plan, const R& r, Out* out) {
  const int64_t groups = plan.groups, size = plan.group_size;
  if (groups == 0) return;
  if (size == 0) {
    for (int64_t g = 0; g < groups; ++g) out[g] = r.finish(r.start(g));
    return;
  }
  const T* base = self.data<T>();
  Dims in = IsPositional<R>::value ? coalesce(plan.reduced_sizes, plan.reduced_strides)
                                   : coalesce_in_memory_order(plan.reduced_sizes, plan.reduced_strides);
  if (in.sizes.empty()) in = {{1}, {1}};  // a group of one element
  const Dims kept = coalesce(plan.kept_sizes, plan.kept_strides);
  const std::array<IntArrayRef, 1> kept_strides{kept.strides};
  const bool tiled = !kept.sizes.empty() && kept.strides.back() == 1 && in.strides.back() != 1;
  if (tiled) {
    const int64_t row = kept.sizes.back(), tiles = (row + kTile - 1) / kTile;
    const IntArrayRef outer_sizes(kept.sizes.data(), kept.sizes.size() - 1);
    const std::array<IntArrayRef, 1> outer_strides{IntArrayRef(kept.strides.data(), kept.strides.size() - 1)};
    parallel_for(groups / row * tiles, std::max<int64_t>(1, kGrainSize / (size * kTile)), [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t j = t % tiles * kTile;
        walk_groups(outer_sizes, outer_strides, t / tiles, t / tiles + 1, [&](int64_t rowi, const auto& off) {
          fold_tile(r, rowi * row + j, std::min(kTile, row - j), base + off[0] + j, in, size, out + rowi * row + j);
        });
      }
    });
    return;
  }
  const int64_t chunks = chunk_count(size);
  if (chunks == 1 || groups >= 4 * max_threads()) {  // whole groups per thread
    parallel_for(groups, std::max<int64_t>(1, kGrainSize / size), [&](int64_t g0, int64_t g1) {
      walk_groups(kept.sizes, kept_strides, g0, g1, [&](int64_t g, const auto& off) {
        out[g] = r.finish(fold_group(r, g, base + off[0], in, size));
      });
    });
    return;
  }
  // A few large groups: their chunks in parallel, combined in order.
  using Acc = typename R::Acc;
  // Not a std::vector: a vector<bool> (all, any) packs its elements into shared words, which
  // threads writing neighbouring chunks would race on.
  const std::unique_ptr<Acc[]> partial(new Acc[size_t(chunks)]);
  walk_groups(kept.sizes, kept_strides, 0, groups, [&](int64_t g, const auto& off) {
    parallel_for(chunks, std::max<int64_t>(1, kGrainSize / kReduceChunk), [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) partial[size_t(c)] = fold_chunk(r, g, base + off[0], in, size, c);
    });
    PairwiseStack<Acc, R> stack(r);
    for (int64_t c = 0; c < chunks; ++c) stack.push(partial[size_t(c)]);
    out[g] = r.finish(stack.result());
  });
}

// The result dtype of sum, prod, cumsum and cumprod: `dtype` when given, else
// int64 for integer and bool inputs (so that small integers do not overflow),
// else the input's.
inline DType integer_upcast(DType self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self, /*include_bool=*/true) ? DType::Int64 : self;
}

}  // namespace detail
}  // namespace wick
