"""wick.distributions.kl: Kullback-Leibler divergences between distributions, as PyTorch's
torch.distributions.kl: kl_divergence looks up the function registered for the two types."""
from wick import _C
from wick.distributions.categorical import Categorical
from wick.distributions.normal import Normal

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
