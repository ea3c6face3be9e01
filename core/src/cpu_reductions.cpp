// core/src/cpu_reductions.cpp: the reductions' hot loops, compiled once per CPU level into its
// namespace (Note [CPU levels] in wick/cpu/level.h); reducers.h calls the chosen level's.
#include "cpu_reductions.h"

#include <array>

#include "wick/cpu/vec_double.h"

namespace wick {
WICK_CPU_LEVEL_BEGIN
namespace {

// A float32 sum as PyTorch accumulates it, in float, but over blocks short enough to stay
// accurate: each lane of four float vectors adds four elements of a block of sixteen vectors,
// and the blocks' lanes are added in double. So at most 3 float roundings reach an element; and
// a float sum runs as fast as memory allows, which the same sum widened element by element to
// double does not, on one core. Sums [i, i + a multiple of the block) of x and advances i.
double float_block_sum(const float* x, int64_t n, int64_t& i) {
  using VF = vec::Vec<float>;
  using VD = vec::Vec<double>;
  constexpr int64_t W = VF::kSize;
  std::array<VD, 2> total{VD(0.0), VD(0.0)};
  for (; i + 16 * W <= n; i += 16 * W) {
    std::array<VF, 4> acc;
    for (int64_t k = 0; k < 4; ++k) acc[size_t(k)] = vec::load(x + i + k * W);
    for (int64_t j = 4; j < 16; j += 4) {
      for (int64_t k = 0; k < 4; ++k) acc[size_t(k)] = acc[size_t(k)] + vec::load(x + i + (j + k) * W);
    }
    for (const VF& a : acc) {
      const auto halves = vec::widen(a);
      total[0] = total[0] + halves[0];
      total[1] = total[1] + halves[1];
    }
  }
  const VD lanes = total[0] + total[1];
  double sum = 0;
  for (int l = 0; l < VD::kSize; ++l) sum += lanes.v[l];
  return sum;
}

}  // namespace

extern const ReduceKernels reduce_cpu_kernels[1];
const ReduceKernels reduce_cpu_kernels[1] = {{&float_block_sum}};

WICK_CPU_LEVEL_END
}  // namespace wick
