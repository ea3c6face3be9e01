"""wick.nn.functional: the functions of neural networks, as PyTorch's torch.nn.functional (1.13): activations,
linear, dropout, losses, layer_norm, batch_norm, embedding, one_hot, pad, normalize, convolutions and pooling.

Each is composed of wick's differentiable ops, so autograd differentiates it with no backward of its own; the
one exception is binary_cross_entropy (see _BinaryCrossEntropy). Where this build of wick has a dedicated op
(softmax, log_softmax, leaky_relu, elu, softplus, hardtanh, _gelu_tanh), the function calls it: one kernel and
one node in the graph instead of several; the composition stays as the fallback (_op).

Convolutions and pooling read the input's sliding windows with wick's im2col (unfold), and fold is its col2im;
conv is then one matmul, for all groups at once; max_pool2d is wick's max_pool2d_with_indices. Adaptive average
pooling is two matmuls (its windows' means, rows then columns); adaptive max pooling gathers each window.
"""
import functools
import math
import warnings

from wick import _C
from wick.autograd import Function, is_grad_enabled, no_grad

__all__ = ["relu", "gelu", "silu", "sigmoid", "tanh", "softmax", "log_softmax", "leaky_relu", "elu", "softplus",
           "hardtanh", "linear", "dropout", "cross_entropy", "nll_loss", "mse_loss", "l1_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "layer_norm", "batch_norm", "embedding",
           "one_hot", "pad", "normalize", "conv1d", "conv2d", "unfold", "fold", "max_pool2d", "avg_pool2d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool2d"]


def _op(name, composed):
    """wick's op `name` where this build has it, else `composed`: the same function, made of other ops."""
    return getattr(_C, name, composed)


def _shape(t):
    return str(list(t.shape))


# Activations ---------------------------------------------------------------------------------------------------

def _softmax_composed(input, dim, *, dtype=None):
    x = input if dtype is None else input.to(dtype)
    # The shift keeps exp from overflowing and changes no gradient: it need not be differentiated.
    e = (x - x.amax([dim], keepdim=True).detach()).exp()
    return e / e.sum([dim], keepdim=True)


def _log_softmax_composed(input, dim, *, dtype=None):
    x = input if dtype is None else input.to(dtype)
    return x - x.logsumexp([dim], keepdim=True)


def _leaky_relu_composed(input, negative_slope=0.01):
    return _C.where(input > 0, input, input * negative_slope)


def _elu_composed(input, alpha=1.0):
    # expm1 sees no positive input: its overflow would make the gradient NaN where `where` discards it.
    return _C.where(input > 0, input, input.clamp_max(0).expm1() * alpha)


def _softplus_composed(input, beta=1.0, threshold=20.0):
    scaled = input * beta
    # The clamp keeps exp finite (its overflow would make the gradient NaN) where `where` takes input itself.
    return _C.where(scaled > threshold, input, scaled.clamp_max(threshold).exp().log1p() / beta)


def _hardtanh_composed(input, min_val=-1.0, max_val=1.0):
    # masked_fill, not clamp: PyTorch's gradient is zero at the bounds themselves.
    return input.masked_fill(input <= min_val, min_val).masked_fill(input >= max_val, max_val)


def _gelu_tanh_composed(input):
    inner = (input + input * input * input * 0.044715) * math.sqrt(2 / math.pi)
    return input * 0.5 * (inner.tanh() + 1)


_softmax = _op("softmax", _softmax_composed)
_log_softmax = _op("log_softmax", _log_softmax_composed)
_leaky_relu = _op("leaky_relu", _leaky_relu_composed)
_elu = _op("elu", _elu_composed)
_softplus = _op("softplus", _softplus_composed)
_hardtanh = _op("hardtanh", _hardtanh_composed)
_gelu_tanh = _op("_gelu_tanh", _gelu_tanh_composed)


def _in_place(fn, input, *args):
    """fn(input, *args) written into input. When autograd records, fn gets a copy: what it saves for backward must
    not be the tensor overwritten here."""
    source = input.clone() if input.requires_grad and is_grad_enabled() else input
    return input.copy_(fn(source, *args))


def relu(input, inplace=False):
    """relu(input, inplace=False) -> Tensor: max(input, 0) elementwise."""
    return input.relu_() if inplace else _C.relu(input)


def gelu(input, approximate="none"):
    """gelu(input, approximate='none') -> Tensor: x * Phi(x), exact (erf) or in its tanh approximation."""
    if approximate == "none":
        return _C.gelu(input)
    if approximate == "tanh":
        return _gelu_tanh(input)
    raise RuntimeError("approximate argument must be either none or tanh.")


def silu(input, inplace=False):
    """silu(input, inplace=False) -> Tensor: x * sigmoid(x)."""
    return input.silu_() if inplace else _C.silu(input)


