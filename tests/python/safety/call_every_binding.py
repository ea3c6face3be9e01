"""Calls every generated function and Tensor method with many wrong and edge-case arguments.

Run as a script (by test_no_crash.py, in a child process so that a crash is a
failure and not the end of the test run). Any Python exception is fine; a
crash, a hang or an exception that is not one of the documented kinds is not.
"""
import itertools
import warnings

import wick
from wick._names import FUNCTIONS

EXPECTED = (TypeError, ValueError, IndexError, RuntimeError, MemoryError, OverflowError, NotImplementedError,
            BufferError)
# Creation functions get sizes from the argument list; these would only allocate.
SKIP = {"rand", "randn", "rand_like", "randn_like"}


def values():
    return [None, "a", -1, 0, 2, 1 << 62, -(1 << 40), 2.5, True, (2, -1), [0, 5], wick.float64, "cuda",
            wick.ones(3), wick.zeros(0), wick.tensor(1.5), wick.arange(6).reshape(2, 3), wick.ones(2, 3).t(),
            wick.tensor([True, False]), wick.tensor([1, 0], dtype=wick.int8), wick.tensor([5, -7]),
            # lists of tensors (Tensor[], Tensor?[]), good and bad, and a string an op checks (str?)
            [wick.arange(3), wick.ones(2, 3)], (wick.tensor([0, 2]), None), [wick.ones(2), 1], "floor"]


def argument_lists(vals):
    for k in range(3):
        yield from itertools.product(vals, repeat=k)
    yield from itertools.islice(itertools.product(vals, repeat=3), 0, None, 13)


def call(fn, args):
    try:
        fn(*args)
    except EXPECTED:
        pass


def main():
    warnings.simplefilter("ignore")
    vals = values()
    calls = 0
    for name in sorted(set(FUNCTIONS) - SKIP):
        for args in argument_lists(vals):
            call(getattr(wick, name), args)
            calls += 1
    methods = sorted(n for n in dir(wick._C.TensorBase)
                     if not n.startswith("__") and callable(getattr(wick._C.TensorBase, n)))
    selves = [wick.ones(3), wick.zeros(0), wick.tensor(1.5), wick.arange(6).reshape(2, 3).t(),
              wick.tensor([True, False]), wick.tensor([3, 1], dtype=wick.uint8)]
    for name in methods:
        for self in selves:
            for args in argument_lists(vals):
                call(getattr(self.clone(), name), args)
                calls += 1
    print(f"{calls} calls, no crash")


if __name__ == "__main__":
    main()
