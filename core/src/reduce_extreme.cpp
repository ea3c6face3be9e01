// core/src/reduce_extreme.cpp: max, min (also along a dim), amax, amin, argmax, argmin, all, any
// (Note [Reduction units] in reducers.h).
#include "reducers.h"
#include "wick/ops/all.h"
#include "wick/ops/amax.h"
#include "wick/ops/amin.h"
#include "wick/ops/any.h"
#include "wick/ops/argmax.h"
#include "wick/ops/argmin.h"
#include "wick/ops/max.h"
#include "wick/ops/maximum.h"
#include "wick/ops/min.h"
#include "wick/ops/minimum.h"
#include "wick/pointwise.h"

namespace wick {
namespace {

using detail::OutputSpec;

// max, min, amax, amin: the largest (smallest) element of each group, in self's dtype.
OutputSpec extreme_meta(const Tensor& self, IntArrayRef dims, bool keepdim) {
  check_nonempty_groups(self, dims);
  return reduced(plan(self, dims, keepdim), self.dtype());
}

void extreme(const Tensor& out, const Tensor& self, IntArrayRef dims, bool keepdim, bool largest) {
  const Reduction r = plan(self, dims, keepdim);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto narrow = [](opmath_t<T> best) { return T(best); };
    if (largest) return reduce_into<T>(out, self, r, extreme_of<T, true>(unchanged, narrow));
    reduce_into<T>(out, self, r, extreme_of<T, false>(unchanged, narrow));
  });
}

// argmax, argmin: the position of the first largest (smallest) element, NaN counting as the extreme.
// Without a dim the position is a flat index over every dim (Note [Reduction plans]).
Reduction arg_plan(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return dim ? plan(self, *dim, keepdim) : plan(self, {}, keepdim);
}

OutputSpec arg_extreme_meta(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (dim) {
    check_nonempty_groups(self, *dim);
  } else {
    WICK_CHECK_INDEX(self.numel() != 0, "Expected reduction dim to be specified for input.numel() == 0.");
  }
  return reduced(arg_plan(self, dim, keepdim), DType::Int64);
}

void arg_extreme(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool largest) {
  const Reduction r = arg_plan(self, dim, keepdim);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce_into<T>(out, self, r, ArgExtreme<T>{largest});
  });
}

// max(dim), min(dim): the values of argmax and argmin along dim, with their positions.
std::array<OutputSpec, 2> extreme_along_meta(const Tensor& self, int64_t dim, bool keepdim) {
  const OutputSpec values = extreme_meta(self, dim, keepdim);
  return {values, OutputSpec{values.sizes, DType::Int64, values.device}};
}

// The reducer of max(dim) and min(dim): argmax's (argmin's), finishing with the value and its position.
template <typename T> struct ArgExtremeWithValue : ArgExtreme<T> {
  typename ArgExtreme<T>::Acc finish(typename ArgExtreme<T>::Acc a) const { return a; }
};

void extreme_along(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, bool keepdim,
                   bool largest) {
  const Reduction r = plan(self, dim, keepdim);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<typename ArgExtreme<T>::Acc> best(size_t(r.groups));
    detail::reduce_groups<T>(self, r, ArgExtremeWithValue<T>{{largest}}, best.data());
    for (int64_t g = 0; g < r.groups; ++g) {
      values.data<T>()[g] = T(best[size_t(g)].value);
      indices.data<int64_t>()[g] = best[size_t(g)].index;
    }
  });
}

// max(other), min(other): maximum and minimum, whose promotion and broadcasting they share.
OutputSpec elementwise_meta(const Tensor& self, const Tensor& other) {
  const Operand operands[] = {self, other};
  return {broadcast_shapes(self.sizes(), other.sizes()), detail::result_type(operands), self.device()};
}

// all, any: bool, or uint8 for uint8 (AllAny).
OutputSpec all_any_meta(const Tensor& self, IntArrayRef dims, bool keepdim) {
  return reduced(plan(self, dims, keepdim), self.dtype() == DType::UInt8 ? DType::UInt8 : DType::Bool);
}

void all_any(const Tensor& out, const Tensor& self, IntArrayRef dims, bool keepdim, bool every) {
  const Reduction r = plan(self, dims, keepdim);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (every) return reduce_into<T>(out, self, r, AllAny<T, true>{});
    reduce_into<T>(out, self, r, AllAny<T, false>{});
  });
}

}  // namespace

namespace detail {

OutputSpec max_meta(const Tensor& self) { return extreme_meta(self, {}, false); }

void max_impl(const Tensor& out, const Tensor& self) { extreme(out, self, {}, false, true); }

OutputSpec min_meta(const Tensor& self) { return extreme_meta(self, {}, false); }

void min_impl(const Tensor& out, const Tensor& self) { extreme(out, self, {}, false, false); }

std::array<OutputSpec, 2> max_meta(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_along_meta(self, dim, keepdim);
}

void max_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, bool keepdim) {
  extreme_along(values, indices, self, dim, keepdim, true);
}

std::array<OutputSpec, 2> min_meta(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_along_meta(self, dim, keepdim);
}

void min_impl(const Tensor& values, const Tensor& indices, const Tensor& self, int64_t dim, bool keepdim) {
  extreme_along(values, indices, self, dim, keepdim, false);
}

OutputSpec max_meta(const Tensor& self, const Tensor& other) { return elementwise_meta(self, other); }

void max_impl(const Tensor& out, const Tensor& self, const Tensor& other) { maximum_out(out, self, other); }

OutputSpec min_meta(const Tensor& self, const Tensor& other) { return elementwise_meta(self, other); }

void min_impl(const Tensor& out, const Tensor& self, const Tensor& other) { minimum_out(out, self, other); }

OutputSpec amax_meta(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return extreme_meta(self, dim.value_or(IntArrayRef()), keepdim);
}

void amax_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  extreme(out, self, dim.value_or(IntArrayRef()), keepdim, true);
}

OutputSpec amin_meta(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return extreme_meta(self, dim.value_or(IntArrayRef()), keepdim);
}

void amin_impl(const Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  extreme(out, self, dim.value_or(IntArrayRef()), keepdim, false);
}

OutputSpec argmax_meta(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme_meta(self, dim, keepdim);
}

void argmax_impl(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  arg_extreme(out, self, dim, keepdim, true);
}

OutputSpec argmin_meta(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme_meta(self, dim, keepdim);
}

void argmin_impl(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  arg_extreme(out, self, dim, keepdim, false);
}

OutputSpec all_meta(const Tensor& self) { return all_any_meta(self, {}, false); }

void all_impl(const Tensor& out, const Tensor& self) { all_any(out, self, {}, false, true); }

OutputSpec all_meta(const Tensor& self, int64_t dim, bool keepdim) { return all_any_meta(self, dim, keepdim); }

void all_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {
  all_any(out, self, dim, keepdim, true);
}

OutputSpec any_meta(const Tensor& self) { return all_any_meta(self, {}, false); }

void any_impl(const Tensor& out, const Tensor& self) { all_any(out, self, {}, false, false); }

OutputSpec any_meta(const Tensor& self, int64_t dim, bool keepdim) { return all_any_meta(self, dim, keepdim); }

void any_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {
  all_any(out, self, dim, keepdim, false);
}

}  // namespace detail
}  // namespace wick
