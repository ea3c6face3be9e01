// core/include/wick/intrusive_ptr.h: a reference count inside the object, and its smart pointer.
//
// Storage and TensorImpl carry their own count so that a raw pointer (the one
// the Python object slot holds) can be turned back into an owning handle.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace wick {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  virtual ~RefCounted() = default;

  uint32_t use_count() const { return refcount_.load(std::memory_order_acquire); }

 private:
  template <typename T> friend class intrusive_ptr;
  mutable std::atomic<uint32_t> refcount_{0};
};

template <typename T>
class intrusive_ptr {
 public:
  intrusive_ptr() = default;
  // Takes a new reference to `p` (which may already be owned elsewhere).
  explicit intrusive_ptr(T* p) : p_(p) { retain(); }
  intrusive_ptr(const intrusive_ptr& o) : p_(o.p_) { retain(); }
  intrusive_ptr(intrusive_ptr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  ~intrusive_ptr() { release(); }

  intrusive_ptr& operator=(intrusive_ptr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  template <typename... Args>
  static intrusive_ptr make(Args&&... args) {
    return intrusive_ptr(new T(std::forward<Args>(args)...));
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const intrusive_ptr& o) const { return p_ == o.p_; }
  bool operator!=(const intrusive_ptr& o) const { return p_ != o.p_; }

 private:
  void retain() {
    if (p_) p_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (p_ && p_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p_;
    p_ = nullptr;
  }
  T* p_ = nullptr;
};

}  // namespace wick
