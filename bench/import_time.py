"""bench/import_time.py: how long `import wick` takes, beside `import numpy` and `import torch`.

    PYTHONPATH=build/python /usr/bin/python3 bench/import_time.py [--runs 21]

Each import runs in a fresh interpreter under `-X importtime`, which reports the
microseconds each module took, its imports included; the figure is the import's own
line, so the interpreter's start-up (site, encodings) is left out. Beside it, the CPU
time of the importing thread (time.thread_time), which a busy machine changes much
less than the wall time. The table shows the median and the fastest of the runs,
interleaved so that a busy moment hits every module alike.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
from typing import Dict, List, Tuple

_LINE = re.compile(r"^import time:\s+(?P<self>\d+) \|\s+(?P<cumulative>\d+) \| (?P<name>.*)$")


def import_ms(module: str) -> Tuple[float, float]:
    """(wall, CPU) milliseconds of `import <module>` in a fresh interpreter, its own imports included."""
    code = f"import time; t = time.thread_time(); import {module}; print(time.thread_time() - t)"
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", code],
                         capture_output=True, text=True, env=os.environ, check=True)
    for line in run.stderr.splitlines():
        m = _LINE.match(line)
        if m and m["name"] == module:  # top level: not indented
            return int(m["cumulative"]) / 1000, float(run.stdout) * 1000
    raise RuntimeError(f"no importtime line for {module}:\n{run.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="fresh interpreters per module (default: 21)")
    args = parser.parse_args()
    modules = [m for m in ("wick", "numpy", "torch") if importlib.util.find_spec(m) is not None]
    if "wick" not in modules:
        sys.exit("bench/import_time.py: wick is not importable; set PYTHONPATH=build/python")
    for m in modules:  # a first import compiles the .pyc files; it is not what users see
        import_ms(m)
    times: Dict[str, List[Tuple[float, float]]] = {m: [] for m in modules}
    for _ in range(args.runs):
        for m in modules:
            times[m].append(import_ms(m))
    print(f"{args.runs} runs each, Python {sys.version.split()[0]}, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| import | wall, median | wall, fastest | CPU, median |")
    print("| --- | --- | --- | --- |")
    for m in modules:
        wall = [w for w, _ in times[m]]
        cpu = [c for _, c in times[m]]
        print(f"| `import {m}` | {statistics.median(wall):.1f} ms | {min(wall):.1f} ms | "
              f"{statistics.median(cpu):.1f} ms |")


if __name__ == "__main__":
    main()
