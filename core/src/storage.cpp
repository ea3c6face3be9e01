// core/src/storage.cpp: allocation and release of storage on each device.
#include "wick/storage.h"

#include <cstdlib>

#include <sys/mman.h>

#include "wick/core_ops.h"
#include "wick/error.h"

namespace wick {

StorageImpl::~StorageImpl() {
  if (deleter_) deleter_(data_, ctx_);
}

namespace {

constexpr size_t kAlignment = 64;  // a cache line, and enough for any SIMD load
constexpr size_t kSmallBytes = 1024;
// Note [Huge pages]: a buffer of 4 MiB or more starts on a 2 MiB boundary and asks the
// kernel for transparent huge pages (where they are enabled only on request, as on
// these machines), as NumPy does: a fresh 64 MB result then takes 32 page faults
// rather than 16384, which otherwise cost more than the kernel writing it.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeBytes = size_t(4) << 20;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void free_cpu(void* data, void* /*ctx*/) { std::free(data); }
void free_cuda(void* data, void* /*ctx*/) { cuda_runtime::release(data); }

}  // namespace

Storage allocate_storage(size_t nbytes, Device device) {
  if (nbytes == 0) return Storage::make(nullptr, 0, device, nullptr, nullptr);
  if (device.is_cuda()) {
    return Storage::make(cuda_runtime::allocate(nbytes, device.index), nbytes, device, &free_cuda, nullptr);
  }
  // Small buffers come from plain malloc (16-byte aligned, several times cheaper
  // than an aligned allocation); large ones start on a cache line.
  const size_t alignment = nbytes >= kHugeBytes ? kHugePage : kAlignment;
  const size_t rounded = round_up(nbytes, alignment);
  void* data = nbytes <= kSmallBytes ? std::malloc(nbytes)
               : rounded >= nbytes   ? std::aligned_alloc(alignment, rounded)
                                     : nullptr;
  if (data && alignment == kHugePage) madvise(data, rounded, MADV_HUGEPAGE);  // advice: failure is harmless
  if (!data) {
    throw OutOfMemoryError(detail::str_cat("CPU: failed to allocate ", nbytes, " bytes"));
  }
  return Storage::make(data, nbytes, device, &free_cpu, nullptr);
}

}  // namespace wick
