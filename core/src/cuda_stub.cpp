// core/src/cuda_stub.cpp: wick::cuda in a build without CUDA (WICK_CUDA=OFF): no devices.
#include "wick/core_ops.h"
#include "wick/error.h"

namespace wick {
namespace cuda_runtime {

int device_count() { return 0; }
bool is_available() { return false; }

[[noreturn]] static void unavailable() {
  throw Error("CUDA is not available: wick was built without CUDA "
              "(configure with -DWICK_CUDA=ON and the CUDA Toolkit installed)");
}

void check_available() { unavailable(); }

void* allocate(size_t /*nbytes*/, int /*device*/) { unavailable(); }
void release(void* /*ptr*/) {}

void copy_bytes(void* /*dst*/, Device /*dst_device*/, const void* /*src*/, Device /*src_device*/,
                size_t /*nbytes*/) {
  unavailable();
}

}  // namespace cuda_runtime
}  // namespace wick
