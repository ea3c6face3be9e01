"""wick.special: special functions, as PyTorch's torch.special.

    >>> wick.special.gammaln(wick.tensor([0.5, 1.0, 10.0]))
    tensor([ 0.5724,  0.0000, 12.8018])

Those PyTorch has as declared ops are the ops themselves (expit is sigmoid, erf is erf, ...). The others are
compositions of declared ops, evaluated in float64 and rounded to the input's floating dtype (an integral or bool
input gives the default float32): gammaln by Lanczos' approximation (and Taylor series about its roots 1 and 2),
digamma and polygamma by recurrence up to large arguments and their asymptotic series there, the Bessel functions
i0 and i1 by their power series (all terms positive, so nothing cancels) for |x| <= 30 and their asymptotic series
beyond. Each is accurate to a few units in the last place of float64 away from the poles, and autograd sees
through it.
"""
import math

from wick import _C
from wick._arguments import _int, _tensor

__all__ = ["expit", "logit", "erf", "erfc", "erfinv", "exp2", "expm1", "log1p", "log_softmax", "softmax",
           "logsumexp", "xlogy", "xlog1py", "sinc", "round", "entr", "ndtr", "ndtri", "log_ndtr", "i0", "i0e", "i1",
           "i1e", "gammaln", "digamma", "psi", "polygamma", "multigammaln"]

# The declared ops PyTorch's torch.special names again.
expit = _C.sigmoid
erf, erfc, erfinv = _C.erf, _C.erfc, _C.erfinv
exp2, expm1, log1p = _C.exp2, _C.expm1, _C.log1p
log_softmax, softmax, logsumexp = _C.log_softmax, _C.softmax, _C.logsumexp
xlogy, sinc, round = _C.xlogy, _C.sinc, _C.round


def logit(input, eps=None):
    """logit(input, eps=None) -> Tensor: log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given."""
    return _C.logit(input, eps)


def _as_float64(function, input):
    """input (a Tensor) in float64, and the floating dtype its result takes: its own, or float32 for an integral one."""
    input = _tensor(function, "input", 1, input)
    dtype = input.dtype if input.is_floating_point() else _C.float32
    return input.to(_C.float64), dtype


def _constant(like, value):
    """value as a 0-d float64 tensor on like's device."""
    return _C.tensor(value, dtype=_C.float64, device=like.device)


def xlog1py(input, other):
    """xlog1py(input, other) -> Tensor: input * log1p(other), 0 where input is 0 (unless other is NaN); either may
    be a number."""
    if isinstance(other, _C.TensorBase):
        log = _C.log1p(other if other.is_floating_point() else other.to(_C.float32))
        other_nan = _C.isnan(log)
    else:
        log = math.log1p(other) if other > -1 else (-math.inf if other == -1 else math.nan)
        other_nan = math.isnan(log)
    product = input * log
    zero = _C.logical_and(_C.as_tensor(input == 0, device=product.device),
                          _C.logical_not(_C.as_tensor(other_nan, device=product.device)))
    return _C.where(zero, _C.zeros_like(product), product)


def entr(input):
    """entr(input) -> Tensor: -x log x, 0 at x = 0 and -inf for x < 0."""
    x = _tensor("entr", "input", 1, input)
    if not x.is_floating_point():
        x = x.to(_C.float32)
    value = -x * _C.log(x)
    value = _C.where(x == 0, _C.zeros_like(value), value)
    return _C.where(x < 0, _C.full_like(value, -math.inf), value)


def ndtr(input):
    """ndtr(input) -> Tensor: the standard normal distribution function, erfc(-x / sqrt 2) / 2 (PyTorch 1.13 takes
    (1 + erf(x / sqrt 2)) / 2, which cancels to nothing in the lower tail; this keeps full relative accuracy)."""
    x, dtype = _as_float64("ndtr", input)
    return (0.5 * _C.erfc(-x / math.sqrt(2))).to(dtype)


