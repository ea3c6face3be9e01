"""wick.utils.data.DataLoader with num_workers > 0 against num_workers=0 and PyTorch 1.13's DataLoader: the same
batches in sampler order (also when they arrive out of order), worker info and seeds, worker_init_fn, exceptions
raised again with the worker's traceback, timeout, iterable datasets (whole or sharded per worker), persistent
workers, shared-memory batches, and no worker process left behind."""
import gc
import multiprocessing
import os
import random
import time

import numpy as np
import pytest
import torch
import torch.utils.data as tdata
from torch.utils.data._utils.worker import _generate_state

import wick
import wick.utils.data as wdata


@pytest.fixture(autouse=True)
def no_worker_left():
    """Every test ends with its workers gone: joined, so not even zombies remain."""
    yield
    gc.collect()
    assert multiprocessing.active_children() == []


def as_numpy(batch):
    """A batch of either library as nested lists of NumPy arrays, dtypes kept, to compare wick's with torch's."""
    if isinstance(batch, (wick.Tensor, torch.Tensor)):
        return batch.numpy()
    if isinstance(batch, dict):
        return {key: as_numpy(value) for key, value in batch.items()}
    if isinstance(batch, (list, tuple)):
        return [as_numpy(b) for b in batch]
    return batch


def assert_same(a, b):
    a, b = as_numpy(a), as_numpy(b)
    if isinstance(b, dict):
        assert a.keys() == b.keys()
        for key in b:
            assert_same(a[key], b[key])
    elif isinstance(b, list):
        assert isinstance(a, list) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        assert type(a) is type(b) and (not isinstance(b, np.ndarray) or a.dtype == b.dtype)
        np.testing.assert_array_equal(a, b)


class Pairs:
    """Sample i: a dict of a float row and an int label, for either library (lib is wick or torch)."""

    def __init__(self, lib, n=11):
        self.data = lib.arange(n * 3, dtype=lib.float32).reshape(n, 3)
        self.labels = lib.arange(n) % 4

    def __getitem__(self, i):
        return {"x": self.data[i], "y": self.labels[i]}

    def __len__(self):
        return len(self.labels)


@pytest.mark.parametrize("batch_size, drop_last, num_workers, prefetch_factor", [
    (3, False, 2, 2), (3, True, 2, 1), (4, False, 1, 3), (None, False, 2, 2), (20, False, 2, 2), (20, True, 1, 2)])
def test_same_batches_as_main_process_and_torch(batch_size, drop_last, num_workers, prefetch_factor):
    order = [7, 2, 9, 0, 4, 10, 1, 3, 8, 6, 5]  # a fixed sampler, so that both libraries load the same samples
    kwargs = dict(batch_size=batch_size, drop_last=drop_last, sampler=order)
    loader = wdata.DataLoader(Pairs(wick), num_workers=num_workers, prefetch_factor=prefetch_factor, **kwargs)
    batches = list(loader)
    expected = list(wdata.DataLoader(Pairs(wick), **kwargs))
    torch_batches = list(tdata.DataLoader(Pairs(torch), num_workers=num_workers, **kwargs))
    assert len(loader) == len(batches) == len(expected) == len(torch_batches)
    for batch, single, reference in zip(batches, expected, torch_batches):
        assert_same(batch, single)
        assert_same(batch, reference)


class SlowFirst(wdata.Dataset):
    """Sample 0 comes late, so that worker 0's first batch arrives after worker 1's."""

    def __getitem__(self, i):
        if i == 0:
            time.sleep(0.3)
        return i

    def __len__(self):
        return 6


def test_out_of_order_batches_come_back_in_sampler_order():
    loader = wdata.DataLoader(SlowFirst(), batch_size=2, num_workers=2)
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3], [4, 5]]


