// tests/cpp/test_cpu_capability.cpp: the CPU level the kernels run at (Note [CPU levels] in
// wick/cpu/level.h), as WICK_CPU_CAPABILITY asks: ctest runs these tests at each level.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <string>

#include "wick/cpu/capability.h"

namespace wick {
namespace {

TEST(CpuCapability, NamesAreTorchs) {
  EXPECT_STREQ(cpu_capability_name(CpuCapability::Default), "DEFAULT");
  EXPECT_STREQ(cpu_capability_name(CpuCapability::AVX2), "AVX2");
  EXPECT_STREQ(cpu_capability_name(CpuCapability::AVX512), "AVX512");
  EXPECT_LT(int(cpu_capability()), kNumCpuLevels);
  EXPECT_EQ(detail::cpu_level, int(cpu_capability()));
}

// A level the CPU runs is taken as asked, one it lacks gives the best it has: never a higher one.
// (tests/python/kernels/test_cpu_levels.py checks the exact level against the CPU's flags.)
TEST(CpuCapability, FollowsTheEnvironment) {
  const char* env = std::getenv("WICK_CPU_CAPABILITY");
  if (!env) GTEST_SKIP() << "ctest sets WICK_CPU_CAPABILITY in core_kernels_<level>";
  std::string asked(env);
  for (char& c : asked) c = char(std::toupper(static_cast<unsigned char>(c)));
  int level = 0;
  while (level < kNumCpuLevels && asked != cpu_capability_name(CpuCapability(level))) ++level;
  ASSERT_LT(level, kNumCpuLevels) << "not a level: " << env;
  EXPECT_LE(int(cpu_capability()), level);
  if (level == 0) {
    EXPECT_EQ(cpu_capability(), CpuCapability::Default);
  }
}

}  // namespace
}  // namespace wick