# Terms (2k - 1)!! of the asymptotic series of log ndtr(x) for x -> -inf, in powers of 1 / x^2.
_LOG_NDTR_TERMS = 9


def _log_ndtr(x):
    """log ndtr of a float64 tensor: log1p(-ndtr(-x)) above 0 (where ndtr is near 1), the log of erfc down to -30,
    and below (where erfc nears underflow) -x^2/2 - log(-x sqrt(2 pi)) + log(1 - 1/x^2 + 3/x^4 - ...)."""
    upper = _C.log1p(-0.5 * _C.erfc(x / math.sqrt(2)))
    middle = _C.log(0.5 * _C.erfc(-x / math.sqrt(2)))
    far = _C.minimum(x, _constant(x, -30.0))  # only where x < -30 is it used; the clamp keeps the rest finite
    inverse_square = 1 / (far * far)
    series, term = _C.ones_like(far), _C.ones_like(far)
    for k in range(1, _LOG_NDTR_TERMS):
        term = term * (-(2 * k - 1) * inverse_square)
        series = series + term
    tail = -0.5 * far * far - _C.log(-far) - 0.5 * math.log(2 * math.pi) + _C.log(series)
    return _C.where(x > 0, upper, _C.where(x < -30, tail, middle))


def log_ndtr(input):
    """log_ndtr(input) -> Tensor: log of ndtr, accurate far into both tails."""
    x, dtype = _as_float64("log_ndtr", input)
    return _log_ndtr(x).to(dtype)


def ndtri(input):
    """ndtri(input) -> Tensor: the inverse of ndtr on [0, 1] (-inf at 0, inf at 1, NaN outside).

    Solved for the lower half q = min(p, 1 - p) (1 - p is exact for p >= 1/2) from erfinv's estimate, or the
    tail's asymptote -sqrt(-2 log q - log(-2 log q) - log 2 pi) where 2q - 1 rounds to -1; then Newton steps on
    log ndtr(x) = log q, which keep full relative accuracy however small q is."""
    p, dtype = _as_float64("ndtri", input)
    q = _C.where(p > 0.5, 1 - p, p)
    q_safe = _C.clamp(q, min=1e-300, max=0.5)
    estimate = math.sqrt(2) * _C.erfinv(2 * q_safe - 1)
    log_q = _C.log(q_safe)
    asymptote = -_C.sqrt(-2 * log_q - _C.log(-2 * log_q) - math.log(2 * math.pi))
    x = _C.where(q_safe < 1e-6, asymptote, estimate)
    for _ in range(4):
        # d/dx log ndtr(x) = pdf(x) / ndtr(x) = exp(log pdf(x) - log ndtr(x)).
        log_cdf = _log_ndtr(x)
        log_pdf = -0.5 * x * x - 0.5 * math.log(2 * math.pi)
        x = x - (log_cdf - log_q) * _C.exp(log_cdf - log_pdf)
    x = _C.where(q == 0.5, _C.zeros_like(x), x)
    x = _C.where(q == 0, _C.full_like(x, -math.inf), x)
    x = _C.where(p > 0.5, -x, x)
    return _C.where((p < 0) | (p > 1) | _C.isnan(p), _C.full_like(x, math.nan), x).to(dtype)


# Past this |x| the Bessel functions take their asymptotic series; below it their power series, of this many terms
# (the terms (x^2/4)^k / (k! (k + nu)!) peak near k = |x| / 2 and fall below 1e-17 of the sum by k = 90).
_BESSEL_SWITCH, _BESSEL_SERIES_TERMS, _BESSEL_ASYMPTOTIC_TERMS = 30.0, 90, 14


