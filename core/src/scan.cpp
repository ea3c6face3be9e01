// core/src/scan.cpp: cumsum and cumprod, scans along one dim on the reduction planner.
#include <functional>

#include "wick/cast.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops.h"
#include "wick/reduce_engine.h"

namespace wick {
namespace {

// Each line of `self` along `dim` becomes its running combination, accumulated
// in acc_t. As with sum: with dtype= the input is cast first; without it,
// integers and bool give int64, their accumulator.
template <typename Combine>
Tensor scan(const char* op, const Tensor& self, int64_t dim, std::optional<DType> dtype, int identity,
            Combine combine) {
  const Tensor src = dtype ? to(self, *dtype) : self;
  const DType out_dtype = detail::integer_upcast(src.dtype(), dtype);
  WICK_CHECK_TYPE(out_dtype != DType::Bool, op, "(): not implemented for 'Bool' results");
  const Tensor out = empty(src.sizes(), out_dtype, kCPU);
  // One plan over the input and one over the result, which has the same shape:
  // group g is the same line in both (Note [Reduction plans]).
  const detail::Reduction in = detail::plan(op, src, dim, true), res = detail::plan(op, out, dim, true);
  // A 0-d tensor is one line of one element, with no dim to step along.
  const int64_t in_step = in.reduced_strides.empty() ? 0 : in.reduced_strides[0];
  const int64_t out_step = res.reduced_strides.empty() ? 0 : res.reduced_strides[0];
  dispatch(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    const auto run = [&](auto out_tag) {
      using Out = typename decltype(out_tag)::type;
      const T* x = src.data<T>();
      Out* y = out.data<Out>();
      DimVector in_line(in.kept_sizes.size(), 0), out_line(res.kept_sizes.size(), 0);
      int64_t in_offset = 0, out_offset = 0;
      for (int64_t g = 0; g < in.groups; ++g) {
        Acc acc = Acc(identity);
        for (int64_t i = 0; i < in.group_size; ++i) {
          acc = combine(acc, cast<Acc>(x[in_offset + i * in_step]));
          y[out_offset + i * out_step] = cast<Out>(acc);
        }
        detail::advance(in_line, in.kept_sizes, in.kept_strides, in_offset);
        detail::advance(out_line, res.kept_sizes, res.kept_strides, out_offset);
      }
    };
    if (out_dtype == src.dtype()) {
      run(TypeTag<T>{});
    } else {
      run(TypeTag<Acc>{});  // int64 for an integer or bool input
    }
  });
  return out;
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return scan("cumsum", self, dim, dtype, 0, std::plus<>());
}

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return scan("cumprod", self, dim, dtype, 1, std::multiplies<>());
}

}  // namespace wick
