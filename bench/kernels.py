"""CPU kernels side by side with NumPy and PyTorch: bandwidth, matrix products, and every op.

    PYTHONPATH=build/python /usr/bin/python3 bench/kernels.py [--threads N ...] [--rounds N] [--only OP ...]
    PYTHONPATH=build/python /usr/bin/python3 bench/kernels.py --against-build build-native [--threads N]

Three tables, each measured in this one process with the contenders' rounds
interleaved and the best round kept, so that a busy machine slows every column
alike; read the ratios, not the absolute numbers. Each table is measured once
per thread count (--threads, by default 1 and one per core), wick
(wick.set_num_threads: its OpenMP and OpenBLAS) and PyTorch (torch.set_num_threads)
on the same count in each column; NumPy, single-threaded, is measured in the
one-thread pass and shown beside them.

1. Bandwidth on 16M float32 elements (64 MB per operand), in GB/s counting the
   bytes read plus the bytes written. "copy" is the machine's copy bandwidth,
   the better of NumPy's and PyTorch's copy into an existing array; "out=" rows
   write into an existing tensor, "new" rows allocate their result.
2. Matrix products of n x n float32 matrices, in GFLOP/s (2 n^3 per product).
3. The op surface on 1M elements: every op of declarations/*.yaml (read with
   codegen's own parser, so ops added later appear here by themselves), called
   with arguments built from its parameters' types and names on 1024 x 1024
   float32 tensors, against the PyTorch function or method of the same name.
   The first signature both libraries accept is timed; an op neither can run
   with the built arguments is listed as skipped, with the reason. Each op runs
   on every layout that applies to it (Layout below): contiguous operands,
   transposed ones (the same values, stored column-major), a broadcast second
   operand, and, for an op with a dim, dim 0 beside the default dim 1.

4. With --against-build DIR, instead of the three: the cost of choosing the CPU
   level when wick loads, this build against DIR, one configured with
   -DWICK_CPU_DISPATCH=OFF -DWICK_CPU_ARCH=native (Note [CPU levels] in
   core/include/wick/cpu/level.h). One worker process per build tree, run in
   alternating rounds on the same number of threads, times each case with
   timeit; the best round is kept per build, and the ratio is this build's time
   over DIR's: 1.00 is no cost.

Targets: add, mul and copy at >= 0.9x the copy bandwidth; sums, exp, log, tanh,
sigmoid and the transposing copy at >= PyTorch; matmul at >= 0.9x PyTorch;
every op at >= 0.8x PyTorch on every layout, at every thread count.
"""
import argparse
import enum
import glob
import json
import os
import subprocess
import sys
import time
from pathlib import Path


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=sorted({1, os.cpu_count() or 1}),
                        help="the thread counts, each a column for every contender (default: 1 and one per core)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds; the best is kept (default 9)")
    parser.add_argument("--only", nargs="*", help="op surface: only these ops (and skip tables 1 and 2)")
    parser.add_argument("--against-build", metavar="DIR",
                        help="only table 4: the cost of CPU dispatch against DIR, a -march=native build")
    return parser.parse_args()


# Read before the libraries load: OpenMP and OpenBLAS size their pools from the environment, which
# must allow the largest count; each pass then sets its own.
ARGS = _arguments()
os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = str(max(ARGS.threads))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import wick  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from codegen import reader, schema  # noqa: E402  (the declarations' own parser)
from codegen.model import Variant  # noqa: E402

BIG = 16 * 2**20
SIDE = 1024  # the op surface runs on SIDE x SIDE = 1M elements


def best_times(calls, rounds):
    """{name: seconds per call}: the best of `rounds` interleaved rounds, each of enough calls for ~1 ms."""
    counts = {}
    for name, fn in calls.items():
        fn()
        start = time.perf_counter()
        fn()
        once = max(time.perf_counter() - start, 1e-7)
        counts[name] = max(1, min(1000, int(1e-3 / once)))
    best = {name: float("inf") for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            n = counts[name]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / n)
    return best


def set_threads(n):
    wick.set_num_threads(n)
    torch.set_num_threads(n)


