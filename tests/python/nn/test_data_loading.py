"""wick.utils.data against PyTorch 1.13's torch.utils.data side by side: the batches a DataLoader makes (shapes,
dtypes, values) from tensor, tuple, dict, NumPy and iterable datasets; drop_last and batch_size=None; seeded
shuffling that is reproducible and yields every sample once; random_split; the samplers; the errors; and a short
training loop through a DataLoader."""
import collections
import warnings

import numpy as np
import pytest
import torch
import torch.utils.data as tdata

import wick
import wick.utils.data as wdata

Point = collections.namedtuple("Point", "x y")


def same(w, t):
    """Batches w (wick) and t (torch) have the same structure, types, dtypes, shapes and values."""
    if isinstance(t, torch.Tensor):
        assert isinstance(w, wick.Tensor), type(w)
        assert str(w.dtype).split(".")[1] == str(t.dtype).split(".")[1]
        assert tuple(w.shape) == tuple(t.shape)
        np.testing.assert_array_equal(w.numpy(), t.numpy())
    elif isinstance(t, dict):
        assert type(w) is type(t) and w.keys() == t.keys()
        for key in t:
            same(w[key], t[key])
    elif isinstance(t, (list, tuple)):
        assert type(w) is type(t) and len(w) == len(t), (w, t)
        for a, b in zip(w, t):
            same(a, b)
    else:
        assert w == t and type(w) is type(t)


def check_same_batches(wick_samples, torch_samples, **kwargs):
    w_loader, t_loader = wdata.DataLoader(wick_samples, **kwargs), tdata.DataLoader(torch_samples, **kwargs)
    w_batches, t_batches = list(w_loader), list(t_loader)
    assert len(w_loader) == len(t_loader) == len(t_batches) == len(w_batches)
    for w, t in zip(w_batches, t_batches):
        same(w, t)


DATA = np.arange(7 * 3, dtype=np.float32).reshape(7, 3)
LABELS = np.arange(7) % 3


@pytest.mark.parametrize("batch_size, drop_last", [(1, False), (3, False), (3, True), (7, True), (10, False),
                                                   (10, True), (None, False)])
def test_tensor_dataset(batch_size, drop_last):
    check_same_batches(wdata.TensorDataset(wick.tensor(DATA), wick.tensor(LABELS)),
                       tdata.TensorDataset(torch.tensor(DATA), torch.tensor(LABELS)),
                       batch_size=batch_size, drop_last=drop_last)


# Samples of every kind default_collate knows, as (wick's, torch's) lists.
SAMPLES = {
    "tensor": ([wick.tensor(row) for row in DATA], [torch.tensor(row) for row in DATA]),
    "int": ([int(i) for i in LABELS],) * 2,
    "float": ([float(v) for v in DATA[:, 0]],) * 2,
    "bool": ([bool(i % 2) for i in LABELS],) * 2,
    "str": ([f"s{i}" for i in LABELS],) * 2,
    "numpy_array": ([row for row in DATA],) * 2,
    "numpy_scalar": ([np.float32(v) for v in DATA[:, 1]],) * 2,
    "numpy_int": ([np.int16(i) for i in LABELS],) * 2,
    "tuple": ([(wick.tensor(row), int(i), "a") for row, i in zip(DATA, LABELS)],
              [(torch.tensor(row), int(i), "a") for row, i in zip(DATA, LABELS)]),
    "list": ([[float(i), int(i)] for i in LABELS],) * 2,
    "dict": ([{"x": row, "y": float(i), "name": str(i)} for row, i in zip(DATA, LABELS)],) * 2,
    "nested": ([{"p": Point(row, [int(i), int(i) + 1])} for row, i in zip(DATA, LABELS)],) * 2,
    "namedtuple": ([Point(float(i), np.int64(i)) for i in LABELS],) * 2,
}


@pytest.mark.parametrize("kind", SAMPLES)
@pytest.mark.parametrize("batch_size", [2, None])
def test_collated_batches_match_torch(kind, batch_size):
    wick_samples, torch_samples = SAMPLES[kind]
    check_same_batches(wick_samples, torch_samples, batch_size=batch_size)


