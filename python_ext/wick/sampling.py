"""wick.sampling: draws from probability distributions, as PyTorch's functions and in-place Tensor methods of the
same names: normal, bernoulli, poisson and multinomial; exponential_, random_, cauchy_, log_normal_, geometric_ and
bernoulli_; and the random state, as PyTorch's torch.random: Generator, default_generator, manual_seed, seed,
initial_seed, get_rng_state and set_rng_state.

    >>> _ = wick.manual_seed(0)
    >>> wick.multinomial(wick.tensor([0.0, 1.0, 0.0]), 2, replacement=True)
    tensor([1, 1])

Each is made of wick's random factories (rand, randn, randint), which draw from the generator given as
`generator=` (a wick.Generator), or else from wick.default_generator, in an order that depends on the seed and the
sizes alone: so the same seed gives the same values, whatever the number of threads. No function loops in Python
over elements: poisson loops over steps that each take a whole tensor (Note [Poisson draws]).

Samplers are not reparametrised, as in PyTorch: a draw whose parameters require grad requires grad too, and the
gradient it passes them is zero.
"""
import math
import warnings

from wick import _C
from wick._arguments import (_argument_error, _bool, _dtype, _float, _int, _int_list, _scalar_type, _tensor,
                             _written)
from wick.autograd import Function, is_grad_enabled
from wick.functional import broadcast_shapes
from wick.search_functions import searchsorted
from wick.type_info import finfo, iinfo

__all__ = ["normal", "bernoulli", "poisson", "multinomial", "Generator", "default_generator", "manual_seed", "seed",
           "initial_seed", "get_rng_state", "set_rng_state"]
# Tensor methods that are these functions with the tensor first: x.name(...) is name(x, ...).
METHODS = ("bernoulli", "bernoulli_", "multinomial", "exponential_", "random_", "cauchy_", "log_normal_",
           "geometric_")

_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1

# The random state (Note [Generator state] in core/include/wick/generator.h for what a state holds).
Generator = _C.Generator
default_generator = _C.default_generator


def manual_seed(seed):
    """manual_seed(seed) -> Generator: seeds the default generator with int(seed), an integer in [-2**63, 2**64),
    and returns it."""
    return default_generator.manual_seed(int(seed))


def seed():
    """seed() -> int: seeds the default generator with a nondeterministic seed, which it returns."""
    return default_generator.seed()


def initial_seed():
    """initial_seed() -> int: the seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """get_rng_state() -> Tensor: the default generator's state, a uint8 tensor for set_rng_state."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """set_rng_state(new_state) -> None: restores the default generator to a state that get_rng_state gave."""
    default_generator.set_state(new_state)


# Checks shared by the samplers, worded as PyTorch words them.

def _check_generator(function, generator, position=None):
    """A generator= argument is a wick.Generator, or None for the default one."""
    if generator is not None and not isinstance(generator, Generator):
        raise _argument_error(function, "generator", position, "wick.Generator", generator)


def _floating(kernel, dtype):
    """PyTorch's error for a kernel that has no loop for an integer or bool dtype."""
    if not dtype.is_floating_point:
        raise RuntimeError(f"\"{kernel}\" not implemented for '{_scalar_type(dtype)}'")


def _check_probabilities(p):
    if not bool(_C.logical_and(p >= 0, p <= 1).all()):  # NaN fails both
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")


def _check_probability(function, p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"{function} expects p to be in [0, 1], but got p={p:g}")


