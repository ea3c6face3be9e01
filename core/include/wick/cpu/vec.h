// core/include/wick/cpu/vec.h: SIMD vectors of float and double for the CPU kernels, and the math of
// wick/math.h on them, with SLEEF for the transcendental functions.
//
// Note [Vectorised functors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// Each generated functor (generated/kernels/functors.h) holds its expression
// once, as a member template compute(V...) over its compute type C: V is C in
// the functor's operator(), which CUDA runs, and Vec<C> in the CPU loops
// (wick/cpu/loops.h), which feed it Vec<C>::kSize elements at a time. Vec<C>
// has C's arithmetic and comparisons (a comparison gives a Mask), and the
// functions of wick/math.h as overloads that argument-dependent lookup finds;
// math.h's single-value templates take arithmetic types only. So an expression
// that uses something with no vector form here (a conditional expression, an
// integer operation, floor_divide) fails to substitute, quietly, and its op
// runs operator() in a plain loop that the compiler vectorises where it can.
// Vectors of an integer or bool C have the comparisons alone (Note [Integer
// vectors]): a comparison or a logical op of integers runs on vectors, their
// arithmetic in operator().
//
// On the CPU an op thus computes every element with the same code whatever
// the layout: strided and broadcast operands are staged through blocks, and a
// run's last partial vector is padded, so no result depends on alignment, on
// an element's position or on how the work was split across threads.
//
// The width is the widest the unit's target has: AVX-512 (x86-64-v4), AVX2
// with FMA (x86-64-v3), or SSE2, each with SLEEF's functions for that
// instruction set; another target gets 16-byte vectors whose functions call the
// scalar ones lane by lane. The kernels are compiled once per level and the
// level chosen at load time (Note [CPU levels] in wick/cpu/level.h); the
// library's own vector code (reductions, randn) has the baseline's width.
#pragma once

#include <sleef.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "wick/cpu/level.h"
#include "wick/dtype.h"
#include "wick/math.h"

