// core/src/storage.cpp: allocation and release of storage on each device.
#include "wick/storage.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
// kernel for transparent huge pages (where they are enabled only on request, the
// default of many Linux systems), as NumPy does: a fresh 64 MiB result then takes 32
// page faults rather than 16384, which otherwise cost more than the kernel writing it.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeBytes = size_t(4) << 20;

// Note [Block cache]
// ~~~~~~~~~~~~~~~~~~
// malloc hands a buffer of 4 MiB or more straight to mmap and its free back to
// munmap, so `z = x + y` in a loop maps, faults in and zeroes a fresh result every
// time, a cost of the order of the add itself. Buffers of 64 KiB and up fare little
// better: above malloc's (moving) mmap threshold they go the same way, and below it
// freeing them at the top of the heap trims it, so a training step that frees and
// makes again its activations and gradients faults their pages in each time, which
// costs more than the arithmetic on them. Freed buffers of kCachedMinBytes or more
// are kept instead, up to kCachedBytes and kCachedBlocks in all, and a request for
// the same rounded size takes one back (most recently freed first). The oldest go
// back to the system when a cap would be passed, and all of them before an
// allocation is reported as failed. Memory from here is uninitialised either way.
constexpr size_t kCachedMinBytes = size_t(64) << 10;
constexpr size_t kPage = 4096;
constexpr size_t kCachedBytes = size_t(256) << 20;
constexpr size_t kCachedBlocks = 512;  // bounds the search of take()

class BlockCache {
 public:
  void* take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      if (it->bytes == bytes) {
        void* data = it->data;
        cached_ -= bytes;
        blocks_.erase(std::next(it).base());
        return data;
      }
    }
    return nullptr;
  }

  void give(void* data, size_t bytes) {
    if (bytes > kCachedBytes) return std::free(data);
    std::lock_guard<std::mutex> lock(mutex_);
    while (cached_ + bytes > kCachedBytes || blocks_.size() >= kCachedBlocks) pop_oldest();
    blocks_.push_back({data, bytes});
    cached_ += bytes;
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    while (!blocks_.empty()) pop_oldest();
  }

 private:
  struct Block {
    void* data;
    size_t bytes;
  };

  void pop_oldest() {
    std::free(blocks_.front().data);
    cached_ -= blocks_.front().bytes;
    blocks_.pop_front();
  }

  std::mutex mutex_;
  std::deque<Block> blocks_;
  size_t cached_ = 0;
};

// Never destroyed: storages may still be freed while the interpreter shuts down.
BlockCache& block_cache() {
  static BlockCache* cache = new BlockCache;
  return *cache;
}

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void free_cpu(void* data, void* /*ctx*/) { std::free(data); }
// A cached buffer's ctx is its rounded size, the key it is cached under.
void free_cached(void* data, void* ctx) { block_cache().give(data, reinterpret_cast<uintptr_t>(ctx)); }
void free_cuda(void* data, void* /*ctx*/) { cuda_runtime::release(data); }

void* allocate_cached(size_t rounded, size_t alignment) {
  if (void* data = block_cache().take(rounded)) return data;
  void* data = std::aligned_alloc(alignment, rounded);
  if (!data) {
    block_cache().clear();
    data = std::aligned_alloc(alignment, rounded);
  }
  if (data && alignment == kHugePage) madvise(data, rounded, MADV_HUGEPAGE);  // advice: failure is harmless
  return data;
}

// The context of a storage in shared memory (Note [Shared memory storage]): the mapping's length and its file.
struct SharedMapping {
  size_t nbytes;
  int fd;
};

void free_shared(void* data, void* ctx) {
  const std::unique_ptr<SharedMapping> mapping(static_cast<SharedMapping*>(ctx));
  if (data) munmap(data, mapping->nbytes);
  close(mapping->fd);
}

// Maps `nbytes` of `fd` shared and writable (null for none), taking `fd`: it is closed when this fails.
std::pair<void*, std::unique_ptr<SharedMapping>> map_shared(int fd, size_t nbytes) {
  auto mapping = std::make_unique<SharedMapping>(SharedMapping{nbytes, fd});
  void* data = nbytes ? mmap(nullptr, nbytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : nullptr;
  if (data == MAP_FAILED) {
    const int err = errno;
    close(fd);
    throw Error(detail::str_cat("could not map ", nbytes, " bytes of shared memory: ", std::strerror(err)));
  }
  return {data, std::move(mapping)};
}

}  // namespace

void StorageImpl::share_memory() {
  if (is_shared()) return;
  const int fd = memfd_create("wick_storage", MFD_CLOEXEC);
  if (fd < 0) throw Error(detail::str_cat("could not create shared memory: ", std::strerror(errno)));
  // Reserved now, so that running out of memory is this error rather than a SIGBUS on first write.
  const int err = nbytes_ ? posix_fallocate(fd, 0, off_t(nbytes_)) : 0;
  if (err != 0) {
    close(fd);
    throw OutOfMemoryError(detail::str_cat("could not allocate ", nbytes_, " bytes of shared memory: ",
                                           std::strerror(err)));
  }
  auto [data, mapping] = map_shared(fd, nbytes_);
  if (nbytes_) std::memcpy(data, data_, nbytes_);
  if (deleter_) deleter_(data_, ctx_);
  data_ = data;
  deleter_ = &free_shared;
  ctx_ = mapping.release();
  shared_fd_ = fd;
}

Storage StorageImpl::from_shared_fd(int fd, size_t nbytes) {
  struct stat st;
  WICK_CHECK(fstat(fd, &st) == 0 && uint64_t(st.st_size) >= nbytes, "the file descriptor ", fd,
             " is not a shared-memory file of at least ", nbytes, " bytes");
  const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) throw Error(detail::str_cat("could not duplicate file descriptor ", fd, ": ", std::strerror(errno)));
  auto [data, mapping] = map_shared(own, nbytes);
  Storage storage = Storage::make(data, nbytes, kCPU, &free_shared, mapping.release());
  storage->shared_fd_ = own;
  return storage;
}

Storage allocate_storage(size_t nbytes, Device device) {
  if (nbytes == 0) return Storage::make(nullptr, 0, device, nullptr, nullptr);
  if (device.is_cuda()) {
    return Storage::make(cuda_runtime::allocate(nbytes, device.index), nbytes, device, &free_cuda, nullptr);
  }
  // Small buffers come from plain malloc (16-byte aligned, several times cheaper
  // than an aligned allocation); larger ones start on a cache line, huge ones on a
  // huge page, and from 64 KiB up they are cached (Note [Block cache]).
  const size_t alignment = nbytes >= kHugeBytes ? kHugePage : kAlignment;
  const size_t rounded = round_up(nbytes, nbytes >= kHugeBytes ? kHugePage : nbytes >= kCachedMinBytes ? kPage
                                                                                                      : kAlignment);
  const bool cached = nbytes >= kCachedMinBytes && rounded >= nbytes;
  void* data = nbytes <= kSmallBytes ? std::malloc(nbytes)
               : cached              ? allocate_cached(rounded, alignment)
               : rounded >= nbytes   ? std::aligned_alloc(alignment, rounded)
                                     : nullptr;
  if (!data) {
    throw OutOfMemoryError(detail::str_cat("CPU: failed to allocate ", nbytes, " bytes"));
  }
  if (cached) return Storage::make(data, nbytes, device, &free_cached, reinterpret_cast<void*>(uintptr_t(rounded)));
  return Storage::make(data, nbytes, device, &free_cpu, nullptr);
}

}  // namespace wick
