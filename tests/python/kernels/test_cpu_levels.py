"""The CPU levels of the kernels (Note [CPU levels] in core/include/wick/cpu/level.h): the level
chosen at load time and WICK_CPU_CAPABILITY, checked against the CPU's own flags; and, in the built
library, that no level shares a symbol with another or with the rest of the library, and that only
the AVX2 and AVX-512 levels use wide registers."""
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import wick

LEVELS = ["default", "avx2", "avx512"]
# The flags of /proc/cpuinfo that each level's -march implies (x86-64-v3, x86-64-v4). LZCNT is left
# out: Linux lists it as `abm`, which some virtual CPUs omit while CPUID has it.
FLAGS = {"avx2": {"avx2", "fma", "f16c", "bmi1", "bmi2", "movbe"},
         "avx512": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}}

x86_only = pytest.mark.skipif(platform.machine() != "x86_64", reason="the levels above the default are x86-64's")


def supported_levels():
    """The levels this CPU runs, read from /proc/cpuinfo rather than from wick."""
    flags = set()
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    levels = ["default"]
    if FLAGS["avx2"] <= flags:
        levels.append("avx2")
        if FLAGS["avx512"] <= flags:
            levels.append("avx512")
    return levels


def capability_with(value):
    """wick.backends.cpu.get_cpu_capability() and stderr in a fresh interpreter with WICK_CPU_CAPABILITY=value."""
    env = dict(os.environ)
    env.pop("WICK_CPU_CAPABILITY", None)
    if value is not None:
        env["WICK_CPU_CAPABILITY"] = value
    run = subprocess.run([sys.executable, "-c", "import wick; print(wick.backends.cpu.get_cpu_capability())"],
                         env=env, capture_output=True, text=True, check=True)
    return run.stdout.strip(), run.stderr


def level_objects():
    build = os.environ.get("WICK_BUILD_DIR")
    if not build:
        pytest.skip("needs WICK_BUILD_DIR, the build tree (ctest sets it)")
    return {p.stem[len("cpu_"):]: p for p in sorted((Path(build) / "core").glob("cpu_*.o"))}


def built_level_objects():
    """level_objects(), for the checks of the build, which the reruns at each level need not repeat."""
    if os.environ.get("WICK_CPU_CAPABILITY"):
        pytest.skip("a check of the build: the run without WICK_CPU_CAPABILITY makes it")
    return level_objects()


def dispatching():
    return "native" not in level_objects()


@x86_only
def test_this_process_runs_the_level_asked_for():
    # ctest runs the kernel tests again at each level (tests/CMakeLists.txt): this is the check
    # that the level did change, or fell back to the best one where the CPU lacks it.
    asked = os.environ.get("WICK_CPU_CAPABILITY")
    if not asked or not dispatching():
        pytest.skip("runs with WICK_CPU_CAPABILITY set, in a build with several levels")
    best = supported_levels()[-1]
    expected = asked if asked in supported_levels() else best
    assert wick.backends.cpu.get_cpu_capability() == expected.upper()


@x86_only
def test_the_best_level_is_chosen_and_each_can_be_forced():
    if not dispatching():
        pytest.skip("a build for one level")
    levels = supported_levels()
    assert capability_with(None) == (levels[-1].upper(), "")
    for level in levels:
        assert capability_with(level) == (level.upper(), "")


@x86_only
def test_a_level_the_cpu_lacks_or_an_unknown_name_falls_back_with_a_warning():
    if not dispatching():
        pytest.skip("a build for one level")
    best = supported_levels()[-1].upper()
    result, err = capability_with("sse9")
    assert result == best
    assert err == f"wick: WICK_CPU_CAPABILITY=sse9 is not a CPU level of this build (default, avx2, avx512); using {best}\n"
    missing = [level for level in LEVELS if level not in supported_levels()]
    for level in missing:
        result, err = capability_with(level)
        assert (result, err) == (best, f"wick: WICK_CPU_CAPABILITY={level}: this CPU does not support "
                                       f"{level.upper()}; using {best}\n")


def defined_symbols(path):
    """(kind, name) of every symbol that `path` defines, by nm."""
    out = subprocess.run(["nm", "--defined-only", str(path)], capture_output=True, text=True, check=True).stdout
    return [tuple(line.split()[-2:]) for line in out.splitlines() if len(line.split()) >= 2]


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm")
def test_a_level_defines_no_global_symbol_but_its_tables():
    objects = built_level_objects()
    assert objects, "no level objects in the build tree"
    for name, path in objects.items():
        ns = f"cpu_{name}"
        table = re.compile(rf"_ZN4wick{len(ns)}{ns}\d+(shard\d+|copy|reduce|random)_cpu_kernelsE")
        # Lowercase kinds are local; weak (W, V), unique (u) and every uppercase kind are not.
        exported = [sym for kind, sym in defined_symbols(path) if kind in "uvw" or kind.isupper()]
        assert exported and all(table.fullmatch(sym) for sym in exported), (name, exported)


def registers(library):
    """{member: the vector registers its code names, of 'xmm', 'ymm', 'zmm'} of an archive, by objdump."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(library)], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    member = None
    for line in out.splitlines():
        header = re.match(r"(\S+\.o):\s+file format", line)
        if header:
            member = found.setdefault(header.group(1), set())
        elif member is not None:
            member.update(re.findall(r"%([xyz]mm)\d", line))
    return found


@x86_only
@pytest.mark.skipif(shutil.which("objdump") is None, reason="needs objdump")
def test_only_the_wide_levels_use_wide_registers():
    objects = built_level_objects()
    if not dispatching():
        pytest.skip("a build for one level")
    assert set(objects) == set(LEVELS)
    found = registers(objects["default"].parent / "libwick_core.a")
    assert found["cpu_default.o"] == {"xmm"}
    assert found["cpu_avx2.o"] == {"xmm", "ymm"}
    assert "zmm" in found["cpu_avx512.o"]
    rest = {member: regs for member, regs in found.items() if not member.startswith("cpu_")}
    assert len(rest) > 30 and {member: regs - {"xmm"} for member, regs in rest.items() if regs - {"xmm"}} == {}
