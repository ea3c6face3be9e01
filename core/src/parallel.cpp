// core/src/parallel.cpp: the one place OpenMP is used. See Note [Parallel grain].
#include "wick/cpu/parallel.h"

#include <omp.h>
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>

#include "wick/error.h"

// OpenBLAS (the BLAS core/CMakeLists.txt requires) sizes its own thread pool.
extern "C" void openblas_set_num_threads(int n);

namespace wick {
namespace detail {
namespace {

// Note [OpenMP and fork]
// ~~~~~~~~~~~~~~~~~~~~~~
// libgomp's threads do not survive fork(), and its pool does not know it: a
// region entered in the child of a process that had run one waits forever
// (Python's multiprocessing forks). So once this process has entered a region,
// its forked children run every range on the calling thread.
std::atomic<bool> forked_after_a_region{false};

void watch_fork() {
  static const int registered = pthread_atfork(nullptr, nullptr, [] { forked_after_a_region = true; });
  (void)registered;
}

thread_local int serial_scopes = 0;  // Note [OpenMP beside BLAS] in wick/cpu/parallel.h

}  // namespace

namespace {

// wick's own thread count: OMP_NUM_THREADS where set, else every processor this process may run on,
// until set_num_threads changes it. Not omp_get_max_threads(): another library in the process
// (PyTorch does) may lower that for its own regions.
std::atomic<int>& configured_threads() {
  static std::atomic<int> threads{[] {
    const char* env = std::getenv("OMP_NUM_THREADS");
    const long n = env ? std::strtol(env, nullptr, 10) : 0;
    return n > 0 && n <= kMaxThreads ? int(n) : omp_get_num_procs();
  }()};
  return threads;
}
}  // namespace

int max_threads() {
  return omp_in_parallel() || serial_scopes > 0 || forked_after_a_region.load(std::memory_order_relaxed)
             ? 1
             : configured_threads().load(std::memory_order_relaxed);
}

SerialScope::SerialScope() { ++serial_scopes; }
SerialScope::~SerialScope() { --serial_scopes; }

// Note [Threads on a busy machine]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A parallel region ends when its last thread arrives, and a thread the OS has
// not run, or has set aside midway because other processes want every core,
// holds the region up for a time slice: far longer than it could save; the OS
// may even put a woken helper on the caller's own core. So ranges are claimed
// from a counter by whichever thread comes first, the caller included, and the
// caller watches what its helpers bought: when none of them came in time to
// claim a range, or the caller ran for less than 3/4 of the region's time
// (it was set aside, or waited for a helper that was), in kStrikes regions in a
// row, the cores are busy elsewhere, and regions run on the caller alone for a
// while (backing off from 50 ms to 1.6 s while that lasts) before trying again.
// One such region alone says little: helpers sleep after a while without work,
// and the first region after a pause, after every back-off included, can end
// before a sleeping helper wakes; judged alone, it kept a training loop on one
// thread for good. Which thread runs which range never changes a result (Note
// [Parallel grain]), so neither does this.
namespace {

constexpr int64_t kMinBackoffNs = 50'000'000, kMaxBackoffNs = 1'600'000'000;
std::atomic<int64_t> serial_until_ns{0};
std::atomic<int64_t> backoff_ns{kMinBackoffNs};
constexpr int kStrikes = 2;
std::atomic<int> strikes{0};  // regions in a row that went unhelped

int64_t clock_ns(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}
int64_t now_ns() { return clock_ns(CLOCK_MONOTONIC); }
int64_t cpu_ns() { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

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
  // A grain under 64 counts items that each cost more than that (planes, matrices): they align on 1.
  const int64_t align = std::min<int64_t>(64, grain);
  const int64_t size = ((n + ranges - 1) / ranges + align - 1) / align * align, count = (n + size - 1) / size;
  std::atomic<int64_t> next{0};
  std::atomic<bool> helped{false};
  const int64_t start = now_ns(), start_cpu = cpu_ns();
  std::exception_ptr error;
  // libgomp stalls for milliseconds on a region larger than the calling thread's nthreads-var
  // (PyTorch lowers it to its own thread count in every process it is loaded in): raise it for
  // the region, and give the caller its own back.
  const int team = int(std::min<int64_t>(threads, count)), callers = omp_get_max_threads();
  watch_fork();
  if (callers != team) omp_set_num_threads(team);
#pragma omp parallel num_threads(team)
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
  if (callers != team) omp_set_num_threads(callers);
  const int64_t end = now_ns();
  if (helped.load(std::memory_order_relaxed) && 4 * (cpu_ns() - start_cpu) >= 3 * (end - start)) {
    backoff_ns.store(kMinBackoffNs, std::memory_order_relaxed);
    strikes.store(0, std::memory_order_relaxed);
  } else if (strikes.fetch_add(1, std::memory_order_relaxed) + 1 >= kStrikes) {  // Note [Threads on a busy machine]
    strikes.store(0, std::memory_order_relaxed);
    const int64_t backoff = backoff_ns.load(std::memory_order_relaxed);
    serial_until_ns.store(end + backoff, std::memory_order_relaxed);
    backoff_ns.store(std::min(2 * backoff, kMaxBackoffNs), std::memory_order_relaxed);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace detail

void set_num_threads(int64_t n) {
  WICK_CHECK(n > 0 && n <= detail::kMaxThreads, "set_num_threads expects a positive integer no larger than ",
             detail::kMaxThreads);
  detail::configured_threads().store(int(n), std::memory_order_relaxed);
  openblas_set_num_threads(int(n));  // matrix products run in OpenBLAS's own threads
}

int get_num_threads() { return detail::configured_threads().load(std::memory_order_relaxed); }

}  // namespace wick
