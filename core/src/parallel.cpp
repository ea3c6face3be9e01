// core/src/parallel.cpp: the one place OpenMP is used. See Note [Parallel grain].
#include "wick/cpu/parallel.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>

namespace wick {
namespace detail {

// wick's own thread count, fixed at first use: OMP_NUM_THREADS where set, else every processor
// this process may run on. Not omp_get_max_threads(): another library in the process (PyTorch
// does) may lower that for its own regions.
int max_threads() {
  static const int threads = [] {
    const char* env = std::getenv("OMP_NUM_THREADS");
    const long n = env ? std::strtol(env, nullptr, 10) : 0;
    return n > 0 ? int(n) : omp_get_num_procs();
  }();
  return omp_in_parallel() ? 1 : threads;
}

// Note [Threads on a busy machine]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A parallel region ends when its last thread arrives, and a thread the OS has
// not run yet, because other processes hold every core, holds the region up
// for a time slice: far longer than it could save. So ranges are claimed from
// a counter by whichever thread comes first, the caller included; when no
// other thread came in time to claim one, the cores are taken, and regions run
// on the caller alone for a while (backing off from 50 ms to 1.6 s while that
// lasts) before trying again. Which thread runs which range never changes a
// result (Note [Parallel grain]), so neither does this.
namespace {

constexpr int64_t kMinBackoffNs = 50'000'000, kMaxBackoffNs = 1'600'000'000;
std::atomic<int64_t> serial_until_ns{0};
std::atomic<int64_t> backoff_ns{kMinBackoffNs};

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void parallel_ranges(int64_t n, int64_t grain, void (*fn)(void*, int64_t, int64_t), void* ctx) {
  // Up to kRangesPerThread ranges per thread, so that a thread set aside by the OS
  // midway holds up one small range, not a share of the work.
  constexpr int64_t kRangesPerThread = 8;
  const int threads = max_threads();
  const int64_t ranges = std::min<int64_t>((n + grain - 1) / grain, int64_t(threads) * kRangesPerThread);
  if (threads <= 1 || ranges <= 1 || now_ns() < serial_until_ns.load(std::memory_order_relaxed)) {
    fn(ctx, 0, n);
    return;
  }
  // Ranges start on multiples of 64 elements: no two threads write one cache line of a contiguous output.
  const int64_t size = ((n + ranges - 1) / ranges + 63) / 64 * 64, count = (n + size - 1) / size;
  std::atomic<int64_t> next{0};
  std::atomic<bool> helped{false};
  std::exception_ptr error;
#pragma omp parallel num_threads(int(std::min<int64_t>(threads, count)))
  {
    bool claimed = false;
    for (int64_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      claimed = true;
      try {
        fn(ctx, i * size, std::min(n, (i + 1) * size));
      } catch (...) {  // an exception may not leave a parallel region
#pragma omp critical(wick_parallel_error)
        if (!error) error = std::current_exception();
      }
    }
    if (claimed && omp_get_thread_num() != 0) helped.store(true, std::memory_order_relaxed);
  }
  if (helped.load(std::memory_order_relaxed)) {
    backoff_ns.store(kMinBackoffNs, std::memory_order_relaxed);
  } else {  // See Note [Threads on a busy machine].
    const int64_t backoff = backoff_ns.load(std::memory_order_relaxed);
    serial_until_ns.store(now_ns() + backoff, std::memory_order_relaxed);
    backoff_ns.store(std::min(2 * backoff, kMaxBackoffNs), std::memory_order_relaxed);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace detail
}  // namespace wick
