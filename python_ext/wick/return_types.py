"""wick.return_types: the named tuple of each op that returns several tensors, as torch.return_types.

    >>> values, indices = wick.tensor([[1, 5], [4, 2]]).max(dim=1)
    >>> wick.tensor([3, 1]).sort().indices
    tensor([1, 0])

The types of declared ops are made by wick._C (python_ext/named_tuples.cpp) from the declarations,
those of the Python glue by named_tuple(); pickle finds them all here by name.
"""
import collections

from wick._C import _return_types

globals().update(_return_types)
__all__ = sorted(_return_types)
del _return_types


def named_tuple(name, fields):
    """The type wick.return_types.<name> of a function of the Python glue that returns several tensors, as
    torch.return_types.<name>: the fields by name or by position, repr one field a line."""
    if name in globals():
        raise ValueError(f"wick.return_types.{name} exists already")

    def __repr__(self):
        return f"wick.return_types.{name}(" + ",".join(f"\n{f}={v!r}" for f, v in zip(fields, self)) + ")"

    cls = collections.namedtuple(name, fields, module=__name__)
    cls.__repr__ = __repr__
    globals()[name] = cls
    __all__.append(name)
    return cls