def _bessel_scaled(x, nu):
    """exp(-|x|) I_nu(|x|) of a float64 tensor, for nu 0 or 1."""
    ax = _C.abs(x)
    small = _C.minimum(ax, _constant(x, _BESSEL_SWITCH))
    quarter_square = small * small / 4
    term = (small / 2) ** nu
    series = term
    for k in range(1, _BESSEL_SERIES_TERMS):
        term = term * quarter_square / (k * (k + nu))
        series = series + term
    series = series * _C.exp(-small)
    # I_nu(x) ~ e^x / sqrt(2 pi x) * sum_k (-1)^k prod_{j<=k} (4 nu^2 - (2j - 1)^2) / (k! (8x)^k).
    large = _C.maximum(ax, _constant(x, _BESSEL_SWITCH))
    term = _C.ones_like(large)
    asymptotic = term
    for k in range(1, _BESSEL_ASYMPTOTIC_TERMS):
        term = term * (-(4 * nu * nu - (2 * k - 1) ** 2)) / (k * 8 * large)
        asymptotic = asymptotic + term
    asymptotic = asymptotic / _C.sqrt(2 * math.pi * large)
    return _C.where(ax <= _BESSEL_SWITCH, series, asymptotic)


def _odd(x, value):
    """value with x's sign, for the odd function I_1."""
    return _C.where(x < 0, -value, value)


def i0e(input):
    """i0e(input) -> Tensor: exp(-|x|) I_0(x), the exponentially scaled modified Bessel function of order 0."""
    x, dtype = _as_float64("i0e", input)
    return _bessel_scaled(x, 0).to(dtype)


def i0(input):
    """i0(input) -> Tensor: I_0(x), the modified Bessel function of the first kind of order 0."""
    x, dtype = _as_float64("i0", input)
    ax = _C.abs(x)
    return (_bessel_scaled(x, 0) * _C.exp(ax)).to(dtype)  # NaN at +-inf, as PyTorch


def i1e(input):
    """i1e(input) -> Tensor: exp(-|x|) I_1(x), the exponentially scaled modified Bessel function of order 1."""
    x, dtype = _as_float64("i1e", input)
    return _odd(x, _bessel_scaled(x, 1)).to(dtype)


def i1(input):
    """i1(input) -> Tensor: I_1(x), the modified Bessel function of the first kind of order 1."""
    x, dtype = _as_float64("i1", input)
    ax = _C.abs(x)
    return _odd(x, _bessel_scaled(x, 1) * _C.exp(ax)).to(dtype)  # NaN at +-inf, as PyTorch


# Lanczos' approximation with g = 7 and nine coefficients (as in Numerical Recipes and Boost), good to about 1e-15:
# Gamma(z + 1) = sqrt(2 pi) t^(z + 1/2) e^-t A(z), t = z + g + 1/2, A(z) = c0 + sum_i c_i / (z + i).
_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)


def _lgamma_positive(x):
    """log Gamma(x) of a float64 tensor for x >= 1/2 (elsewhere the value is not used)."""
    z = x - 1
    series = _C.full_like(z, _LANCZOS[0])
    for i, c in enumerate(_LANCZOS[1:], 1):
        series = series + c / (z + i)
    t = z + _LANCZOS_G + 0.5
    return 0.5 * math.log(2 * math.pi) + (z + 0.5) * _C.log(t) - t + _C.log(series)


def _zeta(k):
    """Riemann's zeta(k) for an integer k >= 2: the first 1000 terms and Euler-Maclaurin's tail."""
    n = 1000
    return math.fsum(i ** -k for i in range(1, n)) + n ** (1 - k) / (k - 1) + 0.5 * n ** -k + k / 12 * n ** (-k - 1)


# Taylor coefficients of log Gamma(1 + e) = -gamma e + sum_{k>=2} (-1)^k zeta(k) / k e^k, to e^50: used for
# |e| <= 1/2, where the next term is below 1e-17; near its roots 1 and 2 it keeps full relative accuracy.
_LGAMMA_TAYLOR = (-0.5772156649015329,) + tuple((-1) ** k * _zeta(k) / k for k in range(2, 51))