def per_thread_count(calls, rounds):
    """{(threads, name): seconds}: `calls` ({name: fn}, names (row, contender)) timed at each thread count
    of --threads, both libraries on that count; NumPy's calls only in the one-thread pass."""
    times = {}
    for n in ARGS.threads:
        set_threads(n)
        chosen = {k: fn for k, fn in calls.items() if k[1] != "numpy" or n == 1}
        times.update({(n, k): v for k, v in best_times(chosen, rounds).items()})
    return times


def thread_header(columns):
    """The header cells of one group of `columns` per thread count."""
    return " | ".join(f"{c} ({n}t)" for n in ARGS.threads for c in columns)


def bandwidth(rounds):
    rng = np.random.default_rng(0)
    a = rng.uniform(0.1, 0.9, BIG).astype(np.float32)
    b = rng.uniform(0.1, 0.9, BIG).astype(np.float32)
    c = np.empty_like(a)
    wa, wb, wc = wick.from_numpy(a), wick.from_numpy(b), wick.from_numpy(c)
    ta, tb, tc = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(c)
    side = int(BIG ** 0.5)
    am, cm = a.reshape(side, side), c.reshape(side, side)
    wm, wcm, tm, tcm = wa.view(side, side), wc.view(side, side), ta.view(side, side), tc.view(side, side)
    sig = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    # (row, bytes per element, {column: call}, target): target "copy" or "torch".
    rows = [
        ("copy", 8, dict(wick=lambda: wc.copy_(wa), numpy=lambda: np.copyto(c, a), torch=lambda: tc.copy_(ta)), "copy"),
        ("copy, transposing", 8, dict(wick=lambda: wcm.copy_(wm.t()), numpy=lambda: np.copyto(cm, am.T),
                                      torch=lambda: tcm.copy_(tm.t())), "torch"),
        ("add out=", 12, dict(wick=lambda: wick.add(wa, wb, out=wc), numpy=lambda: np.add(a, b, out=c),
                              torch=lambda: torch.add(ta, tb, out=tc)), "copy"),
        ("add new", 12, dict(wick=lambda: wa + wb, numpy=lambda: a + b, torch=lambda: ta + tb), "copy"),
        ("mul out=", 12, dict(wick=lambda: wick.mul(wa, wb, out=wc), numpy=lambda: np.multiply(a, b, out=c),
                              torch=lambda: torch.mul(ta, tb, out=tc)), "copy"),
        ("mul new", 12, dict(wick=lambda: wa * wb, numpy=lambda: a * b, torch=lambda: ta * tb), "copy"),
        ("add scalar out=", 8, dict(wick=lambda: wick.add(wa, 2.0, out=wc), numpy=lambda: np.add(a, 2.0, out=c),
                                    torch=lambda: torch.add(ta, 2.0, out=tc)), "copy"),
        ("sum", 4, dict(wick=lambda: wa.sum(), numpy=lambda: a.sum(), torch=lambda: ta.sum()), "torch"),
        ("sum over dim 0", 4, dict(wick=lambda: wm.sum(0), numpy=lambda: am.sum(0), torch=lambda: tm.sum(0)), "torch"),
        ("sum over dim 1", 4, dict(wick=lambda: wm.sum(1), numpy=lambda: am.sum(1), torch=lambda: tm.sum(1)), "torch"),
        ("max over dim 1, indices", 4, dict(wick=lambda: wm.max(1), numpy=lambda: (am.max(1), am.argmax(1)),
                                            torch=lambda: tm.max(1)), "torch"),
        ("exp out=", 8, dict(wick=lambda: wick.exp(wa, out=wc), numpy=lambda: np.exp(a, out=c),
                             torch=lambda: torch.exp(ta, out=tc)), "torch"),
        ("log out=", 8, dict(wick=lambda: wick.log(wa, out=wc), numpy=lambda: np.log(a, out=c),
                             torch=lambda: torch.log(ta, out=tc)), "torch"),
        ("tanh out=", 8, dict(wick=lambda: wick.tanh(wa, out=wc), numpy=lambda: np.tanh(a, out=c),
                              torch=lambda: torch.tanh(ta, out=tc)), "torch"),
        ("sigmoid out=", 8, dict(wick=lambda: wick.sigmoid(wa, out=wc), numpy=lambda: sig(a),
                                 torch=lambda: torch.sigmoid(ta, out=tc)), "torch"),
    ]
    t = per_thread_count({(row, col): fn for row, _, cols, _ in rows for col, fn in cols.items()}, rounds)
    gbs = {key: nbytes * BIG / t[key] / 1e9 for row, nbytes, _, _ in rows for key in t if key[1][0] == row}
    copy_bw = {n: max(gbs.get((n, ("copy", "numpy")), 0), gbs[n, ("copy", "torch")]) for n in ARGS.threads}
    print(f"\n## Bandwidth, {BIG // 2**20}M float32 elements, GB/s (bytes read + written); copy bandwidth "
          + ", ".join(f"{copy_bw[n]:.1f} GB/s at {n} thread(s)" for n in ARGS.threads) + "\n")
    print(f"| op | NumPy (1t) | {thread_header(['wick', 'PyTorch', 'wick / PyTorch', 'wick / copy'])} | target |")
    print("| --- | --- |" + " --- | --- | --- | --- |" * len(ARGS.threads) + " --- |")
    for row, _, cols, target in rows:
        cells, met = [], True
        for n in ARGS.threads:
            w, p = gbs[n, (row, "wick")], gbs[n, (row, "torch")]
            cells += [f"{w:.1f}", f"{p:.1f}", f"{w / p:.2f}", f"{w / copy_bw[n]:.2f}"]
            met = met and (w >= 0.9 * copy_bw[n] if target == "copy" else w >= p)
        goal = ">= 0.9x copy" if target == "copy" else ">= PyTorch"
        numpy_col = "-" if row.startswith("sigmoid") else f"{gbs[1, (row, 'numpy')]:.1f}" if 1 in ARGS.threads else "-"
        print(f"| {row} | {numpy_col} | {' | '.join(cells)} | {goal}: {'met' if met else 'MISSED'} |")


