"""python_ext/wick/utils/data.py: PyTorch's torch.utils.data for wick - datasets, samplers, collation and DataLoader.

Every random draw (shuffling, random_split, the random samplers) comes from wick's RNG: the generator given, or
wick's default generator when it is None, so wick.manual_seed(...) makes a run reproducible.

Note [Worker processes]
~~~~~~~~~~~~~~~~~~~~~~~
With num_workers > 0 the DataLoader loads batches in worker processes, as PyTorch 1.13's does, made by
multiprocessing_context (the platform's default start method when None: fork on Linux). Each worker has its own
index queue; all send to one result queue. The main process keeps prefetch_factor batches outstanding per worker,
handing out batch indices round robin, and yields the batches in sampler order, holding back those that arrive
early. Worker w seeds Python's `random` and wick with base_seed + w (numpy with PyTorch's mix of the two), where
base_seed is drawn from the loader's generator (wick's default one when None) each time an iterator is made, with
or without workers, so that the generator advances as under PyTorch. In a worker get_worker_info() says who it is;
worker_init_fn(worker_id) runs there first. An IterableDataset is iterated whole by every worker, each over its own
copy: to split it, shard in worker_init_fn or __iter__ by get_worker_info(), as in PyTorch. An exception in a worker
comes back with its traceback as text and is raised again in the main process. Workers stop (sent None, joined,
terminated if they hang) when the iterator is exhausted or deleted, or, with persistent_workers, when the loader is.

Tensors come back through shared memory, as in PyTorch: a worker copies each CPU tensor of a batch into a
shared-memory file (Note [Shared memory storage] in core/include/wick/storage.h) and sends its descriptor over a Unix
socket (multiprocessing's resource_sharer), so a batch's bytes are neither pickled nor pushed through a pipe. Other
tensors (CUDA, subclasses, ones that require grad) are pickled. pin_memory is accepted and has no effect: batches
stay where the dataset put them.
"""
import atexit
import bisect
import collections.abc
import itertools
import math
import multiprocessing
import multiprocessing.reduction
import os
import queue
import random
import sys
import traceback
import warnings

import numpy as np

import wick

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "ChainDataset", "Subset", "random_split",
           "Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler", "DataLoader", "default_collate", "default_convert", "get_worker_info"]


# --- datasets ---

class Dataset:
    """A map-style dataset: ``dataset[i]`` is the i-th sample; most also define ``len()``."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is a stream of samples: iterating it yields them. ``len()`` is optional."""

    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Sample i is the tuple of the i-th rows of the given tensors, which must have the same first size."""

    def __init__(self, *tensors):
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """The map-style datasets one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = []  # cumulative_sizes[k]: samples in datasets[:k + 1]
        for d in self.datasets:
            self.cumulative_sizes.append(len(d) + (self.cumulative_sizes[-1] if self.cumulative_sizes else 0))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        k = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[k][idx - (self.cumulative_sizes[k - 1] if k > 0 else 0)]


