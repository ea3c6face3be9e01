// core/src/division.cpp: div and div_, which run the pointwise kernel their rounding_mode names.
//
// Each mode is an op declared by its expression (declarations/pointwise.yaml):
// None is true_divide, 'trunc' is div_trunc (C++ only), 'floor' is
// floor_divide, so div(rounding_mode='floor') is floor_divide exactly.
#include <optional>
#include <string_view>

#include "wick/ops/div.h"
#include "wick/ops/div_trunc.h"
#include "wick/ops/floor_divide.h"
#include "wick/ops/true_divide.h"

namespace wick {
namespace {

enum class Rounding { None, Trunc, Floor };

Rounding rounding(std::optional<std::string_view> mode) {
  if (!mode) return Rounding::None;
  if (*mode == "trunc") return Rounding::Trunc;
  if (*mode == "floor") return Rounding::Floor;
  detail::fail<ValueError>("expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode,
                           "'");
}

// Each form of div is the same form of the op its rounding mode names.
template <typename Other>
Tensor div_functional(const Tensor& self, const Other& other, std::optional<std::string_view> mode) {
  switch (rounding(mode)) {
    case Rounding::Trunc: return div_trunc(self, other);
    case Rounding::Floor: return floor_divide(self, other);
    case Rounding::None: break;
  }
  return true_divide(self, other);
}

template <typename Other>
const Tensor& div_into(const Tensor& out, const Tensor& self, const Other& other,
                       std::optional<std::string_view> mode) {
  switch (rounding(mode)) {
    case Rounding::Trunc: return div_trunc_out(out, self, other);
    case Rounding::Floor: return floor_divide_out(out, self, other);
    case Rounding::None: break;
  }
  return true_divide_out(out, self, other);
}

template <typename Other>
const Tensor& div_inplace(const Tensor& self, const Other& other, std::optional<std::string_view> mode) {
  switch (rounding(mode)) {
    case Rounding::Trunc: return div_trunc_(self, other);
    case Rounding::Floor: return floor_divide_(self, other);
    case Rounding::None: break;
  }
  return true_divide_(self, other);
}

}  // namespace

Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  return div_functional(self, other, rounding_mode);
}

Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return div_functional(self, other, rounding_mode);
}

const Tensor& div_out(const Tensor& out, const Tensor& self, const Tensor& other,
                      std::optional<std::string_view> rounding_mode) {
  return div_into(out, self, other, rounding_mode);
}

const Tensor& div_out(const Tensor& out, const Tensor& self, const Scalar& other,
                      std::optional<std::string_view> rounding_mode) {
  return div_into(out, self, other, rounding_mode);
}

const Tensor& div_(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  return div_inplace(self, other, rounding_mode);
}

const Tensor& div_(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return div_inplace(self, other, rounding_mode);
}

}  // namespace wick
