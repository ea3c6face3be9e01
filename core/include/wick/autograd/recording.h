// core/include/wick/autograd/recording.h: what the generated recording functions and nodes use
// (Note [Recording ops] in codegen/dest/autograd.py).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wick/array_ref.h"
#include "wick/autograd/grad_mode.h"
#include "wick/autograd/node.h"
#include "wick/autograd/ops.h"
#include "wick/autograd/saved_variable.h"
#include "wick/autograd/tensor_meta.h"
#include "wick/autograd/variable.h"
#include "wick/tensor_list.h"

namespace wick {
namespace autograd {

inline bool all_undefined(const TensorList& grads) {
  for (const Tensor& g : grads) {
    if (g.defined()) return false;
  }
  return true;
}

// A parameter as a node keeps it, owning what the call only lent.
template <typename T>
T owned(const T& value) {
  return value;
}
inline DimVector owned(IntArrayRef list) { return list.vec(); }
inline std::optional<DimVector> owned(OptionalIntArrayRef list) {
  return list ? std::optional<DimVector>((*list).vec()) : std::nullopt;
}
inline std::string owned(std::string_view s) { return std::string(s); }
inline std::optional<std::string> owned(std::optional<std::string_view> s) {
  return s ? std::optional<std::string>(std::string(*s)) : std::nullopt;
}
inline std::vector<std::optional<Tensor>> owned(ArrayRef<std::optional<Tensor>> list) {
  return std::vector<std::optional<Tensor>>(list.begin(), list.end());
}

// t * s, or t itself when s is 1 (the alpha and beta of addmm, most often).
inline Tensor scaled(const Tensor& t, const Scalar& s) {
  return !s.is_bool() && s.to_double() == 1.0 ? t : ops::mul(t, s);
}

inline std::vector<TensorMeta> metas(TensorListRef tensors) {
  std::vector<TensorMeta> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.emplace_back(t);
  return out;
}

}  // namespace autograd
}  // namespace wick
