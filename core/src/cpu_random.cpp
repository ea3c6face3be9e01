// core/src/cpu_random.cpp: the loops of rand and randn, compiled once per CPU level into its
// namespace (Note [CPU levels] in wick/cpu/level.h); factory.cpp calls the chosen level's.
#include "cpu_random.h"

#include "wick/cpu/level.h"
#include "wick/cpu/vec.h"

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace {

// A 64-bit draw of the engine gives two uniforms where b <= 32 (its low half first), one otherwise.
template <typename T>
void uniforms(std::mt19937_64& engine, T* out, int64_t n) {
  constexpr int kBits = kSignificandBits<T>;
  constexpr double kScale = 1.0 / double(uint64_t(1) << kBits);
  if constexpr (kBits <= 32) {
    const auto uniform = [](uint64_t half) { return T(float(uint32_t(half) >> (32 - kBits)) * float(kScale)); };
    int64_t i = 0;
    for (; i + 1 < n; i += 2) {
      const uint64_t x = engine();
      out[i] = uniform(x);
      out[i + 1] = uniform(x >> 32);
    }
    if (i < n) out[i] = uniform(engine());
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = T(double(engine() >> (64 - kBits)) * kScale);
  }
}

// Each chunk's first half u1 and second half u2 give a radius sqrt(-2 log(1 - u1)) and an angle
// 2 pi u2; the radius times the cosine fills the chunk's first half, times the sine its second.
template <typename T, typename U>
void normals(const U* u, T* out, int64_t chunks) {
  using V = vec::Vec<U>;
  constexpr int64_t kHalf = kNormalChunk / 2;
  static_assert(kHalf % V::kSize == 0, "a half chunk holds whole vectors");
  for (int64_t c = 0; c < chunks; ++c, u += kNormalChunk, out += kNormalChunk) {
    for (int64_t j = 0; j < kHalf; j += V::kSize) {
      const V radius = vec::sqrt(V(U(-2)) * vec::log(V(U(1)) - vec::load(u + j)));
      const V angle = V(U(6.283185307179586476925286766559)) * vec::load(u + kHalf + j);
      vec::store(out + j, radius * vec::cos(angle));
      vec::store(out + kHalf + j, radius * vec::sin(angle));
    }
  }
}

template <typename T, typename U>
constexpr RandomLoops<T, U> loops_of() {
  return {&uniforms<T>, &normals<T, U>};
}

}  // namespace

extern const RandomKernels random_cpu_kernels[1];
const RandomKernels random_cpu_kernels[1] = {
    {loops_of<float, float>(), loops_of<double, double>(), loops_of<Half, float>(), loops_of<BFloat16, float>()}};

WICK_CPU_LEVEL_END
}  // namespace wick