#if defined(__AVX512F__)
#define WICK_VEC_TIER 3
#define WICK_SLEEF_F(fn, ulp) Sleef_##fn##f16_##ulp##avx512f
#define WICK_SLEEF_D(fn, ulp) Sleef_##fn##d8_##ulp##avx512f
#elif defined(__AVX2__) && defined(__FMA__)
#define WICK_VEC_TIER 2
#define WICK_SLEEF_F(fn, ulp) Sleef_##fn##f8_##ulp##avx2
#define WICK_SLEEF_D(fn, ulp) Sleef_##fn##d4_##ulp##avx2
#elif defined(__SSE2__)
#define WICK_VEC_TIER 1
#define WICK_SLEEF_F(fn, ulp) Sleef_##fn##f4_##ulp##sse2
#define WICK_SLEEF_D(fn, ulp) Sleef_##fn##d2_##ulp##sse2
#else
#define WICK_VEC_TIER 0
#endif

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace vec {

constexpr int kBytes = WICK_VEC_TIER == 3 ? 64 : WICK_VEC_TIER == 2 ? 32 : 16;

// The compiler's vector of kBytes bytes of E.
template <typename E> struct Native;
#define WICK_NATIVE_VECTOR(E) \
  template <> struct Native<E> { typedef E type __attribute__((vector_size(kBytes))); };
WICK_NATIVE_VECTOR(float)
WICK_NATIVE_VECTOR(double)
WICK_NATIVE_VECTOR(int8_t)
WICK_NATIVE_VECTOR(int16_t)
WICK_NATIVE_VECTOR(int32_t)
WICK_NATIVE_VECTOR(int64_t)
WICK_NATIVE_VECTOR(uint8_t)
WICK_NATIVE_VECTOR(uint32_t)
#undef WICK_NATIVE_VECTOR

// The signed integer of N bytes: the lane type of a comparison's result.
template <size_t N> struct SignedOfSize;
template <> struct SignedOfSize<1> { using type = int8_t; };
template <> struct SignedOfSize<2> { using type = int16_t; };
template <> struct SignedOfSize<4> { using type = int32_t; };
template <> struct SignedOfSize<8> { using type = int64_t; };

template <typename C, bool kFloating = std::is_floating_point_v<C>> struct Vec;

// Lanes of true (all bits set) and false (zero), as comparisons of Vec<C> give.
template <typename C>
struct Mask {
  using Raw = typename Native<typename SignedOfSize<sizeof(C)>::type>::type;
  Raw v;

  Mask(Raw raw) : v(raw) {}  // NOLINT: implicit, for results of vector comparisons
  friend Mask operator!(Mask a) { return ~a.v; }
  friend Mask operator&(Mask a, Mask b) { return a.v & b.v; }
  friend Mask operator|(Mask a, Mask b) { return a.v | b.v; }
  // `and` and `or` of an expression (codegen/api/expr.py): every lane is all ones or zero, so the
  // bitwise forms are exact, and both sides are computed anyway.
  friend Mask operator&&(Mask a, Mask b) { return a.v & b.v; }
  friend Mask operator||(Mask a, Mask b) { return a.v | b.v; }
  friend Mask operator^(Mask a, Mask b) { return a.v ^ b.v; }
  friend Mask operator==(Mask a, Mask b) { return ~(a.v ^ b.v); }
  friend Mask operator!=(Mask a, Mask b) { return a.v ^ b.v; }
};

// The comparisons of V, a vector of C, lane by lane: hidden friends that argument-dependent lookup
// finds through V's base, so a scalar operand converts to V as it would for V's own friends.
template <typename V, typename C>
struct Comparisons {
  friend Mask<C> operator==(V a, V b) { return a.v == b.v; }
  friend Mask<C> operator!=(V a, V b) { return a.v != b.v; }
  friend Mask<C> operator<(V a, V b) { return a.v < b.v; }
  friend Mask<C> operator<=(V a, V b) { return a.v <= b.v; }
  friend Mask<C> operator>(V a, V b) { return a.v > b.v; }
  friend Mask<C> operator>=(V a, V b) { return a.v >= b.v; }
  friend Mask<C> operator!(V a) { return a.v == typename V::Raw{}; }
};

template <typename C>
struct Vec<C, true> : Comparisons<Vec<C, true>, C> {
  static_assert(std::is_same_v<C, float> || std::is_same_v<C, double>, "float vectors hold float or double");
  using Raw = typename Native<C>::type;
  static constexpr int kSize = kBytes / int(sizeof(C));
  Raw v;

  Vec() = default;
  Vec(Raw raw) : v(raw) {}  // NOLINT: implicit, for results of vector operations and of SLEEF
  // NOLINTNEXTLINE: implicit, so that an expression's constants and literals broadcast. A product
  // with ones is one broadcast instruction (s * 1 is s exactly, -0 and NaN included), where a
  // loop over the lanes becomes one masked load per lane in every iteration of a kernel.
  Vec(C s) : v(s * (Raw{} + C(1))) {}

  friend Vec operator+(Vec a) { return a; }
  friend Vec operator-(Vec a) { return -a.v; }
  friend Vec operator+(Vec a, Vec b) { return a.v + b.v; }
  friend Vec operator-(Vec a, Vec b) { return a.v - b.v; }
  friend Vec operator*(Vec a, Vec b) { return a.v * b.v; }
  friend Vec operator/(Vec a, Vec b) { return a.v / b.v; }

  // The functions of wick/math.h built from the others, with its scalar versions' exact semantics.
  friend Vec select(Mask<C> m, Vec a, Vec b) { return m.v ? a.v : b.v; }
  friend Mask<C> isnan(Vec x) { return x.v != x.v; }
  friend Mask<C> isinf(Vec x) { return abs(x) == Vec(C(INFINITY)); }
  friend Mask<C> isfinite(Vec x) { return abs(x) < Vec(C(INFINITY)); }
  friend Mask<C> signbit(Vec x) { return copysign(Vec(C(1)), x) < Vec(C(0)); }  // -0.0 and -NaN included
  friend Vec sign(Vec x) { return select(x > Vec(C(0)), Vec(C(1)), select(x < Vec(C(0)), Vec(C(-1)), Vec(C(0)))); }
  friend Vec maximum(Vec a, Vec b) { return select(isnan(a), a, select(isnan(b), b, select(a > b, a, b))); }
  friend Vec minimum(Vec a, Vec b) { return select(isnan(a), a, select(isnan(b), b, select(a < b, a, b))); }
  friend Vec remainder(Vec a, Vec b) {
    const Vec r = fmod(a, b);
    return select((r != Vec(C(0))) & ((r < Vec(C(0))) != (b < Vec(C(0)))), r + b, r);
  }
  friend Vec floor_divide(Vec a, Vec b) {
    const Vec zero(C(0)), one(C(1)), quotient = a / b, mod = fmod(a, b);
    Vec div = (a - mod) / b;
    div = select((mod != zero) & ((b < zero) != (mod < zero)), div - one, div);
    const Vec below = floor(div);
    const Vec rounded = select(div - below > Vec(C(0.5)), below + one, below);
    return select(b == zero, quotient, select(div == zero, copysign(zero, quotient), rounded));
  }
  friend Vec trunc_divide(Vec a, Vec b) { return trunc(a / b); }
  // `magnitude` with the sign bit of `sign`.
  friend Vec copysign(Vec magnitude, Vec sign) {
    using Bits = typename Mask<C>::Raw;
    const Bits sign_bit = reinterpret_cast<Bits>(Vec(C(-0.0)).v);
    return reinterpret_cast<Raw>((reinterpret_cast<Bits>(magnitude.v) & ~sign_bit) |
                                 (reinterpret_cast<Bits>(sign.v) & sign_bit));
  }
};

// Note [Integer vectors]
// ~~~~~~~~~~~~~~~~~~~~~~
// A vector of an integer or bool compute type compares, and does nothing else. Its
// comparisons give the scalar ones' results lane by lane (C++ promotes both sides
// alike, so no promotion changes an order or an equality), which lets comparisons
// and logical ops of integer and bool tensors store masks as the float ones do.
// Arithmetic is left out on purpose: a lane wraps where C++ promotes to int, and
// divides by zero where math.h guards, so an integer expression with arithmetic
// fails to substitute and runs operator(), as before. A bool is a byte of 0 or 1
// (wick's invariant for bool tensors), so its lanes are bytes.
template <typename C>
struct Vec<C, false> : Comparisons<Vec<C, false>, C> {
  static_assert(std::is_integral_v<C>, "integer vectors hold integers or bools");
  using Lane = std::conditional_t<std::is_same_v<C, bool>, uint8_t, C>;
  using Raw = typename Native<Lane>::type;
  static constexpr int kSize = kBytes / int(sizeof(C));
  Raw v;

  Vec() = default;
  Vec(Raw raw) : v(raw) {}  // NOLINT: implicit, as the float vector's
  Vec(C s) : v(Raw{} + Lane(s)) {}  // NOLINT: implicit, so that an expression's constants broadcast
};

// Lane-by-lane application of a scalar function: the portable fallback.
template <typename C, typename F>
Vec<C> lanewise(Vec<C> x, F f) {
  for (int i = 0; i < Vec<C>::kSize; ++i) x.v[i] = f(x.v[i]);
  return x;
}
template <typename C, typename F>
Vec<C> lanewise(Vec<C> x, Vec<C> y, F f) {
  for (int i = 0; i < Vec<C>::kSize; ++i) x.v[i] = f(x.v[i], y.v[i]);
  return x;
}

// The SLEEF-backed functions: `ulp` is SLEEF's accuracy suffix (u10: within 1.0 ULP, as
// PyTorch uses), empty for the exact ones.
#if WICK_VEC_TIER > 0
#define WICK_VEC_FUNCTION(name, sleef, ulp)                                                             \
  inline Vec<float> name(Vec<float> x) { return WICK_SLEEF_F(sleef, ulp)(x.v); }                        \
  inline Vec<double> name(Vec<double> x) { return WICK_SLEEF_D(sleef, ulp)(x.v); }
#define WICK_VEC_FUNCTION2(name, sleef, ulp)                                                            \
  inline Vec<float> name(Vec<float> x, Vec<float> y) { return WICK_SLEEF_F(sleef, ulp)(x.v, y.v); }     \
  inline Vec<double> name(Vec<double> x, Vec<double> y) { return WICK_SLEEF_D(sleef, ulp)(x.v, y.v); }
#else
#define WICK_VEC_FUNCTION(name, sleef, ulp)                                                             \
  inline Vec<float> name(Vec<float> x) { return lanewise(x, [](float a) { return math::name(a); }); }   \
  inline Vec<double> name(Vec<double> x) { return lanewise(x, [](double a) { return math::name(a); }); }
#define WICK_VEC_FUNCTION2(name, sleef, ulp)                                                            \
  inline Vec<float> name(Vec<float> x, Vec<float> y) {                                                  \
    return lanewise(x, y, [](float a, float b) { return math::name(a, b); });                           \
  }                                                                                                     \
  inline Vec<double> name(Vec<double> x, Vec<double> y) {                                               \
    return lanewise(x, y, [](double a, double b) { return math::name(a, b); });                         \
  }
#endif
WICK_VEC_FUNCTION(exp, exp, u10)
WICK_VEC_FUNCTION(exp2, exp2, u10)
WICK_VEC_FUNCTION(expm1, expm1, u10)
WICK_VEC_FUNCTION(log, log, u10)
WICK_VEC_FUNCTION(log2, log2, u10)
WICK_VEC_FUNCTION(log10, log10, u10)
WICK_VEC_FUNCTION(log1p, log1p, u10)
WICK_VEC_FUNCTION(sqrt, sqrt, )
WICK_VEC_FUNCTION(sin, sin, u10)
WICK_VEC_FUNCTION(cos, cos, u10)
WICK_VEC_FUNCTION(tan, tan, u10)
WICK_VEC_FUNCTION(asin, asin, u10)
WICK_VEC_FUNCTION(acos, acos, u10)
WICK_VEC_FUNCTION(atan, atan, u10)
WICK_VEC_FUNCTION(sinh, sinh, u10)
WICK_VEC_FUNCTION(cosh, cosh, u10)
WICK_VEC_FUNCTION(tanh, tanh, u10)
WICK_VEC_FUNCTION(erf, erf, u10)
WICK_VEC_FUNCTION(erfc, erfc, u15)
WICK_VEC_FUNCTION(asinh, asinh, u10)
WICK_VEC_FUNCTION(acosh, acosh, u10)
WICK_VEC_FUNCTION(atanh, atanh, u10)
WICK_VEC_FUNCTION(abs, fabs, )
WICK_VEC_FUNCTION(floor, floor, )
WICK_VEC_FUNCTION(ceil, ceil, )
WICK_VEC_FUNCTION(trunc, trunc, )
WICK_VEC_FUNCTION(round, rint, )  // ties to even, as math::round
WICK_VEC_FUNCTION2(atan2, atan2, u10)
WICK_VEC_FUNCTION2(pow, pow, u10)
WICK_VEC_FUNCTION2(fmod, fmod, )
WICK_VEC_FUNCTION2(hypot, hypot, u05)
WICK_VEC_FUNCTION2(nextafter, nextafter, )
WICK_VEC_FUNCTION2(fmax, fmax, )  // a NaN on one side gives the other, as math::fmax
WICK_VEC_FUNCTION2(fmin, fmin, )
#undef WICK_VEC_FUNCTION
#undef WICK_VEC_FUNCTION2

// fma: the instruction where the target has it, SLEEF's exact software form on SSE2 (Note
// [Fused multiply-add] in wick/math.h).
#if WICK_VEC_TIER == 3
#define WICK_VEC_FMA_F _mm512_fmadd_ps
#define WICK_VEC_FMA_D _mm512_fmadd_pd
#elif WICK_VEC_TIER == 2
#define WICK_VEC_FMA_F _mm256_fmadd_ps
#define WICK_VEC_FMA_D _mm256_fmadd_pd
#elif WICK_VEC_TIER == 1
#define WICK_VEC_FMA_F WICK_SLEEF_F(fma, )
#define WICK_VEC_FMA_D WICK_SLEEF_D(fma, )
#else
template <typename C>
Vec<C> lanewise_fma(Vec<C> a, Vec<C> b, Vec<C> c) {
  for (int i = 0; i < Vec<C>::kSize; ++i) a.v[i] = math::fma(a.v[i], b.v[i], c.v[i]);
  return a;
}
#define WICK_VEC_FMA_F lanewise_fma<float>
#define WICK_VEC_FMA_D lanewise_fma<double>
#endif
// Not templates, so that a scalar operand (alpha) converts to a vector.
inline Vec<float> fma(Vec<float> a, Vec<float> b, Vec<float> c) { return WICK_VEC_FMA_F(a.v, b.v, c.v); }
inline Vec<double> fma(Vec<double> a, Vec<double> b, Vec<double> c) { return WICK_VEC_FMA_D(a.v, b.v, c.v); }
#undef WICK_VEC_FMA_F
#undef WICK_VEC_FMA_D

// gelu of floats with erf from Abramowitz and Stegun's formula 7.1.26 (absolute error below
// 1.5e-7), as PyTorch's CPU kernel computes it: SLEEF's erf, within 1 ULP, costs several times
// more. Doubles keep wick/math.h's gelu, on SLEEF's erf.
inline Vec<float> gelu(Vec<float> x) {
  using V = Vec<float>;
  const V z = x * V(0.70710678118654752440f), a = abs(z);
  const V t = V(1.0f) / (V(0.3275911f) * a + V(1.0f));
  const V poly = t * (V(0.254829592f) + t * (V(-0.284496736f) + t * (V(1.421413741f) +
                                                                      t * (V(-1.453152027f) + t * V(1.061405429f)))));
  const V erf_a = V(1.0f) - poly * exp(-(a * a));
  return V(0.5f) * x * (V(1.0f) + select(z < V(0.0f), -erf_a, erf_a));
}

// Loads and stores of Vec<C>::kSize elements of a storage type whose compute type is C, at any alignment.
template <typename C>
Vec<C> load(const C* p) {
  Vec<C> r;
  std::memcpy(&r.v, p, sizeof r.v);
  return r;
}
template <typename C>
void store(C* p, Vec<C> x) {
  std::memcpy(p, &x.v, sizeof x.v);
}

// float16 through the F16C conversions where the target has them (round to nearest even, as Half does).
inline Vec<float> load(const Half* p) {
#if WICK_VEC_TIER == 3
  return _mm512_maskz_cvtph_ps(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
#elif WICK_VEC_TIER == 2 && defined(__F16C__)
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#elif WICK_VEC_TIER == 1 && defined(__F16C__)
  return _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
#else
  Vec<float> r;
  for (int i = 0; i < Vec<float>::kSize; ++i) r.v[i] = float(p[i]);
  return r;
#endif
}

inline void store(Half* p, Vec<float> x) {
#if WICK_VEC_TIER > 0
  [[maybe_unused]] constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
#endif
#if WICK_VEC_TIER == 3
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_maskz_cvtps_ph(0xffff, x.v, kRound));
#elif WICK_VEC_TIER == 2 && defined(__F16C__)
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(x.v, kRound));
#elif WICK_VEC_TIER == 1 && defined(__F16C__)
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_cvtps_ph(x.v, kRound));
#else
  for (int i = 0; i < Vec<float>::kSize; ++i) p[i] = Half(x.v[i]);
