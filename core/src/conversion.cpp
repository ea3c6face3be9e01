// core/src/conversion.cpp: copy_ between dtypes and devices, to() and its shorthands (type(), float(), ...),
// cpu(), cuda(), detach(), item().
#include <cstring>

#include "wick/autograd/variable.h"
#include "wick/core_ops.h"
#include "wick/cpu/parallel.h"
#include "wick/dispatch.h"
#include "wick/kernel.h"
#include "wick/ops/clone.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/cpu.h"
#include "wick/ops/cuda.h"
#include "wick/ops/detach.h"
#include "wick/ops/detach_.h"
#include "wick/ops/empty.h"
#include "wick/ops/empty_like_with.h"
#include "wick/ops/is_contiguous.h"
#include "wick/ops/item.h"
#include "wick/ops/to.h"
#include "wick/ops/to_bfloat16.h"
#include "wick/ops/to_bool.h"
#include "wick/ops/to_byte.h"
#include "wick/ops/to_char.h"
#include "wick/ops/to_double.h"
#include "wick/ops/to_float.h"
#include "wick/ops/to_half.h"
#include "wick/ops/to_int.h"
#include "wick/ops/to_long.h"
#include "wick/ops/to_short.h"

namespace wick {
namespace {

void copy_same_device(const Tensor& dst, const Tensor& src) {
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() &&
      dst.numel() == src.numel() && dst.device().is_cpu()) {
    char* to = static_cast<char*>(dst.data_ptr());
    const char* from = static_cast<const char*>(src.data_ptr());
    const int64_t size = dst.itemsize();
    detail::parallel_for(dst.numel(), detail::kGrainSize, [&](int64_t begin, int64_t end) {
      std::memcpy(to + begin * size, from + begin * size, size_t((end - begin) * size));
    });
    return;
  }
  const Tensor operands[] = {dst, src};
  TensorIter iter(operands);
  const CopyFn fn = (dst.device().is_cuda() ? kCudaCopyKernels : kCpuCopyKernels[detail::cpu_level])[int(dst.dtype())];
  WICK_INTERNAL_ASSERT(fn, "no copy kernel for ", dtype_name(dst.dtype()), " on ", dst.device().str());
  fn(iter);
}

// Between host and device the bytes travel contiguous and already in the destination dtype.
void copy_across_devices(const Tensor& dst, const Tensor& src) {
  if (dst.device().is_cuda()) {
    Tensor staged = empty(dst.sizes(), dst.dtype(), kCPU);
    copy_(staged, src);
    Tensor landing = dst.is_contiguous() ? dst : empty(dst.sizes(), dst.dtype(), dst.device());
    cuda_runtime::copy_bytes(landing.data_ptr(), dst.device(), staged.data_ptr(), kCPU, size_t(staged.numel() * staged.itemsize()));
    if (!landing.is_same(dst)) copy_(dst, landing);
  } else {
    Tensor packed = contiguous(src);
    Tensor host = empty(src.sizes(), src.dtype(), kCPU);
    cuda_runtime::copy_bytes(host.data_ptr(), kCPU, packed.data_ptr(), src.device(), size_t(host.numel() * host.itemsize()));
    copy_(dst, host);
  }
}

}  // namespace

const Tensor& copy_(const Tensor& self, const Tensor& src) {
  WICK_CHECK_VALUE(self.defined() && src.defined(), "expected tensors, got None");
  WICK_CHECK(detail::broadcasts_to(src.sizes(), self.sizes()),
             "the source of shape ", shape_str(src.sizes()),
             " cannot be broadcast to the destination shape ", shape_str(self.sizes()));
  for (int64_t d = 0; d < self.dim(); ++d) {
    WICK_CHECK(self.strides()[size_t(d)] != 0 || self.sizes()[size_t(d)] <= 1,
               "unsupported operation: more than one element of the written-to tensor refers to a "
               "single memory location. Please clone() the tensor before performing the operation.");
  }
  if (self.numel() == 0 || self.is_same(src)) return self;
  Tensor source = src;
  if (detail::may_overlap(self, src)) {
    source = empty(src.sizes(), src.dtype(), src.device());
    copy_same_device(source, src);
  }
  if (self.device() == source.device()) {
    copy_same_device(self, source);
  } else {
    copy_across_devices(self, source);
  }
  return self;
}

