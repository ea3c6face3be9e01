// core/src/pointwise.cpp: promotion, broadcasting, output and aliasing rules of every pointwise op.
#include "wick/pointwise.h"

#include <optional>
#include <string>

#include "wick/core_ops.h"
#include "wick/ops.h"

namespace wick {
namespace {

// PyTorch's category rule: a lower-priority operand only changes the result
// when its category (bool < integer < float) is higher. See Note [Wrapped numbers].
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower || is_floating(*higher)) return higher;
  if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
  return higher;
}

DType result_type(ArrayRef<Tensor> inputs) {
  std::optional<DType> dimensioned, zero_dim, wrapped;
  for (const Tensor& t : inputs) {
    std::optional<DType>* slot = t.impl()->is_wrapped_number() ? &wrapped : t.dim() == 0 ? &zero_dim : &dimensioned;
    DType d = t.dtype();
    if (t.impl()->is_wrapped_number() && is_floating(d)) d = kDefaultFloat;
    *slot = *slot ? promote_types(**slot, d) : d;
  }
  return *combine(dimensioned, combine(zero_dim, wrapped));
}

std::string supported_dtypes(const PointwiseFn* table) {
  std::string names;
  for (int i = 0; i < kNumDTypes; ++i) {
    if (table[i]) names += std::string(names.empty() ? "" : ", ") + dtype_name(DType(i));
  }
  return names.empty() ? "none" : names;
}

bool same_geometry(const Tensor& a, const Tensor& b) {
  return a.storage() == b.storage() && a.storage_offset() == b.storage_offset() && a.dtype() == b.dtype() &&
         a.sizes().vec() == b.sizes().vec() && a.strides().vec() == b.strides().vec();
}

}  // namespace

namespace detail {

Tensor& pointwise(const PointwiseOp& op, Tensor& out, OutMode mode, ArrayRef<Tensor> inputs,
                  ArrayRef<Scalar> scalars) {
  for (const Tensor& t : inputs) WICK_CHECK_VALUE(t.defined(), op.name, "(): expected a tensor, got None");
  WICK_CHECK_VALUE(mode == OutMode::Functional || out.defined(), op.name, "(): out= is None");

  // Dtypes.
  const DType common = inputs.empty() ? out.dtype() : result_type(inputs);
  DType compute = common;
  if (op.promotion == Promotion::IntToFloat && !is_floating(compute)) compute = kDefaultFloat;
  const DType result_dtype = op.bool_output ? DType::Bool : compute;

  // Shape and device: CPU 0-d tensors may join operands on any device.
  DimVector shape = inputs.empty() ? out.sizes().vec() : inputs[0].sizes().vec();
  std::optional<Device> device;
  for (const Tensor& t : inputs) {
    shape = broadcast_shapes(op.name, shape, t.sizes());
    if (t.dim() == 0 && t.device().is_cpu()) continue;
    WICK_CHECK(!device || *device == t.device(), op.name, "(): expected all tensors on one device, got ",
               device->str(), " and ", t.device().str());
    device = t.device();
  }
  if (!device) device = mode == OutMode::Functional ? (inputs.empty() ? kCPU : inputs[0].device()) : out.device();

  // A constant is cast to the compute dtype; with integer tensors a float one
  // would silently truncate (alpha=0.5 becoming 0), so it is refused, as in PyTorch.
  for (size_t i = 0; i < scalars.size() && !inputs.empty(); ++i) {
    WICK_CHECK_TYPE(is_floating(compute) || !scalars[i].is_floating_point(), op.name,
                    "(): for integral input tensors, argument ", op.constant_names[i],
                    " must not be a floating point number");
  }

  const PointwiseFn* table = device->is_cuda() ? op.kernels->cuda : op.kernels->cpu;
  const PointwiseFn kernel = table[int(compute)];
  WICK_CHECK_TYPE(kernel, op.name, "(): not supported for dtype ", dtype_name(compute), " on ",
                  device->is_cuda() ? "cuda" : "cpu", " (supported: ", supported_dtypes(table), ")");

  // The output.
  switch (mode) {
    case OutMode::Functional:
      out = empty(shape, result_dtype, *device);
      break;
    case OutMode::InPlace:
      WICK_CHECK(out.sizes().vec() == shape, op.name, "_(): output with shape ", shape_str(out.sizes()),
                 " doesn't match the broadcast shape ", shape_str(shape));
      break;
    case OutMode::Out:
      if (out.sizes().vec() != shape) prepare_out(op.name, out, shape, out.dtype(), out.device());
      break;
  }
  WICK_CHECK(out.device() == *device, op.name, "(): expected the output on ", device->str(), ", got ",
             out.device().str());
  WICK_CHECK(can_cast(result_dtype, out.dtype()), op.name, "(): result type ", dtype_type_name(result_dtype),
             " can't be cast to the desired output type ", dtype_type_name(out.dtype()));
  for (int64_t d = 0; d < out.dim(); ++d) {
    WICK_CHECK(out.strides()[size_t(d)] != 0 || out.sizes()[size_t(d)] <= 1, op.name,
               "(): unsupported operation: more than one element of the written-to tensor refers to a single "
               "memory location. Please clone() the tensor before performing the operation.");
  }
  // Kernels write the result dtype; a different out= dtype receives a converted copy.
  Tensor target = out.dtype() == result_dtype ? out : empty(shape, result_dtype, *device);

  // Inputs in the compute dtype, on the device, and never partially aliasing the target.
  Tensor operands[TensorIter::kMaxOperands];
  operands[0] = target;
  WICK_INTERNAL_ASSERT(inputs.size() < size_t(TensorIter::kMaxOperands), "too many operands");
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor t = inputs[i];
    if (t.dtype() != compute) t = to(t, compute);
    if (t.device() != *device) t = to(t, *device);
    if (!same_geometry(t, target) && may_overlap(t, target)) t = clone(t);
    operands[i + 1] = std::move(t);
  }
  TensorIter iter(ArrayRef<Tensor>(operands, inputs.size() + 1));
  if (iter.numel() > 0) kernel(iter, scalars.data());
  if (!target.is_same(out)) copy_(out, target);
  return out;
}

}  // namespace detail
}  // namespace wick
