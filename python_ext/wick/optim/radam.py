"""wick.optim.radam: RAdam, Adam with the variance of its adaptive lr rectified, by PyTorch's update rules."""
import math

import wick
from wick.optim._common import check_betas, numbers_to_tensors
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None)

    Per step t, with g the gradient:
        g += weight_decay * p
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g²;  m̂ = m / (1 - beta1^t)
        rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
        if rho_t > 5: r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
                      p -= lr * m̂ * r * sqrt(1 - beta2^t) / (sqrt(v) + eps)
        else:         p -= lr * m̂
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None):
        check_nonnegative("learning rate", lr)
        check_nonnegative("epsilon value", eps)
        check_betas(betas)
        check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach)
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
                    state["exp_avg_sq"] = wick.zeros_like(p)
                step = state["step"].add_(1).item()
                bias_correction2 = 1 - beta2 ** step
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                exp_avg = state["exp_avg"].mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq = state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                corrected = exp_avg / (1 - beta1 ** step)
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2
                if rho_t > 5.0:
                    rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                    adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps)
                    p.add_(corrected * lr * adaptive_lr * rect, alpha=-1.0)
                else:
                    p.add_(corrected * lr, alpha=-1.0)
