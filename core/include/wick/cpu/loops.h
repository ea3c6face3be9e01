// core/include/wick/cpu/loops.h: the CPU inner loops behind every pointwise kernel.
//
// Included only by the generated per-dtype units, which instantiate these
// templates once per functor (see kernel.h).
#pragma once

#include <utility>

#include "wick/cast.h"
#include "wick/dispatch.h"
#include "wick/function_traits.h"
#include "wick/kernel.h"

namespace wick {
namespace detail {

template <typename Op, size_t... I>
inline void cpu_loop(const Op& op, char** data, const int64_t* strides, int64_t n,
                     std::index_sequence<I...>) {
  using traits = function_traits<Op>;
  using Out = typename traits::result_type;
  bool contiguous = strides[0] == sizeof(Out);
  ((contiguous = contiguous && strides[I + 1] == sizeof(typename traits::template arg<I>)), ...);
  if (contiguous) {
    // Constant strides let the compiler vectorise this loop.
    Out* out = reinterpret_cast<Out*>(data[0]);
    std::tuple<const typename traits::template arg<I>*...> in{
        reinterpret_cast<const typename traits::template arg<I>*>(data[I + 1])...};
    for (int64_t i = 0; i < n; ++i) out[i] = op(std::get<I>(in)[i]...);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<Out*>(data[0] + i * strides[0]) =
        op(*reinterpret_cast<const typename traits::template arg<I>*>(data[I + 1] + i * strides[I + 1])...);
  }
}

}  // namespace detail

template <typename Op>
void cpu_pointwise_kernel(TensorIter& iter, const Scalar* scalars) {
  const Op op(scalars);
  constexpr size_t kIn = function_traits<Op>::arity;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    detail::cpu_loop(op, data, strides, n, std::make_index_sequence<kIn>{});
  });
}

template <typename Dst>
void cpu_copy_kernel(TensorIter& iter) {
  dispatch(iter.dtype(1), [&](auto tag) {
    using Src = typename decltype(tag)::type;
    const CastOp<Dst, Src> op;
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      detail::cpu_loop(op, data, strides, n, std::make_index_sequence<1>{});
    });
  });
}

}  // namespace wick