def sigmoid(input):
    """sigmoid(input) -> Tensor: deprecated, as in PyTorch; use wick.sigmoid."""
    warnings.warn("nn.functional.sigmoid is deprecated. Use wick.sigmoid instead.")
    return _C.sigmoid(input)


def tanh(input):
    """tanh(input) -> Tensor: deprecated, as in PyTorch; use wick.tanh."""
    warnings.warn("nn.functional.tanh is deprecated. Use wick.tanh instead.")
    return _C.tanh(input)


def _softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. "
                  "Change the call to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(input, dim=None, dtype=None) -> Tensor: exp(input) / its sum over dim (converted to dtype first)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return _softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log_softmax(input, dim=None, dtype=None) -> Tensor: input - logsumexp(input) over dim."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _log_softmax(input, dim, dtype=dtype)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """leaky_relu(input, negative_slope=0.01, inplace=False) -> Tensor: input where positive, else times the slope."""
    return _in_place(_leaky_relu, input, negative_slope) if inplace else _leaky_relu(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """elu(input, alpha=1.0, inplace=False) -> Tensor: input where positive, else alpha * (exp(input) - 1)."""
    return _in_place(_elu, input, alpha) if inplace else _elu(input, alpha)


def softplus(input, beta=1, threshold=20):
    """softplus(input, beta=1, threshold=20) -> Tensor: log(1 + exp(beta * input)) / beta, linear past threshold."""
    return _softplus(input, beta, threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """hardtanh(input, min_val=-1., max_val=1., inplace=False) -> Tensor: input clamped to [min_val, max_val]."""
    return _in_place(_hardtanh, input, min_val, max_val) if inplace else _hardtanh(input, min_val, max_val)


# Linear and dropout --------------------------------------------------------------------------------------------

def linear(input, weight, bias=None):
    """linear(input, weight, bias=None) -> Tensor: input @ weight.T + bias."""
    return _C.linear(input, weight, bias)


def dropout(input, p=0.5, training=True, inplace=False):
    """dropout(input, p=0.5, training=True, inplace=False) -> Tensor

    Zeroes each element with probability p and scales the others by 1 / (1 - p); input itself when not training.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    keep = _C.rand_like(input) < 1.0 - p
    scale = 1.0 / (1.0 - p) if p < 1.0 else 0.0
    return (input.mul_(keep) if inplace else input * keep).mul_(scale)


# Losses --------------------------------------------------------------------------------------------------------

def _reduction(size_average, reduce, reduction):
    """The reduction a loss applies, checked: the legacy size_average and reduce decide it when either is given."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = ("mean" if size_average else "sum") if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.")
    elif reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.")
        reduction = "mean"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduce(loss, reduction, norm=None):
    """The elementwise loss reduced; 'mean' divides the sum by `norm` when given (the total weight), else takes
    the mean."""
    if reduction == "none":
        return loss
    if reduction == "sum" or norm is not None:
        total = loss.sum()
        return total if reduction == "sum" else total / norm
    return loss.mean()


def _check_nll(input, target, weight):
    """PyTorch's checks of nll_loss's shapes: input (N, C, d1, ...) or (C,), target (N, d1, ...) or ()."""
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() != 1 and (target.dim() == 0 or input.shape[0] != target.shape[0]):
        got = target.shape[0] if target.dim() else 0
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({got}).")
    if input.dim() <= 2:
        if target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if input.dim() == 1 and target.dim() == 1:
            raise RuntimeError(f"size mismatch (got input: {_shape(input)}, target: {_shape(target)})")
    elif input.dim() == 4 and target.dim() != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    elif target.shape[1:] != input.shape[2:]:
        if input.dim() == 4:
            raise RuntimeError(f"size mismatch (got input: {_shape(input)} , target: {_shape(target)}")
        expected = [input.shape[0], *input.shape[2:]]
        raise RuntimeError(f"Expected target size {expected}, got {_shape(target)}")
    classes = input.shape[0 if input.dim() == 1 else 1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but "
                           f"got weight tensor of shape: {_shape(weight)}")
    if target.dtype is not _C.int64 and target.dtype is not _C.uint8:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype}")


def _pick(logp, target, ignore_index, class_dim):
    """logp at each position's target class; the targets with ignore_index replaced by class 0; the mask of those
    (None where nothing needs masking)."""
    if not 0 <= ignore_index < logp.shape[class_dim]:
        # Such an ignore_index fails the gather where it occurs: most batches have none, and need no mask at all.
        try:
            return logp.gather(class_dim, target.unsqueeze(class_dim)).squeeze(class_dim), target, None
        except IndexError:
            pass
    ignored = target == ignore_index
    target = target.masked_fill(ignored, 0)
    try:
        picked = logp.gather(class_dim, target.unsqueeze(class_dim)).squeeze(class_dim)
    except IndexError:
        bad = target.masked_select((target < 0) | (target >= logp.shape[class_dim]))[0].item()
        raise IndexError(f"Target {bad} is out of bounds.") from None
    return picked.masked_fill(ignored, 0), target, ignored


