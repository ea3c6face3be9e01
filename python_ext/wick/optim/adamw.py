"""wick.optim.adamw: AdamW, Adam with decoupled weight decay (Loshchilov and Hutter), by PyTorch's rules."""
from wick.optim.adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *, maximize=False)

    Adam whose weight decay scales each parameter by 1 - lr * weight_decay before the update, apart from the
    gradient's moments.
    """

    _decoupled_weight_decay = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