def _check_std(std):
    if isinstance(std, _C.TensorBase):
        if not bool((std >= 0).all()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif not std >= 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


# Draws, and what the samplers make of them.

def _compute_dtype(dtype):
    """The dtype a floating dtype's draws are transformed in, as PyTorch's accumulate type: float64 for float64,
    float32 for the others (a 16-bit uniform would cut the tails short)."""
    return _C.float64 if dtype == _C.float64 else _C.float32


def _uniforms(like, dtype, generator):
    """Uniforms in [0, 1) of dtype, one for each element of like, from generator."""
    return _C.rand(like.shape, dtype=dtype, device=like.device, generator=generator)


class _Sample(Function):
    """A draw from a distribution whose parameters may require grad. As PyTorch's samplers, it is not
    reparametrised: the draw is recorded as coming from the parameters, and the gradient it passes each is zero."""

    @staticmethod
    def forward(ctx, draw, *parameters):
        ctx.parameters = [(p.shape, p.dtype, p.device) for p in parameters]
        return draw

    @staticmethod
    def backward(ctx, grad):
        return (None,) + tuple(_C.zeros(shape, dtype=dtype, device=device) for shape, dtype, device in ctx.parameters)


def _filled(function, self, draw):
    """self, holding draw (of self's shape, in any dtype): converted to self's dtype and written through its
    strides. Autograd sees a copy_, whose gradient to self's old values is zero, as PyTorch's in-place samplers."""
    if self.requires_grad and self.is_leaf and is_grad_enabled():
        raise RuntimeError(f"{function}(): a leaf Variable that requires grad is being used in an in-place operation.")
    return self.copy_(draw)


# normal.

def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    """normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False)
    -> Tensor

    Draws from normal distributions of means mean and standard deviations std, in PyTorch's four forms: a tensor
    mean and a tensor std (broadcast together), a tensor and a float, a float and a tensor (each draw in the
    tensor's dtype, or out's), or a float mean and std with a size (then dtype, device and requires_grad make the
    tensor as a factory does). Each draw is mean + std * z for a standard normal z of randn.
    """
    _check_generator("normal", generator)
    if out is not None:
        _tensor("normal", "out", None, out)
    tensors = [t for t in (mean, std) if isinstance(t, _C.TensorBase)]
    if not tensors:
        return _normal_of_numbers(mean, std, size, generator, out, dtype, device, requires_grad)
    if size is not None or dtype is not None or device is not None or requires_grad:
        raise TypeError("normal() received an invalid combination of arguments: size, dtype, device and "
                        "requires_grad go with a float mean and a float std only")
    mean = mean.detach() if isinstance(mean, _C.TensorBase) else _float("normal", "mean", 1, mean)
    std = std.detach() if isinstance(std, _C.TensorBase) else _float("normal", "std", 2, std)
    result_dtype = (tensors[0] if out is None else out).dtype
    _floating("normal_kernel_cpu", result_dtype)
    _check_std(std)
    shape = broadcast_shapes(*(t.shape for t in tensors))
    draw = _C.randn(shape, dtype=result_dtype, device=tensors[0].device, generator=generator).mul_(std).add_(mean)
    return _written("normal", _Sample.apply(draw, *tensors), out, *tensors)


def _normal_of_numbers(mean, std, size, generator, out, dtype, device, requires_grad):
    mean, std = _float("normal", "mean", 1, mean), _float("normal", "std", 2, std)
    if size is None:
        raise TypeError("normal() received an invalid combination of arguments - got (float, float): a float mean "
                        "and a float std need a size")
    size, dtype = _int_list("normal", "size", 3, size), _dtype("normal", dtype)
    if any(n < 0 for n in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {size}")
    requires_grad = _bool("normal", "requires_grad", None, requires_grad)
    if out is not None:
        if dtype is not None and dtype != out.dtype:
            raise RuntimeError(f"dtype {_scalar_type(dtype)} does not match dtype of out parameter "
                               f"({_scalar_type(out.dtype)})")
        dtype = out.dtype
    _check_std(std)
    draw = _C.empty(size, dtype=dtype, device=device)
    _floating("normal_kernel_cpu", draw.dtype)
    result = _written("normal", draw.normal_(mean, std, generator=generator), out)
    return result.requires_grad_() if requires_grad else result


# bernoulli: a uniform u in float64 below p is a success, which it is with probability p exactly.

def bernoulli(input, p=None, *, generator=None, out=None):
    """bernoulli(input, p=None, *, generator=None, out=None) -> Tensor

    Draws of 0 or 1 like input: with probabilities the elements of input (floating, each in [0, 1]; the result
    requires grad where input does, with a zero gradient), or with probability p (a float) for every element,
    whatever input's dtype. out= goes with the first form.
    """
    _tensor("bernoulli", "input", 1, input)
    _check_generator("bernoulli", generator)
    if p is not None:
        if out is not None:
            raise TypeError("bernoulli() received an invalid combination of arguments: out= goes with the form "
                            "without p")
        p = _float("bernoulli", "p", 2, p)
        _check_probability("bernoulli_", p)
        return _C.lt(_uniforms(input, _C.float64, generator), p).to(input.dtype)
    if out is not None:
        _tensor("bernoulli", "out", None, out)
    _floating("bernoulli_tensor_cpu_p_", input.dtype)
    probabilities = input.detach()
    _check_probabilities(probabilities)
    draw = _C.lt(_uniforms(input, _C.float64, generator), probabilities)
    if out is not None:  # any dtype, bool included, takes the bool draw
        return _written("bernoulli", draw, out, input)
    return _Sample.apply(draw.to(input.dtype), input)


def bernoulli_(self, p=0.5, *, generator=None):
    """bernoulli_(p=0.5, *, generator=None) -> Tensor: self (of any dtype) filled with draws of 0 or 1, each 1 with
    probability p: a float, or a floating tensor that broadcasts to self's shape."""
    _tensor("bernoulli_", "self", None, self)
    _check_generator("bernoulli_", generator)
    if not isinstance(p, _C.TensorBase):
        p = _float("bernoulli_", "p", 1, p)
        _check_probability("bernoulli_", p)
        return _filled("bernoulli_", self, _C.lt(_uniforms(self, _C.float64, generator), p))
    _floating("bernoulli_tensor_cpu_p_", p.dtype)
    probabilities = p.detach()
    _check_probabilities(probabilities)
    draw = _C.lt(_uniforms(self, _C.float64, generator), probabilities.expand(self.shape)).to(p.dtype)
    return _filled("bernoulli_", self, _Sample.apply(draw, p))  # self requires grad where p does, as in PyTorch


# poisson.
#
# Note [Poisson draws]
# ~~~~~~~~~~~~~~~~~~~~
# poisson takes PyTorch's two exact methods (sample_poisson, as NumPy's): below a rate of 10, Knuth's: the count
# of uniforms multiplied before their product drops to exp(-rate) or below; from 10 on, Hormann's transformed
# rejection with squeeze (PTRS, 1993): a candidate from two uniforms, accepted or drawn again. Here each runs all
# its lanes at once: every step draws one float64 uniform for each lane still running, then drops the lanes that
# finished, so a step costs what is left. Knuth's lanes stop after count + 1 steps, and a rate below 10 passes
# 200 with a chance under 1e-170; PTRS accepts 3 candidates in 4 at the worst rate, 10 (9 in 10 from 1,000 on), so
# 1,000 rounds leave a lane with a chance under 1e-600. A lane still running at those bounds is a bug, reported.

_KNUTH_STEPS, _PTRS_ROUNDS = 200, 1000
_LOG_FACTORIALS = [math.lgamma(k + 1) for k in range(10)]


def _log_factorial(k):
    """log(k!) for whole numbers k >= 0 (float64; anything else gives a value not to be used): a table below 10,
    else Stirling's series for lgamma(k + 1), whose next term is under 1e-12 there."""
    x = k.clamp(min=10) + 1
    y = (x * x).reciprocal()
    series = (((y * (-1 / 1680) + 1 / 1260) * y - 1 / 360) * y + 1 / 12) / x  # Horner's, the tensor first
    stirling = (x - 0.5) * x.log() - x + 0.5 * math.log(2 * math.pi) + series
    small = _C.where(k >= 0, k, 0).clamp(max=9).to(_C.int64)  # NaN and -inf to 0: a safe index
    return _C.where(k < 10, _C.tensor(_LOG_FACTORIALS, dtype=_C.float64)[small], stirling)


def _knuth(rate, generator):
    """Poisson counts for rates in [0, 10) (1-d float64), by Knuth's method (Note [Poisson draws])."""
    counts = _C.zeros(rate.shape, dtype=_C.float64)
    lane, product, floor = _C.arange(rate.numel()), _C.ones(rate.shape, dtype=_C.float64), rate.neg().exp()
    for _ in range(_KNUTH_STEPS):
        if lane.numel() == 0:
            return counts
        product = product * _C.rand(lane.numel(), dtype=_C.float64, generator=generator)
        going = product > floor
        lane, product, floor = lane[going], product[going], floor[going]
        counts[lane] += 1
    raise RuntimeError("poisson(): Knuth's method did not finish")


def _ptrs(rate, generator):
    """Poisson counts for finite rates of 10 or more (1-d float64), by transformed rejection (Note [Poisson
    draws]); the constants are Hormann's."""
    counts = _C.empty(rate.shape, dtype=_C.float64)
    b = rate.sqrt() * 2.53 + 0.931
    a = b * 0.02483 - 0.059
    inv_alpha, vr = (b - 3.4).reciprocal() * 1.1328 + 1.1239, (b - 2).reciprocal() * -3.6224 + 0.9277
    # Each lane's constants, a row each: dropping a finished lane drops its row.
    constants = _C.stack([rate, rate.log(), a, b, inv_alpha.log(), vr], 1)
    lane = _C.arange(rate.numel())
    for _ in range(_PTRS_ROUNDS):
        if lane.numel() == 0:
            return counts
        lam, log_lam, a, b, log_inv_alpha, vr = constants.unbind(1)
        u = _C.rand(lane.numel(), dtype=_C.float64, generator=generator) - 0.5
        v = _C.rand(lane.numel(), dtype=_C.float64, generator=generator)
        us = u.abs().neg() + 0.5
        k = ((a * 2 / us + b) * u + lam + 0.43).floor()
        quick = _C.logical_and(us >= 0.07, v <= vr)
        hopeless = _C.logical_or(k < 0, _C.logical_and(us < 0.013, v > us))
        likely = v.log() + log_inv_alpha - (a / (us * us) + b).log() <= -lam + k * log_lam - _log_factorial(k)
        accepted = _C.logical_or(quick, _C.logical_and(hopeless.logical_not(), likely))
        counts[lane[accepted]] = k[accepted]
        rejected = accepted.logical_not()
        lane, constants = lane[rejected], constants[rejected]
    raise RuntimeError("poisson(): transformed rejection did not finish")


def poisson(input, generator=None):
    """poisson(input, generator=None) -> Tensor

    Draws from Poisson distributions with the rates that input (floating, non-negative) holds, in its dtype: a
    count for each rate; an infinite rate counts infinity. Exact: Knuth's product of uniforms below a rate of 10,
    Hormann's transformed rejection from 10 on (Note [Poisson draws]). The result requires grad where input does,
    with a zero gradient.
    """
    _tensor("poisson", "input", 1, input)
    _check_generator("poisson", generator, 2)
    _floating("poisson_cpu", input.dtype)
    rate = input.detach().reshape(-1).to(_C.float64)
    if not bool((rate >= 0).all()):  # NaN fails too
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    counts = _C.full(rate.shape, math.inf, dtype=_C.float64)
    small, large = rate < 10, _C.logical_and(rate >= 10, rate < math.inf)
    counts[small] = _knuth(rate[small], generator)
    counts[large] = _ptrs(rate[large], generator)
    return _Sample.apply(counts.reshape(input.shape).to(input.dtype), input)


# multinomial.

def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> LongTensor

    num_samples category indices drawn from each row of input (1-d, or 2-d with a row per distribution; floating,
    non-negative weights that need not sum to 1). With replacement, each draw inverts the row's cumulative sum
    at a uniform (a binary search of searchsorted). Without, the categories run exponential races, and the
    num_samples fastest win in their order (Gumbel-top-k: an Exp(1) time over each weight); a category of zero
    weight is drawn only after all others. int64 indices, of shape (num_samples,) or (rows, num_samples).
    """
    _tensor("multinomial", "input", 1, input)
    num_samples = _int("multinomial", "num_samples", 2, num_samples)
    replacement = _bool("multinomial", "replacement", 3, replacement)
    _check_generator("multinomial", generator)
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_scalar_type(input.dtype)}")
    if out is not None and _tensor("multinomial", "out", None, out).dtype != _C.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {_scalar_type(out.dtype)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if categories > 2**24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    weights = input.detach().reshape(input.shape[0] if input.dim() == 2 else 1, categories).to(_C.float64)
    if weights.shape[0] == 0:
        drawn = _C.empty((0, num_samples), dtype=_C.int64)
    elif replacement and num_samples > 1:
        drawn = _drawn_with_replacement(weights, num_samples, generator)
    else:  # PyTorch's path for one draw too, with its checks
        drawn = _drawn_without_replacement(weights, num_samples, generator)
    return _written("multinomial", drawn.reshape(*input.shape[:-1], num_samples), out)


def _scaled(weights):
    """Checked weights (non-negative, finite) over the largest of their row, so that no sum overflows and no
    weight is too small to divide by; a row that sums to 0 is refused."""
    largest = weights.amax(1, keepdim=True) if weights.shape[1] else None
    if largest is None or not bool((largest > 0).all()):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    return weights / largest


def _drawn_with_replacement(weights, num_samples, generator):
    if not bool((weights >= 0).all()):  # NaN fails too
        raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
    if not bool(weights.isfinite().all()):
        raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
    cdf = _scaled(weights).cumsum(1)
    # u * total < total in float64 (u <= 1 - 2^-53), so the index of the first cdf entry above it is a category
    # of non-zero weight: a category whose weight is zero adds nothing to the cdf and can never be first above u.
    u = _C.rand((weights.shape[0], num_samples), dtype=_C.float64, generator=generator) * cdf[:, -1:]
    return searchsorted(cdf, u, right=True)


def _drawn_without_replacement(weights, num_samples, generator):
    if not bool(_C.logical_and(weights >= 0, weights < math.inf).all()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    weights = _scaled(weights)
    # Each category finishes at an Exp(1) time over its weight (never before, when the weight is zero: infinity,
    # or NaN for a time of zero, which sorts above it); the first num_samples to finish are the draws.
    times = _uniforms(weights, _C.float64, generator).neg_().log1p_().neg_() / weights
    return times.topk(num_samples, largest=False).indices


# In-place samplers: each draws in a floating dtype (Note [Random draws] in core/src/factory.cpp for the uniforms and
# normals), transforms, and writes into self (_filled).

def exponential_(self, lambd=1, *, generator=None):
    """exponential_(lambd=1, *, generator=None) -> Tensor: self (floating) filled with draws from the exponential
    distribution of rate lambd (mean 1 / lambd), -log(1 - u) / lambd for uniforms u; infinity where lambd is 0."""
    _tensor("exponential_", "self", None, self)
    lambd = _float("exponential_", "lambd", 1, lambd)
    _check_generator("exponential_", generator)
    _floating("exponential_cpu", self.dtype)
    if not lambd >= 0:
        raise RuntimeError(f"exponential_ expects lambda >= 0.0, but found lambda={lambd:g}")
    standard = _uniforms(self, _compute_dtype(self.dtype), generator).neg_().log1p_().neg_()
    return _filled("exponential_", self, standard.div_(lambd) if lambd else standard.fill_(math.inf))


def cauchy_(self, median=0, sigma=1, *, generator=None):
    """cauchy_(median=0, sigma=1, *, generator=None) -> Tensor: self (floating) filled with draws from the Cauchy
    distribution of location median and scale sigma, median + sigma * tan(pi * (u - 1/2)) for uniforms u."""
    _tensor("cauchy_", "self", None, self)
    median, sigma = _float("cauchy_", "median", 1, median), _float("cauchy_", "sigma", 2, sigma)
    _check_generator("cauchy_", generator)
    _floating("cauchy_cpu", self.dtype)
    draw = _uniforms(self, _compute_dtype(self.dtype), generator).sub_(0.5).mul_(math.pi).tan_()
    return _filled("cauchy_", self, draw.mul_(sigma).add_(median))


def log_normal_(self, mean=1, std=2, *, generator=None):
    """log_normal_(mean=1, std=2, *, generator=None) -> Tensor: self (floating) filled with draws whose logarithm
    is normal of mean mean and standard deviation std (> 0): exp(mean + std * z) for standard normals z."""
    _tensor("log_normal_", "self", None, self)
    mean, std = _float("log_normal_", "mean", 1, mean), _float("log_normal_", "std", 2, std)
    _check_generator("log_normal_", generator)
    _floating("log_normal_cpu", self.dtype)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    draw = _C.randn(self.shape, dtype=_compute_dtype(self.dtype), device=self.device, generator=generator)
    return _filled("log_normal_", self, draw.mul_(std).add_(mean).exp_())


def geometric_(self, p, *, generator=None):
    """geometric_(p, *, generator=None) -> Tensor: self (of any dtype but bool) filled with draws from the
    geometric distribution on 1, 2, ... of success probability p in (0, 1): the number of the first success,
    floor(log(1 - u) / log(1 - p)) + 1 for float64 uniforms u. As in PyTorch, a draw past self's dtype's range
    is converted to it as C++ converts."""
    _tensor("geometric_", "self", None, self)
    p = _float("geometric_", "p", 1, p)
    _check_generator("geometric_", generator)
    if self.dtype == _C.bool:
        raise RuntimeError("\"geometric_cpu\" not implemented for 'Bool'")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    draw = _uniforms(self, _C.float64, generator).neg_().log1p_().div_(math.log1p(-p)).floor_().add_(1)
    return _filled("geometric_", self, draw)


# random_.

def _random_bounds(args, kwargs):
    """(from, to) from random_'s arguments, in PyTorch's three forms: (), (to) and (from, to) with to None or not;
    'from', a Python keyword, can be given by name only through **{'from': ...}."""
    names = ("from", "to")
    if len(args) == 1 and not kwargs:
        args, kwargs = (), {"to": args[0]}
    given = dict(zip(names, args))
    if len(args) > 2 or not set(kwargs) <= set(names) - set(given) or set(given) | set(kwargs) == {"from"}:
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"random_() received an invalid combination of arguments - got ({got}), but expected one "
                        "of: (*, Generator generator), (int from, int to, *, Generator generator), "
                        "(int to, *, Generator generator)")
    given.update(kwargs)
    low = _int("random_", "from", 1, given.get("from", 0))
    high = given.get("to")
    if high is not None or "from" not in given and "to" in given:  # to may be None only beside from
        high = _int("random_", "to", 2 if "from" in given else 1, high)
    for value in (low, high):
        if value is not None and not _INT64_MIN <= value <= _INT64_MAX:
            raise RuntimeError("Overflow when unpacking long")
    return low, high


def _random_range(low, to, dtype):
    """The integers [low, high] that random_ draws for self of dtype, checked as PyTorch checks them: to None means
    the largest of dtype, or for a floating dtype 2^digits, the largest up to which it holds every integer."""
    if dtype.is_floating_point:
        digits = 1 - round(math.log2(finfo(dtype).eps))  # the significand's bits, the leading one included
        lowest, largest, most = -finfo(dtype).max, finfo(dtype).max, 2**digits
    else:
        digits = None
        lowest, largest = (0, 1) if dtype == _C.bool else (iinfo(dtype).min, iinfo(dtype).max)
        most = largest
    if to is not None:
        if low >= to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={to}")
        high = to - 1
    else:
        if low >= most and digits is not None:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted "
                               f"to dtype, but got from={low} > to_inc={most}")
        high = most
    for value, name in ((low, "from"), (high, "to - 1")):
        if not lowest <= value <= largest:
            raise RuntimeError(f"{name} is out of bounds for {dtype}")
        if digits is not None and abs(value) > 2**digits:
            warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                          f"{dtype} can support discrete uniform distribution only within this range.", stacklevel=3)
    return low, high


def _integers(low, high, shape, generator):
    """Uniform int64 integers in [low, high], a range of up to 2^64 of them, from randint's ranges [low, high),
    drawn from generator."""
    if high < _INT64_MAX:
        return _C.randint(low, high + 1, shape, generator=generator)
    if low > _INT64_MIN:
        return _C.randint(low - 1, high, shape, generator=generator).add_(1)
    # Every int64: a random high half and a random low half, with no overflow.
    high_half = _C.randint(-2**31, 2**31, shape, generator=generator).mul_(2**32)
    return high_half.add_(_C.randint(0, 2**32, shape, generator=generator))


def random_(self, *args, generator=None, **kwargs):
    """random_(from=0, to=None, *, generator=None) -> Tensor

    self filled with integers drawn uniformly from [from, to), in PyTorch's forms random_(), random_(to) and
    random_(from, to). With to None, up to the largest of self's dtype: its maximum for an integer dtype, 1 for
    bool, and 2^digits for a floating dtype (the integers up to which it holds each one: 2^24 for float32)."""
    _tensor("random_", "self", None, self)
    _check_generator("random_", generator)
    low, high = _random_range(*_random_bounds(args, kwargs), self.dtype)
    return _filled("random_", self, _integers(low, high, self.shape, generator)) if self.numel() else self
