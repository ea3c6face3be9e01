"""python_ext/wick/utils/__init__.py: PyTorch's torch.utils for wick; so far its data loading (wick.utils.data)."""
from wick.utils import data

__all__ = ["data"]
