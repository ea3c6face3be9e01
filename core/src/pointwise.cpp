// core/src/pointwise.cpp: promotion, broadcasting, output and aliasing rules of every pointwise op.
#include "wick/pointwise.h"

#include <optional>
#include <string>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/clone.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/empty_like_with.h"
#include "wick/ops/to.h"

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

std::string supported_dtypes(const PointwiseFn* table) {
  std::string names;
  for (int i = 0; i < kNumDTypes; ++i) {
    if (table[i]) names += std::string(names.empty() ? "" : ", ") + dtype_name(DType(i));
  }
  return names.empty() ? "none" : names;
}

bool same_geometry(const Tensor& a, const Tensor& b) {
  return a.storage() == b.storage() && a.storage_offset() == b.storage_offset() && a.dtype() == b.dtype() &&
         a.sizes() == b.sizes() && a.strides() == b.strides();
}

// Reading `in` while writing `out` is safe: the same elements, or none in common.
bool safe_alias(const Tensor& in, const Tensor& out) {
  return in.is_same(out) || same_geometry(in, out) || !detail::may_overlap(in, out);
}

// Whether a wrapped number leaves a tensor's dtype as it is (Note [Wrapped
// numbers]): it does unless its kind ranks above the dtype's category.
bool keeps_dtype(const Scalar& s, DType dtype) {
  return is_floating(dtype) || s.is_bool() || (!s.is_floating_point() && dtype != DType::Bool);
}

// The op's own rules, then PyTorch's conversion of each constant to the compute
// dtype (Note [Pointwise checks]), in the order PyTorch applies them.
void check_call(const PointwiseOp& op, ArrayRef<Operand> inputs, ArrayRef<Scalar> constants, DType compute) {
  if (op.check) op.check(inputs, constants, compute);
  for (const Scalar& c : constants) check_convertible(c, compute);
}

// A wrapped number as a 0-d tensor of `dtype`, converted as the fast path converts it:
// as an operand, which wraps, not as a value, which is checked (Note [Wrapped numbers]).
Tensor wrapped_tensor(const Scalar& s, DType dtype) {
  Tensor t = empty({}, dtype, kCPU);
  dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *t.data<T>() = s.template to<T>();
  });
  return t;
}

// Note [Pointwise fast path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// Most calls are on CPU tensors that are contiguous, of one shape and one
// dtype, with Python numbers for the other operands whose kind does not
// outrank that dtype (an int with float32, not a float with int32). Their
// result dtype is then the tensors' own, and nothing needs broadcasting,
// converting or coalescing: the kernel runs over one flat run (its cpu_run
// entry, which needs no TensorIter), a Python number being a value on the
// stack read with stride 0. run_fast() takes those calls
// before any promotion is worked out; everything else, every error of
// promotion, shape or aliasing included, takes the general path, which applies
// the same rules in full. The checks of Note [Pointwise checks] run on both.
bool run_fast(const PointwiseOp& op, const Tensor& given, OutMode mode, ArrayRef<Operand> inputs,
              ArrayRef<Scalar> scalars, Tensor& fresh) {
  const Tensor* first = nullptr;  // sets the dtype and shape of every other tensor
  for (const Operand& in : inputs) {
    if (in.tensor) {
      first = in.tensor;
      break;
    }
  }
  if (!first || !first->defined() || !first->device().is_cpu() || !first->is_contiguous()) return false;
  const DType dtype = first->dtype();
  const PointwiseRunFn kernel = cpu_kernels(*op.kernels).run[int(dtype)];
  if (!kernel || (op.promotion == Promotion::IntToFloat && !is_floating(dtype))) return false;
  // Operand k + 1 is input k: a tensor read in place, or a Python number stored as `dtype`.
  const int n = int(inputs.size()) + 1;
  if (n > TensorIter::kMaxOperands) return false;
  char* data[TensorIter::kMaxOperands];
  int64_t strides[TensorIter::kMaxOperands];
  alignas(8) char values[TensorIter::kMaxOperands][8];
  for (int k = 1; k < n; ++k) {
    const Operand& in = inputs[size_t(k - 1)];
    if (in.tensor) {
      const Tensor& t = *in.tensor;
      if (!t.is_same(*first) && (!t.defined() || !t.device().is_cpu() || !t.is_contiguous() || t.dtype() != dtype ||
                                 t.sizes() != first->sizes())) {
        return false;
      }
      data[k] = t.data_ptr();
      strides[k] = itemsize(dtype);
    } else {
      if (!keeps_dtype(*in.scalar, dtype)) return false;
      dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        *reinterpret_cast<T*>(values[k]) = in.scalar->template to<T>();
      });
      data[k] = values[k];
      strides[k] = 0;
    }
  }
  const DType result_dtype = op.result == ResultDType::Bool ? DType::Bool : dtype;
  const Tensor* out = &given;
  if (mode == OutMode::Functional) {
    fresh = empty(first->sizes(), result_dtype, kCPU);
    out = &fresh;
  } else {
    if (!given.is_same(*first) && (!given.defined() || !given.device().is_cpu() || !given.is_contiguous() ||
                                   given.sizes() != first->sizes())) {
      return false;
    }
    if (given.dtype() != result_dtype) return false;
    for (const Operand& in : inputs) {
      if (in.tensor && !in.tensor->is_same(given) && !safe_alias(*in.tensor, given)) return false;
    }
  }
  check_call(op, inputs, scalars, dtype);
  data[0] = out->data_ptr();
  strides[0] = itemsize(result_dtype);
  kernel(data, strides, out->numel(), scalars.data());
  return true;
}

