// core/src/reduce.cpp: the reduction planner, and the sums, products and means over the groups of
// a plan (wick/reduce_engine.h; the other reductions: Note [Reduction units] in reducers.h).
#include <algorithm>
#include <vector>

#include "reducers.h"
#include "wick/ops/mean.h"
#include "wick/ops/prod.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"
#include "wick/overflow.h"

namespace wick {
namespace detail {

Reduction plan(const Tensor& self, IntArrayRef dims, bool keepdim) {
  check_cpu(self);
  // A 0-d tensor has one dim to name, as 0 or -1, which reduces nothing.
  std::vector<bool> reduce(size_t(std::max<int64_t>(self.dim(), 1)), dims.empty());
  for (int64_t d : dims) {
    const int64_t w = self.wrap_dim(d);
    WICK_CHECK(!reduce[size_t(w)], "dim ", w, " appears multiple times in the list of dims");
    reduce[size_t(w)] = true;
  }
  Reduction r;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t size = self.sizes()[size_t(d)], stride = self.strides()[size_t(d)];
    if (reduce[size_t(d)]) {
      r.reduced_sizes.push_back(size);
      r.reduced_strides.push_back(stride);
      if (keepdim) r.out_shape.push_back(1);
    } else {
      r.kept_sizes.push_back(size);
      r.kept_strides.push_back(stride);
      r.out_shape.push_back(size);
    }
  }
  // Zero-aware products (Note [Checked size arithmetic]): the groups are the result's elements,
  // and groups past int64 cannot be allocated; a group size past int64 leaves no group at all.
  r.groups = checked_numel(r.kept_sizes);
  r.group_size = numel_checked(r.reduced_sizes).value_or(0);
  return r;
}

Dims coalesce(IntArrayRef sizes, IntArrayRef strides) {
  Dims d;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 1) continue;
    if (!d.sizes.empty() && d.strides.back() == strides[i] * sizes[i]) {
      d.sizes.back() *= sizes[i];
      d.strides.back() = strides[i];
    } else {
      d.sizes.push_back(sizes[i]);
      d.strides.push_back(strides[i]);
    }
  }
  return d;
}

Dims coalesce_in_memory_order(IntArrayRef sizes, IntArrayRef strides) {
  DimVector perm;
  for (size_t d = 0; d < sizes.size(); ++d) perm.push_back(int64_t(d));
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int64_t a, int64_t b) { return strides[size_t(a)] > strides[size_t(b)]; });
  DimVector s, t;
  for (int64_t d : perm) {
    s.push_back(sizes[size_t(d)]);
    t.push_back(strides[size_t(d)]);
  }
  return coalesce(s, t);
}

}  // namespace detail

namespace {

// sum and prod. With dtype= the input is cast first, as PyTorch does; without
// it, integers and bool give int64, their accumulator.
detail::OutputSpec accumulated(const Tensor& self, IntArrayRef dims, bool keepdim, std::optional<DType> dtype) {
  return reduced(plan(self, dims, keepdim), detail::integer_upcast(self.dtype(), dtype));
}

template <typename Op>
void accumulate(const Tensor& out, const Tensor& self, IntArrayRef dims, bool keepdim, std::optional<DType> dtype,
                int identity, Op combine) {
  const Tensor src = dtype ? to(self, *dtype) : self;
  const bool upcast = detail::integer_upcast(src.dtype(), dtype) != src.dtype();
  const Reduction r = plan(src, dims, keepdim);
  dispatch(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      if (upcast) return reduce_into<T>(out, src, r, IntFold<T, Op, decltype(unchanged)>{identity, combine, unchanged});
      const auto narrow = [](int64_t a) { return cast<T>(a); };
      reduce_into<T>(out, src, r, IntFold<T, Op, decltype(narrow)>{identity, combine, narrow});
    } else {
      reduce_into<T>(out, src, r, float_fold<T>(nullptr, identity, combine, unchanged,
                                                [](double a, double) { return cast<T>(a); }));
    }
  });
}

// mean's result dtype: dtype= where given, else self's, which must be floating.
DType mean_dtype(const Tensor& self, std::optional<DType> dtype) {
  const DType out_dtype = dtype.value_or(self.dtype());
  WICK_CHECK_TYPE(is_floating(out_dtype), "could not infer output dtype. Input dtype must be either a "
                  "floating point or complex dtype. Got: ", dtype_type_name(out_dtype));
  return out_dtype;
}

}  // namespace

namespace detail {

OutputSpec sum_meta(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  return accumulated(self, dim.value_or(IntArrayRef()), keepdim, dtype);
}

void sum_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
              std::optional<DType> dtype) {
  accumulate(out, self, dim.value_or(IntArrayRef()), keepdim, dtype, 0, std::plus<>());
}

OutputSpec sum_meta(const Tensor& self, std::optional<DType> dtype) { return accumulated(self, {}, false, dtype); }

void sum_impl(const Tensor& out, const Tensor& self, std::optional<DType> dtype) {
  accumulate(out, self, {}, false, dtype, 0, std::plus<>());
}

OutputSpec prod_meta(const Tensor& self, int64_t dim, bool keepdim, std::optional<DType> dtype) {
  return accumulated(self, dim, keepdim, dtype);
}

void prod_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim, std::optional<DType> dtype) {
  accumulate(out, self, dim, keepdim, dtype, 1, std::multiplies<>());
}

OutputSpec prod_meta(const Tensor& self, std::optional<DType> dtype) { return accumulated(self, {}, false, dtype); }

void prod_impl(const Tensor& out, const Tensor& self, std::optional<DType> dtype) {
  accumulate(out, self, {}, false, dtype, 1, std::multiplies<>());
}

OutputSpec mean_meta(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<DType> dtype) {
  return reduced(plan(self, dim.value_or(IntArrayRef()), keepdim), mean_dtype(self, dtype));
}

void mean_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
               std::optional<DType> dtype) {
  const Tensor src = to(self, mean_dtype(self, dtype));
  const Reduction r = plan(src, dim.value_or(IntArrayRef()), keepdim);  // None: every dim, as an empty list
  const double n = double(r.group_size);  // an empty group gives 0/0 = NaN, as in PyTorch and NumPy
  dispatch_floating(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce_into<T>(out, src, r, float_fold<T>(nullptr, 0.0, std::plus<>(), unchanged,
                                              [n](double a, double) { return cast<T>(a / n); }));
  });
}

OutputSpec mean_meta(const Tensor& self, std::optional<DType> dtype) {
  return mean_meta(self, IntArrayRef(), false, dtype);
}

void mean_impl(const Tensor& out, const Tensor& self, std::optional<DType> dtype) {
  mean_impl(out, self, IntArrayRef(), false, dtype);
}

}  // namespace detail
}  // namespace wick