@pytest.mark.parametrize("kind", SAMPLES)
def test_default_convert_and_collate_match_torch(kind):
    wick_samples, torch_samples = SAMPLES[kind]
    same(wdata.default_collate(wick_samples[:3]), tdata.default_collate(torch_samples[:3]))
    same(wdata.default_convert(wick_samples[0]), tdata.default_convert(torch_samples[0]))


def test_collate_errors():
    for bad in ([object(), object()], [np.array(["a", "b"]), np.array(["c", "d"])]):
        with pytest.raises(TypeError):
            tdata.default_collate(bad)
        with pytest.raises(TypeError):
            wdata.default_collate(bad)
    for lib in (tdata, wdata):
        with pytest.raises(RuntimeError, match="equal size"):
            lib.default_collate([[1, 2], [3]])


class Stream:
    """An iterable dataset of 0..n-1, built on either library's IterableDataset."""

    @staticmethod
    def make(lib, n, with_len=True):
        class _Stream(lib.IterableDataset):
            def __iter__(self):
                return iter(range(n))

        if with_len:
            _Stream.__len__ = lambda self: n
        return _Stream()


@pytest.mark.parametrize("batch_size, drop_last", [(3, False), (3, True), (5, False), (None, False)])
def test_iterable_dataset(batch_size, drop_last):
    check_same_batches(Stream.make(wdata, 10), Stream.make(tdata, 10), batch_size=batch_size, drop_last=drop_last)


def test_iterable_dataset_errors_and_no_len():
    for lib in (tdata, wdata):
        for kwargs in ({"shuffle": True}, {"sampler": [0, 1]}, {"batch_sampler": [[0]]}):
            with pytest.raises(ValueError, match="IterableDataset"):
                lib.DataLoader(Stream.make(lib, 4), **kwargs)
        with pytest.raises(TypeError):
            len(lib.DataLoader(Stream.make(lib, 4, with_len=False)))
        assert [int(b.sum()) for b in lib.DataLoader(Stream.make(lib, 4, with_len=False), batch_size=3)] == [3, 3]
        chained = Stream.make(lib, 2) + Stream.make(lib, 3)
        assert list(chained) == [0, 1, 0, 1, 2] and len(chained) == 5


@pytest.mark.parametrize("num_workers", [0, 2])
def test_shuffle_is_seeded_and_yields_each_sample_once(num_workers):
    """Shuffling draws from the generator given (else wick's default one): one seed, one order; every epoch a
    permutation. num_workers > 0 loads in worker processes and gives the same batches."""
    dataset = wdata.TensorDataset(wick.arange(50))

    def epoch(generator):
        loader = wdata.DataLoader(dataset, batch_size=8, shuffle=True, generator=generator, num_workers=num_workers)
        return wick.cat([b for (b,) in loader]).tolist()

    first = epoch(wick.Generator().manual_seed(3))
    assert first == epoch(wick.Generator().manual_seed(3))
    assert sorted(first) == list(range(50)) and first != list(range(50))
    assert first != epoch(wick.Generator().manual_seed(4))
    wick.manual_seed(11)
    default = epoch(None)
    wick.manual_seed(11)
    assert default == epoch(None) and sorted(default) == list(range(50))