def matmul(rounds):
    print("\n## Matrix products, float32, GFLOP/s\n")
    print(f"| n | NumPy (1t) | {thread_header(['wick', 'PyTorch', 'wick / PyTorch'])} | target |")
    print("| --- | --- |" + " --- | --- | --- |" * len(ARGS.threads) + " --- |")
    rng = np.random.default_rng(1)
    for n in (256, 1024, 2048):
        a, b = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
        wa, wb, ta, tb = wick.from_numpy(a), wick.from_numpy(b), torch.from_numpy(a), torch.from_numpy(b)
        calls = {(n, "wick"): lambda: wick.matmul(wa, wb), (n, "numpy"): lambda: a @ b, (n, "torch"): lambda: ta @ tb}
        f = {k: 2 * n**3 / v / 1e9 for k, v in per_thread_count(calls, rounds).items()}
        cells, met = [], True
        for th in ARGS.threads:
            ratio = f[th, (n, "wick")] / f[th, (n, "torch")]
            cells += [f"{f[th, (n, 'wick')]:.0f}", f"{f[th, (n, 'torch')]:.0f}", f"{ratio:.2f}"]
            met = met and ratio >= 0.9
        numpy_col = f"{f[1, (n, 'numpy')]:.0f}" if 1 in ARGS.threads else "-"
        print(f"| {n} | {numpy_col} | {' | '.join(cells)} | >= 0.9: {'met' if met else 'MISSED'} |")


# --- the op surface --------------------------------------------------------------------------------

