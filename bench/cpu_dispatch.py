"""The cost of choosing the CPU level at load time: this build against one built for this machine alone.

    PYTHONPATH=build/python /usr/bin/python3 bench/cpu_dispatch.py --against-build build-native [--threads N]

where build-native was configured with -DWICK_CPU_DISPATCH=OFF -DWICK_CPU_ARCH=native (Note [CPU
levels] in core/include/wick/cpu/level.h). Each round runs one worker process per build tree,
alternating, on the same number of threads; a worker times every case (best of its repeats) and
the best round is kept for each build. The ratio is this build's time over the other's: 1.00 is no
cost. The cases: pointwise on contiguous and strided operands, a converting copy, sum, and one call
on one element (where the extra load of the level's table would show).
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

# Each case: (name, setup, statement), timed in the worker with timeit, `wick` imported.
N = 4 * 2**20
CASES = [
    ("add, contiguous", f"a = wick.rand({N}); b = wick.rand({N}); c = wick.empty({N})", "wick.add(a, b, out=c)"),
    ("add, strided", "a = wick.rand(2048, 2048).t(); b = wick.rand(2048, 2048); c = wick.empty(2048, 2048)",
     "wick.add(a, b, out=c)"),
    ("exp, contiguous", f"a = wick.rand({N}); c = wick.empty({N})", "wick.exp(a, out=c)"),
    ("mul bfloat16", f"a = wick.rand({N}).bfloat16(); c = wick.empty({N}, dtype=wick.bfloat16)",
     "wick.mul(a, a, out=c)"),
    ("copy float32 to float16", f"a = wick.rand({N}); c = wick.empty({N}, dtype=wick.float16)", "c.copy_(a)"),
    ("copy, transposing", "a = wick.rand(2048, 2048); c = wick.empty(2048, 2048)", "c.copy_(a.t())"),
    ("sum float32", f"a = wick.rand({N})", "a.sum()"),
    ("add_ on 1 element", "a = wick.rand(1)", "a.add_(1)"),
]

WORKER = r"""
import json, sys, timeit
import wick
cases = json.loads(sys.argv[1])
result = {"capability": wick.backends.cpu.get_cpu_capability() if hasattr(wick, "backends") else "?"}
for name, setup, statement in cases:
    timer = timeit.Timer(statement, setup, globals={"wick": wick})
    calls, _ = timer.autorange()  # enough calls for 0.2 s
    result[name] = min(timer.repeat(5, calls)) / calls
print(json.dumps(result))
"""


def run_worker(build, threads):
    env = dict(os.environ, PYTHONPATH=str(Path(build) / "python"), OMP_NUM_THREADS=str(threads))
    cases = json.dumps([list(c) for c in CASES])
    out = subprocess.run([sys.executable, "-c", WORKER, cases], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def show(seconds):
    for unit, scale in (("s", 1), ("ms", 1e3), ("us", 1e6), ("ns", 1e9)):
        if seconds * scale >= 1:
            return f"{seconds * scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build", help="this build tree (default: build)")
    parser.add_argument("--against-build", required=True, help="the build tree to compare with")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="threads for both (default: one per core)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; the best is kept (default 5)")
    args = parser.parse_args()
    best = {args.build: {}, args.against_build: {}}
    for _ in range(args.rounds):
        for build in best:
            for name, value in run_worker(build, args.threads).items():
                best[build][name] = value if name == "capability" else min(value, best[build].get(name, value))
    this, other = best[args.build], best[args.against_build]
    print(f"{args.build} ({this['capability']}) against {args.against_build} ({other['capability']}), "
          f"{args.threads} threads, best of {args.rounds} rounds\n")
    print(f"| case | {args.build} | {args.against_build} | ratio |")
    print("| --- | --- | --- | --- |")
    for name, _, _ in CASES:
        print(f"| {name} | {show(this[name])} | {show(other[name])} | {this[name] / other[name]:.2f} |")


if __name__ == "__main__":
    main()
