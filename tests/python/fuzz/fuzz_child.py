"""tests/python/fuzz/fuzz_child.py: runs fuzz cases in a child process, so that a crash or a hang fails one example.

The test process starts this file once (`Child`). It imports wick and the fuzz modules,
then forks a worker, which runs the cases the test sends one after another; when the
worker dies, this process (the zygote) says so and forks another. A case is
`(module, function, payload)`: the worker calls `module.function(payload)` and replies
("returned", value) or ("raised", type name, message, traceback, kind), where kind says
whether the exception is one a bad argument may raise (`classify`). `Child.run` gives
that reply, or ("crashed", how, stderr) or ("hung", how, stderr).

Note [Blaming a crash]
~~~~~~~~~~~~~~~~~~~~~~
One worker runs many cases, because a fork per case would cost more than the cases.
But memory that one case corrupts may crash a later, innocent one. So when a worker
dies, the case it died in runs again, alone, in a fresh worker: if it crashes there
too, it is the culprit; if not, the report says so and names the cases before it.
A crash that needs no history thus replays the same way every time, which is what
Hypothesis needs to shrink it.

Note [Crash detection without a sanitizer]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
A read of freed memory or a write past a buffer does not always crash a release
build. The child runs with PYTHONMALLOC=debug, which fills freed Python memory with
0xDD (a later use of a freed object then faults) and checks the guard bytes around
each block when it is freed, and with glibc's heap checks where its debug library is
installed (MALLOC_CHECK_=3 aborts on a corrupted heap chunk). Each case frees what
it built before it replies, so that the checks run while it is the one to blame. The
address space is capped, so that a huge allocation fails at once with MemoryError
instead of paging. Under a sanitizer build (LD_PRELOAD already set) glibc's checks are
left out, and under AddressSanitizer the cap too (it maps terabytes of shadow memory).
"""
import collections
import faulthandler
import gc
import importlib
import importlib.util
import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

# The exceptions a bad argument may raise: no user input may crash the process.
EXPECTED = (TypeError, ValueError, IndexError, RuntimeError, MemoryError, OverflowError, NotImplementedError,
            BufferError)
CASE_TIMEOUT_S = 10
# Room for what the child imports (PyTorch maps 0.6 GiB), not for an allocation of 2**31 bytes (which
# would take seconds to fill): sizes at the edges of int32 fail at once with MemoryError.
ADDRESS_SPACE = 2 << 30
_MALLOC_DEBUG = Path("/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0")
_HEADER = struct.Struct("<Q")


def classify(e):
    """'expected' for the exceptions a wrong call may raise, else 'unexpected'. RecursionError is a
    RuntimeError, but it means that a conversion recursed without bound, which no input may make
    happen, and a failed internal assert is a RuntimeError that says wick has a bug; HostileError
    (fuzz_recipes.py) is raised by the fuzzer's own objects and must propagate."""
    if isinstance(e, RecursionError) or "internal assert failed" in str(e):
        return "unexpected"
    if isinstance(e, EXPECTED) or type(e).__name__ == "HostileError":
        return "expected"
    return "unexpected"


