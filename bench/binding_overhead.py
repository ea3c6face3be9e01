"""Per-call cost of the binding layer, side by side, on 1-element operands.

    cmake --build build --target wick_bench_modules
    PYTHONPATH=build/python:build/bench /usr/bin/python3 bench/binding_overhead.py

Each row is one call; each column one implementation of it: wick, the
hand-written METH_FASTCALL limit (bench/limit_module.c), pybind11
(bench/pybind_module.cpp), NumPy and PyTorch. Rounds are interleaved and the
best of them kept, so a noisy machine slows every column alike; the ratios
are what to read. Every contender runs on one thread (1-element calls never
split across threads; this states it for all of them).
"""
import argparse
import os
import timeit

os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before the libraries load

import wick  # noqa: E402

try:
    import numpy as np  # noqa: E402
except ImportError:
    np = None
try:
    import torch  # noqa: E402
except ImportError:
    torch = None
try:
    import _bench_limit as limit  # noqa: E402
except ImportError:
    limit = None
try:
    import _bench_pybind as pyb  # noqa: E402
except ImportError:
    pyb = None


def candidates():
    """{row: {column: (statement, namespace)}}"""
    x, y = wick.ones(1), wick.ones(1)
    rows = {
        "x.dim()": {"wick": ("x.dim()", dict(x=x))},
        "x.add_(1)": {"wick": ("x.add_(1)", dict(x=x))},
        "add(x, y)": {"wick": ("add(x, y)", dict(add=wick.add, x=x, y=y))},
        "x[0]": {"wick": ("x[0]", dict(x=x))},
        "x.view(1)": {"wick": ("x.view(1)", dict(x=x))},
    }
    if limit:
        a, b = limit.Limit(), limit.Limit()
        for row, stmt in [("x.dim()", "a.dim()"), ("x.add_(1)", "a.add_(1)"), ("add(x, y)", "add(a, b)"),
                          ("x[0]", "a[0]"), ("x.view(1)", "a.view(1)")]:
            rows[row]["limit"] = (stmt, dict(a=a, b=b, add=limit.add))
    if pyb:
        a, b = pyb.Value(), pyb.Value()
        for row, stmt in [("x.dim()", "a.dim()"), ("x.add_(1)", "a.add_(1)"), ("add(x, y)", "add(a, b)"),
                          ("x[0]", "a[0]"), ("x.view(1)", "a.view(1)")]:
            rows[row]["pybind11"] = (stmt, dict(a=a, b=b, add=pyb.add))
    if np:
        a, b = np.ones(1, dtype=np.float32), np.ones(1, dtype=np.float32)
        for row, stmt in [("x.dim()", "a.ndim"), ("x.add_(1)", "a += 1"), ("add(x, y)", "add(a, b)"),
                          ("x[0]", "a[0]"), ("x.view(1)", "a.reshape(1)")]:
            rows[row]["numpy"] = (stmt, dict(a=a, b=b, add=np.add))
    if torch:
        a, b = torch.ones(1), torch.ones(1)
        for row, stmt in [("x.dim()", "a.dim()"), ("x.add_(1)", "a.add_(1)"), ("add(x, y)", "add(a, b)"),
                          ("x[0]", "a[0]"), ("x.view(1)", "a.view(1)")]:
            rows[row]["torch"] = (stmt, dict(a=a, b=b, add=torch.add))
    return rows


def measure(rows, rounds, number):
    best = {(r, c): float("inf") for r, cols in rows.items() for c in cols}
    for _ in range(rounds):
        for r, cols in rows.items():
            for c, (stmt, ns) in cols.items():
                # Names become locals of the timing loop, as in a function body.
                setup = "; ".join(f"{k} = ns[{k!r}]" for k in ns)
                t = timeit.timeit(stmt, setup=setup, globals={"ns": ns}, number=number) / number * 1e9
                best[r, c] = min(best[r, c], t)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=20000)
    args = parser.parse_args()
    if torch:
        torch.set_num_threads(1)
    rows = candidates()
    best = measure(rows, args.rounds, args.number)
    columns = ["wick", "limit", "pybind11", "numpy", "torch"]
    print(f"{'call':<12}" + "".join(f"{c:>10}" for c in columns) + f"{'wick/limit':>12}{'numpy/wick':>12}{'torch/wick':>12}")
    for r, cols in rows.items():
        cells = "".join(f"{best[r, c]:>8.0f}ns" if c in cols else f"{'-':>10}" for c in columns)
        w = best[r, "wick"]
        ratio = lambda c, rev=False: (f"{(w / best[r, c]) if not rev else (best[r, c] / w):>11.1f}x"  # noqa: E731
                                      if c in cols else f"{'-':>12}")
        print(f"{r:<12}{cells}{ratio('limit')}{ratio('numpy', True)}{ratio('torch', True)}")


if __name__ == "__main__":
    main()
