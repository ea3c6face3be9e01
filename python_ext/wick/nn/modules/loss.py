"""wick.nn.modules.loss: the losses as modules: L1Loss, MSELoss, NLLLoss, CrossEntropyLoss, BCELoss,
BCEWithLogitsLoss, SmoothL1Loss, HuberLoss, KLDivLoss, MarginRankingLoss, SoftMarginLoss, HingeEmbeddingLoss,
TripletMarginLoss, PoissonNLLLoss, GaussianNLLLoss, MultiLabelSoftMarginLoss, MultiMarginLoss and
CosineEmbeddingLoss. Each forward is wick.nn.functional's."""
import warnings

from wick.nn import functional as F
from wick.nn.modules.module import Module

__all__ = ["L1Loss", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss",
           "HuberLoss", "KLDivLoss", "MarginRankingLoss", "SoftMarginLoss", "HingeEmbeddingLoss", "TripletMarginLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "CosineEmbeddingLoss"]


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


class SmoothL1Loss(_Loss):
    """SmoothL1Loss(size_average=None, reduce=None, reduction='mean', beta=1.0)

    0.5 * d ** 2 / beta where |d| < beta, else |d| - 0.5 * beta, for d = input - target; reduced.
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """HuberLoss(reduction='mean', delta=1.0)

    0.5 * d ** 2 where |d| < delta, else delta * (|d| - 0.5 * delta), for d = input - target; reduced.
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """KLDivLoss(size_average=None, reduce=None, reduction='mean', log_target=False)

    target * (log(target) - input), from log-probabilities (target's too with log_target), reduced; 'batchmean'
    divides the sum by the batch size.
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(_Loss):
    """MarginRankingLoss(margin=0.0, size_average=None, reduce=None, reduction='mean')

    max(0, -target * (input1 - input2) + margin), reduced.
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """SoftMarginLoss(size_average=None, reduce=None, reduction='mean'): log(1 + exp(-target * input)), reduced."""

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """HingeEmbeddingLoss(margin=1.0, size_average=None, reduce=None, reduction='mean')

    input where target is 1, max(0, margin - input) where it is -1, reduced.
    """

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """TripletMarginLoss(margin=1.0, p=2.0, eps=1e-06, swap=False, size_average=None, reduce=None,
    reduction='mean')

    max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm pairwise distance; reduced.
    """

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """PoissonNLLLoss(log_input=True, full=False, size_average=None, eps=1e-08, reduce=None, reduction='mean')

    exp(input) - target * input (log_input), or input - target * log(input + eps); full adds Stirling's term.
    """

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """GaussianNLLLoss(*, full=False, eps=1e-06, reduction='mean')

    0.5 * (log(var) + (input - target) ** 2 / var), var at least eps; full adds 0.5 * log(2 * pi). Reduced.
    """

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction=reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """MultiLabelSoftMarginLoss(weight=None, size_average=None, reduce=None, reduction='mean')

    The binary cross entropy of sigmoid(input) against each label of target (times weight), averaged over the
    classes; reduced.
    """

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """MultiMarginLoss(p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean')

    The sum over the classes i other than the target of max(0, margin - input[target] + input[i]) ** p (times
    weight[target]), over the number of classes; reduced.
    """

    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:  # PyTorch asserts it
            raise AssertionError()
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """CosineEmbeddingLoss(margin=0.0, size_average=None, reduce=None, reduction='mean')

    1 - cos(input1, input2) where target is 1, max(0, cos(input1, input2) - margin) where it is -1; reduced.
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)
