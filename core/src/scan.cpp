// core/src/scan.cpp: cumsum and cumprod, scans along one dim on the reduction planner.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <type_traits>

#include "wick/cast.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops/cumprod.h"
#include "wick/ops/cumsum.h"
#include "wick/ops/to.h"
#include "wick/reduce_engine.h"

namespace wick {
namespace {

// The result of a scan: self's shape, in sum's result dtype.
detail::OutputSpec scan_meta(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  const DType out_dtype = detail::integer_upcast(self.dtype(), dtype);
  WICK_CHECK_TYPE(out_dtype != DType::Bool, "not implemented for 'Bool' results");
  detail::plan(self, dim, true);  // checks dim and the device
  return {self.sizes().vec(), out_dtype, kCPU};
}

// Each line of `self` along `dim` becomes its running combination, accumulated
// in acc_t. As with sum: with dtype= the input is cast first; without it,
// integers and bool give int64, their accumulator.
template <typename Combine>
void scan(const Tensor& out, const Tensor& self, int64_t dim, std::optional<DType> dtype, int identity,
          Combine combine) {
  const Tensor src = dtype ? to(self, *dtype) : self;
  const DType out_dtype = out.dtype();
  WICK_INTERNAL_ASSERT(out.sizes() == src.sizes());
  // One plan over the input and one over the result, which has the same shape:
  // group g is the same line in both (Note [Reduction plans]).
  const detail::Reduction in = detail::plan(src, dim, true), res = detail::plan(out, dim, true);
  // A 0-d tensor is one line of one element, with no dim to step along.
  const int64_t in_step = in.reduced_strides.empty() ? 0 : in.reduced_strides[0];
  const int64_t out_step = res.reduced_strides.empty() ? 0 : res.reduced_strides[0];
  dispatch(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;  // int64 or double
    // int64 lines wrap around on overflow, as in PyTorch (Note [Wrapping integer arithmetic]).
    const auto step = [&](Acc a, Acc b) {
      if constexpr (std::is_integral_v<Acc>) {
        return Acc(combine(uint64_t(a), uint64_t(b)));
      } else {
        return combine(a, b);
      }
    };
    const auto run = [&](auto out_tag) {
      using Out = typename decltype(out_tag)::type;
      const T* x = src.data<T>();
      Out* y = out.data<Out>();
      const std::array<IntArrayRef, 2> kept_strides{in.kept_strides, res.kept_strides};
      // Lines are independent: whole lines per thread (Note [Parallel grain]).
      detail::parallel_for(in.groups, std::max<int64_t>(1, detail::kGrainSize / std::max<int64_t>(1, in.group_size)),
                           [&](int64_t begin, int64_t end) {
        detail::walk_groups(in.kept_sizes, kept_strides, begin, end, [&](int64_t, const auto& offset) {
          Acc acc = Acc(identity);
          for (int64_t i = 0; i < in.group_size; ++i) {
            acc = step(acc, cast<Acc>(x[offset[0] + i * in_step]));
            y[offset[1] + i * out_step] = cast<Out>(acc);
          }
        });
      });
    };
    if (out_dtype == src.dtype()) {
      run(TypeTag<T>{});
    } else {
      run(TypeTag<Acc>{});  // int64 for an integer or bool input
    }
  });
}

}  // namespace

namespace detail {

OutputSpec cumsum_meta(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return scan_meta(self, dim, dtype);
}

void cumsum_impl(const Tensor& out, const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  scan(out, self, dim, dtype, 0, std::plus<>());
}

OutputSpec cumprod_meta(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return scan_meta(self, dim, dtype);
}

void cumprod_impl(const Tensor& out, const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  scan(out, self, dim, dtype, 1, std::multiplies<>());
}

}  // namespace detail
}  // namespace wick
