// core/include/wick/storage.h: reference-counted memory shared by every view of it.
//
// Note [Storage]
// ~~~~~~~~~~~~~~
// A tensor's storage is never null, but its data pointer is null when it holds
// no bytes. The storage records its device and frees its memory through the
// deleter given when it was made, so memory borrowed from NumPy or DLPack is
// released by its owner and memory from cudaMalloc by cudaFree.
//
// Note [Shared memory storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// share_memory() moves a CPU storage's bytes into an anonymous shared-memory
// file (memfd_create: nothing appears in /dev/shm, and nothing is left behind
// when the process dies) mapped MAP_SHARED, and frees the old bytes. Every
// tensor on the storage sees the move, as a tensor reads its storage's data
// pointer on each use, and a child made by fork() afterwards writes the same
// pages as its parent. Another process maps the same bytes through the file
// descriptor (shared_fd(), inherited or passed over a Unix socket, or opened as
// /proc/<pid>/fd/<fd>) with from_shared_fd(). The storage owns the descriptor
// and closes it with the mapping. The move is not atomic, and it frees the old
// bytes: as in PyTorch, sharing a storage while another thread runs a kernel on
// it (kernels release the GIL) is a data race, which the caller must avoid.
// A CUDA storage counts as shared and is left as it is, as in PyTorch.
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

  // See Note [Shared memory storage].
  bool is_shared() const { return shared_fd_ >= 0 || device_.is_cuda(); }
  // The descriptor of the shared-memory file, -1 for a storage that is not in one.
  int shared_fd() const { return shared_fd_; }
  // Moves the bytes into shared memory, keeping their values; nothing when already shared.
  void share_memory();
  // A storage over the first `nbytes` bytes of the shared-memory file `fd`, which it
  // duplicates (the caller keeps `fd`); Error when the file is shorter or cannot be mapped.
  static intrusive_ptr<StorageImpl> from_shared_fd(int fd, size_t nbytes);

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
  int shared_fd_ = -1;  // owned by the deleter's context when not -1
  std::atomic<uint32_t> version_{0};
};

using Storage = intrusive_ptr<StorageImpl>;

// New uninitialised memory on `device`; OutOfMemoryError if it cannot be had.
Storage allocate_storage(size_t nbytes, Device device);

}  // namespace wick