def _lgamma_near_roots(x):
    """log Gamma(x) of a float64 tensor for 1/2 <= x <= 5/2 (elsewhere not used): the Taylor series about 1, and
    about 2 by log Gamma(1 + e + 1) = log Gamma(1 + e) + log1p(e)."""
    shift = _C.where(x > 1.5, _C.ones_like(x), _C.zeros_like(x))
    e = _C.clamp(x - 1 - shift, min=-0.5, max=0.5)
    series = _C.zeros_like(e)
    for c in reversed(_LGAMMA_TAYLOR):
        series = (series + c) * e
    return series + shift * _C.log1p(e)


def _lgamma(x):
    """log |Gamma(x)| of a float64 tensor: Lanczos' approximation from 1/2 up (the Taylor series about the roots 1
    and 2 within 1/2 of them), and by reflection, log Gamma(x) = log(pi / |sin pi x|) - log Gamma(1 - x), below 1/2
    (sin pi x of x less its nearest integer, for precision near the poles); inf at the poles (0 and the negative
    integers) and at +-inf."""
    upper = _C.maximum(x, _constant(x, 0.5))
    lower = _C.minimum(x, _constant(x, 0.5))
    reflected = math.log(math.pi) - _C.log(_C.abs(_C.sin(math.pi * (lower - _C.round(lower))))) \
        - _lgamma_positive(1 - lower)
    value = _C.where(x >= 0.5, _lgamma_positive(upper), reflected)
    value = _C.where((x >= 0.5) & (x <= 2.5), _lgamma_near_roots(x), value)
    pole = ((x <= 0) & (x == _C.floor(x))) | _C.isinf(x)
    return _C.where(pole, _C.full_like(value, math.inf), value)


def gammaln(input):
    """gammaln(input) -> Tensor: log |Gamma(x)|, the natural logarithm of the absolute value of the gamma function."""
    x, dtype = _as_float64("gammaln", input)
    return _lgamma(x).to(dtype)


# digamma and the Hurwitz zeta function are summed by recurrence until the argument passes this, then by series.
_RECURRENCE_LIMIT = 10
# Bernoulli numbers B_2, B_4, ..., B_20 of the asymptotic and Euler-Maclaurin series.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330)


def _digamma(x):
    """psi(x) of a float64 tensor: reflection, psi(x) = psi(1 - x) - pi / tan(pi x), below 1/2; the recurrence
    psi(x) = psi(x + 1) - 1/x up to x >= 10; there log x - 1/(2x) - sum B_2k / (2k x^2k). -inf at 0 (inf at -0) and
    NaN at the negative integers, as PyTorch."""
    lower = _C.minimum(x, _constant(x, 0.5))
    y = _C.where(x < 0.5, 1 - lower, x)
    shift = _C.zeros_like(y)
    for _ in range(_RECURRENCE_LIMIT):
        below = y < _RECURRENCE_LIMIT
        shift = shift + _C.where(below, 1 / y, _C.zeros_like(y))
        y = _C.where(below, y + 1, y)
    inverse_square = 1 / (y * y)
    power, series = _C.ones_like(y), _C.zeros_like(y)
    for k, b in enumerate(_BERNOULLI[:7], 1):
        power = power * inverse_square
        series = series + b / (2 * k) * power
    value = _C.log(y) - 0.5 / y - series - shift
    # tan(pi x) of x less its nearest integer (tan has period pi), so x near an integer keeps its precision.
    value = _C.where(x < 0.5, value - math.pi / _C.tan(math.pi * (lower - _C.round(lower))), value)
    value = _C.where(x == 0, _C.copysign(_C.full_like(value, math.inf), -x), value)  # -inf at 0, inf at -0
    return _C.where((x < 0) & (x == _C.floor(x)), _C.full_like(value, math.nan), value)


def digamma(input):
    """digamma(input) -> Tensor: psi(x), the logarithmic derivative of the gamma function."""
    x, dtype = _as_float64("digamma", input)
    return _digamma(x).to(dtype)


psi = digamma


# The recurrence of the Hurwitz zeta function takes at most this many steps: arguments below -(this - 10) are NaN.
_ZETA_MAX_STEPS = 10000


