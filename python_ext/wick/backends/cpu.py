"""wick.backends.cpu: the CPU level wick's kernels run at."""
from wick import _C


def get_cpu_capability() -> str:
    """The CPU level the kernels run at: "DEFAULT", "AVX2" or "AVX512", as
    torch.backends.cpu.get_cpu_capability(). Chosen when wick loads: the best the CPU
    supports, or the one the environment variable WICK_CPU_CAPABILITY (default, avx2,
    avx512) names."""
    return _C._get_cpu_capability()
