"""Types of wick.utils.data (python_ext/wick/utils/data.py): datasets, samplers, collation and DataLoader."""
from multiprocessing.context import BaseContext
from typing import Any, Callable, Generic, Iterable, Iterator, List, Optional, Sequence, Sized, TypeVar, Union

from wick import Tensor
from wick._C import Generator

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)

__all__: List[str]

class Dataset(Generic[_T_co]):
    def __getitem__(self, index: Any) -> _T_co: ...
    def __add__(self, other: Dataset[_T_co]) -> ConcatDataset[_T_co]: ...

class IterableDataset(Dataset[_T_co]):
    def __iter__(self) -> Iterator[_T_co]: ...
    def __add__(self, other: Dataset[_T_co]) -> ChainDataset[_T_co]: ...  # type: ignore[override]

class TensorDataset(Dataset[tuple[Tensor, ...]]):
    tensors: tuple[Tensor, ...]
    def __init__(self, *tensors: Tensor) -> None: ...
    def __len__(self) -> int: ...

class ConcatDataset(Dataset[_T_co]):
    datasets: List[Dataset[_T_co]]
    cumulative_sizes: List[int]
    def __init__(self, datasets: Iterable[Dataset[_T_co]]) -> None: ...
    def __len__(self) -> int: ...

class ChainDataset(IterableDataset[_T_co]):
    datasets: Iterable[Dataset[_T_co]]
    def __init__(self, datasets: Iterable[Dataset[_T_co]]) -> None: ...
    def __len__(self) -> int: ...

class Subset(Dataset[_T_co]):
    dataset: Dataset[_T_co]
    indices: Sequence[int]
    def __init__(self, dataset: Dataset[_T_co], indices: Sequence[int]) -> None: ...
    def __len__(self) -> int: ...

def random_split(dataset: Dataset[_T], lengths: Sequence[Union[int, float]],
                 generator: Optional[Generator] = ...) -> List[Subset[_T]]: ...

class Sampler(Generic[_T_co]):
    def __init__(self, data_source: Optional[Sized] = ...) -> None: ...
    def __iter__(self) -> Iterator[_T_co]: ...

class SequentialSampler(Sampler[int]):
    data_source: Sized
    def __init__(self, data_source: Sized) -> None: ...
    def __len__(self) -> int: ...

class RandomSampler(Sampler[int]):
    data_source: Sized
    replacement: bool
    generator: Optional[Generator]
    def __init__(self, data_source: Sized, replacement: bool = ..., num_samples: Optional[int] = ...,
                 generator: Optional[Generator] = ...) -> None: ...
    @property
    def num_samples(self) -> int: ...
    def __len__(self) -> int: ...

class SubsetRandomSampler(Sampler[int]):
    indices: Sequence[int]
    generator: Optional[Generator]
    def __init__(self, indices: Sequence[int], generator: Optional[Generator] = ...) -> None: ...
    def __len__(self) -> int: ...

class WeightedRandomSampler(Sampler[int]):
    weights: Tensor
    num_samples: int
    replacement: bool
    generator: Optional[Generator]
    def __init__(self, weights: Union[Sequence[float], Tensor], num_samples: int, replacement: bool = ...,
                 generator: Optional[Generator] = ...) -> None: ...
    def __len__(self) -> int: ...

class BatchSampler(Sampler[List[int]]):
    sampler: Union[Sampler[int], Iterable[int]]
    batch_size: int
    drop_last: bool
    def __init__(self, sampler: Union[Sampler[int], Iterable[int]], batch_size: int, drop_last: bool) -> None: ...
    def __len__(self) -> int: ...

def default_collate(batch: Sequence[Any]) -> Any: ...
def default_convert(data: Any) -> Any: ...

class WorkerInfo:
    id: int
    num_workers: int
    seed: int
    dataset: Dataset[Any]
    def __init__(self, **fields: Any) -> None: ...

def get_worker_info() -> Optional[WorkerInfo]: ...

class DataLoader(Generic[_T_co]):
    dataset: Dataset[_T_co]
    batch_size: Optional[int]
    drop_last: bool
    sampler: Union[Sampler[Any], Iterable[Any]]
    batch_sampler: Optional[Union[Sampler[List[Any]], Iterable[List[Any]]]]
    generator: Optional[Generator]
    num_workers: int
    pin_memory: bool
    timeout: float
    worker_init_fn: Optional[Callable[[int], None]]
    multiprocessing_context: Optional[BaseContext]
    prefetch_factor: int
    persistent_workers: bool
    pin_memory_device: str
    collate_fn: Callable[[Any], Any]
    def __init__(self, dataset: Dataset[_T_co], batch_size: Optional[int] = ..., shuffle: Optional[bool] = ...,
                 sampler: Union[Sampler[Any], Iterable[Any], None] = ...,
                 batch_sampler: Union[Sampler[List[Any]], Iterable[List[Any]], None] = ..., num_workers: int = ...,
                 collate_fn: Optional[Callable[[List[_T_co]], Any]] = ..., pin_memory: bool = ...,
                 drop_last: bool = ..., timeout: float = ..., worker_init_fn: Optional[Callable[[int], None]] = ...,
                 multiprocessing_context: Union[str, BaseContext, None] = ...,
                 generator: Optional[Generator] = ..., *, prefetch_factor: int = ..., persistent_workers: bool = ...,
                 pin_memory_device: str = ...) -> None: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
