// core/include/wick/macros.h: portability macros shared by host and CUDA code.
#pragma once

#if defined(__CUDACC__)
#define WICK_HOST_DEVICE __host__ __device__
#else
#define WICK_HOST_DEVICE
#endif

#define WICK_LIKELY(x) __builtin_expect(!!(x), 1)
#define WICK_UNLIKELY(x) __builtin_expect(!!(x), 0)
