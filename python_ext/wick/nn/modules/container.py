"""wick.nn.modules.container: Sequential, which chains modules; ModuleList, which holds them in a list; ModuleDict,
which holds them by name."""
import collections.abc
import operator
from collections import OrderedDict

from wick.nn.modules.module import Module

__all__ = ["Sequential", "ModuleList", "ModuleDict"]


class _IndexedModules(Module):
    """Submodules in order, reached by position: what Sequential and ModuleList share."""

    def _key(self, idx):
        """The name of the submodule at position idx (negative from the end)."""
        idx = operator.index(idx)
        size = len(self._modules)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules)[idx % size]

    def _renumber(self, modules):
        # As PyTorch names them after a deletion or an insertion: by position.
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(modules))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __setitem__(self, idx, module):
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for key in list(self._modules)[idx]:
                delattr(self, key)
        else:
            delattr(self, self._key(idx))
        self._renumber(self._modules.values())

    def append(self, module):
        """append(module) -> self: adds `module` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        """extend(modules) -> self: appends each module of the iterable `modules`."""
        if not hasattr(modules, "__iter__"):
            raise TypeError(f"{type(self).__name__}.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        """insert(index, module) -> self: puts `module` before position `index`, as list.insert."""
        if not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._renumber(modules)
        return self


class Sequential(_IndexedModules):
    """Sequential(*modules) or Sequential(OrderedDict of name -> module)

    Calls its modules in order, each on the output of the one before.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(_IndexedModules):
    """ModuleList(modules=None): submodules in a list, each registered (named "0", "1", ...)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key(idx)]

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))


class ModuleDict(Module):
    """ModuleDict(modules=None): submodules by name, in order of insertion, each registered under its name;
    modules is a mapping, or an iterable of (name, module) pairs."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        """clear() -> None: removes every module."""
        self._modules.clear()

    def pop(self, key):
        """pop(key) -> Module: removes the module `key` and returns it."""
        module = self[key]
        del self[key]
        return module

    def keys(self):
        """keys() -> the names, in order."""
        return self._modules.keys()

    def items(self):
        """items() -> the (name, module) pairs, in order."""
        return self._modules.items()

    def values(self):
        """values() -> the modules, in order."""
        return self._modules.values()

    def update(self, modules):
        """update(modules) -> None: adds (or replaces) each module of a mapping, or of an iterable of (name, module)
        pairs, in its order."""
        if not isinstance(modules, collections.abc.Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            + type(modules).__name__)
        if isinstance(modules, (collections.abc.Mapping, ModuleDict)):
            modules = modules.items()
        for j, pair in enumerate(modules):
            if not isinstance(pair, collections.abc.Iterable):
                raise TypeError(f"ModuleDict update sequence element #{j} should be Iterable; is"
                                + type(pair).__name__)
            if len(pair) != 2:
                raise ValueError(f"ModuleDict update sequence element #{j} has length {len(pair)}; 2 is required")
            self[pair[0]] = pair[1]