def _send(fd, obj):
    data = pickle.dumps(obj)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exactly(fd, n, deadline=None):
    chunks, got = [], 0
    while got < n:
        if deadline is not None:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
        chunk = os.read(fd, n - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _receive(fd, deadline=None):
    header = _read_exactly(fd, _HEADER.size, deadline)
    if header is None:
        return None
    body = _read_exactly(fd, _HEADER.unpack(header)[0], deadline)
    return None if body is None else pickle.loads(body)


# --- the test process's side --------------------------------------------------------------------------

def child_env():
    """The environment of a child: see Note [Crash detection without a sanitizer]. It runs in this
    directory, with the test process's import path made absolute."""
    path = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    wick_dir = os.path.dirname(os.path.dirname(importlib.util.find_spec("wick").origin))
    env = dict(os.environ, PYTHONMALLOC="debug", PYTHONFAULTHANDLER="1", OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", PYTHONPATH=os.pathsep.join([wick_dir, *path]))
    if "LD_PRELOAD" not in env and _MALLOC_DEBUG.exists():
        env.update(LD_PRELOAD=str(_MALLOC_DEBUG), MALLOC_CHECK_="3")
    return env


def run_isolated(code, timeout=CASE_TIMEOUT_S):
    """Runs `code` (whose last line is an expression) in a fresh child, as the fuzz cases run, and
    gives "returned <repr>", "raised <type>: <message>", or how the child died."""
    lines = code.strip().splitlines()
    program = "\n".join([
        "import warnings", "warnings.simplefilter('ignore')", "import numpy as np", "import wick",
        "from fuzz_recipes import *", *lines[:-1], "try:", f"    print('returned', ' '.join(repr({lines[-1]}).split()))",
        "except Exception as e:", "    print(f'raised {type(e).__name__}: {e}')"])
    try:
        run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=timeout,
                             env=child_env(), cwd=Path(__file__).parent)
    except subprocess.TimeoutExpired:
        return f"hung for {timeout} s"
    if run.returncode:
        how = f"killed by {signal.Signals(-run.returncode).name}" if run.returncode < 0 else f"exit {run.returncode}"
        return f"crashed ({how}): {run.stderr[-1500:]}"
    return run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "printed nothing"


class Child:
    """The zygote process and its current worker; see the module docstring."""

    def __init__(self, *warm_up):
        """`warm_up`: "module.function" names the zygote calls before it forks, so that what they
        compute (tables, caches) is made once, not in every worker."""
        self._warm_up = warm_up
        self._stderr = tempfile.TemporaryFile()
        self._proc = None
        self._worker = None  # the pid of the worker that runs the next case
        self._history = collections.deque(maxlen=8)  # the cases the worker ran, for Note [Blaming a crash]

    def _start(self):
        self._proc = subprocess.Popen([sys.executable, __file__, *self._warm_up], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self._stderr, env=child_env(),
                                      cwd=Path(__file__).parent)
        self._worker = None
        self._history.clear()

    def run(self, module, function, payload):
        case = (module, function, payload)
        earlier = list(self._history)  # what the current worker ran before
        reply = self._run_once(case)
        if reply[0] in ("crashed", "hung") and earlier:
            alone = self._run_once(case)  # in a fresh worker: see Note [Blaming a crash]
            if alone[0] not in ("crashed", "hung"):
                cases = "\n".join(f"  {c!r}" for c in earlier)
                return reply[:1] + (f"{reply[1]}, but only after other cases (alone, it {alone[0]}); "
                                    f"the last cases before it:\n{cases}",) + reply[2:]
            return alone
        return reply

    def _run_once(self, case):
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        start = self._stderr.seek(0, os.SEEK_END)
        _send(self._proc.stdin.fileno(), case)
        deadline = time.monotonic() + CASE_TIMEOUT_S
        hung = False
        while True:
            message = _receive(self._proc.stdout.fileno(), deadline)
            if message is None and not hung and self._worker is not None:
                hung = True  # faulthandler prints where it was on SIGABRT; the zygote then reports it dead
                os.kill(self._worker, signal.SIGABRT)
                deadline = time.monotonic() + CASE_TIMEOUT_S
                continue
            if message is None:  # the zygote itself died or stopped answering
                self.close()
                return ("crashed", "the zygote process died", self._tail(start))
            if message[0] == "started":
                self._worker = message[1]
                continue
            if message[0] == "died":
                self._worker = None
                self._history.clear()
                how = f"no reply in {CASE_TIMEOUT_S} s" if hung else message[1]
                return ("hung" if hung else "crashed", how, self._tail(start))
            self._history.append(case)
            return message

    def _tail(self, start):
        self._stderr.seek(start)
        return self._stderr.read()[-6000:].decode(errors="replace")

    def close(self):
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None


# --- the zygote and its worker ---------------------------------------------------------------------------

def _serve(requests, replies):
    _send(replies, ("started", os.getpid()))
    while True:
        case = _receive(requests)
        if case is None:
            return
        module, function, payload = case
        try:
            fn = getattr(importlib.import_module(module), function)
            reply = ("returned", fn(payload))
        except BaseException as e:  # noqa: B902 - everything is reported, and judged by the test
            reply = ("raised", type(e).__qualname__, str(e)[:2000], traceback.format_exc()[-4000:], classify(e))
        # What the case built is garbage now: freeing it runs the heap checks (Note [Crash detection ...]).
        gc.collect()
        _send(replies, reply)


def _describe(status):
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exited with status {os.WEXITSTATUS(status)} without replying"


def main():
    # The protocol has stdin and stdout to itself; anything printed goes to stderr.
    requests, replies = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    faulthandler.enable()
    if "asan" not in os.environ.get("LD_PRELOAD", ""):  # AddressSanitizer's shadow memory needs terabytes of it
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    import warnings
    warnings.simplefilter("ignore")
    # Imported once, before any fork.
    for module in ("numpy", "wick", "fuzz_recipes", "fuzz_views", "fuzz_indexing_checks"):
        importlib.import_module(module)
    for name in sys.argv[1:]:
        module, function = name.rsplit(".", 1)
        getattr(importlib.import_module(module), function)()
    gc.freeze()  # what is alive now lives on: the collection after each case looks only at what it made
    while True:
        pid = os.fork()
        if pid == 0:
            _serve(requests, replies)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            return  # the test process closed the pipe
        _send(replies, ("died", _describe(status)))


if __name__ == "__main__":
    main()
