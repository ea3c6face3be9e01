"""wick.optim.adagrad: Adagrad, with PyTorch's update rules (dense gradients), lr decay and maximize."""
import wick
from wick.optim._common import numbers_to_tensors
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, foreach=None,
    *, maximize=False)

    Per step t, with g the gradient (negated if maximize), and s starting at initial_accumulator_value:
        g += weight_decay * p
        s += g²;  p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False):
        check_nonnegative("learning rate", lr)
        check_nonnegative("lr_decay value", lr_decay)
        check_nonnegative("weight_decay value", weight_decay)
        check_nonnegative("initial_accumulator_value value", initial_accumulator_value)
        check_nonnegative("epsilon value", eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)
        # PyTorch makes the state at construction, so that share_memory() can share it.
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["step"] = wick.tensor(0.0)
                self.state[p]["sum"] = wick.full_like(p, group["initial_accumulator_value"])

    def __setstate__(self, state):
        super().__setstate__(state)
        numbers_to_tensors(self, ("step",))

    def _update(self):
        for group in self.param_groups:
            lr, lr_decay, eps, weight_decay = group["lr"], group["lr_decay"], group["eps"], group["weight_decay"]
            for p, grad, state in self._gradients(group):
                step = state["step"].add_(1).item()
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                clr = lr / (1 + (step - 1) * lr_decay)
                state_sum = state["sum"].addcmul_(grad, grad, value=1)
                p.addcdiv_(grad, state_sum.sqrt().add_(eps), value=-clr)