// Note [Layout of pointwise results]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch's: a new result takes the layout of the first tensor operand of its whole shape
// (x.t().exp() is transposed too, Note [Strides of *_like results]), so that operands and result
// are walked together in memory order (Note [TensorIter layout]); without one, it is row-major.
Tensor new_output(ArrayRef<Operand> inputs, IntArrayRef shape, DType dtype, Device device) {
  for (const Operand& in : inputs) {
    if (!in.tensor || in.tensor->sizes() != shape) continue;
    if (in.tensor->is_contiguous()) break;
    return empty_like_with(*in.tensor, dtype, device, MemoryFormat::Preserve);
  }
  return empty(shape, dtype, device);
}

// The general path, for every call run_fast() declines. `given` is the
// output of the in-place and out= forms; the functional form's goes to `fresh`.
void run_general(const PointwiseOp& op, const Tensor& given, OutMode mode, ArrayRef<Operand> inputs,
                 ArrayRef<Scalar> scalars, Tensor& fresh) {
  for (const Operand& in : inputs) {
    WICK_CHECK_VALUE(!in.tensor || in.tensor->defined(), "expected a tensor, got None");
  }
  WICK_CHECK_VALUE(mode == OutMode::Functional || given.defined(), "out= is None");

  // Dtypes.
  const DType common = inputs.empty() ? given.dtype() : detail::result_type(inputs);
  DType compute = common;
  if (op.promotion == Promotion::IntToFloat && !is_floating(compute)) compute = default_float();
  const DType result_dtype = op.result == ResultDType::Bool ? DType::Bool : compute;
  check_call(op, inputs, scalars, compute);

  // The device: CPU 0-d tensors and Python numbers may join operands on any device.
  std::optional<Device> device;
  for (const Operand& in : inputs) {
    if (!in.tensor) continue;
    const Tensor& t = *in.tensor;
    if (t.dim() == 0 && t.device().is_cpu()) continue;
    WICK_CHECK(!device || *device == t.device(), "expected all tensors on one device, got ",
               device->str(), " and ", t.device().str());
    device = t.device();
  }
  if (!device) device = mode == OutMode::Functional ? kCPU : given.device();

  const PointwiseFn* table = device->is_cuda() ? op.kernels->cuda : cpu_kernels(*op.kernels).kernel;
  const PointwiseFn kernel = table[int(compute)];
  WICK_CHECK_TYPE(kernel, "not supported for dtype ", dtype_name(compute), " on ",
                  device->is_cuda() ? "cuda" : "cpu", " (supported: ", supported_dtypes(table), ")");

  // Broadcast shapes, then the output.
  DimVector shape = inputs.empty() ? given.sizes().vec() : DimVector();
  for (const Operand& in : inputs) {
    if (in.tensor) shape = broadcast_shapes(shape, in.tensor->sizes());
  }
  const Tensor* out = &given;
  switch (mode) {
    case OutMode::Functional:
      fresh = new_output(inputs, shape, result_dtype, *device);
      out = &fresh;
      break;
    case OutMode::InPlace:
      // The inputs (self among them) broadcast together to exactly self's shape.
      WICK_CHECK(detail::broadcasts_to(shape, given.sizes()), "output with shape ",
                 shape_str(given.sizes()), " doesn't match the broadcast shape ", shape_str(shape));
      shape = given.sizes().vec();
      break;
    case OutMode::Out:
      if (given.sizes() != IntArrayRef(shape)) detail::prepare_out(op.name, given, shape, given.dtype(), given.device());
      break;
  }
  WICK_CHECK(out->device() == *device, "expected the output on ", device->str(), ", got ",
             out->device().str());
  WICK_CHECK(can_cast(result_dtype, out->dtype()), "result type ", dtype_type_name(result_dtype),
             " can't be cast to the desired output type ", dtype_type_name(out->dtype()));
  // As PyTorch: an op of one operand that keeps its dtype (neg, abs, floor...) writes only that dtype.
  WICK_CHECK(mode != OutMode::Out || inputs.size() != 1 || op.promotion != Promotion::Common ||
                 op.result == ResultDType::Bool || out->dtype() == result_dtype,
             "Found dtype ", dtype_type_name(out->dtype()), " but expected ", dtype_type_name(result_dtype));
  for (int64_t d = 0; d < out->dim(); ++d) {
    WICK_CHECK(out->strides()[size_t(d)] != 0 || out->sizes()[size_t(d)] <= 1,
               "unsupported operation: more than one element of the written-to tensor refers to a single "
               "memory location. Please clone() the tensor before performing the operation.");
  }
  // Kernels write the result dtype; a different out= dtype receives a converted copy.
  Tensor target = out->dtype() == result_dtype ? *out : empty(shape, result_dtype, *device);

  // Inputs in the compute dtype, on the device, and never partially aliasing the target.
  Tensor operands[TensorIter::kMaxOperands];
  operands[0] = target;
  WICK_INTERNAL_ASSERT(inputs.size() < size_t(TensorIter::kMaxOperands), "too many operands");
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor t = inputs[i].tensor ? *inputs[i].tensor : wrapped_tensor(*inputs[i].scalar, compute);
    if (t.dtype() != compute) t = to(t, compute);
    if (t.device() != *device) t = to(t, *device);
    if (!safe_alias(t, target)) t = clone(t);
    operands[i + 1] = std::move(t);
  }
  TensorIter iter(ArrayRef<Tensor>(operands, inputs.size() + 1));
  if (iter.numel() > 0) kernel(iter, scalars.data());
  if (!target.is_same(*out)) copy_(*out, target);
}

