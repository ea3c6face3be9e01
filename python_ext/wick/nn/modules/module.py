"""wick.nn.modules.module: Module, the base of every layer, as PyTorch's torch.nn.Module: the registration
of parameters, buffers and submodules, their traversal, train/eval, state_dict, and conversions."""
import collections.abc
import itertools
from collections import OrderedDict
from typing import List, NamedTuple

import wick
from wick.nn.parameter import Parameter

__all__ = ["Module"]


class _IncompatibleKeys(NamedTuple):
    """What load_state_dict() returns: the keys it missed and those it did not expect."""

    missing_keys: List[str]
    unexpected_keys: List[str]

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, unexpected_keys={self.unexpected_keys!r})"


def _addindent(text, spaces):
    """`text` with every line but the first indented by `spaces`: a child's repr inside its parent's."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


def zero_grad_of(params, set_to_none):
    """Drops the gradient of each parameter (set_to_none), or zeroes it in place, detached: Module's and
    Optimizer's zero_grad()."""
    for p in params:
        if set_to_none:
            p.grad = None
        elif p.grad is not None:
            grad = p.grad
            if grad.grad_fn is not None:
                grad.detach_()
            else:
                grad.requires_grad_(False)
            grad.zero_()


def _parse_to(*args, device=None, dtype=None, non_blocking=False, memory_format=None):
    """The (device, dtype, non_blocking, memory_format) of Module.to's forms: to(device=None, dtype=None,
    non_blocking=False, *, memory_format=None), to(dtype, non_blocking=False), to(tensor, non_blocking=False)."""
    args = list(args)
    if args and isinstance(args[0], wick.Tensor):
        other = args.pop(0)
        device, dtype = other.device, other.dtype
    elif args and isinstance(args[0], wick.dtype):
        dtype = args.pop(0)
    elif args:
        device = args.pop(0)
        if args and isinstance(args[0], wick.dtype):
            dtype = args.pop(0)
    if args:
        non_blocking = args.pop(0)
    if args:
        raise TypeError(f"to() received {len(args)} unexpected positional argument(s)")
    if memory_format is not None and not isinstance(memory_format, wick.memory_format):
        raise TypeError(f"to(): memory_format must be a wick.memory_format, not {type(memory_format).__name__}")
    return (None if device is None else wick.device(device)), dtype, non_blocking, memory_format


