// core/include/wick/array_ref.h: a non-owning view of a contiguous run of values.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
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

}  // namespace wick