def test_shared_memory_batches_and_len():
    loader = wdata.DataLoader(Pairs(wick), batch_size=4, num_workers=2)
    iterator = iter(loader)
    assert len(iterator) == len(loader) == 3
    batch = next(iterator)
    torch_batch = next(iter(tdata.DataLoader(Pairs(torch), batch_size=4, num_workers=2)))
    assert batch["x"].is_shared() == torch_batch["x"].is_shared() is True
    assert_same(batch, torch_batch)
    batch["x"].add_(1)  # the main process owns its copy: writable, and the next batches are unaffected
    assert_same([b["x"] for b in iterator], [Pairs(wick).data[4:8], Pairs(wick).data[8:]])


class WhoAmI(wdata.Dataset):
    """Sample i: what the worker that loads it knows of itself, and its first random draws of each kind."""

    def __getitem__(self, i):
        info = wdata.get_worker_info()
        try:
            info.seed = 0
            frozen = False
        except RuntimeError:
            frozen = True
        return dict(id=info.id, num_workers=info.num_workers, seed=info.seed, own_copy=info.dataset is self,
                    is_dataset=isinstance(info.dataset, WhoAmI), frozen=frozen, repr=repr(info), pid=os.getpid(),
                    wick=wick.rand(()).item(), random=random.random(), numpy=np.random.rand())

    def __len__(self):
        return 4


def test_worker_info_and_seeds():
    assert wdata.get_worker_info() is None
    base_seed = wick.empty((), dtype=wick.int64).random_(generator=wick.Generator().manual_seed(5)).item()
    loader = wdata.DataLoader(WhoAmI(), batch_size=None, num_workers=2, generator=wick.Generator().manual_seed(5))
    samples = list(loader)
    assert [s["id"] for s in samples] == [0, 1, 0, 1]  # batches go round robin
    assert len({s["pid"] for s in samples} | {os.getpid()}) == 3
    for s in samples:
        seed = base_seed + s["id"]
        assert s["num_workers"] == 2 and s["seed"] == seed and s["own_copy"] and s["is_dataset"] and s["frozen"]
        assert s["repr"].startswith(f"WorkerInfo(id={s['id']}, num_workers=2, seed={seed}, dataset=")
    for first in samples[:2]:  # each worker's first draws: from its own seed (numpy's from PyTorch's mix of it)
        seed = base_seed + first["id"]
        assert first["wick"] == wick.rand((), generator=wick.Generator().manual_seed(seed)).item()
        assert first["random"] == random.Random(seed).random()
        assert first["numpy"] == np.random.RandomState(_generate_state(base_seed, first["id"])).rand()
    assert wdata.get_worker_info() is None


def test_base_seed_advances_the_generator_whatever_num_workers():
    """The base seed is drawn each time an iterator is made, so shuffling gives the same order either way."""
    def epochs(num_workers):
        loader = wdata.DataLoader(range(12), batch_size=5, shuffle=True, num_workers=num_workers,
                                  generator=wick.Generator().manual_seed(2))
        return [b.tolist() for _ in range(2) for b in loader]

    assert epochs(0) == epochs(2)


_initialised = []  # in a worker: the ids worker_init_fn was called with


def record_worker_id(worker_id):
    _initialised.append((worker_id, wdata.get_worker_info().id))


class InitialisedIds(wdata.Dataset):
    def __getitem__(self, i):
        return list(_initialised)

    def __len__(self):
        return 4


def test_worker_init_fn_runs_in_each_worker():
    batches = list(wdata.DataLoader(InitialisedIds(), batch_size=None, num_workers=2, worker_init_fn=record_worker_id))
    assert batches == [[[0, 0]], [[1, 1]], [[0, 0]], [[1, 1]]] and _initialised == []


class Failing(wdata.Dataset):
    def __init__(self, error):
        self.error = error

    def __getitem__(self, i):
        if i == 3:
            raise self.error
        return i

    def __len__(self):
        return 6


