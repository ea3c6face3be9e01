// core/src/cpu_reductions.h: the reductions' hot loops that are compiled once per CPU level, as the
// pointwise kernels are (Note [CPU levels] in wick/cpu/level.h), in core/src/cpu_reductions.cpp.
#pragma once

#include <cstdint>

namespace wick {

struct ReduceKernels {
  // Sums [i, i + a multiple of a block) of x and advances i: float_block_sum in reducers.h.
  double (*float_block_sum)(const float* x, int64_t n, int64_t& i);
};

}  // namespace wick