def _nll_terms(logp, target, weight, ignore_index):
    """nll_loss's elementwise terms -weight[t] * logp[t]; what 'mean' divides their sum by (None: their number);
    the mask of the positions whose target is ignore_index (None if none), whose terms are 0 and count for
    nothing."""
    _check_nll(logp, target, weight)
    if target.dtype is _C.uint8:
        target = target.long()
    class_dim = 0 if logp.dim() == 1 else 1
    picked, target, ignored = _pick(logp, target, ignore_index, class_dim)
    if weight is None:
        return -picked, None if ignored is None else (~ignored).sum(), ignored
    weights = _C.take(weight, target)
    if ignored is not None:
        weights = weights.masked_fill(ignored, 0)
    return -(picked * weights), weights.sum(), ignored


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean') -> Tensor

    The negative log-likelihood of class indices `target` under log-probabilities `input` (N, C, d1, ...) or (C,).
    """
    reduction = _reduction(size_average, reduce, reduction)
    loss, norm, _ = _nll_terms(input, target, weight, ignore_index)
    return _reduce(loss, reduction, norm)


def _class_weight(weight, input, class_dim):
    """weight (C,) shaped to broadcast along input's class dimension."""
    return weight.reshape([-1 if d == class_dim else 1 for d in range(input.dim())])


