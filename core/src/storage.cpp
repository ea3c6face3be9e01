// core/src/storage.cpp: allocation and release of storage on each device.
#include "wick/storage.h"

#include <cstdlib>

#include "wick/core_ops.h"
#include "wick/error.h"

namespace wick {

StorageImpl::~StorageImpl() {
  if (deleter_) deleter_(data_, ctx_);
}

namespace {

constexpr size_t kAlignment = 64;  // a cache line, and enough for any SIMD load
constexpr size_t kSmallBytes = 1024;

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
  const size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  void* data = nbytes <= kSmallBytes ? std::malloc(nbytes)
               : rounded >= nbytes   ? std::aligned_alloc(kAlignment, rounded)
                                     : nullptr;
  if (!data) {
    throw OutOfMemoryError(detail::str_cat("CPU: failed to allocate ", nbytes, " bytes"));
  }
  return Storage::make(data, nbytes, device, &free_cpu, nullptr);
}

}  // namespace wick
