"""Shared fixtures: the `cuda` marker skips where no GPU is present."""
import pytest

import wick


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: needs a CUDA device; skipped without one")


def pytest_collection_modifyitems(config, items):
    if wick.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="no CUDA device")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)
