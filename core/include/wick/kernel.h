// core/include/wick/kernel.h: the signatures shared by generated kernels and the code that calls them.
//
// Every pointwise kernel is an explicit instantiation of cpu_pointwise_kernel
// (and cpu_pointwise_run, its flat-run entry) or cuda_pointwise_kernel for one
// functor, made in the per-dtype unit of its backend in the op's shard
// (generated/kernels/shard<N>/{cpu,cuda}_<dtype>.*). Callers see only these
// declarations and tables indexed by dtype.
#pragma once

#include "wick/dtype.h"
#include "wick/scalar.h"
#include "wick/tensor_iter.h"

namespace wick {

using PointwiseFn = void (*)(TensorIter& iter, const Scalar* scalars);
// The same over one flat run of n elements, for the pointwise fast path (Note [Pointwise
// fast path] in core/src/pointwise.cpp), which so builds no TensorIter: operand k (0 the
// output) starts at data[k] and steps by strides[k] bytes.
using PointwiseRunFn = void (*)(char* const* data, const int64_t* strides, int64_t n, const Scalar* scalars);
// Copies operand 1 into operand 0, converting from its dtype; indexed by the output dtype.
using CopyFn = void (*)(TensorIter& iter);

// One entry per dtype per backend; null where the op does not support it.
struct PointwiseKernels {
  PointwiseFn cpu[kNumDTypes];
  PointwiseFn cuda[kNumDTypes];
  PointwiseRunFn cpu_run[kNumDTypes];
};

template <typename Op> void cpu_pointwise_kernel(TensorIter& iter, const Scalar* scalars);
template <typename Op> void cpu_pointwise_run(char* const* data, const int64_t* strides, int64_t n,
                                              const Scalar* scalars);
template <typename Op> void cuda_pointwise_kernel(TensorIter& iter, const Scalar* scalars);
template <typename Dst> void cpu_copy_kernel(TensorIter& iter);
template <typename Dst> void cuda_copy_kernel(TensorIter& iter);

// Indexed by the destination dtype (generated/core/copy_kernels.cpp); the kernels are
// instantiated in the per-dtype units of shard 0.
extern const CopyFn kCpuCopyKernels[kNumDTypes];
extern const CopyFn kCudaCopyKernels[kNumDTypes];

}  // namespace wick