@pytest.mark.parametrize("error", [ValueError("bad sample 3"), KeyError("bad sample 3")])
def test_worker_exception_is_raised_again_with_its_traceback(error):
    iterator = iter(wdata.DataLoader(Failing(error), batch_size=2, num_workers=2))
    assert next(iterator).tolist() == [0, 1]
    with pytest.raises(type(error)) as caught:
        next(iterator)
    message = str(caught.value)
    assert f"Caught {type(error).__name__} in DataLoader worker process 1." in message
    assert "Traceback (most recent call last)" in message and "in __getitem__" in message
    assert "bad sample 3" in message
    del iterator, caught  # the traceback holds the iterator in a cycle: the collector must still stop its workers


def failing_init(worker_id):
    raise ZeroDivisionError(f"init of worker {worker_id}")


def test_worker_init_fn_exception():
    with pytest.raises(ZeroDivisionError, match="init of worker 0"):
        list(wdata.DataLoader(range(4), num_workers=1, worker_init_fn=failing_init))


class Slow(wdata.Dataset):
    def __getitem__(self, i):
        time.sleep(0.5)
        return i

    def __len__(self):
        return 2


def test_timeout():
    iterator = iter(wdata.DataLoader(Slow(), num_workers=1, timeout=0.1))
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0\.1 seconds"):
        next(iterator)
    del iterator


class Stream:
    """range(n) as an IterableDataset of either library; sharded by the worker info when `shard`."""

    @staticmethod
    def make(lib, n, shard=False):
        class Range(lib.IterableDataset):
            def __iter__(self):
                info = lib.get_worker_info()
                if shard and info is not None:
                    return iter(range(info.id, n, info.num_workers))
                return iter(range(n))
        return Range()


@pytest.mark.parametrize("n, shard, batch_size, drop_last", [
    (7, False, 3, False), (7, True, 2, False), (7, True, 2, True), (5, True, None, False), (1, True, 2, False)])
def test_iterable_dataset_in_workers(n, shard, batch_size, drop_last):
    kwargs = dict(batch_size=batch_size, drop_last=drop_last, num_workers=2)
    batches = list(wdata.DataLoader(Stream.make(wdata, n, shard), **kwargs))
    torch_batches = list(tdata.DataLoader(Stream.make(tdata, n, shard), **kwargs))
    assert len(batches) == len(torch_batches) > 0
    for batch, reference in zip(batches, torch_batches):
        assert_same(batch, reference)


class Pids(wdata.Dataset):
    def __getitem__(self, i):
        return os.getpid()

    def __len__(self):
        return 4


def test_persistent_workers():
    loader = wdata.DataLoader(Pids(), batch_size=None, num_workers=2, persistent_workers=True)
    first = list(loader)
    iterator = iter(loader)
    assert next(iterator) == first[0]  # an epoch left unfinished
    assert list(loader) == first and len(set(first)) == 2  # the same workers again
    assert len(multiprocessing.active_children()) == 2
    stream = wdata.DataLoader(Stream.make(wdata, 5, shard=True), batch_size=2, num_workers=2, persistent_workers=True)
    assert [b.tolist() for b in stream] == [b.tolist() for b in stream] == [[0, 2], [1, 3], [4]]
    del loader, iterator, stream  # the workers go with their loader


def test_workers_stop_when_the_iterator_is_dropped():
    iterator = iter(wdata.DataLoader(range(100), batch_size=2, num_workers=2))
    assert next(iterator).tolist() == [0, 1] and len(multiprocessing.active_children()) == 2
    del iterator
    gc.collect()
    assert multiprocessing.active_children() == []


def test_multiprocessing_context():
    loader = wdata.DataLoader(wdata.TensorDataset(wick.arange(6)), batch_size=4, num_workers=1,
                              multiprocessing_context="spawn")
    assert loader.multiprocessing_context.get_start_method() == "spawn"
    assert [b.tolist() for (b,) in loader] == [[0, 1, 2, 3], [4, 5]]
    for lib in (wdata, tdata):
        with pytest.raises(ValueError):
            lib.DataLoader(range(3), num_workers=1, multiprocessing_context="no such method")
        with pytest.raises(TypeError):
            lib.DataLoader(range(3), num_workers=1, multiprocessing_context=3)
