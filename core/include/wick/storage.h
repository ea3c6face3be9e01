// core/include/wick/storage.h: reference-counted memory shared by every view of it.
//
// Note [Storage]
// ~~~~~~~~~~~~~~
// A tensor's storage is never null, but its data pointer is null when it holds
// no bytes. The storage records its device and frees its memory through the
// deleter given when it was made, so memory borrowed from NumPy or DLPack is
// released by its owner and memory from cudaMalloc by cudaFree.
#pragma once

#include <cstddef>

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

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  Deleter deleter_;
  void* ctx_;
};

using Storage = intrusive_ptr<StorageImpl>;

// New uninitialised memory on `device`; OutOfMemoryError if it cannot be had.
Storage allocate_storage(size_t nbytes, Device device);

}  // namespace wick
