"""wick.optim.adamax: Adamax, Adam with the infinity norm, by PyTorch's update rules."""
import wick
from wick.optim._common import check_betas, numbers_to_tensors
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *, maximize=False)

    Per step t, with g the gradient (negated if maximize):
        g += weight_decay * p
        m = beta1 * m + (1 - beta1) * g;  u = max(beta2 * u, |g| + eps)
        p -= lr / (1 - beta1^t) * m / u
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False):
        check_nonnegative("learning rate", lr)
        check_nonnegative("epsilon value", eps)
        check_betas(betas)
        check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        numbers_to_tensors(self, ("step",))

    def _update(self):
        for group in self.param_groups:
            lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p, grad, state in self._gradients(group):
                if not state:
                    state["step"] = wick.tensor(0.0)
                    state["exp_avg"] = wick.zeros_like(p)
                    state["exp_inf"] = wick.zeros_like(p)
                step = state["step"].add_(1).item()
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                exp_avg = state["exp_avg"].mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_inf = state["exp_inf"].mul_(beta2)
                exp_inf.copy_(wick.maximum(exp_inf, grad.abs().add_(eps)))
                p.addcdiv_(exp_avg, exp_inf, value=-lr / (1 - beta1 ** step))
