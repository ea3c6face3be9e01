// core/include/wick/small_vector.h: a vector that keeps its first N elements inline.
//
// Sizes and strides have a handful of elements; keeping them inline spares
// every new tensor two heap allocations. For trivially copyable elements only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <iterator>
#include <type_traits>
#include <utility>

namespace wick {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable elements");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(size_t n, const T& value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  template <typename It, typename = decltype(*std::declval<It>())>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  void resize(size_t n, const T& value = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  void assign(size_t n, const T& value) {
    clear();
    resize(n, value);
  }
  template <typename It, typename = decltype(*std::declval<It>())>
  void assign(It first, It last) {
    clear();
    reserve(size_t(std::distance(first, last)));
    for (; first != last; ++first) data_[size_++] = *first;
  }
  void push_back(const T& value) {
    if (size_ == capacity_) grow(capacity_ * 2);
    data_[size_++] = value;
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { --size_; }
  T* insert(const T* pos, const T& value) {
    const size_t i = size_t(pos - data_);
    const T copy = value;
    push_back(copy);
    std::rotate(data_ + i, data_ + size_ - 1, data_ + size_);
    return data_ + i;
  }
  T* insert(const T* pos, size_t n, const T& value) {
    const size_t i = size_t(pos - data_), old = size_;
    const T copy = value;
    for (size_t k = 0; k < n; ++k) push_back(copy);
    std::rotate(data_ + i, data_ + old, data_ + size_);
    return data_ + i;
  }
  template <typename It, typename = decltype(*std::declval<It>())>
  T* insert(const T* pos, It first, It last) {
    const size_t i = size_t(pos - data_), old = size_;
    for (; first != last; ++first) push_back(*first);
    std::rotate(data_ + i, data_ + old, data_ + size_);
    return data_ + i;
  }
  T* erase(const T* pos) { return erase(pos, pos + 1); }
  T* erase(const T* first, const T* last) {
    T* f = data_ + (first - data_);
    T* l = data_ + (last - data_);
    std::copy(l, end(), f);
    size_ -= size_t(l - f);
    return f;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  bool is_inline() const { return data_ == reinterpret_cast<const T*>(inline_); }
  void grow(size_t n) {
    n = std::max<size_t>(n, N * 2);
    T* bigger = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!bigger) throw std::bad_alloc();
    std::memcpy(bigger, data_, size_ * sizeof(T));
    release();
    data_ = bigger;
    capacity_ = n;
  }
  void release() {
    if (!is_inline()) std::free(data_);
    data_ = reinterpret_cast<T*>(inline_);
    capacity_ = N;
  }
  void take(SmallVector& o) {
    if (o.is_inline()) {
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
      data_ = reinterpret_cast<T*>(inline_);
      capacity_ = N;
    } else {
      data_ = o.data_;
      capacity_ = o.capacity_;
      o.data_ = reinterpret_cast<T*>(o.inline_);
      o.capacity_ = N;
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* data_ = reinterpret_cast<T*>(inline_);
  size_t size_ = 0;
  size_t capacity_ = N;
};

}  // namespace wick
