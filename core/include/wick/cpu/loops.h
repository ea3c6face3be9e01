// core/include/wick/cpu/loops.h: the CPU loops behind every pointwise kernel and copy.
//
// Included only by the generated per-dtype units, which instantiate these
// templates once per functor (see kernel.h) and per CPU level: all of it lives in
// the level's namespace (Note [CPU levels] in wick/cpu/level.h). A kernel splits its elements
// across threads (wick/cpu/parallel.h), walks each share as runs of the
// innermost dim (TensorIter::for_each), and computes each run with
// contiguous_run: all operands contiguous, through vectors where the functor's
// expression has a vector form (Note [Vectorised functors] in wick/cpu/vec.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "wick/cast.h"
#include "wick/cpu/entries.h"
#include "wick/cpu/parallel.h"
#include "wick/cpu/vec.h"
#include "wick/dispatch.h"
#include "wick/function_traits.h"

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace loops {

// Elements per block when operands must be staged: a multiple of every vector width.
constexpr int64_t kBlock = 256;
static_assert(kBlock % vec::Vec<int8_t>::kSize == 0, "a block holds whole vectors of the narrowest lanes");

template <typename Op> using out_t = typename function_traits<Op>::result_type;
template <typename Op, size_t I> using in_t = typename function_traits<Op>::template arg<I>;

template <typename T> constexpr bool is_16bit_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <typename Op> struct IsCast : std::false_type {};
template <typename Dst, typename Src> struct IsCast<CastOp<Dst, Src>> : std::true_type {};

template <typename T, size_t> using repeat_t = T;

// The result of Op::compute on vectors of its compute type, or void where it has none.
template <typename Op, typename Inputs, typename = void> struct VectorResult { using type = void; };
template <typename Op, size_t... I>
struct VectorResult<Op, std::index_sequence<I...>,
                    std::void_t<decltype(std::declval<const Op&>().compute(
                        std::declval<vec::Vec<repeat_t<typename Op::C, I>>>()...))>> {
  using type = decltype(std::declval<const Op&>().compute(std::declval<vec::Vec<repeat_t<typename Op::C, I>>>()...));
};

// Whether Op runs on vectors: a compute type with vectors, and an expression that gives a vector
// (a mask for a bool result) on vectors; integers and bools have comparisons alone (Note [Integer
// vectors] in wick/cpu/vec.h), so of their ops only those with a bool result qualify.
template <typename C>
constexpr bool has_vectors_v = std::is_same_v<C, float> || std::is_same_v<C, double> || std::is_integral_v<C>;
template <typename Op, typename = void> struct Vectorises : std::false_type {};
template <typename Op>
struct Vectorises<Op, std::enable_if_t<has_vectors_v<typename Op::C> && (function_traits<Op>::arity > 0)>> {
  using C = typename Op::C;
  using R = typename VectorResult<Op, std::make_index_sequence<function_traits<Op>::arity>>::type;
  static constexpr bool value = std::is_same_v<out_t<Op>, bool> ? std::is_same_v<R, vec::Mask<C>>
                                                                 : std::is_same_v<R, vec::Vec<C>>;
};

template <typename T> constexpr bool is_float_like_v = is_16bit_float_v<T> || std::is_same_v<T, float>;

// A conversion between a 16-bit float and any dtype goes through float vectors: in bulk.
// cast<Dst>(x) is cast<Dst>(float(x)) from a 16-bit float, and Dst(cast<float>(x)) to one, so
// between float and a 16-bit float a vector load and store do it all; other pairs go through a
// block of floats, filled and read back in separate passes (a vector read of a value just written
// in narrower pieces stalls on store forwarding).
template <typename Dst, typename Src>
void convert_run(Dst* out, const Src* src, int64_t n) {
  int64_t i = 0;
  if constexpr (!std::is_same_v<Dst, Src> && (is_16bit_float_v<Src> || is_16bit_float_v<Dst>)) {
    constexpr int64_t W = vec::Vec<float>::kSize;
    std::array<float, kBlock> wide;
    while (i + W <= n) {
      const int64_t m = std::min(kBlock, (n - i) / W * W);
      if constexpr (is_float_like_v<Src> && is_float_like_v<Dst>) {
        for (int64_t j = 0; j < m; j += W) vec::store(out + i + j, vec::load(src + i + j));
      } else if constexpr (is_16bit_float_v<Src>) {
        for (int64_t j = 0; j < m; j += W) vec::store(wide.data() + j, vec::load(src + i + j));
        for (int64_t j = 0; j < m; ++j) out[i + j] = cast<Dst>(wide[size_t(j)]);
      } else {
        for (int64_t j = 0; j < m; ++j) wide[size_t(j)] = cast<float>(src[i + j]);
        for (int64_t j = 0; j < m; j += W) vec::store(out + i + j, vec::load(wide.data() + j));
      }
      i += m;
    }
  }
  // The rest, and other pairs: a loop the compiler vectorises.
  for (; i < n; ++i) out[i] = cast<Dst>(src[i]);
}

// Fewer than one vector's worth of elements, operands and output stepping by any byte strides:
// gathered into one vector padded with zeros, so that each is computed by the same vector code
// as it would be in a longer run.
template <typename Op, size_t... I>
void partial_vector(const Op& op, char* out, int64_t out_step, const char* const* in, const int64_t* steps,
                    int64_t n, std::index_sequence<I...>) {
  constexpr int64_t W = vec::Vec<typename Op::C>::kSize;
  std::tuple<std::array<in_t<Op, I>, W>...> pad{};
  for (int64_t j = 0; j < n; ++j) {
    ((std::get<I>(pad)[size_t(j)] = *reinterpret_cast<const in_t<Op, I>*>(in[I] + j * steps[I])), ...);
  }
  std::array<out_t<Op>, W> result;
  vec::store(result.data(), op.compute(vec::load(std::get<I>(pad).data())...));
  for (int64_t j = 0; j < n; ++j) *reinterpret_cast<out_t<Op>*>(out + j * out_step) = result[size_t(j)];
}

// out[i] = op(in[0][i], in[1][i], ...) for i < n, every operand contiguous.
template <typename Op, size_t... I>
void contiguous_run(const Op& op, out_t<Op>* out, const std::tuple<const in_t<Op, I>*...>& in, int64_t n,
                    std::index_sequence<I...>) {
  if constexpr (IsCast<Op>::value) {
    convert_run(out, std::get<I>(in)..., n);
  } else if constexpr (Vectorises<Op>::value) {
    constexpr int64_t W = vec::Vec<typename Op::C>::kSize;
    int64_t i = 0;
    for (; i + W <= n; i += W) vec::store(out + i, op.compute(vec::load(std::get<I>(in) + i)...));
    if (i < n) {
      const char* from[] = {reinterpret_cast<const char*>(std::get<I>(in) + i)..., nullptr};
      const int64_t steps[] = {int64_t(sizeof(in_t<Op, I>))..., 0};
      partial_vector(op, reinterpret_cast<char*>(out + i), int64_t(sizeof(out_t<Op>)), from, steps, n - i,
                     std::index_sequence<I...>{});
    }
  } else {
    // Constant strides let the compiler vectorise this loop where the expression allows.
    for (int64_t i = 0; i < n; ++i) out[i] = op(std::get<I>(in)[i]...);
  }
}

// A block of staged operand values, left uninitialised: a std::tuple value-initialises its
// elements, and zeroing a tuple of std::arrays would cost more than a short run itself.
template <typename T> struct Block {
  Block() {}
  T values[kBlock];
};

// One run of n elements whose operands step by `strides` bytes: contiguous ones are read in
// place; broadcast (stride 0) and strided ones, and a strided output, go through blocks.
template <typename Op, size_t... I>
void cpu_loop(const Op& op, char** data, const int64_t* strides, int64_t n, std::index_sequence<I...> seq) {
  using Out = out_t<Op>;
  if constexpr (Vectorises<Op>::value) {
    if (n < vec::Vec<typename Op::C>::kSize) {  // as a 1-element tensor's: no staging
      partial_vector(op, data[0], strides[0], data + 1, strides + 1, n, seq);
      return;
    }
  }
  const bool out_direct = strides[0] == int64_t(sizeof(Out));
  const std::array<bool, sizeof...(I)> direct{(strides[I + 1] == int64_t(sizeof(in_t<Op, I>)))...};
  if (out_direct && (direct[I] && ...)) {
    contiguous_run(op, reinterpret_cast<Out*>(data[0]),
                   std::tuple<const in_t<Op, I>*...>(reinterpret_cast<const in_t<Op, I>*>(data[I + 1])...), n, seq);
    return;
  }
  std::tuple<Block<in_t<Op, I>>...> staged;
  std::array<Out, kBlock> result;
  // A broadcast operand is one value: fill its block once, as far as the run needs.
  [[maybe_unused]] const size_t filled = size_t(std::min(kBlock, n));
  ((strides[I + 1] == 0 ? void(std::fill_n(std::get<I>(staged).values, filled,
                                           *reinterpret_cast<const in_t<Op, I>*>(data[I + 1])))
                        : void()),
   ...);
  for (int64_t done = 0; done < n; done += kBlock) {
    const int64_t m = std::min(kBlock, n - done);
    [[maybe_unused]] const auto operand = [&](auto index) {
      constexpr size_t k = decltype(index)::value;
      using In = in_t<Op, k>;
      const int64_t stride = strides[k + 1];
      const char* p = data[k + 1] + done * stride;
      if (direct[k]) return reinterpret_cast<const In*>(p);
      auto& block = std::get<k>(staged);
      if (stride != 0) {
        for (int64_t j = 0; j < m; ++j) block.values[j] = *reinterpret_cast<const In*>(p + j * stride);
      }
      return static_cast<const In*>(block.values);
    };
    Out* out = out_direct ? reinterpret_cast<Out*>(data[0]) + done : result.data();
    contiguous_run(op, out, std::tuple<const in_t<Op, I>*...>(operand(std::integral_constant<size_t, I>{})...), m,
                   seq);
    if (!out_direct) {
      char* dst = data[0] + done * strides[0];
      for (int64_t j = 0; j < m; ++j) *reinterpret_cast<Out*>(dst + j * strides[0]) = result[size_t(j)];
    }
  }
}

// Note [Transposed operands]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A TensorIter's runs follow the output's innermost dim. An operand laid out the other way (x.t()
// copied into a row-major result, the copy of a permute, x.t() + x) then steps a whole row per
// element of a run: each run reads one element per cache line, and the lines are evicted (rows a
// power of two apart even share one cache set) before the next runs come back for their other
// elements. Such an iteration is walked in tiles of kTileSide runs of kTileSide elements, over the
// run dim and the band dim, the dim `across` along which that operand is contiguous. Each input
// contiguous along the bands but not along the runs is first staged: its tile is read a column at a
// time, whole cache lines in order, into a buffer where each of the tile's runs is contiguous, and
// the runs read it there. An output laid out along `across` (out.t().copy_(x)) swaps the two
// dims, so that runs follow the output and the inputs are the transposed ones. Only the order in
// which elements are computed changes; each is computed by the same code as in a plain run, so
// results are those of the plain walk.
constexpr int64_t kTileSide = 64;

// The dim along which some operand is contiguous while its runs are strided: -1 where there is none,
// or where the tensor is too small or the runs too short for tiles to pay.
inline int transposed_dim(const TensorIter& iter) {
  if (iter.ndim() < 2 || iter.numel() < 16 * kTileSide || iter.shape()[0] < 8) return -1;
  for (int k = 0; k < iter.noperands(); ++k) {
    const int64_t item = iter.itemsize(k), step = iter.strides(0)[k];
    if (step == 0 || step == item || step == -item) continue;
    for (int d = 1; d < iter.ndim(); ++d) {
      if (iter.strides(d)[k] == item && iter.shape()[d] >= 8) return d;
    }
  }
  return -1;
}

// One input's tile, staged so that each run of the tile is contiguous (Note [Transposed operands]).
template <typename T> struct alignas(64) Tile {
  Tile() {}  // left uninitialised, as Block
  T values[kTileSide * kTileSide];
};

// Every element of `iter` through `op` in tiles over dim 0 and `across` (Note [Transposed
// operands]); a task is a band of kTileSide along the band dim at one position of the other dims.
template <typename Op, size_t... I>
void run_tiled(const TensorIter& iter, const Op& op, int across, std::index_sequence<I...> seq) {
  constexpr int nops = int(sizeof...(I)) + 1;
  const bool swapped = iter.strides(across)[0] == iter.itemsize(0);  // the output is contiguous along `across`
  const int run_dim = swapped ? across : 0, band_dim = swapped ? 0 : across;
  const int64_t width = iter.shape()[size_t(run_dim)], height = iter.shape()[size_t(band_dim)];
  std::array<int64_t, nops> step, down, staged_step;  // byte strides along the runs and the bands
  for (int k = 0; k < nops; ++k) {
    step[size_t(k)] = iter.strides(run_dim)[k];
    down[size_t(k)] = iter.strides(band_dim)[k];
  }
  const std::array<bool, nops> staged{false, (down[I + 1] == int64_t(sizeof(in_t<Op, I>)) && step[I + 1] != 0 &&
                                              step[I + 1] != down[I + 1])...};
  for (int k = 0; k < nops; ++k) staged_step[size_t(k)] = staged[size_t(k)] ? down[size_t(k)] : step[size_t(k)];
  const int64_t bands = (height + kTileSide - 1) / kTileSide;
  const int64_t tasks = iter.numel() / (width * height) * bands;
  detail::parallel_for(tasks, std::max<int64_t>(1, detail::kGrainSize / (kTileSide * width)), [&](int64_t t0,
                                                                                                   int64_t t1) {
    std::tuple<Tile<in_t<Op, I>>...> tiles;
    std::array<char*, nops> band, run;
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t top = t % bands * kTileSide, rows = std::min(kTileSide, height - top);
      for (int k = 0; k < nops; ++k) band[size_t(k)] = iter.data(k) + top * down[size_t(k)];
      int64_t rest = t / bands;  // the position over the other dims, innermost first
      for (int d = 0; d < iter.ndim(); ++d) {
        if (d == run_dim || d == band_dim) continue;
        const int64_t at = rest % iter.shape()[size_t(d)];
        rest /= iter.shape()[size_t(d)];
        for (int k = 0; k < nops; ++k) band[size_t(k)] += at * iter.strides(d)[k];
      }
      for (int64_t left = 0; left < width; left += kTileSide) {
        const int64_t n = std::min(kTileSide, width - left);
        [[maybe_unused]] const auto stage = [&](auto index) {  // unused by ops without inputs
          constexpr size_t k = decltype(index)::value + 1;
          using In = in_t<Op, k - 1>;
          if (!staged[k]) return;
          In* tile = std::get<k - 1>(tiles).values;
          for (int64_t i = 0; i < n; ++i) {
            const In* column = reinterpret_cast<const In*>(band[k] + (left + i) * step[k]);
            for (int64_t row = 0; row < rows; ++row) tile[row * kTileSide + i] = column[row];
          }
        };
        (stage(std::integral_constant<size_t, I>{}), ...);
        for (int64_t row = 0; row < rows; ++row) {
          run[0] = band[0] + left * step[0] + row * down[0];
          ((run[I + 1] = staged[I + 1] ? reinterpret_cast<char*>(std::get<I>(tiles).values + row * kTileSide)
                                       : band[I + 1] + left * step[I + 1] + row * down[I + 1]),
           ...);
          cpu_loop(op, run.data(), staged_step.data(), n, seq);
        }
      }
    }
  });
}

