// tests/cpp/helpers.h: small tensor builders and checks shared by the GoogleTest files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <typeinfo>
#include <vector>

#include "wick/core_ops.h"
#include "wick/ops/arange.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/empty.h"
#include "wick/ops/to.h"
#include "wick/ops/view.h"

namespace wick {
namespace test {

using I = std::vector<int64_t>;

// A tensor of `dtype` holding `values` in row-major order, shaped `shape`.
inline Tensor from(const I& values, const DimVector& shape, DType dtype = DType::Int64) {
  Tensor t = empty(shape, DType::Int64);
  EXPECT_EQ(t.numel(), int64_t(values.size()));
  if (!values.empty()) std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(int64_t));
  return dtype == DType::Int64 ? t : to(t, dtype);
}
inline Tensor from(const I& values) { return from(values, {int64_t(values.size())}); }

// arange(n) as int64, reshaped: element i holds i.
inline Tensor iota(const DimVector& shape) { return view(arange(checked_numel(shape), DType::Int64), shape); }

// The elements as int64 in row-major order.
inline I ints(const Tensor& t) {
  Tensor c = contiguous(to(t, DType::Int64));
  I out(size_t(c.numel()));
  if (!out.empty()) std::memcpy(out.data(), c.data_ptr(), out.size() * sizeof(int64_t));
  return out;
}

// The elements as float64 in row-major order.
inline std::vector<double> reals(const Tensor& t) {
  Tensor c = contiguous(to(t, DType::Float64));
  std::vector<double> out(size_t(c.numel()));
  if (!out.empty()) std::memcpy(out.data(), c.data_ptr(), out.size() * sizeof(double));
  return out;
}

inline DimVector shape(const Tensor& t) { return t.sizes().vec(); }

// Runs f and checks that it throws exactly E (not a subclass or a sibling) with a message containing `part`.
template <typename E, typename F>
void expect_throw(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "expected " << typeid(E).name() << ", nothing was thrown";
  } catch (const Error& e) {
    EXPECT_TRUE(typeid(e) == typeid(E)) << "threw " << typeid(e).name() << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << "message: " << e.what()
                                                                   << "\nexpected to contain: " << part;
  }
}

}  // namespace test
}  // namespace wick
