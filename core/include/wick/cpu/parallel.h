// core/include/wick/cpu/parallel.h: splitting CPU work across cores (OpenMP underneath).
//
// Note [Parallel grain]
// ~~~~~~~~~~~~~~~~~~~~~
// Work of at most kGrainSize elements runs on the calling thread without
// entering OpenMP at all, so small tensors pay nothing for parallelism; larger
// work is split into contiguous ranges of at least a grain, which the threads
// claim as they come free (Note [Threads on a busy machine] in
// core/src/parallel.cpp). Which thread computes which range never changes a
// result: pointwise kernels compute each element alone, and reductions fix
// their summation order by the input's shape alone (Note [Deterministic
// reductions] in wick/reduce_engine.h).
// The header holds no OpenMP pragma: only core/src/parallel.cpp is built with it.
#pragma once

#include <cstdint>

namespace wick {
namespace detail {

constexpr int64_t kGrainSize = 32768;  // elements, as PyTorch's at::internal::GRAIN_SIZE

// Runs fn(ctx, begin, end) over disjoint ranges that cover [0, n), in parallel.
// Rethrows on the calling thread the first exception a range threw.
void parallel_ranges(int64_t n, int64_t grain, void (*fn)(void* ctx, int64_t begin, int64_t end), void* ctx);

constexpr int kMaxThreads = 1024;  // set_num_threads refuses more: each is an OS thread

// How many threads parallel_for may use here: get_num_threads(), or 1 inside a region or a SerialScope.
int max_threads();

// Note [OpenMP beside BLAS]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// After a region, libgomp's idle workers spin for milliseconds before they sleep,
// and OpenBLAS runs a pool of threads of its own: a BLAS call made while they spin
// shares the cores with them, and on a machine of few cores takes several times as
// long (as baddbmm did in a loop, when its copy of self into the result ran as a
// region just before its gemm).
// Work done just before a BLAS call runs under a SerialScope: while one lives,
// parallel_for on its thread runs on that thread alone.
class SerialScope {
 public:
  SerialScope();
  ~SerialScope();
  SerialScope(const SerialScope&) = delete;
  SerialScope& operator=(const SerialScope&) = delete;
};

// fn(begin, end) over [0, n) split into ranges of at least `grain` elements.
template <typename Fn>
void parallel_for(int64_t n, int64_t grain, const Fn& fn) {
  if (n <= grain) {
    if (n > 0) fn(int64_t(0), n);
    return;
  }
  parallel_ranges(n, grain, [](void* ctx, int64_t begin, int64_t end) { (*static_cast<const Fn*>(ctx))(begin, end); },
                  const_cast<Fn*>(&fn));
}

}  // namespace detail

// The number of threads wick's CPU kernels and matrix products use: OMP_NUM_THREADS where set, else
// the processors this process may run on. Results do not depend on it (Note [Parallel grain]).
void set_num_threads(int64_t n);
int get_num_threads();

}  // namespace wick