@pytest.mark.parametrize("lengths", [[3, 7], [0, 10], [10], [0.3, 0.7], [0.25, 0.25, 0.5], [0.33, 0.33, 0.34]])
def test_random_split(lengths):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = wdata.random_split(range(10), lengths, generator=wick.Generator().manual_seed(0))
    with warnings.catch_warnings(record=True) as torch_caught:
        warnings.simplefilter("always")
        torch_parts = tdata.random_split(range(10), lengths, generator=torch.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [len(p) for p in torch_parts]
    assert len(caught) == len(torch_caught)
    items = [x for p in parts for x in p]
    assert sorted(items) == list(range(10))
    again = wdata.random_split(range(10), lengths, generator=wick.Generator().manual_seed(0))
    assert [list(p) for p in again] == [list(p) for p in parts]


def test_random_split_errors():
    for lib in (tdata, wdata):
        with pytest.raises(ValueError, match="Sum of input lengths"):
            lib.random_split(range(10), [3, 3])
        with pytest.raises(ValueError, match="not between 0 and 1"):
            lib.random_split(range(10), [1.5, -0.5])


def test_subset_and_concat():
    base = list(range(10))
    for lib in (tdata, wdata):
        sub = lib.Subset(base, [4, 2, 8])
        assert len(sub) == 3 and [sub[i] for i in range(3)] == [4, 2, 8]
        cat = lib.ConcatDataset([base[:3], base[3:], sub])
        assert len(cat) == 13 and [cat[i] for i in range(13)] == base + [4, 2, 8]
        assert cat[-1] == 8 and cat.cumulative_sizes == [3, 10, 13]
        with pytest.raises(ValueError, match="absolute value"):
            cat[-14]
        with pytest.raises(AssertionError, match="empty"):
            lib.ConcatDataset([])
        with pytest.raises(AssertionError, match="IterableDataset"):
            lib.ConcatDataset([Stream.make(lib, 2)])
        with pytest.raises(AssertionError, match="Size mismatch between tensors"):
            mod = torch if lib is tdata else wick
            lib.TensorDataset(mod.zeros(3), mod.zeros(4))
    tensors = wdata.TensorDataset(wick.arange(4), wick.arange(4) * 2)
    assert len(tensors) == 4 and [int(v) for v in tensors[2]] == [2, 4]
    assert len(wdata.TensorDataset(wick.zeros(3)) + wdata.TensorDataset(wick.zeros(2))) == 5


def test_samplers():
    data = range(10)
    for lib in (tdata, wdata):
        assert list(lib.SequentialSampler(data)) == list(range(10))
        batches = lib.BatchSampler(lib.SequentialSampler(data), 4, False)
        assert list(batches) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] and len(batches) == 3
        dropped = lib.BatchSampler(range(10), 4, True)
        assert list(dropped) == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(dropped) == 2
        assert list(lib.BatchSampler(range(8), 4, True)) == [[0, 1, 2, 3], [4, 5, 6, 7]]
        loader = lib.DataLoader(list(data), batch_sampler=lib.BatchSampler(range(10), 3, False))
        assert len(loader) == 4 and [b.tolist() for b in loader][-1] == [9]
        assert [int(b) for b in lib.DataLoader(list(data), sampler=[3, 1], batch_size=None)] == [3, 1]
    g = wick.Generator().manual_seed(0)
    shuffled = list(wdata.RandomSampler(data, generator=g))
    assert sorted(shuffled) == list(range(10))
    longer = list(wdata.RandomSampler(data, num_samples=25, generator=g))
    assert len(longer) == 25 and sorted(longer[:20]) == sorted(list(range(10)) * 2)
    drawn = list(wdata.RandomSampler(data, replacement=True, num_samples=100, generator=g))
    assert len(drawn) == 100 and set(drawn) <= set(range(10)) and len(set(drawn)) > 5
    assert len(wdata.RandomSampler(data, replacement=True, num_samples=7)) == 7
    subset = list(wdata.SubsetRandomSampler([5, 7, 9], generator=g))
    assert sorted(subset) == [5, 7, 9]
    weighted = wdata.WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 200, generator=g)
    picks = list(weighted)
    assert len(weighted) == 200 and set(picks) == {1, 3} and 100 < picks.count(3) < 190
    unique = list(wdata.WeightedRandomSampler([1.0, 1.0, 1.0, 1.0], 4, replacement=False, generator=g))
    assert sorted(unique) == [0, 1, 2, 3]
    g1, g2 = wick.Generator().manual_seed(5), wick.Generator().manual_seed(5)
    assert list(wdata.RandomSampler(data, generator=g1)) == list(wdata.RandomSampler(data, generator=g2))


