// core/src/tensor_iter.cpp: laying operands out for the kernels. See Note [TensorIter layout].
#include "wick/tensor_iter.h"

namespace wick {

TensorIter::TensorIter(ArrayRef<Tensor> tensors) : noperands_(int(tensors.size())) {
  WICK_INTERNAL_ASSERT(noperands_ >= 1 && noperands_ <= kMaxOperands, "bad operand count ", noperands_);
  const Tensor& out = tensors[0];
  device_ = out.device();
  const size_t ndim = size_t(out.dim());
  // Innermost dim first; broadcast dims get stride 0.
  DimVector shape(ndim);
  std::vector<int64_t> strides(ndim * size_t(noperands_));
  for (size_t i = 0; i < ndim; ++i) shape[i] = out.sizes()[ndim - 1 - i];
  for (int k = 0; k < noperands_; ++k) {
    const Tensor& t = tensors[size_t(k)];
    data_[size_t(k)] = t.data_ptr();
    dtypes_[size_t(k)] = t.dtype();
    const size_t tdim = size_t(t.dim());
    WICK_INTERNAL_ASSERT(tdim <= ndim, "operand ", k, " has more dims than the output");
    for (size_t i = 0; i < ndim; ++i) {
      int64_t stride = 0;
      if (i < tdim) {
        const int64_t size = t.sizes()[tdim - 1 - i];
        WICK_INTERNAL_ASSERT(size == shape[i] || size == 1, "operand ", k, " does not broadcast");
        stride = size == 1 ? 0 : t.strides()[tdim - 1 - i] * t.itemsize();
      }
      strides[i * size_t(noperands_) + size_t(k)] = stride;
    }
  }
  numel_ = 1;
  for (int64_t s : shape) numel_ *= s;

  // Coalesce: merge dim i+1 into dim i wherever every operand steps through
  // both as through one dim, and drop dims of size 1.
  shape_.clear();
  strides_.clear();
  for (size_t i = 0; i < ndim; ++i) {
    if (shape[i] == 1) continue;
    const int64_t* s = &strides[i * size_t(noperands_)];
    if (!shape_.empty()) {
      const size_t last = shape_.size() - 1;
      bool mergeable = true;
      for (int k = 0; k < noperands_; ++k) {
        mergeable = mergeable && s[k] == strides_[last * size_t(noperands_) + size_t(k)] * shape_[last];
      }
      if (mergeable) {
        shape_[last] *= shape[i];
        continue;
      }
    }
    shape_.push_back(shape[i]);
    strides_.insert(strides_.end(), s, s + noperands_);
  }
  if (numel_ == 0) {
    shape_.assign(1, 0);
    strides_.assign(size_t(noperands_), 0);
  }
}

}  // namespace wick
