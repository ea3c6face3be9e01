"""wick.optim: optimizers, as PyTorch's torch.optim: the Optimizer base, SGD, Adam, AdamW, RMSprop, Adagrad, Adamax,
Adadelta, NAdam, RAdam and ASGD; the schedules of their learning rate (wick.optim.lr_scheduler)."""
from wick.optim.optimizer import Optimizer
from wick.optim.sgd import SGD
from wick.optim.adam import Adam
from wick.optim.adamw import AdamW
from wick.optim.rmsprop import RMSprop
from wick.optim.adagrad import Adagrad
from wick.optim.adamax import Adamax
from wick.optim.adadelta import Adadelta
from wick.optim.nadam import NAdam
from wick.optim.radam import RAdam
from wick.optim.asgd import ASGD
from wick.optim import lr_scheduler  # noqa: F401  (wick.optim.lr_scheduler)

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "Adadelta", "NAdam", "RAdam", "ASGD",
           "lr_scheduler"]
