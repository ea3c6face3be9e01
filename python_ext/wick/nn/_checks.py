"""wick.nn._checks: PyTorch's TypeError for an argument of a torch.nn.functional function that must be a Tensor
(without it, a number or a list there fails later with an AttributeError)."""
from wick import _C


def check_tensors(name, *arguments, optional=()):
    """Raise TypeError unless each argument, a (parameter name, value) pair in positional order, is a Tensor (or
    None, for the parameters named in `optional`)."""
    for position, (parameter, value) in enumerate(arguments, 1):
        if not isinstance(value, _C.TensorBase) and not (value is None and parameter in optional):
            raise TypeError(f"{name}(): argument '{parameter}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")
