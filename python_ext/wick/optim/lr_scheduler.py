"""wick.optim.lr_scheduler: schedules of the learning rate, as PyTorch's torch.optim.lr_scheduler (1.13):
LambdaLR, StepLR, MultiStepLR, ExponentialLR and CosineAnnealingLR.

Each scheduler.step() moves to the next epoch and sets the "lr" of every parameter group of its optimizer. As
in PyTorch, all but LambdaLR compute it from the groups' current lr (the chainable form, which composes with
other changes to lr), and from base_lrs by their closed form when step() is given the epoch (deprecated).
"""
import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from functools import wraps

from wick.optim.optimizer import Optimizer

__all__ = ["LambdaLR", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please use "
    "`scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the closed "
    "form is used instead of the new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose."
)


def _count_steps(optimizer):
    """Makes optimizer.step() count its calls in optimizer._step_count, once per optimizer: a scheduler's first
    step() warns when the optimizer has not stepped yet (https://github.com/pytorch/pytorch/issues/20124)."""
    if getattr(optimizer.step, "_with_counter", False):
        return
    step = optimizer.step.__func__
    instance = weakref.ref(optimizer)  # the wrapper is the optimizer's attribute: no reference cycle

    @wraps(step)
    def wrapper(*args, **kwargs):
        optimizer = instance()
        optimizer._step_count += 1
        return step(optimizer, *args, **kwargs)

    wrapper._with_counter = True
    optimizer.step = wrapper


class _LRScheduler:
    """_LRScheduler(optimizer, last_epoch=-1, verbose=False)

    The base of the schedulers. base_lrs are the groups' "initial_lr", set from their lr when starting afresh
    (last_epoch=-1) and required when resuming; construction takes the first step, to epoch last_epoch + 1.
    Subclasses compute the lrs of each step in get_lr(), and may have a closed form, _get_closed_form_lr().
    """

    def __init__(self, optimizer, last_epoch=-1, verbose=False):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming an "
                                   "optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _count_steps(optimizer)
        self.verbose = verbose
        self.optimizer._step_count = 0
        self._step_count = 0
        self.step()

    def state_dict(self):
        """state_dict() -> dict: every attribute but the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        """load_state_dict(state_dict) -> None: takes the attributes of a state_dict()."""
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        """get_last_lr() -> list: the lr of each group that the last step() set."""
        return self._last_lr

    def get_lr(self):
        """get_lr() -> list: the lr of each group at epoch last_epoch, in the chainable form."""
        raise NotImplementedError

    def _warn_unless_within_step(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning)

    def print_lr(self, is_verbose, group, lr, epoch=None):
        """Prints the new lr of a group, if is_verbose."""
        if not is_verbose:
            return
        if epoch is None:
            print(f"Adjusting learning rate of group {group} to {lr:.4e}.")
        else:
            epoch_str = ("%.2f" if isinstance(epoch, float) else "%.5d") % epoch
            print(f"Epoch {epoch_str}: adjusting learning rate of group {group} to {lr:.4e}.")

    def _warn_if_before_optimizer_step(self):
        if not hasattr(self.optimizer.step, "_with_counter"):
            warnings.warn("Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                          "initialization. Please, make sure to call `optimizer.step()` before `lr_scheduler.step()`. "
                          "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                          UserWarning)
        elif self.optimizer._step_count < 1:
            warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
                          "later, you should call them in the opposite order: `optimizer.step()` before "
                          "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value "
                          "of the learning rate schedule. See more details at "
                          "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate", UserWarning)

    def step(self, epoch=None):
        """step(epoch=None) -> None

        Sets each group's lr to that of the next epoch; given epoch (deprecated), to that of epoch, by the closed
        form where the scheduler has one.
        """
        if self._step_count == 1:  # the first step() after the one of construction
            self._warn_if_before_optimizer_step()
        self._step_count += 1
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning)
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for i, (group, lr) in enumerate(zip(self.optimizer.param_groups, values)):
            group["lr"] = lr
            self.print_lr(self.verbose, i, lr, epoch)
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _current_lrs(self):
        return [group["lr"] for group in self.optimizer.param_groups]


class LambdaLR(_LRScheduler):
    """LambdaLR(optimizer, lr_lambda, last_epoch=-1, verbose=False)

    lr = initial_lr * lr_lambda(epoch); lr_lambda is one function for every group, or a list of one per group.
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose=False):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        elif len(lr_lambda) != len(optimizer.param_groups):
            raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
        else:
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch, verbose)

    def state_dict(self):
        """state_dict() -> dict: every attribute but the optimizer; of the lr_lambdas, only the attributes of
        those that are callable objects (a function or lambda is saved as None)."""
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        """load_state_dict(state_dict) -> None: takes the attributes of a state_dict(), and gives each callable
        object of lr_lambdas its saved attributes."""
        self.__dict__.update({key: value for key, value in state_dict.items() if key != "lr_lambdas"})
        for fn, saved in zip(self.lr_lambdas, state_dict["lr_lambdas"]):
            if saved is not None:
                fn.__dict__.update(saved)

    def get_lr(self):
        self._warn_unless_within_step()
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class StepLR(_LRScheduler):
    """StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False)

    lr times gamma every step_size epochs: initial_lr * gamma ** (epoch // step_size).
    """

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_unless_within_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(_LRScheduler):
    """MultiStepLR(optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False)

    lr times gamma at each milestone epoch (as many times as it is listed).
    """

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_unless_within_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ExponentialLR(_LRScheduler):
    """ExponentialLR(optimizer, gamma, last_epoch=-1, verbose=False): lr times gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_unless_within_step()
        if self.last_epoch == 0:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(_LRScheduler):
    """CosineAnnealingLR(optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False)

    lr from initial_lr down to eta_min along half a cosine over T_max epochs, then back up, and so on:
    eta_min + (initial_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2, computed as PyTorch's recurrence.
    """

    def __init__(self, optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_unless_within_step()
        epoch, t_max, eta_min = self.last_epoch, self.T_max, self.eta_min
        if epoch == 0:
            return self._current_lrs()
        if self._step_count == 1 and epoch > 0:  # resumed (last_epoch given): the closed form
            return self._get_closed_form_lr()
        if (epoch - 1 - t_max) % (2 * t_max) == 0:  # past the bottom, where the ratio below would be 0 / 0
            return [lr + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, lr in zip(self.base_lrs, self._current_lrs())]
        return [(1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
                * (lr - eta_min) + eta_min for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]
