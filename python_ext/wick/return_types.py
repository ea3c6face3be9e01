"""wick.return_types: the named tuple of each op that returns several tensors, as torch.return_types.

    >>> values, indices = wick.tensor([[1, 5], [4, 2]]).max(dim=1)
    >>> wick.tensor([3, 1]).sort().indices
    tensor([1, 0])

The types are made by wick._C (python_ext/named_tuples.cpp) from the declarations;
pickle finds them here by name.
"""
from wick._C import _return_types

globals().update(_return_types)
__all__ = sorted(_return_types)
del _return_types
