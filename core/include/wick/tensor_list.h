// core/include/wick/tensor_list.h: TensorListRef, how ops take a list of tensors (`Tensor[]` in a declaration).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <vector>

#include "wick/array_ref.h"
#include "wick/tensor.h"

namespace wick {

// Note [Tensor lists]
// ~~~~~~~~~~~~~~~~~~~
// A `Tensor[]` parameter is a TensorListRef: a non-owning view of tensors that
// either lie side by side (a std::vector<Tensor>, a braced list in C++) or are
// reached through an array of pointers. The second form lets the binding hand
// core the tensors inside the Python objects of a list or tuple as they are,
// without copying a handle (an atomic reference-count increment and decrement)
// per element; the binding keeps those objects alive for the call (see
// TensorList in python_ext/arg_parser.h). Like ArrayRef, the view must not
// outlive what it views: copy the tensors out to keep them.
class TensorListRef {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Tensor;
    using difference_type = std::ptrdiff_t;
    using pointer = const Tensor*;
    using reference = const Tensor&;

    iterator(const TensorListRef* list, size_t i) : list_(list), i_(i) {}
    const Tensor& operator*() const { return (*list_)[i_]; }
    const Tensor* operator->() const { return &(*list_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++i_;
      return before;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const TensorListRef* list_;
    size_t i_;
  };

  TensorListRef() = default;
  TensorListRef(ArrayRef<Tensor> tensors) : tensors_(tensors.data()), size_(tensors.size()) {}  // NOLINT
  TensorListRef(const std::vector<Tensor>& tensors) : tensors_(tensors.data()), size_(tensors.size()) {}  // NOLINT
  // Only for arguments: the list lives until the end of the full expression.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  TensorListRef(std::initializer_list<Tensor> il) : tensors_(il.begin()), size_(il.size()) {}
#pragma GCC diagnostic pop
  TensorListRef(const Tensor* const* pointers, size_t size) : pointers_(pointers), size_(size) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Tensor& operator[](size_t i) const { return pointers_ ? *pointers_[i] : tensors_[i]; }
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(this, size_); }
  // The tensors as handles of their own.
  std::vector<Tensor> vec() const { return std::vector<Tensor>(begin(), end()); }

 private:
  const Tensor* tensors_ = nullptr;
  const Tensor* const* pointers_ = nullptr;
  size_t size_ = 0;
};

}  // namespace wick
