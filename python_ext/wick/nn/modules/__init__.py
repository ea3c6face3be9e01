"""wick.nn.modules: the Module classes of wick.nn, one file per family as in PyTorch."""
from wick.nn.modules.module import Module
from wick.nn.modules.linear import Identity, Linear
from wick.nn.modules.activation import (ELU, GELU, Hardtanh, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax,
                                        Softplus, Tanh)
from wick.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d
from wick.nn.modules.container import ModuleDict, ModuleList, Sequential
from wick.nn.modules.conv import Conv1d, Conv2d
from wick.nn.modules.dropout import Dropout
from wick.nn.modules.flatten import Flatten, Unflatten
from wick.nn.modules.fold import Fold, Unfold
from wick.nn.modules.loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from wick.nn.modules.normalization import LayerNorm
from wick.nn.modules.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d,
                                     MaxPool2d)
from wick.nn.modules.sparse import Embedding

__all__ = ["Module", "Identity", "Linear", "ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "ELU",
           "Softplus", "Hardtanh", "Softmax", "LogSoftmax", "Sequential", "ModuleList", "ModuleDict", "Conv1d",
           "Conv2d", "Dropout", "Flatten", "Unflatten", "Fold", "Unfold", "L1Loss", "MSELoss", "NLLLoss",
           "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "MaxPool2d",
           "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "Embedding"]
