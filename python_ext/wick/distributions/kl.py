"""wick.distributions.kl: Kullback-Leibler divergences between distributions, as PyTorch's
torch.distributions.kl: kl_divergence looks up the function registered for the two types."""
import math

from wick import _C
from wick.distributions.binomial import Binomial
from wick.distributions.categorical import Categorical
from wick.distributions.cauchy import Cauchy
from wick.distributions.dirichlet import Beta, Dirichlet
from wick.distributions.exponential import Exponential
from wick.distributions.gamma import Gamma
from wick.distributions.geometric import Geometric
from wick.distributions.half_normal import HalfNormal
from wick.distributions.log_normal import LogNormal
from wick.distributions.normal import Normal
from wick.distributions.one_hot_categorical import OneHotCategorical
from wick.distributions.poisson import Poisson
from wick.special import digamma, gammaln

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY = {}


def register_kl(type_p, type_q):
    """Decorator registering fn(p, q) as KL(p || q) for p of type_p and q of type_q."""
    def decorator(fn):
        _KL_REGISTRY[type_p, type_q] = fn
        return fn
    return decorator


def _lookup(type_p, type_q):
    """The function registered for the closest pair of base classes (by method resolution order)."""
    for base_p in type_p.__mro__:
        for base_q in type_q.__mro__:
            if (base_p, base_q) in _KL_REGISTRY:
                return _KL_REGISTRY[base_p, base_q]
    return None


def kl_divergence(p, q):
    """KL(p || q) = E_p[log p(x) - log q(x)], one value per batch element."""
    fn = _lookup(type(p), type(q))
    if fn is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                                  f"{type(q).__name__}")
    return fn(p, q)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    # sum p (log p - log q): inf where q has no mass and p has, 0 where p has none.
    t = p.probs * (p.logits - q.logits)
    t = _C.where((q.probs == 0).expand_as(t), _C.full_like(t, float("inf")), t)
    t = _C.where((p.probs == 0).expand_as(t), _C.zeros_like(t), t)
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(HalfNormal, HalfNormal)
@register_kl(LogNormal, LogNormal)
def _kl_of_base_distributions(p, q):
    # Both are one invertible map of their normals, and KL is invariant under it.
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = gammaln(q.concentration) - gammaln(p.concentration)
    t3 = (p.concentration - q.concentration) * digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    euler_gamma = 0.57721566490153286060
    ratio = q.rate / p.rate
    t1 = -q.concentration * ratio.log()
    return t1 + ratio + gammaln(q.concentration) + q.concentration * euler_gamma - (1 + euler_gamma)


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    p_total, q_total = p.concentration.sum(-1), q.concentration.sum(-1)
    t1 = gammaln(p_total) - gammaln(q_total)
    t2 = (gammaln(p.concentration) - gammaln(q.concentration)).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = digamma(p.concentration) - digamma(p_total).unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    return _kl_dirichlet_dirichlet(p._dirichlet, q._dirichlet)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - _C.log1p(-q.probs) / p.probs - q.logits


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    # Infinite where p can count past q's total_count; q with more trials than p is not handled (as PyTorch).
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    return _C.where(p.total_count > q.total_count, math.inf, kl)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2
