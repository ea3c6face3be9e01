// core/include/wick/pointwise.h: the entry point every generated pointwise op calls.
#pragma once

#include <limits>
#include <optional>

#include "wick/kernel.h"
#include "wick/tensor.h"

namespace wick {

// What a pointwise declaration says about dtypes (declarations/*.yaml, `promote:` and `output:`).
enum class Promotion : uint8_t {
  Common,       // compute in the promoted dtype of the operands
  IntToFloat,   // as Common, then integers and bool compute in the default float dtype
};

// The dtype a pointwise op writes.
enum class ResultDType : uint8_t {
  Computed,  // the dtype it computes in
  Bool,      // a predicate (comparisons): computes in the promoted dtype, writes bool
};

struct Operand;

// Note [Pointwise checks]
// ~~~~~~~~~~~~~~~~~~~~~~~
// Promotion takes calls that PyTorch refuses for reasons of its own: bool - bool,
// an integer to a negative integer power, a bool alpha, lerp between two
// dtypes. A declaration names a check for them (`check: sub_check`): a function
// of wick::detail with this signature, which the engine calls once the compute
// dtype is known and before anything is written, on the fast path as on the
// general one. It raises as PyTorch does, or returns. Every constant (alpha,
// value) is checked by the engine itself, as PyTorch converts it to the compute
// dtype (Note [Checked conversion of Python numbers]).
using PointwiseCheck = void(ArrayRef<Operand> inputs, ArrayRef<Scalar> constants, DType compute);

struct PointwiseOp {
  const char* name;  // named in warnings; errors get the binding's name (Note [Op names in messages])
  Promotion promotion;
  ResultDType result;
  const PointwiseKernels* kernels;
  PointwiseCheck* check = nullptr;  // see Note [Pointwise checks]
};

enum class OutMode : uint8_t {
  Functional,  // a new tensor
  InPlace,     // `out` is the first input; its shape and dtype may not change
  Out,         // `out=` given by the caller; resized (with a warning) if its shape differs
};

// Note [Wrapped numbers]
// ~~~~~~~~~~~~~~~~~~~~~~
// A Python number given where an operand goes (x + 2.5) is a "wrapped number":
// int64, float64 or bool by its kind, but ranked in type promotion below 0-d
// tensors, which rank below dimensioned ones. So an int32 tensor plus 2 stays
// int32 and plus 2.5 becomes float32 (the default float dtype), as in PyTorch.
// It never becomes a tensor on the CPU fast path: the kernel reads it from the stack.

// An input of a pointwise op: a tensor, or a wrapped number.
struct Operand {
  Operand(const Tensor& t) : tensor(&t) {}  // NOLINT: implicit by design
  Operand(const Scalar& s) : scalar(&s) {}  // NOLINT
  const Tensor* tensor = nullptr;
  const Scalar* scalar = nullptr;
};

namespace detail {

// Note [Optional constants]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// A pointwise op may take a `float?` constant (logit's eps). Its kernel gets
// NaN for None, and its expression tests isnan() for the None case; a NaN given
// explicitly means the same, as it does in PyTorch's kernels.
inline Scalar nan_if_none(std::optional<double> value) {
  return value.value_or(std::numeric_limits<double>::quiet_NaN());
}

// The dtype PyTorch's promotion gives `inputs` (Note [Wrapped numbers]).
DType result_type(ArrayRef<Operand> inputs);

// Promotes, broadcasts, allocates or checks the output, resolves aliasing
// between output and inputs, and runs the kernel for the compute dtype on the
// operands' device. See Note [TensorIter layout] and Note [Pointwise fast path].
// The functional form: returns a new tensor.
Tensor pointwise(const PointwiseOp& op, ArrayRef<Operand> inputs, ArrayRef<Scalar> scalars);
// The in-place (`out` is the first input) and out= forms: writes `out` and
// returns it, taking no reference to it.
const Tensor& pointwise_into(const PointwiseOp& op, const Tensor& out, OutMode mode, ArrayRef<Operand> inputs,
                             ArrayRef<Scalar> scalars);
// `value` as the left operand of a pointwise op whose right one is `other` (2 - x in C++): a CPU 0-d
// tensor of the dtype that x - 2 computes in, converted as a wrapped number is, so that swapping the
// operands changes nothing about promotion (Note [Wrapped numbers]).
Tensor wrapped_left_operand(const Scalar& value, const Tensor& other);

}  // namespace detail
}  // namespace wick