class Operands:
    """The arrays every op's arguments are cut from, shared by both libraries."""

    def __init__(self):
        rng = np.random.default_rng(2)
        self.x = rng.uniform(0.1, 0.9, (SIDE, SIDE)).astype(np.float32)  # inside every op's domain
        self.y = rng.uniform(0.1, 0.9, (SIDE, SIDE)).astype(np.float32)
        self.z = rng.uniform(0.1, 0.9, (SIDE, SIDE)).astype(np.float32)
        self.mask = rng.random((SIDE, SIDE)) < 0.5
        self.rows = rng.integers(0, SIDE, SIDE)            # indices along one dim
        self.full_index = rng.integers(0, SIDE, (SIDE, SIDE))  # an index per element
        self.flat_index = rng.integers(0, SIDE * SIDE, SIDE * SIDE)
        self.batch = rng.uniform(0.1, 0.9, (16, 256, 256)).astype(np.float32)  # 1M elements as 16 matrices
        self.vec = rng.uniform(0.1, 0.9, SIDE).astype(np.float32)
        self.data = self.x.tolist()


# Tensor operands whose shape or dtype is not that of `self`, by op (in-place ops take their
# function's) and parameter name, then by parameter name alone.
TENSORS_BY_OP = {
    ("index_select", "index"): "rows", ("index_add", "index"): "rows", ("take", "index"): "flat_index",
    ("put", "index"): "flat_index", ("put", "source"): "flat_x", ("dot", "self"): "flat_x",
    ("dot", "tensor"): "flat_y", ("mv", "vec"): "vec",
    ("addmv", "self"): "vec", ("addmv", "vec"): "vec", ("outer", "self"): "vec", ("outer", "vec2"): "vec",
    ("bmm", "self"): "batch", ("bmm", "mat2"): "batch", ("baddbmm", "self"): "batch",
    ("addbmm", "self"): "batch0", ("masked_fill", "value"): "zero_dim", ("item", "self"): "one",
}
TENSORS_BY_NAME = {"index": "full_index", "mask": "mask", "condition": "mask", "batch1": "batch", "batch2": "batch"}
# The operands of a list of tensors, by op and parameter name; without one, x and y.
TENSOR_LISTS_BY_OP = {("index_put", "indices"): ("rows",)}
# Other arguments, by op and parameter name, then by parameter name; without one, the default.
VALUES_BY_OP = {
    ("arange", "end"): SIDE * SIDE, ("linspace", "steps"): SIDE * SIDE, ("logspace", "steps"): SIDE * SIDE,
    ("randperm", "n"): SIDE * SIDE, ("view", "size"): [-1], ("reshape", "shape"): [-1], ("permute", "dims"): [1, 0],
    ("narrow", "start"): 0, ("select", "index"): 3, ("unsqueeze", "dim"): 0, ("transpose", "dim1"): 0,
    ("to", "dtype"): "float64", ("type", "dtype"): "float64", ("movedim", "destination"): [0],
    ("clamp", "min"): 0.25, ("clamp", "max"): 0.75, ("type", "dtype"): "float64", ("chunk", "chunks"): 4,
    ("split", "split_size"): SIDE // 4, ("split_with_sizes", "split_sizes"): [SIDE // 4, 3 * SIDE // 4],
    ("topk", "k"): 10, ("kthvalue", "k"): SIDE // 2,
}
VALUES_BY_NAME = {
    "dim": 1, "dims": [0], "dim0": 1, "dim1": 0, "size": [SIDE, SIDE], "shape": [SIDE, SIDE], "sizes": [32, 32],
    "repeats": [2, 1], "shifts": [1], "source": [1], "destination": [0], "length": SIDE // 2, "n": SIDE,
    "high": 10, "seed": 0, "steps": SIDE, "device": "cpu",
}


def tensor_operand(ops, op, name, key=None):
    key = key or TENSORS_BY_OP.get((op, name)) or TENSORS_BY_NAME.get(name) or "x"
    if key == "x" and name not in ("self", "input"):
        key = "y" if name in ("other", "mat2", "end", "tensor1", "src", "vec2", "mat1", "tensor") else "z"
    if key == "flat_x":
        return ops.x.reshape(-1)
    if key == "flat_y":
        return ops.y.reshape(-1)
    if key == "batch0":
        return ops.batch[0]
    if key == "zero_dim":
        return np.array(0.5, dtype=np.float32)
    if key == "one":
        return np.array([0.5], dtype=np.float32)
    return getattr(ops, key)