class Module:
    """The base class of all layers: subclasses assign their parameters, buffers and submodules as
    attributes in __init__ (after Module.__init__) and compute their output in forward()."""

    __module__ = "wick.nn"

    def __init__(self):
        # Straight into __dict__: __setattr__ needs these to exist.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # --- registration ---

    def _check_new_name(self, kind, name, registry):
        """PyTorch's checks on the name of a new parameter, buffer or module (`kind`) kept in `registry`."""
        if registry not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f"{kind} name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError(f"{kind} name can't be empty string \"\"")
        if hasattr(self, name) and name not in self.__dict__[registry]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        """register_parameter(name, param) -> None: adds a Parameter (or None, a parameter left unset)."""
        self._check_new_name("parameter", name, "_parameters")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                            "(wick.nn.Parameter or None required)")
        if param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
                             f"explicitly. To express '{name}' as a function of another Tensor, compute the value in "
                             "the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """register_buffer(name, tensor, persistent=True) -> None

        Adds a tensor that is state but not a parameter (a running mean); a persistent buffer is part of
        state_dict(). `tensor` may be None.
        """
        self._check_new_name("buffer", name, "_buffers")
        if tensor is not None and not isinstance(tensor, wick.Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            "(wick Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """add_module(name, module) -> None: adds a submodule (or None), reachable as the attribute `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._check_new_name("module", name, "_modules")
        self._modules[name] = module

    register_module = add_module

    def __getattr__(self, name):
        # Called only when normal lookup fails. Read through __dict__: while unpickling, the registries may not
        # exist yet.
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        d = self.__dict__

        def remove_from(*registries):
            for registry in registries:
                if name in registry:
                    if isinstance(registry, dict):
                        del registry[name]
                    else:
                        registry.discard(name)

        params = d.get("_parameters")
        modules = d.get("_modules")
        buffers = d.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(d, buffers, modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                "(wick.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(d, params, buffers, self._non_persistent_buffers_set)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module '{name}' "
                                "(wick.nn.Module or None expected)")
            modules[name] = value
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, wick.Tensor):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                "(wick.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = itertools.chain(super().__dir__(), self._parameters, self._buffers, self._modules)
        return sorted(key for key in set(keys) if not key[0].isdigit())

    # --- traversal ---

    def _named_members(self, members_of, prefix="", recurse=True, remove_duplicate=True):
        """(qualified name, member) of each member that members_of(module) lists, once each unless told."""
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for name, member in members_of(module):
                if member is None or member in seen:
                    continue
                if remove_duplicate:
                    seen.add(member)
                yield (module_prefix + "." + name if module_prefix else name), member

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """named_parameters(prefix='', recurse=True, remove_duplicate=True) -> iterator of (str, Parameter)

        Each parameter with its qualified name ("0.weight"), those of the submodules too if recurse.
        """
        return self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """parameters(recurse=True) -> iterator of Parameter"""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """named_buffers(prefix='', recurse=True, remove_duplicate=True) -> iterator of (str, Tensor)"""
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        """buffers(recurse=True) -> iterator of Tensor"""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_children(self):
        """named_children() -> iterator of (str, Module): the direct submodules, each once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        """children() -> iterator of Module"""
        for _, module in self.named_children():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """named_modules(memo=None, prefix='', remove_duplicate=True) -> iterator of (str, Module)

        This module (named `prefix`) and every module under it, depth first.
        """
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + "." + name if prefix else name, remove_duplicate)

    def modules(self):
        """modules() -> iterator of Module: this module and every module under it."""
        for _, module in self.named_modules():
            yield module

    def apply(self, fn):
        """apply(fn) -> self: calls fn on every submodule (children first), then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- modes and gradients ---

    def train(self, mode=True):
        """train(mode=True) -> self: sets the training flag of this module and of every module under it."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """eval() -> self: train(False)."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """requires_grad_(requires_grad=True) -> self: sets requires_grad on every parameter."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """zero_grad(set_to_none=True) -> None: drops the gradients of the parameters (or zeroes them)."""
        zero_grad_of(self.parameters(), set_to_none)

    # --- state_dict ---

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """state_dict(*, destination=None, prefix='', keep_vars=False) -> OrderedDict

        The parameters and persistent buffers by qualified name, detached unless keep_vars: they share the
        module's memory.
        """
        if destination is None:
            destination = OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # PyTorch's signature, for subclasses that override it and call it; wick keeps no metadata ({}).
        persistent_buffers = ((k, v) for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set)
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent_buffers)
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, wick.Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected wick.Tensor from checkpoint '
                                  f"but received {type(input_param)}")
                continue
            if tuple(input_param.shape) != tuple(param.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {tuple(input_param.shape)} "
                                  f"from checkpoint, the shape in current model is {tuple(param.shape)}.")
                continue
            try:
                with wick.no_grad():
                    param.copy_(input_param)
            except Exception as ex:  # reported with the others, as PyTorch does
                error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the model are '
                                  f"{tuple(param.shape)} and whose dimensions in the checkpoint are "
                                  f"{tuple(input_param.shape)}, an exception occurred : {ex.args}.")
        if strict:
            for key in state_dict:
                if key.startswith(prefix):
                    name = key[len(prefix):].split(".", 1)[0]  # a parameter, buffer or child of this module
                    if name not in self._modules and name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """load_state_dict(state_dict, strict=True) -> NamedTuple(missing_keys, unexpected_keys)

        Copies the tensors of `state_dict` into the parameters and persistent buffers of the same names. With
        strict, its keys must be exactly those of state_dict(); any mismatch raises RuntimeError.
        """
        if not isinstance(state_dict, collections.abc.Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []

        def load(module, prefix):
            # strict=True, as PyTorch passes: the keys are listed either way, and raise only if strict.
            module._load_from_state_dict(state_dict, prefix, {}, True, missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    load(child, prefix + name + ".")

        load(self, "")
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # --- conversions ---

    def _apply(self, fn):
        """Replaces each parameter and buffer t (of this module and those under it) by fn(t), under no_grad."""
        with wick.no_grad():
            self._apply_once(fn, {})
        return self

    def _apply_once(self, fn, converted):
        # PyTorch swaps the memory under the same Parameter (param.data = ...); a wick tensor's memory is fixed,
        # so a parameter that changes is replaced by a new one, its gradient converted alike. `converted` maps
        # id(old) to (old, new): a parameter shared by several modules (tied weights) stays shared.
        for module in self.children():
            module._apply_once(fn, converted)
        for key, param in self._parameters.items():
            if param is None:
                continue
            if id(param) not in converted:
                applied = fn(param)
                new = param if applied is param else Parameter(applied, param.requires_grad)
                if new is not param and param.grad is not None:
                    new.grad = fn(param.grad)
                converted[id(param)] = param, new
            self._parameters[key] = converted[id(param)][1]
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)

    def to(self, *args, **kwargs):
        """to(device=None, dtype=None, non_blocking=False, *, memory_format=None), to(dtype, non_blocking=False),
        to(tensor, non_blocking=False) -> self

        Moves the parameters and buffers to `device` and casts the floating-point ones to `dtype`; memory_format
        (wick.channels_last...) lays out those of 4 or 5 dims. Those that change are new tensors: make the
        optimizer after moving the model.
        """
        device, dtype, non_blocking, memory_format = _parse_to(*args, **kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point dtypes, but got desired dtype={dtype}")

        def convert(t):
            laid_out = {"memory_format": memory_format} if memory_format is not None and t.dim() in (4, 5) else {}
            return t.to(device or t.device, dtype if t.dtype.is_floating_point else None, non_blocking, **laid_out)
        return self._apply(convert)

    def cpu(self):
        """cpu() -> self: to('cpu')."""
        return self.to("cpu")

    def cuda(self, device=None):
        """cuda(device=None) -> self: to the current CUDA device, or to `device` (an index or a device)."""
        return self.to(f"cuda:{device}" if isinstance(device, int) else device or "cuda")

    def _cast_floats(self, dtype):
        return self._apply(lambda t: t.to(dtype) if t.dtype.is_floating_point else t)

    def float(self):
        """float() -> self: the floating-point parameters and buffers to float32."""
        return self._cast_floats(wick.float32)

    def double(self):
        """double() -> self: the floating-point parameters and buffers to float64."""
        return self._cast_floats(wick.float64)

    def half(self):
        """half() -> self: the floating-point parameters and buffers to float16."""
        return self._cast_floats(wick.float16)

    def bfloat16(self):
        """bfloat16() -> self: the floating-point parameters and buffers to bfloat16."""
        return self._cast_floats(wick.bfloat16)

    # --- repr ---

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """What repr() shows between the parentheses before the children; subclasses say their settings."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        body = ""
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return self._get_name() + "(" + body + ")"
