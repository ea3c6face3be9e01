// core/src/reduce_extreme.cpp: max, min (also along a dim), amax, amin, argmax, argmin, all, any
// (Note [Reduction units] in reducers.h).
#include "reducers.h"
#include "wick/ops/all.h"
#include "wick/ops/amax.h"
#include "wick/ops/amin.h"
#include "wick/ops/any.h"
#include "wick/ops/argmax.h"
#include "wick/ops/argmin.h"
#include "wick/ops/empty.h"
#include "wick/ops/max.h"
#include "wick/ops/maximum.h"
#include "wick/ops/min.h"
#include "wick/ops/minimum.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

// max, min, amax, amin: the largest (smallest) element of each group, in self's dtype.
Tensor extreme(const Tensor& self, IntArrayRef dims, bool keepdim, bool largest) {
  check_nonempty_groups(self, dims);
  const Reduction r = plan(self, dims, keepdim);
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto narrow = [](opmath_t<T> best) { return T(best); };
    if (largest) return reduce_into_new<T>(self, r, extreme_of<T, true>(unchanged, narrow));
    return reduce_into_new<T>(self, r, extreme_of<T, false>(unchanged, narrow));
  });
}

// argmax, argmin: the position of the first largest (smallest) element, NaN counting as the extreme.
Tensor arg_extreme(const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool largest) {
  if (dim) {
    check_nonempty_groups(self, *dim);
  } else {
    WICK_CHECK_INDEX(self.numel() != 0, "Expected reduction dim to be specified for input.numel() == 0.");
  }
  // Without a dim the position is a flat index over every dim (Note [Reduction plans]).
  const Reduction r = dim ? plan(self, *dim, keepdim) : plan(self, {}, keepdim);
  return dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return reduce_into_new<T>(self, r, ArgExtreme<T>{largest});
  });
}

// The reducer of max(dim) and min(dim): argmax's (argmin's), finishing with the value and its position.
template <typename T> struct ArgExtremeWithValue : ArgExtreme<T> {
  typename ArgExtreme<T>::Acc finish(typename ArgExtreme<T>::Acc a) const { return a; }
};

// max(dim), min(dim): the values of argmax and argmin along dim, with their positions.
std::tuple<Tensor, Tensor> extreme_along(const Tensor& self, int64_t dim, bool keepdim,
                                         bool largest) {
  check_nonempty_groups(self, dim);
  const Reduction r = plan(self, dim, keepdim);
  const Tensor values = empty(r.out_shape, self.dtype(), kCPU), indices = empty(r.out_shape, DType::Int64, kCPU);
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<typename ArgExtreme<T>::Acc> best(size_t(r.groups));
    detail::reduce_groups<T>(self, r, ArgExtremeWithValue<T>{{largest}}, best.data());
    for (int64_t g = 0; g < r.groups; ++g) {
      values.data<T>()[g] = T(best[size_t(g)].value);
      indices.data<int64_t>()[g] = best[size_t(g)].index;
    }
  });
  return {values, indices};
}

// all, any: bool, except that uint8 stays uint8 as in PyTorch 1.13 (a relic of
// the days before bool tensors).
Tensor all_any(const Tensor& self, IntArrayRef dims, bool keepdim, bool every) {
  const Reduction r = plan(self, dims, keepdim);
  const Tensor result = dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (every) return reduce_into_new<T>(self, r, AllAny<T, true>{});
    return reduce_into_new<T>(self, r, AllAny<T, false>{});
  });
  return self.dtype() == DType::UInt8 ? to(result, DType::UInt8) : result;
}

}  // namespace

Tensor max(const Tensor& self) { return extreme(self, {}, false, true); }

Tensor min(const Tensor& self) { return extreme(self, {}, false, false); }

std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_along(self, dim, keepdim, true);
}

std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_along(self, dim, keepdim, false);
}

Tensor max(const Tensor& self, const Tensor& other) { return maximum(self, other); }

Tensor min(const Tensor& self, const Tensor& other) { return minimum(self, other); }

Tensor amax(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return extreme(self, dim.value_or(IntArrayRef()), keepdim, true);
}

Tensor amin(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return extreme(self, dim.value_or(IntArrayRef()), keepdim, false);
}

Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme(self, dim, keepdim, true);
}

Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme(self, dim, keepdim, false);
}

Tensor all(const Tensor& self) { return all_any(self, {}, false, true); }

Tensor all(const Tensor& self, int64_t dim, bool keepdim) { return all_any(self, dim, keepdim, true); }

Tensor any(const Tensor& self) { return all_any(self, {}, false, false); }

Tensor any(const Tensor& self, int64_t dim, bool keepdim) { return all_any(self, dim, keepdim, false); }

}  // namespace wick
