// python_ext/no_gil.cpp: aliases made, and geometry copied back, around a call without the GIL.
// See Note [Tensors read without the GIL].
#include "no_gil.h"

#include "wick/core_ops.h"

namespace wick {
namespace python {
namespace {

bool same_geometry(const Tensor& a, const Tensor& b) {
  return a.storage() == b.storage() && a.storage_offset() == b.storage_offset() && a.sizes() == b.sizes() &&
         a.strides() == b.strides();
}

}  // namespace

Tensor NoGil::aliased(const Tensor& t) {
  if (!t.defined()) return t;
  for (const auto& [tensor, stand_in] : aliases_) {
    if (tensor.is_same(t)) return stand_in;
  }
  return aliases_.emplace_back(t, alias(t)).second;
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
  for (const auto& [tensor, stand_in] : aliases_) {
    if (t.is_same(stand_in)) return tensor;
  }
  return t;
}

void NoGil::take_back() {
  PyEval_RestoreThread(state_);
  for (const auto& [tensor, stand_in] : aliases_) {
    if (!same_geometry(tensor, stand_in)) {
      tensor.impl()->set_geometry(stand_in.storage(), stand_in.sizes().vec(), stand_in.strides().vec(),
                                  stand_in.storage_offset());
    }
  }
}

}  // namespace python
}  // namespace wick
