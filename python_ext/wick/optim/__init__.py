"""wick.optim: optimizers, as PyTorch's torch.optim: the Optimizer base, SGD, Adam and AdamW; the schedules of
their learning rate (wick.optim.lr_scheduler)."""
from wick.optim.optimizer import Optimizer
from wick.optim.sgd import SGD
from wick.optim.adam import Adam
from wick.optim.adamw import AdamW
from wick.optim import lr_scheduler  # noqa: F401  (wick.optim.lr_scheduler)

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "lr_scheduler"]
