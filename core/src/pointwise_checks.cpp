// core/src/pointwise_checks.cpp: PyTorch's refusals for pointwise ops that promotion alone would
// take, named by `check:` in their declarations (Note [Pointwise checks]).
#include "wick/pointwise.h"

namespace wick {
namespace {

DType operand_dtype(const Operand& in) { return in.tensor ? in.tensor->dtype() : in.scalar->natural_dtype(); }

// PyTorch's alpha_check: alpha is converted to the compute dtype, where a bool or a
// float would be a silent change of meaning (True as 1, 0.5 as 0).
void check_alpha(const Scalar& alpha, DType compute) {
  WICK_CHECK(!alpha.is_bool() || compute == DType::Bool, "Boolean alpha only supported for Boolean results.");
  WICK_CHECK(is_floating(compute) || !alpha.is_floating_point(),
             "For integral input tensors, argument alpha must not be a floating point number.");
}

// The name PyTorch's TypeMeta prints for a dtype, in lerp's messages.
const char* type_meta_name(DType d) {
  static constexpr const char* kNames[kNumDTypes] = {"bool", "unsigned char", "signed char", "short int",
                                                     "int", "long int", "c10::Half", "c10::BFloat16",
                                                     "float", "double"};
  return kNames[int(d)];
}

}  // namespace

namespace detail {

void add_check(ArrayRef<Operand>, ArrayRef<Scalar> constants, DType compute) { check_alpha(constants[0], compute); }

// A bool operand (a tensor, or True) has no subtraction in PyTorch: masks are inverted with ~.
void sub_check(ArrayRef<Operand> inputs, ArrayRef<Scalar> constants, DType compute) {
  const bool self_bool = operand_dtype(inputs[0]) == DType::Bool;
  const bool other_bool = operand_dtype(inputs[1]) == DType::Bool;
  WICK_CHECK(!(self_bool && other_bool), "Subtraction, the `-` operator, with two bool tensors is not supported. "
                                         "Use the `^` or `logical_xor()` operator instead.");
  WICK_CHECK(!self_bool && !other_bool, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                                        "If you are trying to invert a mask, use the `~` or `logical_not()` "
                                        "operator instead.");
  check_alpha(constants[0], compute);
}

void neg_check(ArrayRef<Operand> inputs, ArrayRef<Scalar>, DType) {
  WICK_CHECK(operand_dtype(inputs[0]) != DType::Bool,
             "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.");
}

// A Python number given for an operand of where (_s_where), clamp_min and clamp_max is
// a value of the compute dtype in PyTorch, not a wrapped number: checked, never wrapped.
void scalar_values_check(ArrayRef<Operand> inputs, ArrayRef<Scalar>, DType compute) {
  for (const Operand& in : inputs) {
    if (in.scalar) check_convertible(*in.scalar, compute);
  }
}

// As NumPy: an integer to a negative integer power is refused when the exponent is a
// number (its tensor form gives 1 / x truncated, as C would). PyTorch converts the
// exponent to an integer or 16-bit float base's dtype, float and double take it as a double.
void pow_check(ArrayRef<Operand> inputs, ArrayRef<Scalar>, DType compute) {
  const Scalar* exponent = inputs[1].scalar;
  if (!exponent) return;
  WICK_CHECK(!(is_integral(operand_dtype(inputs[0]), true) && exponent->is_integral() && exponent->to_int64() < 0),
             "Integers to negative integer powers are not allowed.");
  if (compute != DType::Float32 && compute != DType::Float64) check_convertible(*exponent, compute);
}

// An integer rounded to decimals >= 0 is itself; left of the point (decimals < 0) it would need a power of
// ten that its dtype may not hold, and PyTorch rounds no integers at all.
void round_check(ArrayRef<Operand> inputs, ArrayRef<Scalar> constants, DType) {
  WICK_CHECK(constants[0].to_int64() >= 0 || is_floating(operand_dtype(inputs[0])),
             "decimals must not be negative for an integer tensor, got ", constants[0].to_int64(), " for ",
             dtype_type_name(operand_dtype(inputs[0])));
}

// lerp takes operands of one floating dtype: no promotion between them.
void lerp_check(ArrayRef<Operand> inputs, ArrayRef<Scalar> constants, DType compute) {
  const DType self = operand_dtype(inputs[0]);
  WICK_CHECK_TYPE(is_floating(self), "expected a floating-point dtype, got ", dtype_name(self));
  const char* names[] = {"end", "weight"};
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (!inputs[i].tensor) continue;
    WICK_CHECK(inputs[i].tensor->dtype() == self, "expected dtype ", type_meta_name(self), " for `", names[i - 1],
               "` but got dtype ", type_meta_name(inputs[i].tensor->dtype()));
  }
  scalar_values_check(inputs, constants, compute);
}

void addcdiv_check(ArrayRef<Operand> inputs, ArrayRef<Scalar>, DType) {
  WICK_CHECK(!(is_integral(operand_dtype(inputs[1]), true) && is_integral(operand_dtype(inputs[2]), true)),
             "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
             "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
             "value * wick.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
             "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
             "(input + value * tensor1 / tensor2), for all dtypes.");
}

}  // namespace detail
}  // namespace wick
