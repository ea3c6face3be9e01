"""Eight Python threads on shared and private tensors at once: private results stay right, nothing crashes.

Wick releases the GIL inside kernels, so threads really do run ops side by side. Nothing is promised about
the values of a tensor that several threads write without a lock, as in PyTorch; but memory stays safe
(a reader keeps alive the storage it reads, even while another thread resizes the tensor), and a tensor
that only one thread writes ends with exactly the values NumPy computes.

Each scenario runs in a child Python (this file, run as a script), so that a crash or a sanitizer report
fails its test with the child's output instead of ending the test run.
"""
import os
import subprocess
import sys
import threading
import traceback

import numpy as np

import wick

THREADS = 8


def run_threads(body):
    """Runs body(k) on THREADS threads started together; fails with every thread's traceback."""
    barrier = threading.Barrier(THREADS)
    failures = []

    def main(k):
        try:
            barrier.wait()
            body(k)
        except BaseException:  # noqa: B036: a thread's failure must reach the main thread
            failures.append(f"thread {k}:\n{traceback.format_exc()}")

    threads = [threading.Thread(target=main, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, "\n".join(failures)


def private_and_shared():
    """Each thread mutates its own tensors and checks them against NumPy, while all of them mutate, view and
    read one shared tensor of fixed shape. The large tensors are large enough for their ops to release the
    GIL, so that their kernels run side by side."""
    shared = wick.zeros(256, 256)
    shared_view = shared[::2, 1::3]

    def body(k):
        ref = np.random.default_rng(k).standard_normal((16, 16))
        x = wick.from_numpy(ref.copy())
        out = wick.empty(0, dtype=wick.float64)
        large_ref = np.arange(1 << 16, dtype=np.float64)
        large = wick.arange(1 << 16, dtype=wick.float64)
        for r in range(300):
            large.add_(r).mul_(-1)
            large_ref += r
            large_ref *= -1
            # In place, through views and setitem: each step is one correctly rounded operation, as in NumPy.
            x.mul_(0.5).add_(1)
            ref *= 0.5
            ref += 1
            x[:, r % 16].sub_(2)
            ref[:, r % 16] -= 2
            x[r % 16] = r
            ref[r % 16] = r
            x.t()[1::3, :5] = -x[1::3, :5].t()
            ref.T[1::3, :5] = -ref[1::3, :5].T
            # out= into a private tensor whose shape changes on every call.
            n = r % 16 + 1
            wick.mul(x[:n, ::2], 2, out=out)
            np.testing.assert_array_equal(out.numpy(), ref[:n, ::2] * 2)
            assert x[n - 1, 1:4].tolist() == ref[n - 1, 1:4].tolist()
            if r % 50 == 0:
                assert repr(x.t()[::5]) == repr(wick.tensor(ref.T[::5], dtype=wick.float64))
            # The shared tensor: in place, setitem, views, reads.
            shared.add_(1)
            shared[k] = r
            shared_view.mul_(1)
            shared[k, ::7].tolist()
            repr(shared_view[:3])
            shared.t()[k::8].sum()
            shared.mul_(0.5)
        np.testing.assert_array_equal(x.numpy(), ref)
        np.testing.assert_array_equal(large.numpy(), large_ref)

    run_threads(body)
    assert shared.shape == (256, 256) and len(shared.tolist()) == 256


def out_into_shared():
    """One thread writes out= into a shared tensor with a larger shape on every call, so that its storage is
    replaced each time; the seven others read it meanwhile, through calls that release the GIL as the write
    does. Readers may see any values, but never freed memory; the tensor ends as the last write left it."""
    shared = wick.zeros(1)
    writes = 500
    sizes = [(1 << 15) + 64 * r for r in range(writes)]  # large enough for the calls to release the GIL
    done = threading.Event()

    def body(k):
        if k == 0:
            for n in sizes:
                wick.add(wick.arange(float(n)), 1, out=shared)
            done.set()
            return
        while not done.is_set():
            shared.sum()
            shared.mul(2)
            shared.max()
            assert isinstance(shared[-3:].tolist(), list)
            if k == 1:
                shared.tolist()

    run_threads(body)
    assert shared.tolist() == (wick.arange(float(sizes[-1])) + 1).tolist()


SCENARIOS = {f.__name__: f for f in (private_and_shared, out_into_shared)}


def run_child(scenario):
    proc = subprocess.run([sys.executable, __file__, scenario], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ))
    assert proc.returncode == 0 and proc.stdout.strip() == f"{scenario}: ok", (
        f"exit code {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-6000:]}")


def test_private_tensors_stay_right_while_threads_share_another():
    run_child("private_and_shared")


def test_readers_of_a_tensor_survive_its_resizing_by_out():
    run_child("out_into_shared")


if __name__ == "__main__":
    sys.setswitchinterval(1e-4)  # switch threads often, for more interleavings between GIL holders
    SCENARIOS[sys.argv[1]]()
    print(f"{sys.argv[1]}: ok")
