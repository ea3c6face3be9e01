"""wick.nn.modules.loss: the losses as modules: L1Loss, MSELoss, NLLLoss, CrossEntropyLoss, BCELoss and
BCEWithLogitsLoss. Each forward is wick.nn.functional's."""
import warnings

from wick.nn import functional as F
from wick.nn.modules.module import Module

__all__ = ["L1Loss", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss"]


def _legacy_reduction(size_average, reduce):
    """The reduction that PyTorch's deprecated size_average and reduce arguments stand for (None is True)."""
    reduction = "none" if reduce is False else "sum" if size_average is False else "mean"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.")
    return reduction


class _Loss(Module):
    """A loss with a reduction ('none', 'mean' or 'sum'); size_average and reduce are PyTorch's old spelling."""

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = reduction if size_average is None and reduce is None \
            else _legacy_reduction(size_average, reduce)


class _WeightedLoss(_Loss):
    """A loss with a weight per class, kept as a buffer (so that it moves with the module)."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """L1Loss(size_average=None, reduce=None, reduction='mean'): |input - target|, reduced."""

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """MSELoss(size_average=None, reduce=None, reduction='mean'): (input - target)², reduced."""

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """NLLLoss(weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean')

    -input[n, target[n]] (times weight[target[n]]), from log-probabilities over dim 1; targets equal to
    ignore_index count for nothing.
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """CrossEntropyLoss(weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean',
    label_smoothing=0.0)

    nll_loss(log_softmax(input, 1), target) for class indices, or the cross entropy with class probabilities
    as target; label_smoothing mixes the target with the uniform distribution.
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """BCELoss(weight=None, size_average=None, reduce=None, reduction='mean')

    -(target * log(input) + (1 - target) * log(1 - input)) (times weight), reduced; input holds probabilities.
    """

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """BCEWithLogitsLoss(weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None)

    BCELoss of sigmoid(input), computed stably from the logits; pos_weight weighs the positive targets.
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)
