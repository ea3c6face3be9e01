// core/include/wick/kernel.h: the signatures shared by generated kernels and the code that calls them.
//
// Every pointwise kernel is an explicit instantiation of cpu_pointwise_kernel
// (and cpu_pointwise_run, its flat-run entry; wick/cpu/entries.h) or
// cuda_pointwise_kernel for one functor, made in the per-dtype unit of its
// backend in the op's shard (generated/kernels/shard<N>/{cpu,cuda}_<dtype>.*),
// the CPU ones once per CPU level (Note [CPU levels] in wick/cpu/level.h).
// Callers see only these declarations and tables indexed by level and dtype.
#pragma once

#include "wick/cpu/capability.h"
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

// The CPU kernels of one op at one CPU level, by dtype; null where the op does not support it.
struct CpuKernels {
  PointwiseFn kernel[kNumDTypes];
  PointwiseRunFn run[kNumDTypes];
};

struct PointwiseKernels {
  const CpuKernels* cpu[kNumCpuLevels];  // by CpuCapability, in the tables of generated/kernels/shard<N>/
  PointwiseFn cuda[kNumDTypes];          // by dtype; null where the op does not support it
};

// The CPU kernels of the level chosen when the library loaded (Note [CPU levels]).
inline const CpuKernels& cpu_kernels(const PointwiseKernels& kernels) { return *kernels.cpu[detail::cpu_level]; }

template <typename Op> void cuda_pointwise_kernel(TensorIter& iter, const Scalar* scalars);
template <typename Dst> void cuda_copy_kernel(TensorIter& iter);

// Indexed by CPU level, then by the destination dtype (generated/core/copy_kernels.cpp); the
// kernels are instantiated in the per-dtype units of shard 0.
extern const CopyFn* const kCpuCopyKernels[kNumCpuLevels];
extern const CopyFn kCudaCopyKernels[kNumDTypes];

}  // namespace wick
