"""wick.optim.asgd: ASGD, averaged stochastic gradient descent, by PyTorch's update rules, with maximize."""
import wick
from wick.optim._common import numbers_to_tensors
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None, maximize=False)

    Per step t, with g the gradient (negated if maximize), eta starting at lr and mu at 1:
        g += weight_decay * p
        p = p * (1 - lambd * eta) - eta * g
        ax = p if mu == 1 else ax + mu * (p - ax)
        eta = lr / (1 + lambd * lr * t)^alpha;  mu = 1 / max(1, t - t0)
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False):
        check_nonnegative("learning rate", lr)
        check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        numbers_to_tensors(self, ("step", "eta", "mu"))

    def _update(self):
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            for p, grad, state in self._gradients(group):
                if not state:
                    # Note: as PyTorch's, eta and mu are float32 tensors; their rounding is part of the update.
                    state["step"] = wick.tensor(0.0)
                    state["eta"] = wick.tensor(lr)
                    state["mu"] = wick.tensor(1.0)
                    state["ax"] = wick.zeros_like(p)
                step = state["step"].add_(1).item()
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])
                eta, mu, ax = state["eta"], state["mu"], state["ax"]
                p.mul_(1 - lambd * eta.item())
                p.add_(grad, alpha=-eta.item())
                if mu.item() != 1:
                    ax.add_(p.sub(ax).mul(mu))
                else:
                    ax.copy_(p)
                eta.fill_(lr / (1 + lambd * lr * step) ** alpha)
                mu.fill_(1 / max(1, step - t0))
