// core/include/wick/function_traits.h: the argument and result types of a functor's operator().
#pragma once

#include <cstddef>
#include <tuple>

namespace wick {

template <typename F> struct function_traits : function_traits<decltype(&F::operator())> {};

template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...) const> {
  using result_type = R;
  using args_tuple = std::tuple<Args...>;
  static constexpr size_t arity = sizeof...(Args);
  template <size_t I> using arg = std::tuple_element_t<I, args_tuple>;
};

}  // namespace wick
