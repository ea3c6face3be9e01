"""wick.optim.optimizer: Optimizer, the base of the optimizers, as PyTorch's: parameter groups, per-parameter
state, zero_grad, and state_dict()/load_state_dict() in PyTorch's format."""
import collections.abc
import copy
import warnings
from collections import defaultdict
from itertools import chain

import wick
from wick.nn.modules.module import zero_grad_of

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """The default of a hyperparameter each parameter group must give (SGD's lr)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def check_nonnegative(description, value):
    """PyTorch's check of a hyperparameter that must be >= 0: "Invalid learning rate: -1"."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {description}: {value}")


class Optimizer:
    """Optimizer(params, defaults)

    The base of the optimizers. `params` is an iterable of tensors, or of dicts (parameter groups) holding
    them under "params" and hyperparameters that override `defaults` for that group. Subclasses implement
    _update() over param_groups, keeping what they carry between steps in state[param].
    """

    __module__ = "wick.optim"

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, wick.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {type(params).__module__}.{type(params).__qualname__}")
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if not param_groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group) if key != "params")
        return text + ")"

    def add_param_group(self, param_group):
        """add_param_group(param_group) -> None

        Adds a dict of parameters ("params") with its hyperparameters; those it leaves out take the defaults.
        """
        if not isinstance(param_group, dict):
            raise TypeError("param group must be a dict")
        params = param_group["params"]
        if isinstance(params, wick.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, wick.Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(param).__name__}")
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        existing = set(chain.from_iterable(group["params"] for group in self.param_groups))
        if not existing.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """zero_grad(set_to_none=True) -> None: drops the gradients of the parameters (or zeroes them)."""
        zero_grad_of(chain.from_iterable(group["params"] for group in self.param_groups), set_to_none)

    def step(self, closure=None):
        """step(closure=None) -> loss or None: one update of every parameter that has a gradient; closure,
        if given, recomputes the loss (with grad enabled) and returns it."""
        loss = None
        if closure is not None:
            with wick.enable_grad():
                loss = closure()
        with wick.no_grad():
            self._update()
        return loss

    def _update(self):
        """The subclass's update of the parameters, run without grad."""
        raise NotImplementedError


    def _gradients(self, group):
        """(p, grad, state) for each parameter of `group` that has a gradient: grad is negated where the group
        maximizes, and state (self.state[p]) is empty on a parameter's first step."""
        for p in group["params"]:
            if p.grad is not None:
                yield p, -p.grad if group.get("maximize") else p.grad, self.state[p]
    def state_dict(self):
        """state_dict() -> dict

        {"state": {index: state}, "param_groups": [group]}, as PyTorch's: each parameter is named by its
        index, counted through the groups in order; the state's tensors are the optimizer's own.
        """
        index = {}
        param_groups = []
        for group in self.param_groups:
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index[id(p)] for p in group["params"]]
            param_groups.append(packed)
        state = {(index[id(k)] if isinstance(k, wick.Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        """load_state_dict(state_dict) -> None

        Takes the state and hyperparameters of a state_dict() (a copy of them) for this optimizer's
        parameters, which must be grouped as those that were saved.
        """
        state_dict = copy.deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                state[id_map[k]] = _cast(id_map[k], v)
            else:
                state[k] = v
        # Hyperparameters that a state_dict of another version lacks take this optimizer's defaults.
        param_groups = [{**self.defaults, **saved, "params": group["params"]}
                        for group, saved in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})


def _cast(param, value, key=None):
    """A loaded state `value` of `param` on its device, in its dtype if floating point (PyTorch's rule: the
    state follows the parameter), except "step", which keeps its own."""
    if isinstance(value, wick.Tensor):
        if key == "step":
            return value
        if param.dtype.is_floating_point:
            value = value.to(param.dtype)
        return value.to(param.device)
    if isinstance(value, dict):
        return {k: _cast(param, v, key=k) for k, v in value.items()}
    if isinstance(value, collections.abc.Iterable) and not isinstance(value, str):
        return type(value)(_cast(param, v) for v in value)
    return value
