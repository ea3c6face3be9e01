// core/include/wick/array_ref.h: a non-owning view of a contiguous run of values.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "wick/small_vector.h"

namespace wick {

// Sizes and strides: six dims inline, more on the heap.
using DimVector = SmallVector<int64_t, 6>;

template <typename T>
class ArrayRef {
 public:
  ArrayRef() = default;
  ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  ArrayRef(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}
  template <size_t N>
  ArrayRef(const SmallVector<T, N>& v) : data_(v.data()), size_(v.size()) {}
  // Only for arguments: the list lives until the end of the full expression.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  ArrayRef(std::initializer_list<T> il) : data_(il.begin()), size_(il.size()) {}
#pragma GCC diagnostic pop
  ArrayRef(const T& one) : data_(&one), size_(1) {}
  template <size_t N>
  ArrayRef(const T (&array)[N]) : data_(array), size_(N) {}

  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T& back() const { return data_[size_ - 1]; }
  SmallVector<T, 6> vec() const { return SmallVector<T, 6>(begin(), end()); }

  friend bool operator==(ArrayRef a, ArrayRef b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(ArrayRef a, ArrayRef b) { return !(a == b); }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

using IntArrayRef = ArrayRef<int64_t>;

// Note [Optional lists]
// An int[]? argument (dim=None of sum, amax, var...) is an OptionalArrayRef, not a
// std::optional<ArrayRef>. A braced list passed to the latter, sum(x, {0, 1}), builds
// a temporary ArrayRef inside optional's constructor, and the list it views may die
// with that constructor, before the callee reads it. Here the list binds to this
// class's own constructor, at the call, so it lives until the end of the full
// expression, as an ArrayRef argument's does.
template <typename T>
class OptionalArrayRef {
 public:
  OptionalArrayRef() = default;
  OptionalArrayRef(std::nullopt_t) {}
  OptionalArrayRef(ArrayRef<T> list) : list_(list), present_(true) {}
  OptionalArrayRef(const std::vector<T>& v) : OptionalArrayRef(ArrayRef<T>(v)) {}
  template <size_t N>
  OptionalArrayRef(const SmallVector<T, N>& v) : OptionalArrayRef(ArrayRef<T>(v)) {}
  OptionalArrayRef(const std::initializer_list<T>& il) : OptionalArrayRef(ArrayRef<T>(il.begin(), il.size())) {}
  template <typename List>
  OptionalArrayRef(const std::optional<List>& list) : present_(list.has_value()) {
    if (list) list_ = ArrayRef<T>(*list);
  }

  bool has_value() const { return present_; }
  explicit operator bool() const { return present_; }
  ArrayRef<T> operator*() const { return list_; }
  ArrayRef<T> value_or(ArrayRef<T> otherwise) const { return present_ ? list_ : otherwise; }

 private:
  ArrayRef<T> list_;
  bool present_ = false;
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

}  // namespace wick
