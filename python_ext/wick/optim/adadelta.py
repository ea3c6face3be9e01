"""wick.optim.adadelta: Adadelta, by PyTorch's update rules, with maximize."""
import wick
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False)

    Per step, with g the gradient (negated if maximize):
        g += weight_decay * p
        v = rho * v + (1 - rho) * g²;  delta = sqrt(u + eps) / sqrt(v + eps) * g;  u = rho * u + (1 - rho) * delta²
        p -= lr * delta
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):
        check_nonnegative("learning rate", lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_nonnegative("epsilon value", eps)
        check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach)
        super().__init__(params, defaults)

    def _update(self):
        for group in self.param_groups:
            lr, rho, eps, weight_decay = group["lr"], group["rho"], group["eps"], group["weight_decay"]
            for p, grad, state in self._gradients(group):
                if not state:
                    # As PyTorch's, this step is a plain number, not a tensor.
                    state["step"] = 0
                    state["square_avg"] = wick.zeros_like(p)
                    state["acc_delta"] = wick.zeros_like(p)
                state["step"] += 1
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                square_avg = state["square_avg"].mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = state["acc_delta"].add(eps).sqrt_().div_(std).mul_(grad)
                state["acc_delta"].mul_(rho).addcmul_(delta, delta, value=1 - rho)
                p.add_(delta, alpha=-lr)
