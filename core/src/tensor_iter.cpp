// core/src/tensor_iter.cpp: laying operands out for the kernels. See Note [TensorIter layout].
#include "wick/tensor_iter.h"

#include <algorithm>

namespace wick {

TensorIter::TensorIter(ArrayRef<Tensor> tensors) : noperands_(int(tensors.size())) {
  WICK_INTERNAL_ASSERT(noperands_ >= 1 && noperands_ <= kMaxOperands, "bad operand count ", noperands_);
  const Tensor& out = tensors[0];
  device_ = out.device();
  const size_t ndim = size_t(out.dim());
  for (int k = 0; k < noperands_; ++k) {
    data_[size_t(k)] = tensors[size_t(k)].data_ptr();
    dtypes_[size_t(k)] = tensors[size_t(k)].dtype();
    itemsizes_[size_t(k)] = tensors[size_t(k)].itemsize();
    WICK_INTERNAL_ASSERT(tensors[size_t(k)].dim() <= out.dim(), "operand ", k, " has more dims than the output");
  }
  numel_ = out.numel();
  if (numel_ == 0) {  // nothing to walk: the sizes of a tensor without elements may pass int64 together
    ndim_ = 1;
    shape_[0] = 0;
    for (int k = 0; k < noperands_; ++k) strides_[size_t(k)] = 0;
    return;
  }
  // The output's dims innermost first: in the order of its strides, so that an output laid out
  // otherwise than row-major (a transpose) is walked as it lies in memory; ties keep the
  // row-major order.
  DimVector order(ndim);
  for (size_t i = 0; i < ndim; ++i) order[i] = int64_t(ndim - 1 - i);
  const IntArrayRef out_strides = out.strides();
  const auto inner_first = [&](int64_t a, int64_t b) { return out_strides[size_t(a)] < out_strides[size_t(b)]; };
  if (!std::is_sorted(order.begin(), order.end(), inner_first)) std::stable_sort(order.begin(), order.end(), inner_first);
  // Walk them in that order. Each dim of size > 1 either merges into the
  // previous kept dim, when every operand steps through both as through one,
  // or becomes a new one; broadcast dims get stride 0.
  int64_t step[kMaxOperands];
  for (size_t i = 0; i < ndim; ++i) {
    const size_t dim = size_t(order[i]);
    const int64_t size = out.sizes()[dim];
    if (size == 1) continue;
    for (int k = 0; k < noperands_; ++k) {
      const Tensor& t = tensors[size_t(k)];
      const size_t lead = ndim - size_t(t.dim());  // t's dims align with the output's last ones
      step[k] = 0;
      if (dim >= lead) {
        const int64_t tsize = t.sizes()[dim - lead];
        WICK_INTERNAL_ASSERT(tsize == size || tsize == 1, "operand ", k, " does not broadcast");
        if (tsize != 1) step[k] = t.strides()[dim - lead] * t.itemsize();
      }
    }
    if (ndim_ > 0) {
      const int64_t* last = strides(ndim_ - 1);
      bool mergeable = true;
      for (int k = 0; k < noperands_; ++k) mergeable = mergeable && step[k] == last[k] * shape_[size_t(ndim_ - 1)];
      if (mergeable) {
        shape_[size_t(ndim_ - 1)] *= size;
        continue;
      }
    }
    WICK_CHECK_KIND(NotImplementedError, ndim_ < kMaxDims, "elementwise operations on tensors whose layout "
                    "cannot be reduced to at most ", kMaxDims, " dims are not supported");
    shape_[size_t(ndim_)] = size;
    for (int k = 0; k < noperands_; ++k) strides_[size_t(ndim_ * noperands_ + k)] = step[k];
    ++ndim_;
  }
  if (ndim_ == 0) {  // one element
    ndim_ = 1;
    shape_[0] = numel_;
    for (int k = 0; k < noperands_; ++k) strides_[size_t(k)] = 0;
  }
}

}  // namespace wick