class ChainDataset(IterableDataset):
    """The iterable datasets one after another."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only supports IterableDataset"
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only supports IterableDataset"
            total += len(d)
        return total


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def _fraction_lengths(n, fractions):
    """Split lengths for fractions of n samples: floors, then the remainder one by one from the first split on."""
    lengths = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(int(math.floor(n * frac)))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.")
    return lengths


def random_split(dataset, lengths, generator=None):
    """Splits ``dataset`` at random into non-overlapping Subsets of the given lengths, or of the given fractions of
    its length when they sum to 1. The permutation is drawn from ``generator`` (wick's default one when None)."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _fraction_lengths(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = wick.randperm(sum(lengths), generator=generator).tolist()
    splits, end = [], 0
    for length in lengths:
        splits.append(Subset(dataset, indices[end:end + length]))
        end += length
    return splits


# --- samplers ---

def _positive_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class Sampler:
    """Iterating a sampler yields the indices (or lists of indices) of a dataset to load."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """The indices of ``data_source`` in random order; with ``replacement``, ``num_samples`` independent draws.
    Without replacement, ``num_samples`` beyond the length repeats whole permutations."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.replacement:  # in chunks, so that a huge num_samples costs no memory up front
            for start in range(0, self.num_samples, 32):
                size = min(32, self.num_samples - start)
                yield from wick.randint(0, n, (size,), generator=self.generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from wick.randperm(n, generator=self.generator).tolist()
        if self.num_samples % n:
            yield from wick.randperm(n, generator=self.generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in random order."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in wick.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (through wick.multinomial)."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not _positive_int(num_samples):
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        self.weights = wick.as_tensor(weights, dtype=wick.float64)
        if self.weights.dim() != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(self.weights.shape)}")
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        yield from wick.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator).tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size``; the last may be shorter unless ``drop_last``."""

    def __init__(self, sampler, batch_size, drop_last):
        if not _positive_int(batch_size):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        return _batches(iter(self.sampler), self.batch_size, self.drop_last)

    def __len__(self):
        whole, rest = divmod(len(self.sampler), self.batch_size)
        return whole + (1 if rest and not self.drop_last else 0)


def _batches(items, batch_size, drop_last):
    """Lists of batch_size consecutive items of an iterator; the shorter last one unless drop_last."""
    while True:
        batch = []
        for item in items:
            batch.append(item)
            if len(batch) == batch_size:
                break
        if not batch or (drop_last and len(batch) < batch_size):
            return
        yield batch
        if len(batch) < batch_size:
            return


# --- collation ---

_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _is_string_array(value):
    return isinstance(value, np.ndarray) and value.dtype.char in "SaUO"


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _rebuild(like, values):
    """values in a container of like's type when that type can be built from a list, else the list."""
    try:
        return type(like)(values)
    except TypeError:
        return values


def default_convert(data):
    """NumPy arrays and scalars in ``data`` (through dicts, namedtuples and sequences) as wick tensors; the rest as
    they are. A tuple becomes a list, as in PyTorch."""
    if isinstance(data, wick.Tensor):
        return data
    if isinstance(data, (np.ndarray, np.generic)) and not isinstance(data, (np.str_, np.bytes_)):
        return data if _is_string_array(data) else wick.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        converted = {key: default_convert(data[key]) for key in data}
        try:
            return type(data)(converted)
        except TypeError:
            return converted
    if _is_namedtuple(data):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild(data, [default_convert(d) for d in data])
    return data


def default_collate(batch):
    """Merges a list of samples into a batch, as PyTorch's: tensors stacked along a new first dimension; NumPy arrays
    and scalars as tensors, then stacked; Python ints to an int64 tensor, floats to float64, bools to bool; strings
    kept as a list; dicts, namedtuples and sequences collated field by field (a tuple's fields as a list)."""
    elem = batch[0]
    if isinstance(elem, wick.Tensor):
        return wick.stack(list(batch), 0)
    if isinstance(elem, (np.ndarray, np.generic)) and not isinstance(elem, (np.str_, np.bytes_)):
        if _is_string_array(elem):
            raise TypeError(_COLLATE_ERROR.format(elem.dtype))
        if isinstance(elem, np.ndarray):
            return default_collate([wick.as_tensor(b) for b in batch])
        return wick.as_tensor(np.array(batch))
    if isinstance(elem, float):
        return wick.tensor(batch, dtype=wick.float64)
    if isinstance(elem, int):  # and bool, a subclass of int: wick.tensor keeps the bools
        return wick.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            return type(elem)(collated)
        except TypeError:
            return collated
    if _is_namedtuple(elem):
        return type(elem)(*(default_collate(field) for field in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(field) for field in zip(*batch)]
        return fields if isinstance(elem, tuple) else _rebuild(elem, fields)
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


class _InfiniteConstantSampler(Sampler):
    """None forever: the sampler of an iterable dataset, whose samples come from iterating it, not from indices."""

    def __iter__(self):
        while True:
            yield None


# --- worker processes (Note [Worker processes]) ---

# How long a blocked queue read waits before checking that the other side is still alive, in seconds (PyTorch's).
_STATUS_CHECK_INTERVAL = 5.0


class WorkerInfo:
    """What get_worker_info() gives in a worker: id, num_workers, seed and dataset (the worker's copy of it); its
    attributes cannot be set afterwards."""

    def __init__(self, **fields):
        object.__setattr__(self, "_fields", tuple(fields))
        for key, value in fields.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={getattr(self, k)}' for k in self._fields)})"


_worker_info = None  # this process's WorkerInfo when it is a DataLoader worker


def get_worker_info():
    """In a DataLoader worker process, its WorkerInfo (id, num_workers, seed, dataset); None in any other process."""
    return _worker_info


def _numpy_seed(base_seed, worker_id):
    """The numpy seed of a worker: PyTorch's _generate_state, which is NumPy's SeedSequence over these words."""
    words = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]
    return np.random.SeedSequence(words).generate_state(4)


class _KeyErrorMessage(str):
    """A KeyError's message that prints as itself: KeyError shows the repr of its argument."""

    def __repr__(self):
        return self


class _ExceptionWrapper:
    """The exception being handled in a worker, as its type and traceback text, to raise again in the main
    process (PyTorch's ExceptionWrapper)."""

    def __init__(self, worker_id):
        self.exc_type = sys.exc_info()[0]
        self.exc_msg = traceback.format_exc()
        self.where = f"in DataLoader worker process {worker_id}"

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)
        try:
            exception = self.exc_type(msg)
        except TypeError:  # an exception class that cannot be built from one message
            raise RuntimeError(msg) from None
        raise exception


