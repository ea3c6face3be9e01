// core/cuda/runtime.cpp: the CUDA runtime behind wick::cuda (device count, memory, copies).
// Built only with WICK_CUDA; core/src/cuda_stub.cpp stands in otherwise.
#include <cuda_runtime.h>

#include "wick/core_ops.h"
#include "wick/error.h"

namespace wick {
namespace cuda_runtime {
namespace {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear the sticky error state of the runtime
  throw Error(detail::str_cat("CUDA error during ", what, ": ", cudaGetErrorString(err)));
}

// cudaGetDeviceCount's answer, asked once: without a driver or a GPU it is an error code.
cudaError_t probe(int* count) {
  static int cached_count = 0;
  static const cudaError_t cached = [] {
    cudaError_t err = cudaGetDeviceCount(&cached_count);
    if (err != cudaSuccess) {
      cudaGetLastError();
      cached_count = 0;
    }
    return err;
  }();
  *count = cached_count;
  return cached;
}

}  // namespace

int device_count() {
  int n = 0;
  probe(&n);
  return n;
}

bool is_available() { return device_count() > 0; }

void check_available() {
  int n = 0;
  const cudaError_t err = probe(&n);
  if (n > 0) return;
  throw Error(detail::str_cat("CUDA is not available: ",
                              err == cudaSuccess ? "no CUDA device was found"
                                                 : detail::str_cat("no usable CUDA driver or device (",
                                                                   cudaGetErrorString(err), ")")));
}

void* allocate(size_t nbytes, int device) {
  check_available();
  WICK_CHECK_VALUE(device >= 0 && device < device_count(), "invalid CUDA device index ", device,
                   " (there are ", device_count(), ")");
  check(cudaSetDevice(device), "cudaSetDevice");
  void* ptr = nullptr;
  if (cudaMalloc(&ptr, nbytes) != cudaSuccess) {
    cudaGetLastError();
    throw OutOfMemoryError(detail::str_cat("CUDA out of memory: failed to allocate ", nbytes, " bytes on cuda:",
                                           device));
  }
  return ptr;
}

void release(void* ptr) { cudaFree(ptr); }

void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  if (nbytes == 0) return;
  const cudaMemcpyKind kind = dst_device.is_cuda() ? (src_device.is_cuda() ? cudaMemcpyDeviceToDevice
                                                                           : cudaMemcpyHostToDevice)
                                                   : cudaMemcpyDeviceToHost;
  check(cudaSetDevice(dst_device.is_cuda() ? dst_device.index : src_device.index), "cudaSetDevice");
  check(cudaMemcpy(dst, src, nbytes, kind), "cudaMemcpy");
}

}  // namespace cuda_runtime

namespace detail {

void cuda_set_device(int index) { cuda_runtime::check(cudaSetDevice(index), "cudaSetDevice"); }

void cuda_check_launch(const char* what) { cuda_runtime::check(cudaGetLastError(), what); }

}  // namespace detail
}  // namespace wick
