"""wick.nn.utils: what training loops use besides modules (gradient clipping, parameters as one vector, padding of
sequences), as torch.nn.utils."""
from wick.nn.utils import rnn  # noqa: F401  (wick.nn.utils.rnn)
from wick.nn.utils.clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_
from wick.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters",
           "rnn"]
