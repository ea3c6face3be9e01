"""Shared fixtures: the `cuda` marker skips where no GPU is present; the Hypothesis profiles of the fuzz suites.

The Python tests, by concern (the op tests generated from the declarations, ops/test_declared_ops.py,
check each op with a `numpy:` line against NumPy in every dtype and layout; the rest is what they
cannot express):

    ops/       op semantics beyond the generated tests: errors, PyTorch's edge cases, aliasing, views
    kernels/   the CPU kernels' fast paths at sizes the generated tests never reach; the CPU levels; CUDA
    binding/   argument parsing, error translation, signatures and docstrings, stubs, return types,
               the thread count
    tensor/    construction and properties, views, x[index], repr
    serialization/  wick.save and wick.load, their safety against hostile files, safetensors, pickling
    interop/   the buffer protocol, NumPy, DLPack, as_tensor
    dtypes/    PyTorch's dtype rules: promotion, refusals, conversions, Python numbers
    safety/    sizes past int64, reentrancy, lifetime, leaks, threads, no crash on wrong calls
    fuzz/      the Hypothesis suites, their helpers and the regressions they found
    docs/      the manual: it builds with Sphinx, and every `examples:` of the declarations runs
    packaging/ pip builds a wheel, and a fresh virtual environment installs and imports it
    autograd/  the grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode), as PyTorch's

Helpers shared across folders stay here: reference.py (comparing with NumPy), declared.py (the
cases read from the declarations), opcheck.py and numpy_ref.py (their checker and references). A
helper used by one folder lives there.
"""
import os

import pytest

import wick

try:
    from hypothesis import HealthCheck, Phase, settings
except ImportError:  # the fuzz suites then fail to import, and say why; the other tests run
    settings = None

# Fuzzing (tests/python/fuzz/test_fuzz_*.py). In CI a fixed, small number of examples per test
# (each test sets its own through fuzz_strategies.examples), drawn the same way on every run;
# no example database is written. Setting WICK_FUZZ_EXAMPLES runs that many per test, drawn
# afresh each time, and shrinks what fails to a minimal example (in CI a failure is reported as
# found, because the suites' known crashes would otherwise spend minutes shrinking).
if settings is not None:
    _RELAXED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
    settings.register_profile("wick-ci", derandomize=True, database=None, deadline=None, print_blob=False,
                              suppress_health_check=_RELAXED, phases=[Phase.explicit, Phase.generate])
    settings.register_profile("wick-local", derandomize=False, database=None, deadline=None, print_blob=True,
                              suppress_health_check=_RELAXED)
    settings.load_profile("wick-local" if os.environ.get("WICK_FUZZ_EXAMPLES") else "wick-ci")


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: needs a CUDA device; skipped without one")


def pytest_collection_modifyitems(config, items):
    if wick.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="no CUDA device")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)