class _IterableDatasetStopIteration:
    """A worker's word that its copy of an iterable dataset has run out."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class _ResumeIteration:
    """Sent to a persistent worker for a new epoch: it starts its dataset again and sends this back."""


class _Fetcher:
    """Makes batches of a dataset: from the samples at the given indices of a map-style dataset; from the next
    samples of an iterable dataset, whose indices are Nones, one per sample (a list of them when batching)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last
        self.samples = iter(dataset) if isinstance(dataset, IterableDataset) else None
        self.ended = False  # the iterable dataset has run out: never ask it again

    def fetch(self, index):
        """The batch (or sample) for index; StopIteration when an iterable dataset has no more."""
        if self.samples is None:
            data = [self.dataset[i] for i in index] if self.auto_collation else self.dataset[index]
        elif self.ended:
            raise StopIteration
        elif self.auto_collation:
            data = list(itertools.islice(self.samples, len(index)))
            self.ended = len(data) < len(index)
            if not data or (self.drop_last and self.ended):
                raise StopIteration
        else:
            data = next(self.samples)
        return self.collate_fn(data)


def _reduce_shared(tensor):
    """Pickles a CPU tensor in a worker as a descriptor of a shared-memory copy of its bytes (Note [Worker
    processes]); other tensors as pickle always does. The copy is taken afresh rather than moving the tensor's own
    storage: this runs on the queue's feeder thread, which must not free bytes the worker may still be reading."""
    if type(tensor) is not wick.Tensor or tensor.device.type != "cpu" or tensor.requires_grad or tensor.numel() == 0:
        return tensor.__reduce_ex__(multiprocessing.reduction.ForkingPickler.HIGHEST_PROTOCOL)
    if not tensor.is_shared():
        tensor = tensor.clone().share_memory_()
    storage = tensor.untyped_storage()
    fd = multiprocessing.reduction.DupFd(storage._shared_fd())
    return _rebuild_shared, (fd, storage.nbytes(), tensor.dtype, tensor.storage_offset(), tuple(tensor.shape),
                             tensor.stride())


