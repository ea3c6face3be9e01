// core/src/reduce.cpp: the reduction engine (all elements, or over dims with keepdim) and sum, mean, max.
#include <algorithm>
#include <cmath>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops.h"

namespace wick {
namespace {

// Steps a row-major counter over `sizes`, keeping `offset` (in elements) in step.
inline void advance(DimVector& counter, const DimVector& sizes, const DimVector& strides, int64_t& offset) {
  for (size_t d = counter.size(); d-- > 0;) {
    offset += strides[d];
    if (++counter[d] < sizes[d]) return;
    offset -= strides[d] * sizes[d];
    counter[d] = 0;
  }
}

struct Reduction {
  DimVector kept_sizes, kept_strides;        // dims that stay, in order
  DimVector reduced_sizes, reduced_strides;  // dims that are reduced
  DimVector out_shape;                       // with or without the size-1 dims, as keepdim says
  int64_t groups = 1, group_size = 1;
};

Reduction plan(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim) {
  std::vector<bool> reduce(size_t(self.dim()), dims.empty());
  for (int64_t d : dims) {
    const int64_t w = self.wrap_dim(d);
    if (self.dim() == 0) continue;
    WICK_CHECK(!reduce[size_t(w)], op, "(): dim ", w, " appears multiple times in the list of dims");
    reduce[size_t(w)] = true;
  }
  Reduction r;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t size = self.sizes()[size_t(d)], stride = self.strides()[size_t(d)];
    if (reduce[size_t(d)]) {
      r.reduced_sizes.push_back(size);
      r.reduced_strides.push_back(stride);
      r.group_size *= size;
      if (keepdim) r.out_shape.push_back(1);
    } else {
      r.kept_sizes.push_back(size);
      r.kept_strides.push_back(stride);
      r.groups *= size;
      r.out_shape.push_back(size);
    }
  }
  return r;
}

// out[g] = fold(init, every element of group g), for each group of the plan.
template <typename T, typename Acc, typename Fold>
void reduce_groups(const Tensor& self, const Reduction& r, Acc init, Fold fold, Acc* out) {
  const T* base = self.data<T>();
  DimVector kept(r.kept_sizes.size(), 0), inner(r.reduced_sizes.size(), 0);
  int64_t group_offset = 0;
  for (int64_t g = 0; g < r.groups; ++g) {
    Acc acc = init;
    int64_t offset = 0;
    for (int64_t i = 0; i < r.group_size; ++i) {
      acc = fold(acc, base[group_offset + offset]);
      advance(inner, r.reduced_sizes, r.reduced_strides, offset);
    }
    out[g] = acc;
    advance(kept, r.kept_sizes, r.kept_strides, group_offset);
  }
}

// Sums into int64 (integers, bool) or float64 (floats), the accumulation dtypes.
Tensor sum_accumulated(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim, Reduction* plan_out) {
  WICK_CHECK(self.device().is_cpu(), op, "(): not implemented on ", self.device().str(), " yet");
  Reduction r = plan(op, self, dims, keepdim);
  const DType acc_dtype = is_floating(self.dtype()) ? DType::Float64 : DType::Int64;
  Tensor acc = empty(r.out_shape, acc_dtype, kCPU);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    reduce_groups<T, Acc>(self, r, Acc(0), [](Acc a, T x) { return a + Acc(opmath_t<T>(x)); }, acc.data<Acc>());
  });
  if (plan_out) *plan_out = std::move(r);
  return acc;
}

}  // namespace

Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  const Tensor src = dtype ? to(self, *dtype) : self;
  const DType out_dtype = dtype ? *dtype : is_integral(src.dtype(), true) ? DType::Int64 : src.dtype();
  return to(sum_accumulated("sum", src, dim, keepdim, nullptr), out_dtype);
}

Tensor sum(const Tensor& self, std::optional<DType> dtype) { return sum(self, IntArrayRef(), false, dtype); }

Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  const DType out_dtype = dtype.value_or(self.dtype());
  WICK_CHECK_TYPE(is_floating(out_dtype), "mean(): could not infer output dtype. Input dtype must be either a "
                  "floating point or complex dtype. Got: ", dtype_type_name(out_dtype));
  Reduction r;
  Tensor total = sum_accumulated("mean", to(self, out_dtype), dim, keepdim, &r);
  // An empty group gives 0/0 = NaN, as in PyTorch and NumPy.
  double* p = total.data<double>();
  for (int64_t i = 0; i < total.numel(); ++i) p[i] /= double(r.group_size);
  return to(total, out_dtype);
}

Tensor mean(const Tensor& self, std::optional<DType> dtype) { return mean(self, IntArrayRef(), false, dtype); }

Tensor max(const Tensor& self) {
  WICK_CHECK(self.numel() > 0, "max(): Expected reduction dim to be specified for input.numel() == 0. "
             "Specify the reduction dim with the 'dim' argument.");
  WICK_CHECK(self.device().is_cpu(), "max(): not implemented on ", self.device().str(), " yet");
  Reduction r = plan("max", self, {}, false);
  Tensor out = empty({}, self.dtype(), kCPU);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    C result;
    // NaN wins: once the accumulator is NaN no comparison replaces it.
    reduce_groups<T, C>(self, r, C(*self.data<T>()), [](C a, T x) {
      const C v = C(x);
      if (a != a) return a;
      return (v != v || v > a) ? v : a;
    }, &result);
    *out.data<T>() = T(result);
  });
  return out;
}

}  // namespace wick
