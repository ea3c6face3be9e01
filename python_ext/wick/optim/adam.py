"""wick.optim.adam: Adam, with PyTorch's update rules, amsgrad and maximize; its decoupled weight decay is
AdamW's (wick.optim.adamw)."""
import math

import wick
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *, maximize=False)

    Per step t, with g the gradient (negated if maximize):
        g += weight_decay * p
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g²;  v_max = max(v_max, v) if amsgrad
        p -= lr / (1 - beta1^t) * m / (sqrt(v or v_max) / sqrt(1 - beta2^t) + eps)
    """

    # AdamW's: weight decay scales p by 1 - lr * weight_decay before the update instead of joining g.
    _decoupled_weight_decay = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 maximize=False):
        check_nonnegative("learning rate", lr)
        check_nonnegative("epsilon value", eps)
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        # PyTorch before 1.12 saved the step as a number; it is a tensor since.
        for s in self.state.values():
            if "step" in s and not isinstance(s["step"], wick.Tensor):
                s["step"] = wick.tensor(float(s["step"]))

    def _update(self):
        decoupled = self._decoupled_weight_decay
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            for p, grad, state in self._gradients(group):
                if not state:
                    state["step"] = wick.tensor(0.0)
                    state["exp_avg"] = wick.zeros_like(p)
                    state["exp_avg_sq"] = wick.zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = wick.zeros_like(p)
                if weight_decay != 0:
                    if decoupled:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                step = state["step"].add_(1).item()
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                if amsgrad:
                    exp_avg_sq = state["max_exp_avg_sq"].maximum_(exp_avg_sq)
                denom = exp_avg_sq.sqrt().div_(math.sqrt(1 - beta2 ** step)).add_(eps)
                p.addcdiv_(exp_avg, denom, value=-lr / (1 - beta1 ** step))
