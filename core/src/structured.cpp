// core/src/structured.cpp: the outputs of structured ops (Note [Structured ops]).
#include "wick/structured.h"

#include "wick/core_ops.h"
#include "wick/error.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"

namespace wick {
namespace detail {
namespace {

bool overlaps_any(const Tensor& dest, Output::Inputs inputs, Output::Lists lists) {
  for (const Tensor* t : inputs) {
    if (t->defined() && may_overlap(dest, *t)) return true;
  }
  for (const TensorListRef& list : lists) {
    for (const Tensor& t : list) {
      if (t.defined() && may_overlap(dest, t)) return true;
    }
  }
  return false;
}

// Whether impl can write `dest` itself.
bool writable(const Tensor& dest, const OutputSpec& spec, Output::Inputs inputs, Output::Lists lists) {
  return dest.dtype() == spec.dtype && dest.is_contiguous() && !overlaps_any(dest, inputs, lists);
}

void check_given(const Tensor& out) { WICK_CHECK_VALUE(out.defined(), "expected a tensor for out=, got None"); }

}  // namespace

Tensor new_output(const OutputSpec& spec) { return empty(spec.sizes, spec.dtype, spec.device); }

Output::Output(const Tensor& dest, const OutputSpec& spec, bool direct)
    : dest_(dest), proxy_(direct ? Tensor() : new_output(spec)) {}

Output::Output(const char* op, const Tensor& out, const OutputSpec& spec, Inputs inputs, Lists lists)
    : dest_(out) {
  check_given(out);
  prepare_out(op, out, spec.sizes, spec.dtype, spec.device);
  if (!writable(out, spec, inputs, lists)) proxy_ = new_output(spec);
}

Output Output::casting(const char* op, const Tensor& out, const OutputSpec& spec, Inputs inputs, Lists lists) {
  check_given(out);
  WICK_CHECK(can_cast(spec.dtype, out.dtype()), "result type ", dtype_type_name(spec.dtype),
             " can't be cast to the desired output type ", dtype_type_name(out.dtype()));
  prepare_out(op, out, spec.sizes, out.dtype(), spec.device);
  return Output(out, spec, writable(out, spec, inputs, lists));
}

Output Output::in_place(const Tensor& self, const OutputSpec& spec, Inputs inputs, Lists lists) {
  WICK_CHECK(self.sizes() == IntArrayRef(spec.sizes), "output with shape ", shape_str(self.sizes()),
             " doesn't match the result shape ", shape_str(spec.sizes));
  WICK_CHECK(can_cast(spec.dtype, self.dtype()), "result type ", dtype_type_name(spec.dtype),
             " can't be cast to the desired output type ", dtype_type_name(self.dtype()));
  WICK_CHECK(self.device() == spec.device, "expected self on ", spec.device.str(), " but it is on ",
             self.device().str());
  return Output(self, spec, writable(self, spec, inputs, lists));
}

const Tensor& Output::finish() const {
  if (proxy_.defined()) copy_(dest_, proxy_);
  return dest_;
}

}  // namespace detail
}  // namespace wick
