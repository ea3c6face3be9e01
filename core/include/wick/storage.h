// core/include/wick/storage.h: reference-counted memory shared by every view of it.
//
// Note [Storage]
// ~~~~~~~~~~~~~~
// A tensor's storage is never null, but its data pointer is null when it holds
// no bytes. The storage records its device and frees its memory through the
// deleter given when it was made, so memory borrowed from NumPy or DLPack is
// released by its owner and memory from cudaMalloc by cudaFree.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "wick/device.h"
#include "wick/intrusive_ptr.h"

namespace wick {

class StorageImpl : public RefCounted {
 public:
  using Deleter = void (*)(void* data, void* ctx);

  StorageImpl(void* data, size_t nbytes, Device device, Deleter deleter, void* ctx)
      : data_(data), nbytes_(nbytes), device_(device), deleter_(deleter), ctx_(ctx) {}
  ~StorageImpl() override;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }

  // Note [Version counter]
  // ~~~~~~~~~~~~~~~~~~~~~~
  // Every op that writes into a tensor bumps the version of its storage, which the
  // tensor, its views and its detached aliases share. Autograd records the version of
  // each tensor it saves and refuses to go back through one whose version moved on
  // (wick/autograd/saved_variable.h). Writes to one storage from two threads at once
  // are a data race on the elements anyway; the counter only has to be free of
  // undefined behaviour, so it is a relaxed load and store rather than an atomic add.
  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  Deleter deleter_;
  void* ctx_;
  std::atomic<uint32_t> version_{0};
};

using Storage = intrusive_ptr<StorageImpl>;

// New uninitialised memory on `device`; OutOfMemoryError if it cannot be had.
Storage allocate_storage(size_t nbytes, Device device);

}  // namespace wick