def _rebuild_shared(fd, nbytes, dtype, storage_offset, size, stride):
    """The tensor _reduce_shared sent, over the worker's shared memory (the storage keeps its own descriptor)."""
    own_fd = fd.detach()
    try:
        storage = wick.UntypedStorage._new_shared_fd(own_fd, nbytes)
    finally:
        os.close(own_fd)
    return wick.empty(0, dtype=dtype).set_(storage, storage_offset, size, stride)


def _worker_loop(dataset, index_queue, result_queue, done_event, auto_collation, collate_fn, drop_last, base_seed,
                 init_fn, worker_id, num_workers):
    """A worker process: fetches the batch of each (batch number, index) from index_queue and puts (batch number,
    batch, an _ExceptionWrapper or _IterableDatasetStopIteration) on result_queue, until it reads None."""
    global _worker_info
    try:
        wick.set_num_threads(1)
        seed = base_seed + worker_id
        random.seed(seed)
        wick.manual_seed(seed)
        np.random.seed(_numpy_seed(base_seed, worker_id))
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        multiprocessing.reduction.ForkingPickler.register(wick.Tensor, _reduce_shared)
        parent = os.getppid()
        init_error, fetcher = None, None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _Fetcher(dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = _ExceptionWrapper(worker_id)  # raised in the main process with the first batch
        iteration_end = False
        while True:
            try:
                task = index_queue.get(timeout=_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                if os.getppid() != parent:  # the main process died without stopping us
                    break
                continue
            if isinstance(task, _ResumeIteration):
                result_queue.put((task, None))
                iteration_end = False
                fetcher = _Fetcher(dataset, auto_collation, collate_fn, drop_last)
                continue
            if task is None:
                break
            if done_event.is_set() or iteration_end:
                continue  # shutting down, or out of data: drop the task
            batch_number, index = task
            if init_error is not None:
                data, init_error = init_error, None
            else:
                try:
                    data = fetcher.fetch(index)
                except StopIteration:
                    if fetcher.samples is None:
                        data = _ExceptionWrapper(worker_id)
                    else:
                        data, iteration_end = _IterableDatasetStopIteration(worker_id), True
                except Exception:
                    data = _ExceptionWrapper(worker_id)
            result_queue.put((batch_number, data))
            del data, task, index  # free the batch while waiting for the next task
    except KeyboardInterrupt:  # the main process gets it too and stops us
        pass
    if done_event.is_set():  # nobody reads what is left: exit without flushing it
        result_queue.cancel_join_thread()
        result_queue.close()


# The queues and processes of the workers not yet shut down, by their iterator's id. Held here, they stay out of
# any garbage cycle their iterator falls into (one through a raised exception's traceback, say), so its __del__
# finds them working: the collector runs the finalizers of garbage queues, which stop their feeder threads and
# would lose the None that tells a worker to exit, before it runs __del__ methods.
_running = {}


class _MultiProcessingDataLoaderIter:
    """An iterator over a DataLoader's batches, loaded by its worker processes (Note [Worker processes])."""

    def __init__(self, loader, base_seed):
        self._shutdown = True  # until the workers exist
        self._loader = loader
        self._iterable = isinstance(loader.dataset, IterableDataset)
        self._index_sampler = loader.batch_sampler if loader.batch_sampler is not None else loader.sampler
        self._num_workers, self._prefetch_factor = loader.num_workers, loader.prefetch_factor
        self._timeout, self._persistent = loader.timeout, loader.persistent_workers
        context = loader.multiprocessing_context or multiprocessing.get_context()
        self._result_queue = context.Queue()
        self._done_event = context.Event()
        self._index_queues, self._workers = [], []
        try:
            for worker_id in range(self._num_workers):
                index_queue = context.Queue()
                index_queue.cancel_join_thread()  # exiting must not wait for a worker to read its tasks
                worker = context.Process(target=_worker_loop, daemon=True, args=(
                    loader.dataset, index_queue, self._result_queue, self._done_event,
                    loader.batch_sampler is not None, loader.collate_fn, loader.drop_last, base_seed,
                    loader.worker_init_fn, worker_id, self._num_workers))
                worker.start()  # may fail, e.g. when the spawn method cannot pickle the dataset
                self._index_queues.append(index_queue)
                self._workers.append(worker)
        except BaseException:
            for worker in self._workers:
                worker.terminate()
                worker.join()
            raise
        _running[id(self)] = (self._index_queues, self._result_queue, self._workers)
        self._shutdown = False
        self._reset(first=True)

    def _reset(self, first=False):
        """Starts an epoch: a new pass over the sampler, persistent workers told to start again, tasks sent."""
        self._sampler_iter = iter(self._index_sampler)
        self._send_idx = 0  # the number of the next batch to ask for
        self._rcvd_idx = 0  # the number of the next batch to yield
        self._task_info = {}  # batch number -> (worker,) while awaited, (worker, data) once it came early
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers  # which workers are still given tasks
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        if not first:
            for index_queue in self._index_queues:
                index_queue.put(_ResumeIteration())
            resumed = 0
            while resumed < self._num_workers:  # drop whatever is left of the last epoch
                batch_number, _ = self._get_data()
                resumed += isinstance(batch_number, _ResumeIteration)
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)

    def __next__(self):
        while True:
            # Skip the batches that will never come: those of iterable-dataset workers that ran out.
            while self._rcvd_idx < self._send_idx:
                info = self._task_info[self._rcvd_idx]
                if len(info) == 2 or self._workers_status[info[0]]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:  # it came early
                return self._process(self._task_info.pop(self._rcvd_idx)[1])
            batch_number, data = self._get_data()
            self._tasks_outstanding -= 1
            if isinstance(data, _IterableDatasetStopIteration):
                if self._persistent:
                    self._workers_status[data.worker_id] = False
                else:
                    self._stop_worker(data.worker_id)
                self._try_put_index()
            elif batch_number != self._rcvd_idx:
                self._task_info[batch_number] += (data,)
            else:
                del self._task_info[batch_number]
                return self._process(data)

    def _try_put_index(self):
        """Sends the next batch's indices to the next active worker, round robin; nothing when there are none."""
        try:
            index = next(self._sampler_iter)
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_id,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process(self, data):
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, _ExceptionWrapper):
            data.reraise()
        return data

    def _get_data(self):
        """The next (batch number, data) from the workers; RuntimeError after `timeout` seconds without one (when
        timeout > 0) or when a worker died."""
        while True:
            try:
                return self._result_queue.get(timeout=self._timeout if self._timeout > 0 else _STATUS_CHECK_INTERVAL)
            except queue.Empty:
                dead = [w for i, w in enumerate(self._workers) if self._workers_status[i] and not w.is_alive()]
                if dead:
                    for i, w in enumerate(self._workers):
                        if w in dead:
                            self._stop_worker(i)
                    pids = ", ".join(str(w.pid) for w in dead)
                    raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from None
                if self._timeout > 0:
                    raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds") from None

    def _stop_worker(self, worker_id):
        """Tells a worker to exit and gives it no more tasks."""
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self):
        """Stops every worker: asked to exit, given a while to, then terminated; nothing is left running."""
        if self._shutdown or _exiting:  # at exit multiprocessing terminates its daemonic children itself
            return
        self._shutdown = True
        try:
            self._done_event.set()
            for worker_id in range(self._num_workers):
                if self._persistent or self._workers_status[worker_id]:
                    self._stop_worker(worker_id)
            for worker in self._workers:
                worker.join(timeout=_STATUS_CHECK_INTERVAL)
            for index_queue in self._index_queues:
                index_queue.close()
        finally:
            for worker in self._workers:
                if worker.is_alive():
                    worker.terminate()
                    worker.join()
            del _running[id(self)]

    def __del__(self):
        self._shutdown_workers()