def _hurwitz_zeta(s, x):
    """zeta(s, x) = sum_k (x + k)^-s of a float64 tensor x off the poles 0, -1, ... and an integer s >= 2: the terms
    summed until x + k >= 10 (as Cephes, negative x too), then Euler-Maclaurin: (x + N)^(1-s) / (s - 1)
    + (x + N)^-s / 2 + sum_j B_2j / (2j)! s (s + 1) ... (s + 2j - 2) (x + N)^(1 - s - 2j)."""
    finite = x[_C.isfinite(x)]
    lowest = finite.min().item() if finite.numel() else 0.0
    steps = min(max(_RECURRENCE_LIMIT, math.ceil(_RECURRENCE_LIMIT - lowest)), _ZETA_MAX_STEPS)
    y, total = x, _C.zeros_like(x)
    for _ in range(steps):
        below = y < _RECURRENCE_LIMIT
        total = total + _C.where(below, y ** -s, _C.zeros_like(y))
        y = _C.where(below, y + 1, y)
    total = total + y ** (1 - s) / (s - 1) + 0.5 * y ** -s
    rising, factorial, power = 1.0, 1.0, y ** (1 - s)
    inverse_square = 1 / (y * y)
    for j, b in enumerate(_BERNOULLI, 1):
        rising *= (s + 2 * j - 2) * (s + 2 * j - 3) if j > 1 else s
        factorial *= (2 * j) * (2 * j - 1)
        power = power * inverse_square
        total = total + b / factorial * rising * power
    return _C.where(y < _RECURRENCE_LIMIT, _C.full_like(total, math.nan), total)


def _trigamma(x):
    """psi'(x) of a float64 tensor, as PyTorch computes it: reflection, psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x),
    below 1/2 (so the poles give large finite values, sin(pi x) not quite vanishing there), zeta(2, x) above."""
    lower = _C.minimum(x, _constant(x, 0.5))
    value = _hurwitz_zeta(2, _C.where(x < 0.5, 1 - lower, x))
    return _C.where(x < 0.5, math.pi ** 2 / _C.sin(math.pi * lower) ** 2 - value, value)


def polygamma(n, input):
    """polygamma(n, input) -> Tensor: the n-th derivative of digamma: trigamma for n = 1, else
    (-1)^(n + 1) n! zeta(n + 1, x), which is (-1)^(n + 1) inf at the poles 0, -1, ...
    (-inf among them) and NaN at inf"""
    n = _int("polygamma", "n", 1, n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    x, dtype = _as_float64("polygamma", input)
    if n == 0:
        return _digamma(x).to(dtype)
    if n == 1:
        return _trigamma(x).to(dtype)
    pole = (x <= 0) & (x == _C.floor(x))
    value = (-1) ** (n + 1) * math.factorial(n) * _hurwitz_zeta(n + 1, _C.where(pole, _C.ones_like(x), x))
    value = _C.where(pole, _C.full_like(value, (-1) ** (n + 1) * math.inf), value)
    return _C.where(x == math.inf, _C.full_like(value, math.nan), value).to(dtype)  # NaN at inf, as PyTorch


def multigammaln(input, p):
    """multigammaln(input, p) -> Tensor: the log of the multivariate gamma function of dimension p,
    p (p - 1) / 4 log pi + sum_{i < p} log Gamma(x - i / 2); every element must exceed (p - 1) / 2."""
    input = _tensor("multigammaln", "input", 1, input)
    p = _int("multigammaln", "p", 2, p)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if not input.is_floating_point():
        raise RuntimeError(f"mvlgamma is not implemented for {input.dtype}")
    if not bool(_C.all(input > (p - 1) / 2)):
        raise RuntimeError("All elements must be greater than (p-1)/2")
    x = input.to(_C.float64).unsqueeze(-1)
    halves = _C.arange(p, dtype=_C.float64, device=input.device) / 2
    value = _lgamma(x - halves).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)
    return value.to(input.dtype)