def _cross_entropy_probs(input, target, weight, ignore_index, reduction, label_smoothing, class_dim):
    """cross_entropy with class probabilities as target (the shape of input)."""
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"Expected floating point type for target with class probabilities, got {target.dtype}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    classes = input.shape[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {classes} classes or no "
                           f"classes but got weight tensor of shape: {_shape(weight)}")
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    terms = _log_softmax(input, class_dim) * target
    if weight is not None:
        terms = terms * _class_weight(weight, input, class_dim)
    if reduction == "none":
        return -terms.sum([class_dim])
    # 'mean' averages over the positions, whatever the weights (PyTorch's rule).
    total = -terms.sum()
    return total if reduction == "sum" else total / (input.numel() // max(classes, 1))


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0) -> Tensor

    The cross entropy of logits `input` (N, C, d1, ...) or (C,) against class indices `target` (N, d1, ...) or
    (), or against class probabilities of input's shape.
    """
    reduction = _reduction(size_average, reduce, reduction)
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    if input.shape == target.shape:
        return _cross_entropy_probs(input, target, weight, ignore_index, reduction, label_smoothing, class_dim)
    logp = _log_softmax(input, class_dim)
    loss, norm, ignored = _nll_terms(logp, target, weight, ignore_index)
    loss = _reduce(loss, reduction, norm)
    if label_smoothing <= 0.0:
        return loss
    # The smoothing part: the loss against the uniform distribution, masked and normalized as the nll part.
    smooth = -(logp if weight is None else logp * _class_weight(weight, logp, class_dim)).sum([class_dim])
    if ignored is not None:
        smooth = smooth.masked_fill(ignored, 0)
    classes = logp.shape[class_dim]
    return loss * (1 - label_smoothing) + _reduce(smooth, reduction, norm) * (label_smoothing / classes)


def _warn_broadcast(input, target):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """mse_loss(input, target, reduction='mean') -> Tensor: the squared differences, reduced."""
    _warn_broadcast(input, target)
    difference = input - target
    return _reduce(difference * difference, _reduction(size_average, reduce, reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """l1_loss(input, target, reduction='mean') -> Tensor: the absolute differences, reduced."""
    _warn_broadcast(input, target)
    return _reduce((input - target).abs(), _reduction(size_average, reduce, reduction))


class _BinaryCrossEntropy(Function):
    """-(t * log(x) + (1 - t) * log(1 - x)), each log clamped at -100, with PyTorch's gradients. A Function, not a
    composition: where x is 0 or 1 (a saturated sigmoid), the composition's gradient is NaN (0 * 1/0), PyTorch's
    is (x - t) / max(x (1 - x), 1e-12)."""

    @staticmethod
    def forward(ctx, input, target):
        ctx.save_for_backward(input, target)
        log_x, log_1mx = input.log().clamp_min(-100), (1 - input).log().clamp_min(-100)
        return (target - 1) * log_1mx - target * log_x

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        grad_input = grad_target = None
        if ctx.needs_input_grad[0]:
            grad_input = grad * (input - target) / ((1 - input) * input).clamp_min(1e-12)
        if ctx.needs_input_grad[1]:
            grad_target = -grad * (input / (1 - input)).log()  # unclamped, as PyTorch's: -logit(x)
        return grad_input, grad_target


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """binary_cross_entropy(input, target, weight=None, reduction='mean') -> Tensor

    -weight * (target * log(input) + (1 - target) * log(1 - input)), each log clamped at -100, reduced.
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) "
                         "is deprecated. Please ensure they have the same size.")
    if not ((input >= 0) & (input <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    loss = _BinaryCrossEntropy.apply(input, target)
    return _reduce(loss if weight is None else loss * weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', pos_weight=None) -> Tensor

    binary_cross_entropy(sigmoid(input), target), computed without overflow; pos_weight weighs the positive term.
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    # -log(sigmoid(x)) = log(1 + exp(-x)), as a logsumexp of (0, -x): stable, and its gradient is sigmoid(-x)
    # even at x = 0, where max(-x, 0) + log1p(exp(-|x|)) has the subgradients of its two kinks.
    negative = -input
    softplus_neg = _C.stack([_C.zeros_like(negative), negative], -1).logsumexp([-1])
    if pos_weight is not None:
        softplus_neg = softplus_neg * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * input + softplus_neg
    return _reduce(loss if weight is None else loss * weight, reduction)


# Normalization and embeddings -----------------------------------------------------------------------------------

def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5) -> Tensor

    input normalized to mean 0 and variance 1 over its last dimensions (normalized_shape), then scaled by weight
    and shifted by bias.
    """
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    if len(shape) > input.dim() or input.shape[input.dim() - len(shape):] != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size{_shape(input)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.shape != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{_shape(t)} and normalized_shape = {list(shape)}")
    dims = list(range(-len(shape), 0))
    mean = input.mean(dims, keepdim=True)
    var = input.var(dims, correction=0, keepdim=True)
    return _affine((input - mean) * (var + eps).rsqrt(), weight, bias)


def _affine(out, weight, bias):
    """out * weight + bias, either left out where None."""
    if weight is not None and bias is not None:
        return _C.addcmul(bias, out, weight)
    if weight is not None:
        return out * weight
    return out if bias is None else out + bias


def _check_batch_norm(input, running_mean, running_var, weight, bias, training):
    """PyTorch's checks of batch_norm's arguments: the running statistics are needed to evaluate, and each
    tensor given has one element per channel."""
    channels = input.shape[1]
    for name, t, needed in (("running_mean", running_mean, not training), ("running_var", running_var, not training),
                            ("weight", weight, False), ("bias", bias, False)):
        if t is None:
            if needed:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
        elif t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
    eps=1e-05) -> Tensor

    input (N, C, ...) normalized per channel, over every dim but 1, then scaled by weight and shifted by bias.
    When training, by the batch's mean and (biased) variance, and the running statistics given move towards them:
    running = (1 - momentum) * running + momentum * batch's, with the unbiased variance; else by the running ones.
    """
    if training and math.prod(input.shape[:1] + input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    if input.numel() == 0:
        # PyTorch's rule: an empty batch has no statistics, and updates none; a copy, for the gradient's chain.
        return _affine(input.clone(), None if weight is None else weight[0], None if bias is None else bias[0])
    _check_batch_norm(input, running_mean, running_var, weight, bias, training)
    dims = [0, *range(2, input.dim())]
    if training:
        mean, var = input.mean(dims), input.var(dims, correction=0)
        _update_running_stats(running_mean, running_var, mean, var, momentum, input.numel() // input.shape[1])
    else:
        mean, var = running_mean, running_var
    shape = [1, -1] + [1] * (input.dim() - 2)  # a vector of the channels, along dim 1
    out = (input - mean.reshape(shape)) * (var.reshape(shape) + eps).rsqrt()
    return _affine(out, *(None if t is None else t.reshape(shape) for t in (weight, bias)))


def _update_running_stats(running_mean, running_var, mean, var, momentum, count):
    """batch_norm's update of the running statistics given, in place and out of the graph, from a batch of `count`
    values per channel whose mean and biased variance are mean and var."""
    with no_grad():
        if running_mean is not None:
            running_mean.mul_(1 - momentum).add_(mean, alpha=momentum)
        if running_var is not None:
            running_var.mul_(1 - momentum).add_(var, alpha=momentum * count / (count - 1))


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """normalize(input, p=2.0, dim=1, eps=1e-12) -> Tensor: input / max(its p-norm over dim, eps)."""
    dims = list(dim) if isinstance(dim, (tuple, list)) else [dim]
    return input / input.norm(p, dims, keepdim=True).clamp_min(eps)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, ...) -> Tensor

    The rows of weight at the indices in input: shape input.shape + (embedding_dim,). The row padding_idx gets no
    gradient; with max_norm, the rows looked up are first renormalized in place to norm at most max_norm.
    """
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding: scale_grad_by_freq and sparse gradients are not supported by wick")
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input.dtype is not _C.int64 and input.dtype is not _C.int32:
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.dtype} instead (while checking arguments for embedding)")
    rows = weight.shape[0]
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= rows
    index = input.reshape(-1)
    if max_norm is not None:
        _renorm_rows(weight, index, max_norm, norm_type)
    out = weight.index_select(0, index).reshape([*input.shape, weight.shape[1]])
    if padding_idx is None:
        return out
    # The same values, but those of the padding row come from a detached weight: no gradient reaches that row.
    return _C.where((input == padding_idx).unsqueeze(-1), out.detach(), out)


def _renorm_rows(weight, index, max_norm, norm_type):
    """PyTorch's embedding_renorm_: the rows of weight at index whose norm exceeds max_norm scaled down to it."""
    with no_grad():
        rows = _C.unique(index)
        selected = weight.index_select(0, rows)
        norms = selected.norm(norm_type, [1], keepdim=True)
        scale = _C.where(norms > max_norm, (norms + 1e-7).reciprocal() * max_norm, 1.0)
        weight.index_put_((rows,), selected * scale)


def one_hot(tensor, num_classes=-1):
    """one_hot(tensor, num_classes=-1) -> Tensor: int64 of shape tensor.shape + (num_classes,), 1 at each index."""
    if tensor.dtype is not _C.int64:
        raise RuntimeError("one_hot is only applicable to index tensor.")
    if tensor.numel() == 0:
        if num_classes == -1:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if tensor.min().item() < 0:
            raise RuntimeError("Class values must be non-negative.")
        largest = tensor.max().item()
        if num_classes == -1:
            num_classes = largest + 1
        elif num_classes <= largest:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = _C.zeros([*tensor.shape, num_classes], dtype=_C.int64, device=tensor.device)
    return out.scatter_(-1, tensor.unsqueeze(-1), 1)


# Padding -------------------------------------------------------------------------------------------------------

def pad(input, pad, mode="constant", value=None):
    """pad(input, pad, mode='constant', value=None) -> Tensor

    input padded: pad is (before, after) for the last dimension, then the one before it, and so on; negative
    sizes crop. mode 'constant' fills with value (0 if None); 'reflect', 'replicate' and 'circular' take the
    input's own elements, for the last 1, 2 or 3 dimensions of a batched or unbatched input.
    """
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    pairs = [(input.dim() - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]
    if mode == "constant":
        return _constant_pad(input, pairs, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if len(pairs) > 3 or input.dim() - len(pairs) not in (1, 2):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
    if mode == "circular" and input.dim() != len(pairs) + 2:  # PyTorch 1.13 pads batches only circularly
        raise RuntimeError(f"Invalid padding size, expected {2 * (input.dim() - 2)} but got {len(pad)}")
    out = input
    for dim, before, after in pairs:
        size = input.shape[dim]
        if mode == "reflect" and max(before, after) >= size:
            raise RuntimeError("Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({before}, {after}) at dimension {dim} of input {_shape(input)}")
        if mode == "circular" and max(before, after) > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size == 0:
            raise RuntimeError(f"{mode} padding of an empty dimension (dimension {dim} of input {_shape(input)})")
        out = out.index_select(dim, _pad_index(mode, size, before, after, input.device))
    return out


@functools.lru_cache(maxsize=256)
def _pad_index(mode, size, before, after, device):
    """Which element of a dimension of `size` each padded position takes (negative sizes crop)."""
    if mode == "circular":
        # PyTorch crops first, then wraps around what is left.
        start, kept = max(-before, 0), size - max(-before, 0) - max(-after, 0)
        return _C.arange(-max(before, 0), kept + max(after, 0), device=device).remainder(kept) + start
    i = _C.arange(-before, size + after, device=device)
    if mode == "reflect":
        return (size - 1) - ((size - 1) - i.abs()).abs()
    return i.clamp(0, size - 1)


def _constant_pad(input, pairs, value):
    shape, source = list(input.shape), input
    for dim, before, after in pairs:
        kept = shape[dim] - max(-before, 0) - max(-after, 0)
        if kept < 0 or shape[dim] + before + after < 0:
            raise RuntimeError(f"The input size {shape[dim]}, plus negative padding {before} and {after} resulted in "
                               f"a negative output size, which is invalid. Check dimension {dim} of your input.")
        source = source.narrow(dim, max(-before, 0), kept)  # negative padding crops
        shape[dim] += before + after
    out = _C.full(shape, value, dtype=input.dtype, device=input.device)
    inner = out
    for dim, before, _ in pairs:
        inner = inner.narrow(dim, max(before, 0), source.shape[dim])
    inner.copy_(source)  # autograd records the copy into out (CopySlices): the gradient reaches input
    return out


# Convolution and pooling ---------------------------------------------------------------------------------------

def _unfold(x, kernel, dilation, pads, stride):
    """The sliding windows of x (N, C, H, W) as columns (N, C * kh * kw, L), by im2col; pads are (before, after)
    per dim, and where after is the larger ('same' padding, ceil_mode's overhang) zeros are appended first."""
    extra = [(2 + i, 0, after - before) for i, (before, after) in enumerate(pads) if after > before]
    if extra:
        x = _constant_pad(x, extra, 0)
    return _C.im2col(x, list(kernel), list(dilation), [before for before, _ in pads], list(stride))


def _ints(value, n, error):
    """value (an int, or a sequence of 1 or n ints) as a tuple of n ints; RuntimeError(error) otherwise."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(error)
    return value


def _batched(input, dims, name):
    """input with a batch dimension, and whether it had one (an unbatched input gets one of 1)."""
    if input.dim() == dims + 2:
        return input, True
    if input.dim() == dims + 1:
        return input.unsqueeze(0), False
    raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got input "
                       f"of size: {_shape(input)}")


def _conv(input, weight, bias, stride, padding, dilation, groups, dims):
    """conv1d and conv2d (dims 1 or 2); conv1d is conv2d over planes of height 1."""
    x, batched = _batched(input, dims, f"conv{dims}d")

    def expect(name, value):
        given = [value] if isinstance(value, int) else list(value)
        return _ints(value, dims, f"expected {name} to be a single integer value or a list of {dims} values to "
                                  f"match the convolution dimensions, but got {name}={given}")

    if weight.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 2}-dimensional weight for {dims + 2}-dimensional input {_shape(x)}, "
                           f"but got {weight.dim()}-dimensional weight of size {_shape(weight)} instead")
    kernel, stride, dilation = tuple(weight.shape[2:]), expect("stride", stride), expect("dilation", dilation)
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]  # of a dilated kernel
    if isinstance(padding, str):
        if padding not in ("valid", "same"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        # 'same': the odd one of an odd total padding goes after, as in PyTorch.
        pads = [((e - 1) // 2, e - 1 - (e - 1) // 2) if padding == "same" else (0, 0) for e in extent]
    else:
        pads = [(p, p) for p in expect("padding", padding)]
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p, _ in pads):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    out_channels, channels = weight.shape[0], x.shape[1]
    if out_channels % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{_shape(weight)}] instead")
    if channels != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {_shape(weight)}, expected input{_shape(x)} to have "
                           f"{weight.shape[1] * groups} channels, but got {channels} channels instead")
    padded = [size + b + a for size, (b, a) in zip(x.shape[2:], pads)]
    if any(p < e for p, e in zip(padded, extent)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, extent))}). Kernel size can't be greater than actual input size")
    if bias is not None and (bias.dim() != 1 or bias.numel() != out_channels):
        raise RuntimeError(f"Given weight of size {_shape(weight)}, expected bias to be 1-dimensional with "
                           f"{out_channels} elements, but got bias of size {_shape(bias)} instead")
    if x.dtype != weight.dtype:
        raise RuntimeError(f"Input type ({x.dtype}) and weight type ({weight.dtype}) should be the same")
    out = tuple((p - e) // s + 1 for p, e, s in zip(padded, extent, stride))
    if dims == 1:  # a plane of height 1
        x, kernel, stride, dilation, out = x.unsqueeze(2), (1, *kernel), (1, *stride), (1, *dilation), (1, *out)
        pads = [(0, 0), *pads]
    columns = _unfold(x, kernel, dilation, pads, stride)
    n, length = x.shape[0], out[0] * out[1]
    # (G, O/G, C/G * K) @ (N, G, C/G * K, L): each group's filters against its channels' windows, in one matmul.
    per_group = weight.shape[1] * kernel[0] * kernel[1]
    y = _C.matmul(weight.reshape([groups, out_channels // groups, per_group]),
                  columns.reshape([n, groups, per_group, length]))
    if bias is not None:
        y.add_(bias.reshape([groups, out_channels // groups, 1]))  # in place: no second output-sized buffer
    y = y.reshape([n, out_channels, *out[2 - dims:]])
    return y if batched else y.squeeze(0)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

    The 1-d cross-correlation of input (N, C, L) or (C, L) with weight (O, C / groups, k); padding is an int, a
    tuple, 'valid' or 'same'.
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

    The 2-d cross-correlation of input (N, C, H, W) or (C, H, W) with weight (O, C / groups, kh, kw); padding is
    an int, a tuple, 'valid' or 'same'.
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def _window_pairs(name, kernel_size, dilation, padding, stride):
    return [list(_ints(v, 2, f"{name}: {what} must be an int or a tuple of two ints"))
            for v, what in ((kernel_size, "kernel_size"), (dilation, "dilation"), (padding, "padding"),
                            (stride, "stride"))]


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """unfold(input, kernel_size, dilation=1, padding=0, stride=1) -> Tensor

    The sliding windows of input (N, C, H, W) or (C, H, W) as columns: (N, C * kh * kw, L), one column per window
    (im2col).
    """
    return _C.im2col(input, *_window_pairs("unfold", kernel_size, dilation, padding, stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor

    The columns of input (N, C * kh * kw, L) or (C * kh * kw, L) summed back into the windows of planes of
    output_size that they came from (col2im): the inverse layout of unfold.
    """
    size = list(_ints(output_size, 2, "fold: output_size must be an int or a tuple of two ints"))
    return _C.col2im(input, size, *_window_pairs("fold", kernel_size, dilation, padding, stride))


def _pool_geometry(name, input, kernel_size, stride, padding, dilation, ceil_mode):
    """PyTorch's checks of a 2-d pooling's arguments, and its output size: (kernel, stride, padding, dilation,
    out), each a pair."""
    def pair(value, what, verb="either be"):
        return _ints(value, 2, f"{name}: {what} must {verb} a single int, or a tuple of two ints")

    kernel = pair(kernel_size, "kernel_size")
    stride = kernel if stride is None or stride == [] or stride == () else pair(stride, "stride", "either be omitted,")
    padding, dilation = pair(padding, "padding"), pair(dilation, "dilation")
    if input.dim() not in (3, 4) or 0 in input.shape[input.dim() - 3:]:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    if min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if min(stride) < 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}")
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got dilationH: "
                           f"{dilation[0]} dilationW: {dilation[1]}")
    for p, k in zip(padding, kernel):
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > k // 2:
            raise RuntimeError(f"pad should be at most half of kernel size, but got pad={p} and kernel_size={k}")
    out = []
    for size, k, s, p, d in zip(input.shape[-2:], kernel, stride, padding, dilation):
        o = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (o - 1) * s >= size + p:  # the last window must start inside the input or its padding
            o -= 1
        out.append(o)
    if min(out) < 1:
        c, h, w = input.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")
    return kernel, stride, padding, dilation, tuple(out)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)

    The maximum of each window of input (N, C, H, W) or (C, H, W); with return_indices, also where it is, as an
    index into the input's flattened H * W plane.
    """
    kernel, stride, padding, dilation, _ = _pool_geometry("max_pool2d", input, kernel_size, stride, padding,
                                                          dilation, ceil_mode)
    values, indices = _C.max_pool2d_with_indices(input, list(kernel), list(stride), list(padding), list(dilation),
                                                 ceil_mode)
    return (values, indices) if return_indices else values


@functools.lru_cache(maxsize=256)
def _avg_divisor(size, kernel, stride, padding, out, count_include_pad, dtype, device):
    """What avg_pool2d divides each window's sum by, (oh, ow): the window's size within the padded input, or
    within the input itself without count_include_pad (PyTorch's rule; ceil_mode's overhang never counts)."""
    counts = []
    for n, k, s, p, o in zip(size, kernel, stride, padding, out):
        starts = [i * s - p for i in range(o)]
        ends = [min(start + k, n + p) for start in starts]
        if not count_include_pad:
            starts, ends = [max(start, 0) for start in starts], [min(end, n) for end in ends]
        counts.append(_C.tensor([e - b for b, e in zip(starts, ends)], dtype=dtype, device=device))
    return counts[0].unsqueeze(1) * counts[1]


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None) -> Tensor: the mean of each window of input (N, C, H, W) or (C, H, W)."""
    kernel, stride, padding, dilation, out = _pool_geometry("avg_pool2d", input, kernel_size, stride, padding, 1,
                                                            ceil_mode)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    x, batched = _batched(input, 2, "avg_pool2d")
    # After the input, what its last window reaches beyond (ceil_mode's overhang, which counts as zeros).
    pads = [(p, max(p, (o - 1) * st + k - size - p)) for size, k, st, p, o in zip(x.shape[2:], kernel, stride,
                                                                                 padding, out)]
    n, c = x.shape[:2]
    sums = _unfold(x, kernel, dilation, pads, stride).reshape([n, c, kernel[0] * kernel[1], -1]).sum([2])
    sums = sums.reshape([n, c, *out])
    if divisor_override is not None:
        y = sums / divisor_override
    else:
        y = sums / _avg_divisor(tuple(x.shape[2:]), kernel, stride, padding, out, count_include_pad, x.dtype,
                                x.device)
    return y if batched else y.squeeze(0)


def _adaptive_size(output_size, input):
    """An adaptive pooling's output_size as a tuple: an int stands for each dim, and None keeps the input's size
    there (PyTorch's _list_with_default)."""
    if isinstance(output_size, int):
        return output_size, output_size
    if input.dim() <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return tuple(size if v is None else v for v, size in zip(output_size, input.shape[-len(output_size):]))


def _check_adaptive_input(name, input, first, got):
    """PyTorch's checks of an adaptive pooling's input: 3D or 4D, with no empty dim from `first` on (negative:
    counted from the end). `got` is what the message puts after "but got" (the max's has a colon)."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got{got} {_shape(input)}")
    for dim in range(first % input.dim(), input.dim()):
        if input.shape[dim] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {_shape(input)} with dimension {dim} being empty")


def _adaptive_windows(size, out):
    """The windows (start, end) of adaptive pooling along a dim of `size` into `out`, as PyTorch's:
    [floor(i * size / out), ceil((i + 1) * size / out))."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


@functools.lru_cache(maxsize=256)
def _adaptive_means(size, out, dtype, device):
    """The matrix (out, size) whose row i takes the mean of window i of adaptive pooling along a dim of `size`."""
    rows = [[1 / (end - start) if start <= j < end else 0.0 for j in range(size)]
            for start, end in _adaptive_windows(size, out)]
    return _C.tensor(rows, dtype=dtype, device=device).reshape([out, size])


def adaptive_avg_pool2d(input, output_size):
    """adaptive_avg_pool2d(input, output_size) -> Tensor

    The mean of each window of input (N, C, H, W) or (C, H, W) that PyTorch's adaptive rule cuts to give planes of
    output_size (an int, or a pair whose None elements keep the input's size).
    """
    size = _adaptive_size(output_size, input)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if min(size) < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]}}}")
    _check_adaptive_input("adaptive_avg_pool2d", input, -2, "")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f'"adaptive_avg_pool2d" not implemented for {input.dtype}')
    height, width = input.shape[-2:]
    # Each window's mean is a weighted sum: rows first, then columns.
    rows = _adaptive_means(height, size[0], input.dtype, input.device)
    columns = _adaptive_means(width, size[1], input.dtype, input.device)
    return rows.matmul(input).matmul(columns.t())


