"""Memory stays flat over 10**5 calls of each kind: ops, indexing, conversions, interop, pickle, errors,
attributes, preserved objects and their cycles, subclasses.

Each kind runs CALLS / 10 times (pools and caches fill), then CALLS times, and the memory in use (as the
allocators count it: memory.py) may not grow by more than BOUND in between: one small object left behind
per call is dozens of times that (test_the_bound_catches_one_small_object_per_call keeps the bound honest).
"""
import pickle
import warnings

import numpy as np
import pytest

import wick
from memory import memory_held

CALLS = 10**5
# Without a leak, memory in use moves by a few hundred bytes over CALLS. A float left behind per call is
# one block of CPython's, 32 bytes (24 from malloc under ASan): 2.4 MB or more; one every 30 calls exceeds this.
BOUND = 1 << 16


def growth(step, calls=CALLS):
    """Bytes held after `calls` more calls of step(i) than before them, once warmed up."""
    for i in range(calls // 10):
        step(i)
    before = memory_held()
    for i in range(calls):
        step(i)
    return memory_held() - before


# --- the kinds of call ---------------------------------------------------------------------------

A = wick.arange(12.0).reshape(3, 4)
ROWS = wick.tensor([0, 2])
MASK = A > 5
OUT = wick.empty(3, 4)


def ops(i):
    y = A + i
    y.mul_(2).add_(A, alpha=0.5)
    wick.add(A, y, out=OUT)
    wick.mul(A[: i % 3 + 1], 2, out=wick.empty(0))  # out= resized from empty
    y.sum(1)
    A.max(0).indices
    A.t().contiguous().view(-1)[::2]


def index_get(i):
    A[1], A[1, 2], A[:, 1:3], A[..., None, ::2], A[-1, -1].item()
    A[ROWS], A[MASK], A[[0, 2], 1], A[ROWS, None, 1:]


B = wick.zeros(3, 4)


def setitem(i):
    B[1] = i
    B[:, 1] = A[0, :3]
    B[MASK] = 0.5
    B[[0, 2]] = A[[1, 2]]
    B[ROWS, 1:] = wick.tensor(2.0)
    B[..., -1] = 7


INTS = wick.arange(6, dtype=wick.int64).reshape(2, 3)


def to_python(i):
    A.tolist(), INTS.tolist(), MASK.tolist(), A[0, 0].item(), INTS[1, 1].item(), float(A[1, 1]), int(INTS[0, 2])


ARRAY = np.arange(12.0).reshape(3, 4)


def numpy_round_trip(i):
    np.asarray(A)
    a = A.numpy()
    wick.from_numpy(a)[1:].numpy()
    np.asarray(wick.from_numpy(ARRAY).t())
    wick.tensor(ARRAY)


def reduce(i):
    A.__reduce_ex__(4), INTS[1].__reduce_ex__(2), wick.float32.__reduce__(), wick.int64.__reduce_ex__(4)


# 25 tensors to a pickle.dumps call, which costs 0.2 to 0.5 ms per dtype in it whatever else it holds: it
# looks each dtype up in every module of sys.modules, as dtypes have no __module__. reduce() above makes
# 10**5 calls of what pickling runs for each tensor and dtype.
BATCH = [A, INTS, A[1:, ::2], INTS.t(), A[0], INTS[0, 1], A.view(-1), INTS[:, :0], A + 1, INTS * 3] * 2
BATCH += [A.t(), INTS[1], A[2:], INTS[:, 1:], A[1, 1]]


def pickle_round_trip(i):
    pickle.loads(pickle.dumps(BATCH))


def error_path(i):
    try:
        A.add("a")  # TypeError from the argument parser
    except TypeError:
        pass
    try:
        A.view(5)  # RuntimeError from core, translated
    except RuntimeError:
        pass
    try:
        A[10]
    except IndexError:
        pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wick.add(A[: i % 3 + 1], 1, out=RESIZED)  # resizing an out= that has elements warns
        warnings.simplefilter("error")
        try:
            wick.add(A[: i % 2 + 1], 1, out=RESIZED)  # ... and the warning may be an error
        except UserWarning:
            pass


RESIZED = wick.empty(0)


def attributes(i):
    t = wick.ones(2)
    t.tag = [i]
    t.other = t.tag
    del t.other
    assert t.tag[0] == i


def preserved(i):
    x = wick.ones(4)
    x.tag = [i]
    y = x[1:]
    del x
    assert y._base.tag[0] == i


def preserved_cycle(i):
    x = wick.ones(4)
    y = x[1:]
    x.tag = y  # x -> y through x.__dict__, y -> x through the view's base in C++
    del x, y


class Sub(wick.Tensor):
    pass


def subclass(i):
    s = Sub(4)
    s.note = [i]
    v = s[1:] + 1
    w = s.t()
    del s
    assert type(w._base) is Sub and w._base.note[0] == i
    s2 = Sub(2)
    s2.me = s2  # a plain cycle through the instance's __dict__


KINDS = [ops, index_get, setitem, to_python, numpy_round_trip, reduce, error_path, attributes, preserved,
         preserved_cycle, subclass]


@pytest.mark.parametrize("step", KINDS, ids=lambda f: f.__name__)
def test_memory_stays_flat(step):
    grown = growth(step)
    assert grown < BOUND, f"{step.__name__}: {grown} bytes more after {CALLS} calls ({grown / CALLS:.1f} per call)"


def test_memory_stays_flat_through_pickle():
    calls = CALLS // len(BATCH)
    grown = growth(pickle_round_trip, calls)
    assert grown < BOUND, f"{grown} bytes more after {CALLS} tensors ({grown / CALLS:.1f} per tensor)"


def test_memory_stays_flat_through_dlpack():
    torch = pytest.importorskip("torch")
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack
    from torch.utils.dlpack import to_dlpack as torch_to_dlpack

    T = torch.arange(12.0).reshape(3, 4)

    def dlpack_round_trip(i):
        wick.from_dlpack(torch_from_dlpack(A))  # wick -> torch -> wick, through __dlpack__
        torch_from_dlpack(wick.from_dlpack(T[1:]))  # torch -> wick -> torch
        wick.from_dlpack(torch_to_dlpack(T))  # a legacy capsule
        torch_from_dlpack(A.__dlpack__())  # a capsule of ours, consumed by torch
        wick.from_dlpack(A.t())

    grown = growth(dlpack_round_trip)
    assert grown < BOUND, f"{grown} bytes more after {CALLS} calls ({grown / CALLS:.1f} per call)"


def test_the_bound_catches_one_small_object_per_call():
    kept = []
    assert growth(lambda i: kept.append(float(i))) > 10 * BOUND
