"""wick.optim: optimizers, as PyTorch's torch.optim: the Optimizer base, SGD, Adam and AdamW."""
from wick.optim.optimizer import Optimizer
from wick.optim.sgd import SGD
from wick.optim.adam import Adam
from wick.optim.adamw import AdamW

__all__ = ["Optimizer", "SGD", "Adam", "AdamW"]
