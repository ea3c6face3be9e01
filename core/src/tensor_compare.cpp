// core/src/tensor_compare.cpp: whole-tensor comparisons answering one bool: allclose and equal.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "strided_walk.h"
#include "wick/cast.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/all.h"
#include "wick/ops/allclose.h"
#include "wick/ops/cpu.h"
#include "wick/ops/eq.h"
#include "wick/ops/equal.h"
#include "wick/ops/expand.h"
#include "wick/ops/item.h"

namespace wick {
namespace {

void check_same_device(const Tensor& self, const Tensor& other) {
  WICK_CHECK(self.device() == other.device(), "expected all tensors to be on the same device, but found at ",
             "least two devices, ", self.device().str(), " and ", other.device().str());
}

// Whether pred(a, b) holds for every pair of elements of the CPU tensors a and b, of dtype T and the same shape.
template <typename T, typename Pred>
bool all_pairs(const Tensor& a, const Tensor& b, Pred pred) {
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  bool result = true;
  detail::walk_strided<2>(a.sizes(), {a.strides(), b.strides()},
                          [&](const std::array<int64_t, 2>& off, const DimVector&) {
                            result = result && pred(pa[off[0]], pb[off[1]]);
                          });
  return result;
}

// |x - y|, exact for integers as far as a double holds the difference itself.
template <typename T>
double abs_diff(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    const int64_t a = int64_t(x), b = int64_t(y);
    return double(a > b ? uint64_t(a) - uint64_t(b) : uint64_t(b) - uint64_t(a));
  } else {
    return std::fabs(cast<double>(x) - cast<double>(y));
  }
}

}  // namespace

bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  WICK_CHECK_TYPE(self.dtype() == other.dtype(), dtype_type_name(self.dtype()), " did not match ",
                  dtype_type_name(other.dtype()));
  WICK_CHECK_VALUE(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  WICK_CHECK_VALUE(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  check_same_device(self, other);
  const DimVector shape = broadcast_shapes(self.sizes(), other.sizes());
  const Tensor a = cpu(expand(self, shape)), b = cpu(expand(other, shape));
  // As torch.isclose, with the error computed in double (as NumPy computes it) but from
  // the exact difference of integers (as PyTorch computes it in their own type).
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return all_pairs<T>(a, b, [&](T x, T y) {
      if (x == y) return true;
      const double u = cast<double>(x), v = cast<double>(y);
      if (std::isnan(u) || std::isnan(v)) return equal_nan && std::isnan(u) && std::isnan(v);
      const double error = abs_diff(x, y);
      return std::isfinite(error) && error <= atol + rtol * std::fabs(v);
    });
  });
}

bool equal(const Tensor& self, const Tensor& other) {
  check_same_device(self, other);
  if (self.sizes() != other.sizes()) return false;
  if (self.dtype() != other.dtype() || !self.is_contiguous() || !other.is_contiguous() || !self.device().is_cpu()) {
    // Two vectorised, parallel passes, rather than one element at a time.
    return item(all(eq(cpu(self), cpu(other)))).to<bool>();
  }
  // One pass in blocks of one vectorised loop each, so that a difference near the
  // start answers at once, as PyTorch's equal does.
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = self.data<T>();
    const T* b = other.data<T>();
    constexpr int64_t kBlock = 512;
    for (int64_t start = 0, n = self.numel(); start < n; start += kBlock) {
      int differ = 0;  // an int, not a bool, for the compiler to vectorise the reduction
      for (int64_t i = start, end = std::min(n, start + kBlock); i < end; ++i) differ |= int(a[i] != b[i]);
      if (differ) return false;
    }
    return true;
  });
}

}  // namespace wick
