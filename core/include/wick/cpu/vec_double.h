// core/include/wick/cpu/vec_double.h: loads that widen to vectors of double, for the reductions that
// accumulate in double (core/src/reduce.cpp).
#pragma once

#include <utility>

#include "wick/cpu/vec.h"

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace vec {

// Vec<double>::kSize consecutive elements as doubles, for the reductions that accumulate in double.
typedef float NarrowFloat __attribute__((vector_size(kBytes / 2)));
inline Vec<double> to_double(NarrowFloat f) {
#if WICK_VEC_TIER == 3
  return _mm512_maskz_cvtps_pd(0xff, f);
#elif WICK_VEC_TIER == 2
  return _mm256_cvtps_pd(f);
#else
  return __builtin_convertvector(f, Vec<double>::Raw);
#endif
}

// The lanes [kFirst, kFirst + half the lanes) of a float vector: a shuffle in registers, where a copy
// through memory would make the compiler keep the vector on the stack.
template <size_t kFirst, size_t... I>
inline NarrowFloat half_of(Vec<float> x, std::index_sequence<I...>) {
  return __builtin_shufflevector(x.v, x.v, (kFirst + I)...);
}

// The lanes of a float vector as two double vectors, low lanes first.
inline std::array<Vec<double>, 2> widen(Vec<float> x) {
  constexpr size_t kHalf = size_t(Vec<float>::kSize / 2);
  return {to_double(half_of<0>(x, std::make_index_sequence<kHalf>())),
          to_double(half_of<kHalf>(x, std::make_index_sequence<kHalf>()))};
}

inline Vec<double> load_double(const double* p) { return load(p); }
inline Vec<double> load_double(const float* p) {
  NarrowFloat f;
  std::memcpy(&f, p, sizeof f);
  return to_double(f);
}
inline Vec<double> load_double(const Half* p) {
#if WICK_VEC_TIER == 3
  return to_double(_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
#elif WICK_VEC_TIER == 2 && defined(__F16C__)
  return to_double(_mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
#else
  Vec<double> r;
  for (int i = 0; i < Vec<double>::kSize; ++i) r.v[i] = double(float(p[i]));
  return r;
#endif
}
inline Vec<double> load_double(const BFloat16* p) {
  typedef uint16_t Bits16 __attribute__((vector_size(kBytes / 4)));
  typedef uint32_t Bits32 __attribute__((vector_size(kBytes / 2)));
  Bits16 h;
  std::memcpy(&h, p, sizeof h);
  return to_double(reinterpret_cast<NarrowFloat>(__builtin_convertvector(h, Bits32) << 16));
}

}  // namespace vec
WICK_CPU_LEVEL_END
}  // namespace wick
