"""bench/shards.py: what the number of shards (Note [Shards] in codegen/dest/common.py) costs.

    /usr/bin/python3 bench/shards.py [--build-dir build] [--shards 1 2 4 8]

For each count, generates into a scratch directory (the count set before the generator
loads) and compiles every generated unit there, one at a time, with the flags that the
configured build dir uses for them (CUDA units only if it has WICK_CUDA on). It records
the CPU time of each compile (user + sys of the compiler and everything it ran), so the
figures mean the same on a busy machine, and prints per count: the units and CPU seconds
of each kind (what a full build spends on generated code), and what editing exp's
expression recompiles (the units of exp's shard for exp's dtypes, Note [Shards]).
"""
from __future__ import annotations

import argparse
import re
import resource
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]
GENERATED = REPO / "generated"
# The kinds of generated unit, by path; each is compiled with the build's command for its first unit.
KINDS = {
    "CPU kernels": re.compile(r"kernels/shard\d+/cpu_\w+\.cpp$"),
    "CUDA kernels": re.compile(r"kernels/shard\d+/cuda_\w+\.cu$"),
    "ops": re.compile(r"core/\w+\.cpp$"),
    "bindings": re.compile(r"python/\w+\.cpp$"),
}
# The shard of exp and the dtypes of its kernels, for a number of shards (argv[1]).
EXP = """
import sys
from codegen import reader
from codegen.dest.common import Layout
exp = {d.name: d for d in reader.load(sys.argv[2:])}["exp"]
print(Layout(int(sys.argv[1])).shard_of("exp"), *sorted({str(t) for b in exp.impl.dtypes.values() for t in b}))
"""


def command_template(build_dir: Path, unit: str) -> List[str]:
    """The build's compile command for generated/<unit>, without its dependency-file flags."""
    target = next(t for t in subprocess.run(["ninja", "-C", str(build_dir), "-t", "targets", "all"],
                                            capture_output=True, text=True, check=True).stdout.splitlines()
                  if t.split(":")[0].endswith(f"generated/{unit}.o"))
    command = subprocess.run(["ninja", "-C", str(build_dir), "-t", "commands", target.split(":")[0]],
                             capture_output=True, text=True, check=True).stdout.splitlines()[-1]
    words = shlex.split(command)
    kept: List[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w in ("-MT", "-MF", "-o"):
            skip = True
        elif w != "-MD":
            kept.append(w)
    return kept


def cpu_seconds(argv: List[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(argv, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"bench/shards.py: compile failed: {shlex.join(argv)}\n{run.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def measure(shards: int, build_dir: Path, cuda: bool, scratch: Path) -> Dict[str, float]:
    out = scratch / f"shards{shards}"
    subprocess.run([sys.executable, "-m", "codegen", "--shards", str(shards), "--out", str(out)], cwd=REPO,
                   check=True)
    templates: Dict[str, Tuple[List[str], str]] = {}
    costs: Dict[str, float] = {}
    for path in sorted(p.relative_to(out).as_posix() for p in out.rglob("*.c*")):
        kind = next((k for k, pattern in KINDS.items() if pattern.search(path)), None)
        if kind is None or (kind == "CUDA kernels" and not cuda):
            continue
        if kind not in templates:
            templates[kind] = (command_template(build_dir, path), path)
        words, model = templates[kind]
        argv = [w.replace(str(GENERATED / model), str(out / path)).replace(str(GENERATED), str(out))
                for w in words] + ["-o", str(scratch / "unit.o")]
        costs[path] = cpu_seconds(argv)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default="build", type=Path, help="a configured build dir (default: build)")
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2, 4, 8])
    args = parser.parse_args()
    build_dir = args.build_dir.resolve()
    cuda = "WICK_CUDA:BOOL=ON" in (build_dir / "CMakeCache.txt").read_text(encoding="utf-8")
    declarations = [str(p) for p in sorted((REPO / "declarations").glob("*.yaml"))]
    print("| shards | " + " | ".join(k for k in KINDS if cuda or k != "CUDA kernels")
          + " | all generated units | exp's expression edited |")
    print("| --- " * (len(KINDS) + 3 - int(not cuda)) + "|")
    with tempfile.TemporaryDirectory() as scratch:
        for shards in args.shards:
            costs = measure(shards, build_dir, cuda, Path(scratch))
            exp_shard, *exp_dtypes = subprocess.run([sys.executable, "-c", EXP, str(shards), *declarations], cwd=REPO,
                                                    capture_output=True, text=True, check=True).stdout.split()
            edited = [p for p in costs if any(p in (f"kernels/shard{exp_shard}/cpu_{t}.cpp",
                                                    f"kernels/shard{exp_shard}/cuda_{t}.cu") for t in exp_dtypes)]
            cells = []
            for kind, pattern in KINDS.items():
                if kind == "CUDA kernels" and not cuda:
                    continue
                mine = [c for p, c in costs.items() if pattern.search(p)]
                cells.append(f"{len(mine)} units, {sum(mine):.0f} s")
            print(f"| {shards} | " + " | ".join(cells) + f" | {len(costs)} units, {sum(costs.values()):.0f} s | "
                  f"{len(edited)} units, {sum(costs[p] for p in edited):.0f} s |", flush=True)


if __name__ == "__main__":
    main()
