// core/src/cpu_random.h: the loops of rand and randn, compiled once per CPU level as the pointwise
// kernels are (Note [CPU levels] in wick/cpu/level.h), in core/src/cpu_random.cpp; factory.cpp
// calls the chosen level's through RandomKernels. Note [Random draws] in factory.cpp says what
// they compute.
#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include "wick/half.h"

namespace wick {

// randn turns uniforms into normals a chunk of this many at a time.
constexpr int64_t kNormalChunk = 32;

// The bits of T's significand, the leading one included.
template <typename T> constexpr int kSignificandBits = std::numeric_limits<T>::digits;
template <> constexpr int kSignificandBits<Half> = 11;
template <> constexpr int kSignificandBits<BFloat16> = 8;

// The loops for results of type T, whose compute type U is float for the 16-bit types.
template <typename T, typename U = std::conditional_t<std::is_same_v<T, double>, double, float>>
struct RandomLoops {
  // n uniforms in [0, 1), each k / 2^b for b = kSignificandBits<T> random bits k.
  void (*uniforms)(std::mt19937_64& engine, T* out, int64_t n);
  // Normals from `chunks` chunks of kNormalChunk uniforms u, into out (which may be u).
  void (*normals)(const U* u, T* out, int64_t chunks);
};

struct RandomKernels {
  RandomLoops<float> f32;
  RandomLoops<double> f64;
  RandomLoops<Half> f16;
  RandomLoops<BFloat16> bf16;

  template <typename T>
  const RandomLoops<T>& loops() const {
    if constexpr (std::is_same_v<T, float>) return f32;
    if constexpr (std::is_same_v<T, double>) return f64;
    if constexpr (std::is_same_v<T, Half>) return f16;
    if constexpr (std::is_same_v<T, BFloat16>) return bf16;
  }
};

}  // namespace wick