#endif
}

// bfloat16 is the top half of a float: widening is a shift; narrowing rounds as BFloat16 does.
typedef uint16_t BFloat16Bits __attribute__((vector_size(kBytes / 2)));
using FloatBits = Native<uint32_t>::type;

inline Vec<float> load(const BFloat16* p) {
  BFloat16Bits h;
  std::memcpy(&h, p, sizeof h);
  return reinterpret_cast<Vec<float>::Raw>(__builtin_convertvector(h, FloatBits) << 16);
}

inline void store(BFloat16* p, Vec<float> x) {
  const FloatBits u = reinterpret_cast<FloatBits>(x.v);
  const FloatBits rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const FloatBits bits = (u & 0x7fffffffu) > 0x7f800000u ? (u >> 16) | 0x40u : rounded;  // NaN stays quiet NaN
  const BFloat16Bits h = __builtin_convertvector(bits, BFloat16Bits);
  std::memcpy(p, &h, sizeof h);
}

// A mask as bools, one byte of 0 or 1 per lane.
template <typename C>
void store(bool* p, Mask<C> m) {
  typedef uint8_t Bytes __attribute__((vector_size(Vec<C>::kSize)));
  const Bytes b = __builtin_convertvector(m.v & 1, Bytes);
  std::memcpy(p, &b, sizeof b);
}

}  // namespace vec
WICK_CPU_LEVEL_END
}  // namespace wick