namespace {

// self in `dtype` on `device`, laid out in memory_format (None keeps self's layout, as preserve_format);
// self itself where nothing changes and no copy is asked for.
Tensor converted(const Tensor& self, Device device, DType dtype, bool copy, std::optional<MemoryFormat> memory_format) {
  if (device.is_cuda()) cuda_runtime::check_available();
  const bool laid_out = !memory_format || *memory_format == MemoryFormat::Preserve ||
                        is_contiguous(self, *memory_format);
  if (self.device() == device && self.dtype() == dtype && !copy && laid_out) return self;
  return copy_(empty_like_with(self, dtype, device, memory_format), self);
}

}  // namespace

Tensor to(const Tensor& self, DType dtype, bool /*non_blocking*/, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return converted(self, self.device(), dtype, copy, memory_format);
}

Tensor to(const Tensor& self, std::optional<Device> device, std::optional<DType> dtype, bool /*non_blocking*/,
          bool copy, std::optional<MemoryFormat> memory_format) {
  return converted(self, device.value_or(self.device()), dtype.value_or(self.dtype()), copy, memory_format);
}

Tensor to(const Tensor& self, const Tensor& other, bool /*non_blocking*/, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return converted(self, other.device(), other.dtype(), copy, memory_format);
}

Tensor cpu(const Tensor& self) { return to(self, kCPU); }

Tensor cuda(const Tensor& self, std::optional<Device> device, bool non_blocking) {
  const Device target = device.value_or(Device{DeviceType::CUDA, 0});
  WICK_CHECK_VALUE(target.is_cuda(), "expected a CUDA device, got ", target.str());
  return to(self, target, std::nullopt, non_blocking);
}

Scalar item(const Tensor& self) {
  WICK_CHECK(self.numel() == 1, "a Tensor with ", self.numel(),
                   " elements cannot be converted to Scalar");
  Tensor host = cpu(self);
  return dispatch(host.dtype(), [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    const T v = *host.data<T>();
    if constexpr (std::is_same_v<T, bool>) return Scalar(v);
    else if constexpr (std::is_integral_v<T>) return Scalar(int64_t(v));
    else return Scalar(double(opmath_t<T>(v)));
  });
}


// Tensor.float() and friends: self.to(dtype), so self itself when it has that dtype already.
Tensor to_float(const Tensor& self) { return to(self, DType::Float32); }
Tensor to_double(const Tensor& self) { return to(self, DType::Float64); }
Tensor to_half(const Tensor& self) { return to(self, DType::Float16); }
Tensor to_bfloat16(const Tensor& self) { return to(self, DType::BFloat16); }
Tensor to_int(const Tensor& self) { return to(self, DType::Int32); }
Tensor to_long(const Tensor& self) { return to(self, DType::Int64); }
Tensor to_short(const Tensor& self) { return to(self, DType::Int16); }
Tensor to_char(const Tensor& self) { return to(self, DType::Int8); }
Tensor to_byte(const Tensor& self) { return to(self, DType::UInt8); }
Tensor to_bool(const Tensor& self) { return to(self, DType::Bool); }

// A new tensor over the same memory with no history, and not a view (no _base), as PyTorch's: it
// shares the version counter (Note [Version counter]), so writing into it is still seen by autograd.
Tensor detach(const Tensor& self) {
  WICK_CHECK_VALUE(self.defined(), "expected a tensor, got None");
  return make_tensor(self.storage(), self.dtype(), self.sizes().vec(), self.strides().vec(), self.storage_offset());
}

const Tensor& detach_(const Tensor& self) {
  autograd::detach_in_place(self);
  return self;
}

}  // namespace wick