// Every element of `iter` through `op`, split across threads (Note [Parallel grain]).
template <typename Op>
void run_parallel(const TensorIter& iter, const Op& op) {
  constexpr auto seq = std::make_index_sequence<function_traits<Op>::arity>{};
  if (const int across = transposed_dim(iter); across > 0) {
    run_tiled(iter, op, across, seq);
    return;
  }
  detail::parallel_for(iter.numel(), detail::kGrainSize, [&](int64_t begin, int64_t end) {
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) { cpu_loop(op, data, strides, n, seq); },
                  begin, end);
  });
}

}  // namespace loops

template <typename Op>
void cpu_pointwise_kernel(TensorIter& iter, const Scalar* scalars) {
  loops::run_parallel(iter, Op(scalars));
}

template <typename Op>
void cpu_pointwise_run(char* const* data, const int64_t* strides, int64_t n, const Scalar* scalars) {
  constexpr size_t arity = function_traits<Op>::arity;
  const Op op(scalars);
  detail::parallel_for(n, detail::kGrainSize, [&](int64_t begin, int64_t end) {
    std::array<char*, arity + 1> at;
    for (size_t k = 0; k <= arity; ++k) at[k] = data[k] + begin * strides[k];
    loops::cpu_loop(op, at.data(), strides, end - begin, std::make_index_sequence<arity>{});
  });
}

template <typename Dst>
void cpu_copy_kernel(TensorIter& iter) {
  dispatch(iter.dtype(1), [&](auto tag) {
    using Src = typename decltype(tag)::type;
    loops::run_parallel(iter, CastOp<Dst, Src>{});
  });
}

WICK_CPU_LEVEL_END
}  // namespace wick
