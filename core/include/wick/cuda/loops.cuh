// core/include/wick/cuda/loops.cuh: the CUDA launcher behind every pointwise kernel.
//
// One thread per output element; each thread turns its linear index into a
// byte offset per operand with the iterator's sizes and strides. Included only
// by the generated per-dtype .cu units.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "wick/cast.h"
#include "wick/dispatch.h"
#include "wick/function_traits.h"
#include "wick/kernel.h"

namespace wick {
namespace detail {

constexpr int kCudaMaxDims = TensorIter::kMaxDims;

template <int N>
struct OffsetCalc {
  int ndim;
  int64_t sizes[kCudaMaxDims];
  int64_t strides[kCudaMaxDims][N];

  __device__ void offsets(int64_t linear, int64_t* out) const {
    for (int k = 0; k < N; ++k) out[k] = 0;
    for (int d = 0; d < ndim; ++d) {
      int64_t i = linear % sizes[d];
      linear /= sizes[d];
      for (int k = 0; k < N; ++k) out[k] += i * strides[d][k];
    }
  }
};

template <int N>
OffsetCalc<N> make_offset_calc(const TensorIter& iter) {
  OffsetCalc<N> c{};
  c.ndim = iter.ndim();
  for (int d = 0; d < iter.ndim(); ++d) {
    c.sizes[d] = iter.shape()[size_t(d)];
    for (int k = 0; k < N; ++k) c.strides[d][k] = iter.strides(d)[k];
  }
  return c;
}

template <int N>
struct Pointers {
  char* p[N];
};

template <typename Op, int N, size_t... I>
__global__ void pointwise_kernel(int64_t numel, OffsetCalc<N> calc, Pointers<N> ptr, Op op,
                                 std::index_sequence<I...>) {
  using traits = function_traits<Op>;
  using Out = typename traits::result_type;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= numel) return;
  int64_t off[N];
  calc.offsets(i, off);
  *reinterpret_cast<Out*>(ptr.p[0] + off[0]) =
      op(*reinterpret_cast<const typename traits::template arg<I>*>(ptr.p[I + 1] + off[I + 1])...);
}

void cuda_set_device(int index);
void cuda_check_launch(const char* what);

template <typename Op>
void launch(const TensorIter& iter, const Op& op) {
  constexpr int kIn = int(function_traits<Op>::arity);
  constexpr int N = kIn + 1;
  if (iter.numel() == 0) return;
  cuda_set_device(iter.device().index);
  Pointers<N> ptr{};
  for (int k = 0; k < N; ++k) ptr.p[k] = iter.data(k);
  constexpr int kThreads = 256;
  const int64_t blocks = (iter.numel() + kThreads - 1) / kThreads;
  pointwise_kernel<<<unsigned(blocks), kThreads>>>(iter.numel(), make_offset_calc<N>(iter), ptr,
                                                   op, std::make_index_sequence<size_t(kIn)>{});
  cuda_check_launch("pointwise kernel");
}

}  // namespace detail

template <typename Op>
void cuda_pointwise_kernel(TensorIter& iter, const Scalar* scalars) {
  detail::launch(iter, Op(scalars));
}

template <typename Dst>
void cuda_copy_kernel(TensorIter& iter) {
  dispatch(iter.dtype(1), [&](auto tag) {
    using Src = typename decltype(tag)::type;
    detail::launch(iter, CastOp<Dst, Src>{});
  });
}

}  // namespace wick
