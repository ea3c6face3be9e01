// core/include/wick/cpu/capability.h: the CPU level whose kernels run, chosen once when the library
// loads (Note [CPU levels] in wick/cpu/level.h).
#pragma once

#include <cstdint>

namespace wick {

// As PyTorch's CPU_CAPABILITY: the instruction sets a level's kernels are compiled for. Default is
// the architecture's baseline (SSE2 on x86-64), AVX2 is x86-64-v3 (AVX2, FMA, F16C, BMI1/2, LZCNT,
// MOVBE), AVX512 is x86-64-v4 (AVX-512 F, BW, CD, DQ, VL).
enum class CpuCapability : uint8_t { Default, AVX2, AVX512 };

// The levels whose kernels are built: kernel tables have one entry per level, indexed by
// CpuCapability (a build for one level fills every entry with it).
#if defined(__x86_64__)
constexpr int kNumCpuLevels = 3;
#else
constexpr int kNumCpuLevels = 1;
#endif

// The level the kernels run at: the best the CPU and the OS support, or the one that the
// environment variable WICK_CPU_CAPABILITY (default, avx2, avx512) asks for; see cpu_capability.cpp.
CpuCapability cpu_capability();
// "DEFAULT", "AVX2" or "AVX512", as torch.backends.cpu.get_cpu_capability() names them.
const char* cpu_capability_name(CpuCapability level);

namespace detail {
// int(cpu_capability()), the index into kernel tables; zero (Default, which every CPU of the
// architecture runs) until the library's static initialisers have run.
extern const int cpu_level;
}  // namespace detail

}  // namespace wick
