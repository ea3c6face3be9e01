"""wick.optim.nadam: NAdam, Adam with Nesterov momentum and momentum decay, by PyTorch's update rules."""
import wick
from wick.optim._common import check_betas, numbers_to_tensors
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3, foreach=None)

    Per step t, with g the gradient:
        g += weight_decay * p
        mu_t = beta1 * (1 - 0.96^(t * momentum_decay) / 2);  P_t = mu_1 * ... * mu_t
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g²;  d = sqrt(v / (1 - beta2^t)) + eps
        p -= lr * (1 - mu_t) / (1 - P_t) * g / d + lr * mu_{t+1} / (1 - P_t * mu_{t+1}) * m / d
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 foreach=None):
        check_nonnegative("learning rate", lr)
        check_nonnegative("epsilon value", eps)
        check_betas(betas)
        check_nonnegative("weight_decay value", weight_decay)
        check_nonnegative("momentum_decay value", momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        foreach=foreach)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        numbers_to_tensors(self, ("step", "mu_product"))

    def _update(self):
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
            for p, grad, state in self._gradients(group):
                if not state:
                    # Note: PyTorch's mu_product is a float32 tensor; its rounding is part of the update.
                    state["step"] = wick.tensor(0.0)
                    state["mu_product"] = wick.tensor(1.0)
                    state["exp_avg"] = wick.zeros_like(p)
                    state["exp_avg_sq"] = wick.zeros_like(p)
                step = state["step"].add_(1).item()
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
                mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
                mu_product = state["mu_product"].mul_(mu)
                mu_product_next = mu_product * mu * mu_next
                exp_avg = state["exp_avg"].mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq = state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(1 - beta2 ** step).sqrt().add_(eps)
                p.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product.item()))
                p.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1.0 - mu_product_next.item()))