def operand_dtype(decl):
    """float32, or for an op without it (the bitwise ones) int32 or the first dtype it lists."""
    listed = [str(t) for t in decl.tests.dtypes] if decl.tests else []
    if not listed or "float32" in listed:
        return "float32"
    return "int32" if "int32" in listed else listed[0]


class Layout(enum.Enum):
    """How an op's operands are laid out in the surface table."""
    contiguous = "contiguous"
    transposed = "transposed"  # every 1024 x 1024 operand stored column-major: x.t() of a row-major x.T
    broadcast = "broadcast"  # the operands after the first 1024 x 1024 one are its first row, broadcast
    dim0 = "dim 0"  # an op with a dim reduces (scans, sorts...) over dim 0 rather than dim 1


def laid_out(arrays, layout, first):
    """The NumPy arrays an operand takes in `layout`, before they become tensors: (arrays, transposed)."""
    square = [a.ndim == 2 and a.shape == (SIDE, SIDE) for a in arrays]
    if layout == Layout.transposed and all(square):
        return [np.ascontiguousarray(a.T) for a in arrays], True
    if layout == Layout.broadcast and all(square) and not first:
        return [a[0] for a in arrays], False
    return arrays, False


def build(ops, decl, params, layout=Layout.contiguous):
    """(wick args, torch args) for the required parameters (and the optional ones a recipe names),
    or None where a type has no recipe or the layout does not apply."""
    op = decl.name.rstrip("_")  # an in-place op takes its function's recipes
    dtype = operand_dtype(decl)
    w, t = [], []
    changed = layout == Layout.contiguous  # whether the layout changed an operand (or the dim)
    square_seen = False
    for p in params:
        named = (op, p.name) in VALUES_BY_OP or (op, p.name) in TENSORS_BY_OP
        base, listed = schema.base_of(p.type).value, schema.is_list(p.type)
        if (p.default is not None or schema.is_optional(p.type) and base != "Tensor") and not named:
            continue
        if base == "Tensor":
            keys = TENSOR_LISTS_BY_OP.get((op, p.name), ("x", "y")) if listed else (None,)
            arrays = [tensor_operand(ops, op, p.name, key) for key in keys]
            arrays = [(a * 100).astype(dtype) if a.dtype == np.float32 and dtype != "float32" else a for a in arrays]
            square = any(a.shape == (SIDE, SIDE) for a in arrays)
            arrays, transposed = laid_out(arrays, layout, first=not square_seen)
            changed = changed or transposed or (layout == Layout.broadcast and square and square_seen)
            square_seen = square_seen or square
            # Copies, so that in-place ops change nothing another op reads.
            ws, ts = [wick.from_numpy(a.copy()) for a in arrays], [torch.from_numpy(a.copy()) for a in arrays]
            if transposed:
                ws, ts = [x.t() for x in ws], [x.t() for x in ts]
            w.append(ws if listed else ws[0])
            t.append(ts if listed else ts[0])
        elif base == "Scalar":
            w.append(VALUES_BY_OP.get((op, p.name), 0.5 if dtype == "float32" else 3))
            t.append(w[-1])
        elif base in ("int", "bool"):
            v = VALUES_BY_OP.get((op, p.name), VALUES_BY_NAME.get(p.name, False if base == "bool" else None))
            if v is None:
                return None
            if layout == Layout.dim0 and p.name == "dim" and v == 1:
                v, changed = 0, True
            w.append(v)
            t.append(v)
        elif base == "ScalarType" or base == "object" and (op, p.name) in VALUES_BY_OP:
            name = VALUES_BY_OP.get((op, p.name), "float64")
            w.append(getattr(wick, name))
            t.append(getattr(torch, name))
        elif base == "Device":
            w.append("cpu")
            t.append("cpu")
        elif base == "object":
            w.append(ops.data)
            t.append(ops.data)
        else:
            return None
    return (w, t) if changed else None


def torch_callable(decl, name):
    if decl.api.has(Variant.function):
        for home in (torch, torch.nn.functional):
            if hasattr(home, name):
                return lambda *a: getattr(home, name)(*a)
    if hasattr(torch.Tensor, name):
        return lambda x, *a: getattr(x, name)(*a)
    return None