_exiting = False


def _set_exiting():
    global _exiting
    _exiting = True


atexit.register(_set_exiting)


def _start_context(context):
    """The multiprocessing context named by a start method, or given; None stays None (the default context)."""
    if isinstance(context, str):
        methods = multiprocessing.get_all_start_methods()
        if context not in methods:
            raise ValueError(f"multiprocessing_context option should specify a valid start method in {methods!r}, "
                             f"but got multiprocessing_context={context!r}")
        return multiprocessing.get_context(context)
    if context is not None and not isinstance(context, multiprocessing.context.BaseContext):
        raise TypeError("multiprocessing_context option should be a valid context object or a string specifying the "
                        f"start method, but got multiprocessing_context={context}")
    return context


def _single_process(fetcher, indices):
    """The batches of num_workers=0, loaded here as they are asked for."""
    for index in indices:
        try:
            batch = fetcher.fetch(index)
        except StopIteration:  # an iterable dataset ran out
            return
        yield batch


# --- DataLoader ---

class DataLoader:
    """Iterates a dataset in batches: map-style datasets through a sampler (sequential, shuffled or given) and a
    BatchSampler, iterable datasets in stream order. ``batch_size=None`` turns batching off: each sample goes through
    ``default_convert`` (or ``collate_fn``) alone. num_workers > 0 loads in worker processes, see
    Note [Worker processes]."""

    # PyTorch refuses to change these once the loader is built: the sampler and its length depend on them.
    _FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=2, persistent_workers=False,
                 pin_memory_device=""):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing.")
        if prefetch_factor <= 0:
            raise ValueError(f"prefetch_factor should be positive, but got prefetch_factor={prefetch_factor}")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                             f"but got num_workers={num_workers}")
        multiprocessing_context = _start_context(multiprocessing_context)
        iterable = isinstance(dataset, IterableDataset)
        if iterable:
            for name, value, unset in (("shuffle", shuffle, shuffle is None or shuffle is False),
                                       ("sampler", sampler, sampler is None),
                                       ("batch_sampler", batch_sampler, batch_sampler is None)):
                if not unset:
                    raise ValueError(f"DataLoader with IterableDataset: expected unspecified {name} option, "
                                     f"but got {name}={value}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            sampler = (_InfiniteConstantSampler() if iterable else
                       RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.pin_memory, self.timeout = num_workers, pin_memory, timeout
        self.worker_init_fn, self.multiprocessing_context = worker_init_fn, multiprocessing_context
        self.prefetch_factor, self.persistent_workers = prefetch_factor, persistent_workers
        self.pin_memory_device = pin_memory_device
        batching = batch_sampler is not None  # a batch_size makes one above
        self.collate_fn = collate_fn if collate_fn is not None else default_collate if batching else default_convert
        self._iterator = None  # the one iterator of persistent workers
        self._initialized = True

    def __setattr__(self, name, value):
        if getattr(self, "_initialized", False) and name in self._FROZEN:
            raise ValueError(f"{name} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(name, value)

    def __iter__(self):
        # The workers' base seed is drawn whatever num_workers is, as in PyTorch, so the generator advances alike.
        if self._iterator is not None:  # persistent workers: the same ones, the same base seed
            self._iterator._reset()
            return self._iterator
        base_seed = wick.empty((), dtype=wick.int64).random_(generator=self.generator).item()
        if self.num_workers > 0:
            iterator = _MultiProcessingDataLoaderIter(self, base_seed)
            if self.persistent_workers:
                self._iterator = iterator
            return iterator
        fetcher = _Fetcher(self.dataset, self.batch_sampler is not None, self.collate_fn, self.drop_last)
        return _single_process(fetcher, self.batch_sampler if self.batch_sampler is not None else self.sampler)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
