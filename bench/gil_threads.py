"""Two Python threads running large ops at once, against the same work one after the other.

    PYTHONPATH=build/python /usr/bin/python3 bench/gil_threads.py

Wick releases the GIL around kernels on large tensors (Note [GIL] in
python_ext/errors.h), so on a machine with two free cores the threaded run
should take well under the sequential time. exp is compute-bound, so memory
bandwidth does not hide the effect. Each kernel runs on one thread here
(OMP_NUM_THREADS=1, set before wick is imported): with its usual split across
every core, one Python thread alone would already keep both cores busy, and
the comparison would show nothing about the GIL.
"""
import argparse
import os
import threading
import time

os.environ["OMP_NUM_THREADS"] = "1"  # before wick (and libgomp) read it
import wick  # noqa: E402


def work(x, out, repeat):
    for _ in range(repeat):
        wick.exp(x, out=out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numel", type=int, default=1 << 22)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    inputs = [wick.rand(args.numel) for _ in range(2)]
    outputs = [wick.empty(args.numel) for _ in range(2)]
    work(inputs[0], outputs[0], 1)  # warm up

    sequential = threaded = float("inf")
    for _ in range(args.rounds):
        start = time.perf_counter()
        for i in range(2):
            work(inputs[i], outputs[i], args.repeat)
        sequential = min(sequential, time.perf_counter() - start)

        threads = [threading.Thread(target=work, args=(inputs[i], outputs[i], args.repeat)) for i in range(2)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        threaded = min(threaded, time.perf_counter() - start)
    print(f"2 x {args.repeat} x exp on {args.numel} float32 elements")
    print(f"one after the other: {sequential * 1e3:8.1f} ms")
    print(f"two threads at once: {threaded * 1e3:8.1f} ms   speedup {sequential / threaded:.2f}x")


if __name__ == "__main__":
    main()