def wick_callable(decl, name):
    if decl.api.has(Variant.function):
        return lambda *a: getattr(wick, name)(*a)
    return lambda x, *a: getattr(x, name)(*a)


def chosen_call(decl, ops, layout):
    """(signature, wick args, torch args) of the first signature both libraries run in `layout`,
    or (None, the reason none does)."""
    tcall, wcall = torch_callable(decl, decl.name), wick_callable(decl, decl.name)
    reason = "no signature has a recipe for its arguments"
    for sig in decl.api.signatures:
        args = build(ops, decl, sig.params, layout)
        if args is None:
            continue
        try:
            wcall(*args[0])
            tcall(*args[1])
        except Exception as e:  # this signature does not fit the built arguments: try the next
            reason = f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"
            continue
        return sig, args[0], args[1]
    return None, reason


def surface(rounds, only):
    decls = reader.load(sorted(glob.glob(str(ROOT / "declarations" / "*.yaml"))))
    ops = Operands()
    calls, rows, skipped = {}, [], []
    for decl in sorted(decls, key=lambda d: d.name):
        if only and decl.name not in only:
            continue
        if not decl.api.variants:
            skipped.append((decl.name, "C++ only, not a Python op"))
            continue
        tcall, wcall = torch_callable(decl, decl.name), wick_callable(decl, decl.name)
        if tcall is None:
            skipped.append((decl.name, "PyTorch has no function or method of that name"))
            continue
        for layout in Layout:
            found = chosen_call(decl, ops, layout)
            if found[0] is None:
                if layout == Layout.contiguous:
                    skipped.append((decl.name, found[1]))
                continue  # a layout that does not apply to the op (or that it refuses) is left out
            sig, wargs, targs = found
            row = (decl.name, layout)
            rows.append((row, str(sig).split(" ->")[0]))
            calls[row, "wick"] = lambda wcall=wcall, wargs=wargs: wcall(*wargs)
            calls[row, "torch"] = lambda tcall=tcall, targs=targs: tcall(*targs)
    t = per_thread_count(calls, rounds)
    print(f"\n## Every op on {SIDE}x{SIDE} float32 ({len(rows)} op and layout pairs timed, "
          f"{len(skipped)} ops skipped)\n")
    print(f"| op | layout | signature | {thread_header(['wick', 'PyTorch', 'PyTorch / wick'])} |")
    print("| --- | --- | --- |" + " --- | --- | --- |" * len(ARGS.threads))
    slow = {n: [] for n in ARGS.threads}
    for row, sig in rows:
        cells = []
        for n in ARGS.threads:
            w, p = t[n, (row, "wick")], t[n, (row, "torch")]
            cells += [fmt(w), fmt(p), f"{p / w:.2f}"]
            if p / w < 0.8:
                slow[n].append(f"{row[0]} ({row[1].value}, {p / w:.2f})")
        print(f"| {row[0]} | {row[1].value} | `{sig}` | {' | '.join(cells)} |")
    for name, why in skipped:
        print(f"| {name} | | skipped: {why} |" + " | | |" * len(ARGS.threads))
    for n in ARGS.threads:
        print(f"\nBelow 0.8x PyTorch at {n} thread(s) ({len(slow[n])}): {', '.join(slow[n]) or 'none'}")


# --- the cost of CPU dispatch ---------------------------------------------------------------------

