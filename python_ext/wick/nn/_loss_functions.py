"""wick.nn._loss_functions: the distances and losses of torch.nn.functional (1.13) beyond those in functional.py:
pairwise_distance, cosine_similarity, kl_div, smooth_l1_loss, huber_loss, margin_ranking_loss, soft_margin_loss,
hinge_embedding_loss, triplet_margin_loss, poisson_nll_loss, gaussian_nll_loss, multilabel_soft_margin_loss,
multi_margin_loss and cosine_embedding_loss. Re-exported by wick.nn.functional, which this module imports from
(see its last lines). Each is a composition of differentiable ops, as PyTorch's."""
import math
import warnings

from wick import _C
from wick._arguments import _not_implemented, _scalar_type
from wick.autograd import is_grad_enabled, no_grad
from wick.functional import broadcast_tensors
from wick.nn._activation_functions import logsigmoid
from wick.nn._checks import check_tensors
from wick.nn.functional import _reduce, _reduction, _shape, _warn_broadcast

__all__ = ["pairwise_distance", "cosine_similarity", "kl_div", "smooth_l1_loss", "huber_loss",
           "margin_ranking_loss", "soft_margin_loss", "hinge_embedding_loss", "triplet_margin_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss", "multi_margin_loss",
           "cosine_embedding_loss"]


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


def _check_reduction(reduction):
    """The reduction check of PyTorch's losses written in Python (its message differs from _reduction's)."""
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean') -> Tensor

    0.5 * (log(var) + (input - target) ** 2 / var), var at least eps; full adds 0.5 * log(2 * pi). var has
    input's shape, or one dim fewer or a last dim of 1 (one variance shared along input's last dim). Reduced.
    """
    check_tensors("gaussian_nll_loss", ("input", input), ("target", target), ("var", var))
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    _check_reduction(reduction)
    if (var < 0).any().item():
        raise ValueError("var has negative entry/entries")
    # As PyTorch's: the clamp is outside the graph, var's gradient is the clamped one's.
    var = var.clone()
    with no_grad():
        var.clamp_min_(eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean')

    The binary cross entropy of sigmoid(input) against each label of target (times weight), averaged over the
    classes (input's last dim); reduced.
    """
    check_tensors("multilabel_soft_margin_loss", ("input", input), ("target", target), ("weight", weight),
                  optional=("weight",))
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum([-1]) / input.shape[-1]
    _check_reduction(reduction)
    return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """multi_margin_loss(input, target, p=1, margin=1, weight=None, size_average=None, reduce=None,
    reduction='mean') -> Tensor

    For input (N, C) or (C,) and class indices target (N,) or (): the sum over the other classes i of
    max(0, margin - input[target] + input[i]) ** p (times weight[target]), over C; reduced.
    """
    check_tensors("multi_margin_loss", ("input", input), ("target", target), ("weight", weight),
                  optional=("weight",))
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    ndims = input.dim()
    if not (ndims == 0 or (ndims <= 2 and input.shape[-1] != 0)):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{_shape(input)}")
    frames, classes = (input.shape[0], input.shape[1]) if ndims == 2 else (1, input.numel())
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError(f"inconsistent target size, got: {_shape(target)}")
    if target.dtype != _C.int64:
        raise RuntimeError(f"expected scalar type Long but found {_scalar_type(target.dtype)}")
    if not input.is_floating_point():
        raise _not_implemented("multi_margin_loss_cpu_kernel", input.dtype)
    if weight is not None and weight.numel() != classes:  # PyTorch 1.13 reads past such a weight
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {_shape(weight)}")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_type(input.dtype)} but found "
                           f"{_scalar_type(weight.dtype)}")
    if ((target < 0) | (target >= classes)).any().item():
        raise RuntimeError("target out of range")
    if weight is not None and weight.requires_grad and is_grad_enabled():  # as PyTorch's kernel, which has none
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument "
                           "'weight'. This input cannot have requires_grad True.")
    batched = target.dim() > 0  # with reduction 'none', the loss has target's shape
    x, target = input.reshape([frames, classes]), target.reshape([frames, 1])
    z = margin - x.gather(1, target) + x
    terms = z if p == 1 else z * z
    if weight is not None:
        terms = terms * weight[target]
    # No term for the target class, nor where z is 0 (there, PyTorch's gradient is 0 too).
    others = _C.arange(classes, device=input.device) != target
    loss = _C.where(others & (z > 0), terms, 0.0).sum([1]) / classes
    if reduction == "none":
        return loss if batched else loss.reshape([])
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')

    1 - cos(input1, input2) where target is 1, max(0, cos(input1, input2) - margin) where it is -1, 0 elsewhere;
    the cosine along the last dim of inputs (N, D) or (D,), with target (N,) or (); reduced.
    """
    check_tensors("cosine_embedding_loss", ("input1", input1), ("input2", input2), ("target", target))
    reduction = _reduction(size_average, reduce, reduction)
    dims = target.dim()
    if dims > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dims + 1 or input2.dim() != dims + 1:
        raise RuntimeError(f"{dims}D target tensor expects {dims + 1}D input tensors, but found inputs with sizes "
                           f"{_shape(input1)} and {_shape(input2)}.")
    # As PyTorch's: each squared norm plus 1e-12, so that a zero vector gives a cosine of 0.
    squares = [(x * x).sum([dims]) + 1e-12 for x in (input1, input2)]
    cos = (input1 * input2).sum([dims]) / (squares[0] * squares[1]).sqrt()
    zeros = _C.zeros_like(cos)
    loss = _C.where(target == 1, 1 - cos, zeros) + _C.where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduce(loss, reduction)
