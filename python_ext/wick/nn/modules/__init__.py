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
from wick.nn.modules.activation import (CELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, LogSigmoid, Mish,
                                        PReLU, ReLU6, Softshrink, Softsign, Tanhshrink, Threshold)
from wick.nn.modules.conv import ConvTranspose1d, ConvTranspose2d
from wick.nn.modules.distance import CosineSimilarity, PairwiseDistance
from wick.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d
from wick.nn.modules.loss import (HingeEmbeddingLoss, HuberLoss, KLDivLoss, MarginRankingLoss, PoissonNLLLoss,
                                  SmoothL1Loss, SoftMarginLoss, TripletMarginLoss)
from wick.nn.modules.loss import (CosineEmbeddingLoss, GaussianNLLLoss, MultiLabelSoftMarginLoss,
                                  MultiMarginLoss)
from wick.nn.modules.normalization import GroupNorm
from wick.nn.modules.pixelshuffle import PixelShuffle, PixelUnshuffle
from wick.nn.modules.pooling import AvgPool1d, MaxPool1d
from wick.nn.modules.upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from wick.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell, RNNBase, RNNCellBase
from wick.nn.modules.transformer import (MultiheadAttention, Transformer, TransformerDecoder,
                                         TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)

__all__ = ["Module", "Identity", "Linear", "ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "ELU",
           "Softplus", "Hardtanh", "Softmax", "LogSoftmax", "Sequential", "ModuleList", "ModuleDict", "Conv1d",
           "Conv2d", "Dropout", "Flatten", "Unflatten", "Fold", "Unfold", "L1Loss", "MSELoss", "NLLLoss",
           "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "MaxPool2d",
           "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "Embedding",
           "ReLU6", "Mish", "Hardswish", "Hardsigmoid", "SELU", "CELU", "GLU", "LogSigmoid", "Softsign", "Tanhshrink",
           "Softshrink", "Hardshrink", "Threshold", "PReLU", "ConvTranspose1d", "ConvTranspose2d", "PairwiseDistance",
           "CosineSimilarity", "InstanceNorm1d", "InstanceNorm2d", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
           "MarginRankingLoss", "SoftMarginLoss", "HingeEmbeddingLoss", "TripletMarginLoss", "PoissonNLLLoss",
           "GroupNorm", "PixelShuffle", "PixelUnshuffle", "MaxPool1d", "AvgPool1d", "Upsample", "UpsamplingNearest2d",
           "UpsamplingBilinear2d",
           "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell",
           "GRUCell", "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer",
           "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "CosineEmbeddingLoss"]
