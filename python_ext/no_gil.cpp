// python_ext/no_gil.cpp: aliases made, and geometry copied back, around a call without the GIL.
// See Note [Tensors read without the GIL].
#include "no_gil.h"

#include "wick/core_ops.h"

namespace wick {
namespace python {

Tensor NoGil::aliased(const Tensor& t) {
  if (!t.defined()) return t;
  for (const Aliased& a : aliases_) {
    if (a.tensor.is_same(t)) return a.stand_in;
  }
  Tensor stand_in = alias(t);
  return aliases_.emplace_back(Aliased{t, stand_in, stand_in.storage(), stand_in.sizes().vec(),
                                       stand_in.strides().vec(), stand_in.storage_offset()})
      .stand_in;
}

void NoGil::pin(TensorList& list) {
  list.replace([this](const Tensor& t) { return aliased(t); });
}

void NoGil::pin(std::vector<std::optional<Tensor>>& list) {
  for (std::optional<Tensor>& t : list) {
    if (t) t = aliased(*t);
  }
}

Tensor NoGil::restore(Tensor t) const {
  for (const Aliased& a : aliases_) {
    if (t.is_same(a.stand_in)) return a.tensor;
  }
  return t;
}

void NoGil::take_back() {
  PyEval_RestoreThread(state_);
  for (const Aliased& a : aliases_) {
    const Tensor& s = a.stand_in;
    if (s.storage() != a.storage || s.storage_offset() != a.offset || s.sizes() != IntArrayRef(a.sizes) ||
        s.strides() != IntArrayRef(a.strides)) {
      a.tensor.impl()->set_geometry(s.storage(), s.sizes().vec(), s.strides().vec(), s.storage_offset());
    }
  }
}

}  // namespace python
}  // namespace wick
