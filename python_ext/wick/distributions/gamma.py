"""wick.distributions.gamma: the gamma and chi-squared distributions, as PyTorch's Gamma and Chi2, and
standard_gamma, the reparameterised draws that Beta, Dirichlet and StudentT build on."""
import math

from wick import _C
from wick.autograd import Function
from wick.distributions import constraints
from wick.distributions._expand import Expandable
from wick.distributions.distribution import Distribution
from wick.distributions.utils import broadcast_all
from wick.special import digamma, gammaln
from wick.type_info import finfo

__all__ = ["Gamma", "Chi2", "standard_gamma"]

# Note [Gamma draws]
# ~~~~~~~~~~~~~~~~~~
# Marsaglia and Tsang's rejection (ACM TOMS 26(3), 2000) for shape a >= 1: with d = a - 1/3, c = 1 / sqrt(9 d), a
# normal x and a uniform u, v = (1 + c x)^3 is accepted when v > 0 and log u < x^2 / 2 + d - d v + d log v, and
# d v is then a Gamma(a) draw. Every lane of the batch runs together; each round redraws the rejected lanes only.
# A round accepts with probability above 0.95 for every a >= 1, so a lane still rejected after _GAMMA_ROUNDS (64)
# has a chance under 1e-83: that is a bug, reported. Shapes a < 1 are boosted: draw Gamma(a + 1), times u^(1/a).
#
# Note [Gamma gradients]
# ~~~~~~~~~~~~~~~~~~~~~~
# Implicit reparameterisation (Figurnov et al., 2018): a draw x = F^-1(u; a) of the regularised lower incomplete
# gamma F = P(a, x) has dx/da = -(dP/da) / (dP/dx), with dP/dx = x^(a-1) e^-x / Gamma(a), the density. dP/da is
# summed from the series P(a, x) = sum_n T_n, T_n = x^(a+n) e^-x / Gamma(a+n+1), whose derivative in a is
# sum_n T_n (log x - digamma(a+n+1)); T_(n+1) = T_n x / (a+n+1) and digamma(a+n+2) = digamma(a+n+1) + 1/(a+n+1).
# The series converges for every x; it is summed in float64 until each lane's terms, past their peak (a+n+1 > x),
# fall below 1e-17 of its sum, in at most x - a + 40 sqrt(x) + 100 terms. Accuracy: where P(a, x) is near 1 (the
# far right tail, x many standard deviations above the mean) dP/da is small and the sum cancels, so the gradient
# there has an absolute error near 1e-16 / density rather than a relative one.

_GAMMA_ROUNDS = 64


def _marsaglia_tsang(shape, generator=None):
    """Gamma(shape) draws for shapes >= 1 (1-d float64), by Note [Gamma draws]."""
    draws = _C.empty(shape.shape, dtype=_C.float64)
    lane, d = _C.arange(shape.numel()), shape - 1 / 3
    for _ in range(_GAMMA_ROUNDS):
        if lane.numel() == 0:
            return draws
        c = (9 * d).rsqrt()
        x = _C.randn(lane.numel(), dtype=_C.float64, generator=generator)
        u = _C.rand(lane.numel(), dtype=_C.float64, generator=generator)
        v = (1 + c * x).pow(3)
        log_v = _C.where(v > 0, v, 1.0).log()
        accepted = (v > 0) & (u.log() < 0.5 * x * x + d - d * v + d * log_v)
        draws[lane[accepted]] = (d * v)[accepted]
        rejected = accepted.logical_not()
        lane, d = lane[rejected], d[rejected]
    raise RuntimeError("standard_gamma(): Marsaglia and Tsang's rejection did not finish")


def _gamma_draws(concentration):
    """Gamma(concentration, 1) draws of concentration's shape and dtype, never 0 (the dtype's tiny instead)."""
    shape = concentration.detach().reshape(-1).to(_C.float64)
    small = shape < 1
    # Shapes that are not positive and finite (unvalidated) draw NaN, and take no part in the rejection.
    valid = (shape > 0) & (shape < math.inf)
    draws = _C.full(shape.shape, math.nan, dtype=_C.float64)
    draws[valid] = _marsaglia_tsang(_C.where(small, shape + 1, shape)[valid])
    boost = _C.rand(shape.shape, dtype=_C.float64).pow(shape.reciprocal())
    draws = _C.where(small, draws * boost, draws)
    return draws.reshape(concentration.shape).to(concentration.dtype).clamp(min=finfo(concentration.dtype).tiny)


def _gamma_draw_grad(a, x):
    """d(draw)/d(concentration) for Gamma(a, 1) draws x (float64), by Note [Gamma gradients]."""
    if x.numel() == 0:
        return x
    log_x = x.log()
    term = (a * log_x - x - gammaln(a + 1)).exp()
    psi = digamma(a + 1)
    total, derivative = term, term * (log_x - psi)
    steps = int((x - a).clamp(min=0).nan_to_num().max()) + int(40 * math.sqrt(float(x.nan_to_num().max()))) + 100
    for n in range(steps):
        denominator = a + n + 1
        term, psi = term * x / denominator, psi + denominator.reciprocal()
        total, derivative = total + term, derivative + term * (log_x - psi)
        if n % 8 == 0 and bool(((denominator <= x) | (term > 1e-17 * total)).logical_not().all()):
            density = ((a - 1) * log_x - x - gammaln(a)).exp()
            return -derivative / density
    raise RuntimeError("standard_gamma(): the series of the gradient did not converge")


class _StandardGamma(Function):
    """Gamma(concentration, 1) draws, reparameterised implicitly (Note [Gamma gradients])."""

    @staticmethod
    def forward(ctx, concentration):
        draws = _gamma_draws(concentration)
        ctx.save_for_backward(concentration, draws)
        return draws

    @staticmethod
    def backward(ctx, grad):
        concentration, draws = ctx.saved_tensors
        slope = _gamma_draw_grad(concentration.detach().to(_C.float64), draws.detach().to(_C.float64))
        return grad * slope.to(grad.dtype)


def standard_gamma(concentration):
    """Gamma(concentration, 1) draws, one per element, differentiable with respect to concentration."""
    return _StandardGamma.apply(concentration)


class Gamma(Expandable, Distribution):
    """Gamma(concentration, rate): density rate^c x^(c-1) e^(-rate x) / Gamma(c) on x >= 0 (c > 0, rate > 0)."""
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        super().__init__(self.concentration.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        draws = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        return draws.clamp(min=finfo(draws.dtype).tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (_C.xlogy(self.concentration, self.rate) + _C.xlogy(self.concentration - 1, value)
                - self.rate * value - gammaln(self.concentration))

    def entropy(self):
        return (self.concentration - _C.log(self.rate) + gammaln(self.concentration)
                + (1.0 - self.concentration) * digamma(self.concentration))


class Chi2(Gamma):
    """Chi2(df): the sum of df squared standard normals, Gamma(df / 2, 1 / 2)."""
    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        self.df, = broadcast_all(df)
        super().__init__(0.5 * self.df, _C.full_like(self.df, 0.5), validate_args=validate_args)
