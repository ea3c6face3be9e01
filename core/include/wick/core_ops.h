// core/include/wick/core_ops.h: core operations that no declaration exposes directly,
// used by core itself and by the binding (indexing, conversions).
#pragma once

#include <optional>

#include "wick/array_ref.h"
#include "wick/scalar.h"
#include "wick/tensor.h"

namespace wick {

Tensor make_tensor(Storage storage, DType dtype, DimVector sizes, DimVector strides, int64_t offset);
// A view of self's storage with new geometry; its base() is self's base, or self.
Tensor make_view(const Tensor& self, DimVector sizes, DimVector strides, int64_t offset);
// A view with self's own geometry: later changes to self's geometry (resize_) leave it as it is,
// and its storage stays alive while it does. See Note [Tensors read without the GIL].
Tensor alias(const Tensor& self);
Tensor empty_like(const Tensor& self);
// A view with explicit geometry; Error when it reaches outside the storage.
Tensor as_strided(const Tensor& self, DimVector sizes, DimVector strides, int64_t offset);
// self[start:end:step] along dim, as Python slices clamp them; step must be positive.
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);
// Gives an out= tensor contiguous strides for `sizes`, reallocating its storage when it is too small
// (resize_() is the user's form, which refuses a tensor that requires grad).
void resize_output(const Tensor& out, IntArrayRef sizes);
// A 0-d tensor holding `value`.
Tensor scalar_tensor(const Scalar& value, DType dtype, Device device = kCPU);
// The shape two shapes broadcast to; Error when they do not.
DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b);

namespace cuda_runtime {
int device_count();
bool is_available();
// Throws a RuntimeError that says why CUDA cannot be used, unless it can.
void check_available();
void* allocate(size_t nbytes, int device);
void release(void* ptr);
// Copies between contiguous byte ranges; either side may be on the host.
void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes);
}  // namespace cuda_runtime

namespace detail {

// Makes `out` ready to receive a result of this shape, dtype and device: a new
// tensor when undefined, else checked and resized (with a warning that names
// `op` when it had elements: see Note [Op names in messages] in python_ext/errors.cpp).
Tensor prepare_out(const char* op, const Tensor& out, IntArrayRef sizes, DType dtype, Device device);
// NotImplementedError unless `t` is on the CPU: for ops that have only CPU kernels so far.
void check_cpu(const Tensor& t);
// Whether a tensor of shape `from` broadcasts to exactly `to`.
bool broadcasts_to(IntArrayRef from, IntArrayRef to);
// Whether a and b share any byte of memory.
bool may_overlap(const Tensor& a, const Tensor& b);

}  // namespace detail
}  // namespace wick