@pytest.mark.parametrize("make, error", [
    (lambda lib: lib.RandomSampler(range(3), replacement=1), TypeError),
    (lambda lib: lib.RandomSampler(range(3), num_samples=0), ValueError),
    (lambda lib: lib.RandomSampler([], replacement=False), ValueError),
    (lambda lib: lib.WeightedRandomSampler([1.0], 0), ValueError),
    (lambda lib: lib.WeightedRandomSampler([1.0], True), ValueError),
    (lambda lib: lib.WeightedRandomSampler([1.0], 2, replacement=None), ValueError),
    (lambda lib: lib.WeightedRandomSampler([[1.0, 2.0]], 2), ValueError),
    (lambda lib: lib.BatchSampler(range(3), 0, False), ValueError),
    (lambda lib: lib.BatchSampler(range(3), 2.0, False), ValueError),
    (lambda lib: lib.BatchSampler(range(3), 2, None), ValueError),
    (lambda lib: lib.DataLoader(range(3), batch_size=0), ValueError),
    (lambda lib: lib.DataLoader(range(3), batch_size=-1), ValueError),
    (lambda lib: lib.DataLoader(range(3), sampler=[0], shuffle=True), ValueError),
    (lambda lib: lib.DataLoader(range(3), batch_sampler=[[0]], batch_size=2), ValueError),
    (lambda lib: lib.DataLoader(range(3), batch_sampler=[[0]], drop_last=True), ValueError),
    (lambda lib: lib.DataLoader(range(3), batch_size=None, drop_last=True), ValueError),
    (lambda lib: lib.DataLoader(range(3), num_workers=-1), ValueError),
    (lambda lib: lib.DataLoader(range(3), timeout=-1), ValueError),
    (lambda lib: lib.DataLoader(range(3), prefetch_factor=4), ValueError),
    (lambda lib: lib.DataLoader(range(3), persistent_workers=True), ValueError),
    (lambda lib: lib.DataLoader(range(3), multiprocessing_context="spawn"), ValueError),
    (lambda lib: setattr(lib.DataLoader(range(3)), "batch_size", 2), ValueError),
    (lambda lib: len(lib.Dataset()), TypeError),
    (lambda lib: lib.Dataset()[0], NotImplementedError),
    (lambda lib: iter(lib.IterableDataset()), NotImplementedError),
    (lambda lib: list(lib.DataLoader([object()])), TypeError),
])
def test_errors_match_torch(make, error):
    with pytest.raises(error):
        make(tdata)
    with pytest.raises(error):
        make(wdata)


def test_loader_attributes():
    loader = wdata.DataLoader(range(10), batch_size=4, num_workers=3, pin_memory=True)
    assert loader.num_workers == 3 and isinstance(loader.sampler, wdata.SequentialSampler)
    assert isinstance(loader.batch_sampler, wdata.BatchSampler) and loader.collate_fn is wdata.default_collate
    assert len(loader) == 3 and wdata.get_worker_info() is None
    loader.collate_fn = wdata.default_convert  # not one of the frozen attributes
    assert wick.utils.data.DataLoader is wdata.DataLoader
    assert isinstance(wdata.DataLoader(range(3), shuffle=True).sampler, wdata.RandomSampler)


def test_training_through_a_dataloader_reduces_the_loss():
    wick.manual_seed(0)
    x = wick.randn(64, 3)
    y = x @ wick.tensor([[1.5], [-2.0], [0.5]]) + 0.1
    model = wick.nn.Linear(3, 1)
    optimizer = wick.optim.SGD(model.parameters(), lr=0.1)
    loader = wdata.DataLoader(wdata.TensorDataset(x, y), batch_size=8, shuffle=True,
                              generator=wick.Generator().manual_seed(1))
    epoch_losses = []
    for _ in range(2):
        total = 0.0
        for xb, yb in loader:
            assert tuple(xb.shape) == (8, 3) and tuple(yb.shape) == (8, 1)
            optimizer.zero_grad()
            loss = wick.nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            optimizer.step()
            total += loss.item()
        epoch_losses.append(total / len(loader))
    assert epoch_losses[1] < 0.5 * epoch_losses[0]
