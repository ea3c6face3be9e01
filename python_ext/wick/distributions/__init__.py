"""wick.distributions: probability distributions, as PyTorch's torch.distributions.

    >>> d = wick.distributions.Normal(wick.tensor([0.0]), wick.tensor([1.0]))
    >>> d.log_prob(wick.tensor([0.0]))
    tensor([-0.9189])

Each distribution draws from wick's generator (so wick.manual_seed makes samples reproducible, though not equal to
PyTorch's), computes log_prob, entropy and moments of declared ops (so autograd sees through them), and rsample
draws differentiably where the distribution can be reparameterised.
"""
from wick.distributions import constraints
from wick.distributions.bernoulli import Bernoulli
from wick.distributions.binomial import Binomial
from wick.distributions.categorical import Categorical
from wick.distributions.cauchy import Cauchy
from wick.distributions.dirichlet import Beta, Dirichlet
from wick.distributions.distribution import Distribution
from wick.distributions.exponential import Exponential
from wick.distributions.gamma import Chi2, Gamma
from wick.distributions.geometric import Geometric
from wick.distributions.half_normal import HalfNormal
from wick.distributions.independent import Independent
from wick.distributions.kl import kl_divergence, register_kl
from wick.distributions.laplace import Laplace
from wick.distributions.log_normal import LogNormal
from wick.distributions.multinomial import Multinomial
from wick.distributions.multivariate_normal import MultivariateNormal
from wick.distributions.normal import Normal
from wick.distributions.one_hot_categorical import OneHotCategorical
from wick.distributions.poisson import Poisson
from wick.distributions.studentT import StudentT
from wick.distributions.uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "Independent", "Laplace", "MultivariateNormal",
           "Normal", "Uniform", "constraints", "kl_divergence", "register_kl"]
__all__ += ["Beta", "Binomial", "Cauchy", "Chi2", "Dirichlet", "Gamma", "Geometric", "HalfNormal", "LogNormal",
            "Multinomial", "OneHotCategorical", "Poisson", "StudentT"]
