// core/src/factory_out.cpp: the out= forms of empty, zeros, ones and full, which give out the size asked for
// (reallocating its storage when too small, as resize_) and then fill it.
#include "wick/core_ops.h"
#include "wick/ops/empty.h"
#include "wick/ops/fill_.h"
#include "wick/ops/full.h"
#include "wick/ops/ones.h"
#include "wick/ops/zero_.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

// out keeps its dtype and device: a dtype or device given too must be out's, as PyTorch checks.
const Tensor& resized_out(const Tensor& out, IntArrayRef size, std::optional<DType> dtype,
                          std::optional<Device> device) {
  WICK_CHECK(!dtype || *dtype == out.dtype(), "dtype ", dtype_type_name(*dtype),
             " does not match dtype of out parameter (", dtype_type_name(out.dtype()), ")");
  WICK_CHECK(!device || *device == out.device(), "device ", device->str(), " does not match device of out parameter (",
             out.device().str(), ")");
  resize_output(out, size);
  return out;
}

}  // namespace

// out resized to `size`, then laid out in memory_format as PyTorch's resize_ lays it out.
const Tensor& empty_out(const Tensor& out, IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device,
                        std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  WICK_CHECK(format != MemoryFormat::Preserve, "preserve memory format is unsupported by the empty operator");
  resized_out(out, size, dtype, device);
  if (format != MemoryFormat::Contiguous && !is_contiguous_as(out.sizes(), out.strides(), format)) {
    out.impl()->set_geometry(out.storage(), out.sizes().vec(), memory_format_strides(out.sizes(), format),
                             out.storage_offset());
  }
  return out;
}

const Tensor& zeros_out(const Tensor& out, IntArrayRef size, std::optional<DType> dtype,
                        std::optional<Device> device) {
  return zero_(resized_out(out, size, dtype, device));
}

const Tensor& ones_out(const Tensor& out, IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  return fill_(resized_out(out, size, dtype, device), 1);
}

const Tensor& full_out(const Tensor& out, IntArrayRef size, const Scalar& fill_value, std::optional<DType> dtype,
                       std::optional<Device> device) {
  return fill_(resized_out(out, size, dtype, device), fill_value);
}

}  // namespace wick