void run(const PointwiseOp& op, const Tensor& given, OutMode mode, ArrayRef<Operand> inputs,
         ArrayRef<Scalar> scalars, Tensor& fresh) {
  if (!run_fast(op, given, mode, inputs, scalars, fresh)) run_general(op, given, mode, inputs, scalars, fresh);
}

}  // namespace

namespace detail {

DType result_type(ArrayRef<Operand> inputs) {
  std::optional<DType> dimensioned, zero_dim, wrapped;
  for (const Operand& in : inputs) {
    DType d = in.scalar ? in.scalar->natural_dtype() : in.tensor->dtype();
    if (in.scalar && is_floating(d)) d = default_float();
    std::optional<DType>* slot = in.scalar ? &wrapped : in.tensor->dim() == 0 ? &zero_dim : &dimensioned;
    *slot = *slot ? promote_types(**slot, d) : d;
  }
  return *combine(dimensioned, combine(zero_dim, wrapped));
}

Tensor pointwise(const PointwiseOp& op, ArrayRef<Operand> inputs, ArrayRef<Scalar> scalars) {
  Tensor fresh;
  run(op, Tensor(), OutMode::Functional, inputs, scalars, fresh);
  return fresh;
}

const Tensor& pointwise_into(const PointwiseOp& op, const Tensor& out, OutMode mode, ArrayRef<Operand> inputs,
                             ArrayRef<Scalar> scalars) {
  WICK_INTERNAL_ASSERT(mode != OutMode::Functional, op.name, ": pointwise_into() needs an output");
  Tensor unused;
  run(op, out, mode, inputs, scalars, unused);
  return out;
}

Tensor wrapped_left_operand(const Scalar& value, const Tensor& other) {
  // A bool stays bool, which promotes as the wrapped bool would and meets the same checks (True - x).
  const Operand operands[] = {other, value};
  return wrapped_tensor(value, value.is_bool() ? DType::Bool : result_type(operands));
}

}  // namespace detail
}  // namespace wick
