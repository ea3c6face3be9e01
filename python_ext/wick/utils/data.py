"""python_ext/wick/utils/data.py: PyTorch's torch.utils.data for wick - datasets, samplers, collation and DataLoader.

Every random draw (shuffling, random_split, the random samplers) comes from wick's RNG: the generator given, or
wick's default generator when it is None, so wick.manual_seed(...) makes a run reproducible.

Note [Loading in the main process]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
PyTorch's DataLoader with num_workers > 0 loads batches in worker processes. Wick's DataLoader accepts the same
arguments but always loads in the calling process, in order, so it cannot hang on a worker and yields exactly what
num_workers=0 would. Hence get_worker_info() is always None and worker_init_fn is never called (there is no worker
to initialise); an IterableDataset that shards itself by get_worker_info() yields all of its data once, as under
PyTorch with num_workers=0. pin_memory is accepted and has no effect: batches stay where the dataset put them.
"""
import bisect
import collections.abc
import math
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


def get_worker_info():
    """None: wick's DataLoader has no worker processes (see Note [Loading in the main process])."""
    return None


# --- DataLoader ---

class DataLoader:
    """Iterates a dataset in batches: map-style datasets through a sampler (sequential, shuffled or given) and a
    BatchSampler, iterable datasets in stream order. ``batch_size=None`` turns batching off: each sample goes through
    ``default_convert`` (or ``collate_fn``) alone. num_workers > 0 loads in this process, see
    Note [Loading in the main process]."""

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
        self._initialized = True

    def __setattr__(self, name, value):
        if getattr(self, "_initialized", False) and name in self._FROZEN:
            raise ValueError(f"{name} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(name, value)

    def __iter__(self):
        if isinstance(self.dataset, IterableDataset):
            samples = iter(self.dataset)
            if self.batch_size is None:
                return map(self.collate_fn, samples)
            return map(self.collate_fn, _batches(samples, self.batch_size, self.drop_last))
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        return (self.collate_fn([self.dataset[i] for i in indices]) for indices in self.batch_sampler)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
