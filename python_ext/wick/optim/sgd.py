"""wick.optim.sgd: SGD, stochastic gradient descent with momentum, dampening, weight decay and Nesterov, by
PyTorch's update rules."""
from wick.optim.optimizer import Optimizer, check_nonnegative, required

__all__ = ["SGD"]


class SGD(Optimizer):
    """SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False)

    Per step, with g the gradient (negated if maximize):
        g += weight_decay * p
        b = g at the first step, else momentum * b + (1 - dampening) * g   (if momentum)
        g = g + momentum * b if nesterov else b                              (if momentum)
        p -= lr * g
    """

    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        if lr is not required:
            check_nonnegative("learning rate", lr)
        check_nonnegative("momentum value", momentum)
        check_nonnegative("weight_decay value", weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _update(self):
        for group in self.param_groups:
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            weight_decay, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
            for p in group["params"]:
                d_p = p.grad
                if d_p is None:
                    continue
                if maximize:
                    d_p = -d_p
                if weight_decay != 0:
                    d_p = d_p.add(p, alpha=weight_decay)
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = d_p.clone()
                    else:
                        buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
                    d_p = d_p.add(buf, alpha=momentum) if nesterov else buf
                p.add_(d_p, alpha=-lr)
