// core/include/wick/cpu/entries.h: the entry points of the CPU kernels, declared in the namespace of
// the level being compiled (Note [CPU levels] in wick/cpu/level.h). Included only by the units of a
// level: wick/cpu/loops.h defines these templates, the generated per-dtype units instantiate them
// and the generated tables take their addresses.
#pragma once

#include "wick/cpu/level.h"
#include "wick/kernel.h"

#if !defined(WICK_CPU_LEVEL)
#error "wick/cpu/entries.h is compiled only for a CPU level (core/CMakeLists.txt sets WICK_CPU_LEVEL)"
#endif

namespace wick {
WICK_CPU_LEVEL_BEGIN

template <typename Op> void cpu_pointwise_kernel(TensorIter& iter, const Scalar* scalars);
template <typename Op> void cpu_pointwise_run(char* const* data, const int64_t* strides, int64_t n,
                                              const Scalar* scalars);
template <typename Dst> void cpu_copy_kernel(TensorIter& iter);

WICK_CPU_LEVEL_END
}  // namespace wick
