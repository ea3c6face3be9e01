// core/include/wick/structured.h: the two halves of a hand-written op that has in-place or out= forms.
//
// Note [Structured ops]
// ~~~~~~~~~~~~~~~~~~~~~
// A `cpp:` op declared `structured: true` (with `inplace:` or `out: true`) is
// written as two functions of wick::detail, which the generator declares in the
// op's header:
//   <name>_meta(args...)           checks the arguments and says what the result
//                                  is: an OutputSpec (sizes, dtype, device), one
//                                  per field of a tuple return;
//   <name>_impl(out..., args...)   computes the result into `out`, which has that
//                                  spec, is contiguous, and overlaps no argument
//                                  but `self` itself in the in-place form.
// The generator writes every form from them (generated/core/ops_shard<N>.cpp):
//   <name>(args...)                meta, new_output, impl into it;
//   <name>_out(out, args...)       meta, then an Output that checks out= (dtype and
//                                  device as the spec's; resized, with a warning
//                                  when it held other elements) and impl into it;
//   <name>_(self, args...)         meta, then Output::in_place (the result keeps
//                                  self's shape and casts to its dtype), impl into it.
// With `out_dtype: cast` the out= form follows PyTorch's reductions: a dtype=
// parameter left None takes out's dtype (sum(x, 1, out=int32) sums in int32), and
// an op without one accepts an out of any dtype its result casts to
// (Output::casting), which the result is copied into.
// An Output hands impl its destination itself, or, when impl cannot write there
// (not contiguous, another dtype, overlapping an argument), a new tensor that
// finish() copies in. So a result is computed once, where it belongs, and copied
// only for a destination that impl cannot take.
//
// Any other `cpp:` op writes each form it declares itself, and each form calls the
// same form of what it is made of, as PyTorch's composite ops do: outer_out is
// mul_out, div_ with a rounding mode is floor_divide_ or div_trunc_, masked_fill
// is a clone that masked_fill_ writes. That suits ops whose forms have rules of
// their own (cat's out= may take another dtype, masked_fill_ on an expanded self
// warns and writes) or whose result's size depends on the data (masked_select).
// Either way no form computes a result only to copy it into another.
#pragma once

#include <initializer_list>
#include <optional>

#include "wick/array_ref.h"
#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/small_vector.h"
#include "wick/tensor.h"
#include "wick/tensor_list.h"

namespace wick {
namespace detail {

// What a structured op's result is.
struct OutputSpec {
  DimVector sizes;
  DType dtype;
  Device device;
};

// A new contiguous tensor of that spec, for the functional form.
Tensor new_output(const OutputSpec& spec);

// Where the impl of a structured op writes its result; see Note [Structured ops].
class Output {
 public:
  using Inputs = std::initializer_list<const Tensor*>;
  using Lists = std::initializer_list<TensorListRef>;

  // out= of `op`: checked against `spec` and resized to it; `inputs` and `lists` are the
  // op's tensor arguments (undefined ones are skipped), which impl must not write over.
  Output(const char* op, const Tensor& out, const OutputSpec& spec, Inputs inputs, Lists lists = {});
  // The same for an out= that may have any dtype the spec's casts to.
  static Output casting(const char* op, const Tensor& out, const OutputSpec& spec, Inputs inputs, Lists lists = {});
  // self of an in-place op: the result must have self's shape and cast to its dtype;
  // `inputs` and `lists` are the op's other tensor arguments.
  static Output in_place(const Tensor& self, const OutputSpec& spec, Inputs inputs, Lists lists = {});

  Output(Output&&) = default;
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  // The tensor impl writes into.
  const Tensor& tensor() const { return proxy_.defined() ? proxy_ : dest_; }
  // Copies the result into the destination when impl wrote elsewhere; returns the destination.
  const Tensor& finish() const;

 private:
  Output(const Tensor& dest, const OutputSpec& spec, bool direct);
  const Tensor& dest_;
  Tensor proxy_;
};

// `dtype`, or out's where it is None and out= is given: the dtype the out= form of a
// structured op with `out_dtype: cast` computes in.
inline std::optional<DType> dtype_or_out(std::optional<DType> dtype, const Tensor& out) {
  if (dtype || !out.defined()) return dtype;
  return out.dtype();
}

}  // namespace detail
}  // namespace wick
