// core/include/wick/cpu/level.h: the namespace of the CPU level a unit is compiled for, and the
// tables through which the rest of the library reaches each level's kernels.
//
// Note [CPU levels]
// ~~~~~~~~~~~~~~~~~
// The library is compiled for the architecture's baseline; the CPU kernels (the
// pointwise loops and copies of generated/kernels/shard<N>/cpu_*.cpp, the
// reductions' loops over contiguous runs of core/src/cpu_reductions.cpp, randn's
// of cpu_random.cpp) are compiled once per level: for the compiler's default
// (x86-64), -march=x86-64-v3 or x86-64-v4, and the level is chosen once when the
// library loads (cpu_capability()). Callers index per-level tables by
// detail::cpu_level: each op's PointwiseKernels holds one CpuKernels per level,
// kCpuCopyKernels one table per level, and so on, so a call pays one more load
// than a build for one level, and nothing per element.
//
// The trap is the one-definition rule. A unit emits every inline function and
// template it uses but does not inline (a Half conversion, Scalar::to, a
// lambda of parallel_for, a math.h function) as a weak symbol, and the linker
// keeps one copy for every caller. If an AVX-512 unit and a baseline unit both
// emit one, the copy kept may be the AVX-512 one, and the library then dies of
// SIGILL on a CPU without AVX-512 in code that has nothing to do with the
// kernels. Two things make this impossible rather than unlikely:
//
// - Everything the kernel headers define (wick/cpu/vec.h, vec_double.h,
//   loops.h, the generated functors and tables) lives in an inline namespace
//   named for the level (WICK_CPU_LEVEL_BEGIN: wick::cpu_avx2::vec::Vec...),
//   so their symbols differ between levels by name.
// - That cannot reach what they share with the rest of the library (half.h,
//   math.h, scalar.h, tensor_iter.h, parallel.h, the standard library). So
//   core/CMakeLists.txt links each level's objects into one relocatable
//   object (ld -r --force-group-allocation: its COMDAT groups resolved within
//   the level) and makes every symbol it defines local except its tables
//   (objcopy --keep-global-symbol, wick::<level>::*cpu_kernels). A level's
//   weak copies then serve its own code only; the library's units, compiled
//   for the baseline, emit and use their own. What a level needs from the
//   library proper (TensorIter::for_each, OpenMP, SLEEF) stays an undefined
//   reference, resolved to code compiled for the baseline or the level.
//
// A level's code runs only once its tables were chosen, hence only on a CPU
// that has the level, and that holds for its local copies too: an exception
// that a kernel throws carries its level's copy of the vtable, and the library
// that catches it may call into that copy, on the CPU that threw it.
//
// tests/python/kernels/test_cpu_levels.py checks the result in the built
// library: a level object defines no global or weak symbol but its own
// tables, and no code outside the AVX2 and AVX-512 levels uses a 256- or
// 512-bit register. A level's objects must not hold state shared with the
// library (a function-local static, an inline variable): made local, it would
// be a copy per level.
#pragma once

#include "wick/cpu/capability.h"

#if defined(WICK_CPU_LEVEL)  // set by core/CMakeLists.txt for the units of a level: cpu_avx2...
#define WICK_CPU_LEVEL_BEGIN inline namespace WICK_CPU_LEVEL {
#define WICK_CPU_LEVEL_END }
#else
#define WICK_CPU_LEVEL_BEGIN
#define WICK_CPU_LEVEL_END
#endif

// X(level namespace, args...) for the level of each entry of a per-level table, in the order of
// CpuCapability; a build for one level (-DWICK_CPU_DISPATCH=OFF) puts its cpu_native everywhere.
#if !defined(WICK_CPU_DISPATCH)
#error "wick/cpu/level.h is for the units of wick_core, which core/CMakeLists.txt compiles with WICK_CPU_DISPATCH"
#elif WICK_CPU_DISPATCH && defined(__x86_64__)
#define WICK_FOR_EACH_CPU_LEVEL(X, ...) X(cpu_default, __VA_ARGS__) X(cpu_avx2, __VA_ARGS__) X(cpu_avx512, __VA_ARGS__)
#elif WICK_CPU_DISPATCH
#define WICK_FOR_EACH_CPU_LEVEL(X, ...) X(cpu_default, __VA_ARGS__)
#elif defined(__x86_64__)
#define WICK_FOR_EACH_CPU_LEVEL(X, ...) X(cpu_native, __VA_ARGS__) X(cpu_native, __VA_ARGS__) X(cpu_native, __VA_ARGS__)
#else
#define WICK_FOR_EACH_CPU_LEVEL(X, ...) X(cpu_native, __VA_ARGS__)
#endif

// For WICK_FOR_EACH_CPU_LEVEL: declares a level's table `name` of n `type`s; the address of its
// entry i, as an initialiser.
#define WICK_CPU_LEVEL_TABLE(level, type, name, n) namespace level { extern const type name[n]; }
#define WICK_CPU_LEVEL_ENTRY(level, name, i) &level::name[i],
