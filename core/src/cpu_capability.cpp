// core/src/cpu_capability.cpp: choosing the CPU level of the kernels once, when the library loads
// (Note [CPU levels] in wick/cpu/level.h).
#include "wick/cpu/capability.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace wick {
namespace {

constexpr const char* kNames[] = {"DEFAULT", "AVX2", "AVX512"};
// The values of WICK_CPU_CAPABILITY, as PyTorch's ATEN_CPU_CAPABILITY takes them.
constexpr const char* kEnvValues[] = {"default", "avx2", "avx512"};

#if WICK_CPU_DISPATCH
// The best level this CPU and its OS can run. __builtin_cpu_supports reports a feature only where
// the OS saves its registers (XGETBV), and a level needs every feature its -march implies.
CpuCapability supported() {
#if defined(__x86_64__)
  __builtin_cpu_init();  // may run before libgcc's own constructor
  const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("f16c") && __builtin_cpu_supports("bmi") &&
                  __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("lzcnt") &&
                  __builtin_cpu_supports("movbe");
  const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl");
  return v4 ? CpuCapability::AVX512 : v3 ? CpuCapability::AVX2 : CpuCapability::Default;
#else
  return CpuCapability::Default;
#endif
}

// The level to run: WICK_CPU_CAPABILITY's where it names one this CPU runs, else the best. A value
// that is not a level's name, or a level above the CPU's, is refused with a warning on stderr
// (the Python warning handler is not installed yet at load time), once, as this runs once; the
// kernels then run at the best level the CPU supports, so no setting can make them crash.
CpuCapability choose() {
  const CpuCapability best = supported();
  const char* env = std::getenv("WICK_CPU_CAPABILITY");
  if (!env || !*env) return best;
  for (int i = 0; i < kNumCpuLevels; ++i) {
    if (std::strcmp(env, kEnvValues[i]) != 0) continue;
    if (CpuCapability(i) <= best) return CpuCapability(i);
    std::fprintf(stderr, "wick: WICK_CPU_CAPABILITY=%s: this CPU does not support %s; using %s\n", env, kNames[i],
                 kNames[int(best)]);
    return best;
  }
  std::fprintf(stderr, "wick: WICK_CPU_CAPABILITY=%s is not a CPU level of this build (", env);
  for (int i = 0; i < kNumCpuLevels; ++i) std::fprintf(stderr, "%s%s", i ? ", " : "", kEnvValues[i]);
  std::fprintf(stderr, "); using %s\n", kNames[int(best)]);
  return best;
}
#else
// One level, compiled for the whole library's -march (WICK_CPU_ARCH): named for the widest
// vectors it has; WICK_CPU_CAPABILITY has nothing to choose from.
CpuCapability choose() {
  if (const char* env = std::getenv("WICK_CPU_CAPABILITY"); env && *env) {
    std::fprintf(stderr, "wick: WICK_CPU_CAPABILITY=%s is ignored: this build has one CPU level\n", env);
  }
#if defined(__AVX512F__)
  return CpuCapability::AVX512;
#elif defined(__AVX2__) && defined(__FMA__)
  return CpuCapability::AVX2;
#else
  return CpuCapability::Default;
#endif
}
#endif

}  // namespace

CpuCapability cpu_capability() {
  static const CpuCapability chosen = choose();
  return chosen;
}

const char* cpu_capability_name(CpuCapability level) { return kNames[int(level)]; }

namespace detail {
extern const int cpu_level = int(cpu_capability());
}  // namespace detail

}  // namespace wick