def adaptive_avg_pool1d(input, output_size):
    """adaptive_avg_pool1d(input, output_size) -> Tensor

    The mean of each window of input (N, C, L) or (C, L) that PyTorch's adaptive rule cuts to give output_size.
    """
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for adaptive_avg_pool1d)")
    if not isinstance(output_size, int):
        if len(output_size) != 1:
            raise RuntimeError(f"adaptive_avg_pool1d() argument 'output_size' should contain one int (got "
                               f"{len(output_size)})")
        output_size = output_size[0]
    # As PyTorch: the 2-d pooling of planes of height 1.
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, output_size)).squeeze(-2)


@functools.lru_cache(maxsize=256)
def _adaptive_window_positions(height, width, out, device):
    """(oh, ow, k): the positions in the flattened plane (height, width) of each window of adaptive pooling into
    `out`, in PyTorch's scan order (row by row); a window shorter than the longest repeats its last row or column,
    which changes neither the maximum nor where it first occurs."""
    per_dim = []
    for size, count in zip((height, width), out):
        windows = _adaptive_windows(size, count)
        longest = max((end - start for start, end in windows), default=1)
        per_dim.append(_C.tensor([[min(start + k, end - 1) for k in range(longest)] for start, end in windows],
                                 dtype=_C.int64, device=device).reshape([count, longest]))
    rows, columns = per_dim
    (oh, kh), (ow, kw) = rows.shape, columns.shape
    positions = rows.reshape([oh, 1, kh, 1]) * width + columns.reshape([1, ow, 1, kw])
    return positions.reshape([oh, ow, kh * kw])


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """adaptive_max_pool2d(input, output_size, return_indices=False)

    The maximum of each window of input (N, C, H, W) or (C, H, W) that PyTorch's adaptive rule cuts to give planes
    of output_size (an int, or a pair whose None elements keep the input's size); with return_indices, also where
    it is, as an index into the input's flattened H * W plane.
    """
    size = _adaptive_size(output_size, input)
    _check_adaptive_input("adaptive_max_pool2d", input, 1, ":")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if min(size) < 0:
        negative = next(v for v in size if v < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative}: "
                           f"{[*input.shape[:-2], *size]}")
    positions = _adaptive_window_positions(*input.shape[-2:], size, input.device)
    plane = input.flatten(-2)
    windows = plane.index_select(-1, positions.reshape(-1)).reshape([*plane.shape[:-1], *positions.shape])
    # The first maximum of each window, picked by gather: its gradient goes to that element alone, as PyTorch's.
    first = windows.argmax(-1, keepdim=True)
    values = windows.gather(-1, first).squeeze(-1)
    if not return_indices:
        return values
    return values, positions.expand(windows.shape).gather(-1, first).squeeze(-1)


# The functions of the private modules below import helpers from this one: they come last, once those exist.
from wick.nn._activation_functions import *  # noqa: E402,F401,F403
from wick.nn._activation_functions import __all__ as _activation_all  # noqa: E402
from wick.nn._loss_functions import *  # noqa: E402,F401,F403
from wick.nn._loss_functions import __all__ as _loss_all  # noqa: E402
from wick.nn._sampling_functions import *  # noqa: E402,F401,F403
from wick.nn._sampling_functions import __all__ as _sampling_all  # noqa: E402

__all__ += [*_activation_all, *_loss_all, *_sampling_all]
