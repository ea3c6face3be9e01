"""wick.optim.rmsprop: RMSprop, with PyTorch's update rules, momentum, centering and maximize."""
import wick
from wick.optim.optimizer import Optimizer, check_nonnegative

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, foreach=None,
    maximize=False)

    Per step, with g the gradient (negated if maximize):
        g += weight_decay * p
        v = alpha * v + (1 - alpha) * g²;  avg = sqrt(v) + eps, or if centered, with m = alpha * m + (1 - alpha) * g,
        avg = sqrt(v - m²) + eps
        p -= lr * g / avg, or with momentum: b = momentum * b + g / avg;  p -= lr * b
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 foreach=None, maximize=False):
        check_nonnegative("learning rate", lr)
        check_nonnegative("epsilon value", eps)
        check_nonnegative("momentum value", momentum)
        check_nonnegative("weight_decay value", weight_decay)
        check_nonnegative("alpha value", alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def _update(self):
        for group in self.param_groups:
            lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
            for p, grad, state in self._gradients(group):
                if not state:
                    # As PyTorch's, this step is a plain number, not a tensor.
                    state["step"] = 0
                    state["square_avg"] = wick.zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = wick.zeros_like(p)
                    if group["centered"]:
                        state["grad_avg"] = wick.zeros_like(p)
                state["step"] += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])
                square_avg = state["square_avg"].mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                if group["centered"]:
                    grad_avg = state["grad_avg"].mul_(alpha).add_(grad, alpha=1 - alpha)
                    avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                else:
                    avg = square_avg.sqrt()
                avg = avg.add_(eps)
                if momentum > 0:
                    buf = state["momentum_buffer"].mul_(momentum).addcdiv_(grad, avg)
                    p.add_(buf, alpha=-lr)
                else:
                    p.addcdiv_(grad, avg, value=-lr)
