"""wick.distributions.multivariate_normal: the multivariate normal distribution, as PyTorch's MultivariateNormal."""
import math

from wick import _C, linalg
from wick.distributions import constraints
from wick.distributions.distribution import Distribution
from wick.functional import broadcast_shapes

__all__ = ["MultivariateNormal"]


def _batch_mahalanobis(scale_tril, diff):
    """The squared Mahalanobis distance |L^-1 diff|^2 of each vector diff (..., n), for the Cholesky factor L."""
    shape = broadcast_shapes(scale_tril.shape[:-2], diff.shape[:-1])
    n = diff.size(-1)
    scale_tril = scale_tril.expand(shape + (n, n))
    solved = linalg.solve(scale_tril, diff.expand(shape + (n,)).unsqueeze(-1)).squeeze(-1)
    return solved.pow(2).sum(-1)


class MultivariateNormal(Distribution):
    """MultivariateNormal(loc, covariance_matrix=None, precision_matrix=None, scale_tril=None): mean loc (a vector
    per batch element), covariance given by exactly one of the matrix itself, its inverse or its lower Cholesky
    factor."""
    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [(name, m) for name, m in (("covariance_matrix", covariance_matrix),
                                            ("precision_matrix", precision_matrix), ("scale_tril", scale_tril))
                 if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        name, matrix = given[0]
        if matrix.dim() < 2:
            raise ValueError(f"{name} matrix must be at least two-dimensional, with optional leading batch "
                             "dimensions")
        batch_shape = broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        self.__dict__[name] = matrix.expand(batch_shape + (-1, -1))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = linalg.cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = linalg.cholesky(linalg.inv(matrix))

    # covariance_matrix, precision_matrix and scale_tril: the one given, or computed from the Cholesky factor L.
    @property
    def scale_tril(self):
        if "scale_tril" not in self.__dict__:
            shape = self._batch_shape + self._event_shape * 2
            self.__dict__["scale_tril"] = self._unbroadcasted_scale_tril.expand(shape)
        return self.__dict__["scale_tril"]

    @property
    def covariance_matrix(self):
        if "covariance_matrix" not in self.__dict__:
            scale_tril = self._unbroadcasted_scale_tril
            self.__dict__["covariance_matrix"] = (scale_tril @ scale_tril.transpose(-1, -2)).expand(
                self._batch_shape + self._event_shape * 2)
        return self.__dict__["covariance_matrix"]

    @property
    def precision_matrix(self):
        if "precision_matrix" not in self.__dict__:
            self.__dict__["precision_matrix"] = linalg.inv(self.covariance_matrix)
        return self.__dict__["precision_matrix"]

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = _C.randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        distance = _batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + distance) - self._half_log_det()

    def entropy(self):
        value = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return value.expand(self._batch_shape) if self._batch_shape else value