# Pointwise ops on contiguous and strided operands, converting copies, reductions, random numbers, and
# one call on one element, where the extra load of the level's table would show. Each case:
# (name, setup, statement), timed in a worker with timeit, `wick` imported.
DISPATCH_N = 4 * 2**20
DISPATCH_CASES = [
    ("add, contiguous", f"a = wick.rand({DISPATCH_N}); b = wick.rand({DISPATCH_N}); c = wick.empty({DISPATCH_N})",
     "wick.add(a, b, out=c)"),
    ("add, strided", "a = wick.rand(2048, 2048).t(); b = wick.rand(2048, 2048); c = wick.empty(2048, 2048)",
     "wick.add(a, b, out=c)"),
    ("exp, contiguous", f"a = wick.rand({DISPATCH_N}); c = wick.empty({DISPATCH_N})", "wick.exp(a, out=c)"),
    ("mul bfloat16", f"a = wick.rand({DISPATCH_N}).bfloat16(); c = wick.empty({DISPATCH_N}, dtype=wick.bfloat16)",
     "wick.mul(a, a, out=c)"),
    ("copy float32 to float16", f"a = wick.rand({DISPATCH_N}); c = wick.empty({DISPATCH_N}, dtype=wick.float16)",
     "c.copy_(a)"),
    ("copy, transposing", "a = wick.rand(2048, 2048); c = wick.empty(2048, 2048)", "c.copy_(a.t())"),
    ("sum float32", f"a = wick.rand({DISPATCH_N})", "a.sum()"),
    ("sum float64", f"a = wick.rand({DISPATCH_N}, dtype=wick.float64)", "a.sum()"),
    ("mean float32", f"a = wick.rand({DISPATCH_N})", "a.mean()"),
    ("sum over dim 0", "a = wick.rand(2048, 2048)", "a.sum(0)"),
    ("sum over dim 1", "a = wick.rand(2048, 2048)", "a.sum(1)"),
    ("amax", f"a = wick.rand({DISPATCH_N})", "a.amax()"),
    ("max over dim 1, indices", "a = wick.rand(2048, 2048)", "a.max(1)"),
    ("var", f"a = wick.rand({DISPATCH_N})", "a.var()"),
    ("norm", f"a = wick.rand({DISPATCH_N})", "a.norm()"),
    ("randn", "", f"wick.randn({DISPATCH_N})"),
    ("add_ on 1 element", "a = wick.rand(1)", "a.add_(1)"),
]

DISPATCH_WORKER = r"""
import json, sys, timeit
import wick
cases = json.loads(sys.argv[1])
result = {"capability": wick.backends.cpu.get_cpu_capability()}
for name, setup, statement in cases:
    timer = timeit.Timer(statement, setup, globals={"wick": wick})
    calls, _ = timer.autorange()  # enough calls for 0.2 s
    result[name] = min(timer.repeat(5, calls)) / calls
print(json.dumps(result))
"""


def run_worker(python_dir, threads):
    env = dict(os.environ, PYTHONPATH=str(python_dir), OMP_NUM_THREADS=str(threads))
    cases = json.dumps([list(c) for c in DISPATCH_CASES])
    out = subprocess.run([sys.executable, "-c", DISPATCH_WORKER, cases], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def dispatch(against, threads, rounds):
    here = Path(wick.__file__).resolve().parents[1]  # the directory this process imports wick from
    trees = {"this build": here, against: Path(against) / "python"}
    best = {tree: {} for tree in trees}
    for _ in range(rounds):
        for tree, python_dir in trees.items():
            for name, value in run_worker(python_dir, threads).items():
                best[tree][name] = value if name == "capability" else min(value, best[tree].get(name, value))
    this, other = best["this build"], best[against]
    print(f"\n## CPU dispatch: this build ({here}, {this['capability']} chosen at load) against {against} "
          f"({other['capability']}), best of {rounds} rounds\n")
    print(f"| case | this build | {against} | ratio |")
    print("| --- | --- | --- | --- |")
    for name, _, _ in DISPATCH_CASES:
        print(f"| {name} | {fmt(this[name])} | {fmt(other[name])} | {this[name] / other[name]:.2f} |")


def fmt(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.0f} ns"


def main():
    args = ARGS
    print(f"threads: {', '.join(map(str, args.threads))}, the same for wick and PyTorch {torch.__version__} in "
          f"each column (NumPy {np.__version__} at 1); load average before: {os.getloadavg()[0]:.1f}")
    if args.against_build:
        dispatch(args.against_build, max(args.threads), args.rounds)
        return
    if not args.only:
        bandwidth(args.rounds)
        matmul(args.rounds)
    surface(args.rounds, set(args.only or ()))
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
