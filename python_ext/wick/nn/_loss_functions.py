"""wick.nn._loss_functions: the distances and losses of torch.nn.functional (1.13) beyond those in functional.py:
pairwise_distance, cosine_similarity, kl_div, smooth_l1_loss, huber_loss, margin_ranking_loss, soft_margin_loss,
hinge_embedding_loss, triplet_margin_loss and poisson_nll_loss. Re-exported by wick.nn.functional, which this
module imports from (see its last lines). Each is a composition of differentiable ops, as PyTorch's."""
import math
import warnings

from wick import _C
from wick.autograd import is_grad_enabled
from wick.functional import broadcast_tensors
from wick.nn._checks import check_tensors
from wick.nn.functional import _reduce, _reduction, _warn_broadcast

__all__ = ["pairwise_distance", "cosine_similarity", "kl_div", "smooth_l1_loss", "huber_loss",
           "margin_ranking_loss", "soft_margin_loss", "hinge_embedding_loss", "triplet_margin_loss",
           "poisson_nll_loss"]


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False) -> Tensor: the p-norm of x1 - x2 + eps over the
    last dim."""
    check_tensors("pairwise_distance", ("x1", x1), ("x2", x2))
    innermost = max(x1.dim(), x2.dim()) - 1
    return (x1 - x2 + eps).norm(p, [innermost], keepdim)


def _clamped_norm(x, dim, eps):
    """The 2-norm of x over dim, kept, and at least eps; as PyTorch's, the clamp is outside the graph (its
    gradient is the norm's)."""
    norm = x.norm(2, [dim], True)
    return norm + (norm.clamp_min(eps) - norm).detach()


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """cosine_similarity(x1, x2, dim=1, eps=1e-8) -> Tensor: the cosine of the angle between x1 and x2 along dim,
    each norm at least eps."""
    check_tensors("cosine_similarity", ("x1", x1), ("x2", x2))
    x1, x2 = broadcast_tensors(x1, x2)
    return ((x1 / _clamped_norm(x1, dim, eps)) * (x2 / _clamped_norm(x2, dim, eps))).sum([dim])


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False) -> Tensor

    target * (log(target) - input), input holding log-probabilities (and target too with log_target), reduced;
    'batchmean' divides the sum by the batch size.
    """
    check_tensors("kl_div", ("input", input), ("target", target))
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    elif reduction != "batchmean":
        reduction = _reduction(None, None, reduction)
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = _C.xlogy(target, target) - target * input
    if reduction == "batchmean":
        total = loss.sum()
        return total / input.shape[0] if input.dim() != 0 else total
    return _reduce(loss, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0) -> Tensor

    0.5 * d ** 2 / beta where |d| < beta, else |d| - 0.5 * beta, for d = input - target; reduced.
    """
    check_tensors("smooth_l1_loss", ("input", input), ("target", target))
    reduction = _reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _warn_broadcast(input, target)
    d = input - target
    if beta == 0:
        # |d|, but with PyTorch's gradients at d = 0: -1 for both input and target (abs's are 0). There, the
        # middle term is 2 * input - input - target = d = 0, with exactly those gradients.
        at_zero = input.detach() * 2 - input - target
        return _reduce(_C.where(d < 0, -d, _C.where(d > 0, d, at_zero)), reduction)
    size = d.abs()
    return _reduce(_C.where(size < beta, d * d * (0.5 / beta), size - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """huber_loss(input, target, reduction='mean', delta=1.0) -> Tensor

    0.5 * d ** 2 where |d| < delta, else delta * (|d| - 0.5 * delta), for d = input - target; reduced.
    """
    check_tensors("huber_loss", ("input", input), ("target", target))
    reduction = _reduction(None, None, reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _warn_broadcast(input, target)
    d = input - target
    size = d.abs()
    return _reduce(_C.where(size < delta, d * d * 0.5, (size - 0.5 * delta) * delta), reduction)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')

    max(0, -target * (input1 - input2) + margin), reduced.
    """
    check_tensors("margin_ranking_loss", ("input1", input1), ("input2", input2), ("target", target))
    reduction = _reduction(size_average, reduce, reduction)
    if not input1.dim() == input2.dim() == target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor

    log(1 + exp(-target * input)), reduced.
    """
    check_tensors("soft_margin_loss", ("input", input), ("target", target))
    reduction = _reduction(size_average, reduce, reduction)
    if target.requires_grad and is_grad_enabled():  # as PyTorch's, whose kernel has no gradient for target
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument "
                           "'target'. This input cannot have requires_grad True.")
    return _reduce((-input * target).exp().log1p(), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean')

    input where target is 1, max(0, margin - input) where it is -1 (both terms elsewhere), reduced.
    """
    check_tensors("hinge_embedding_loss", ("input", input), ("target", target))
    reduction = _reduction(size_average, reduce, reduction)
    zeros = _C.zeros_like(input)
    below_margin = _C.where(target != 1, (margin - input).clamp_min(0), zeros)
    return _reduce(below_margin + _C.where(target != -1, input, zeros), reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
    size_average=None, reduce=None, reduction='mean') -> Tensor

    max(0, margin + d(anchor, positive) - d(anchor, negative)) with d pairwise_distance (and, with swap, the
    smaller of d(anchor, negative) and d(positive, negative)); reduced.
    """
    check_tensors("triplet_margin_loss", ("anchor", anchor), ("positive", positive), ("negative", negative))
    reduction = _reduction(size_average, reduce, reduction)
    dims = anchor.dim(), positive.dim(), negative.dim()
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    to_positive = pairwise_distance(anchor, positive, p, eps)
    to_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        to_negative = _C.minimum(to_negative, pairwise_distance(positive, negative, p, eps))
    return _reduce((to_positive - to_negative + margin).clamp_min(0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None,
    reduction='mean') -> Tensor

    exp(input) - target * input with log_input, else input - target * log(input + eps); full adds Stirling's
    approximation of log(target!) where target > 1. Reduced.
    """
    check_tensors("poisson_nll_loss", ("input", input), ("target", target))
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)
