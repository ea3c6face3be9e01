"""wick.nn.utils.convert_parameters: parameters_to_vector and vector_to_parameters, as PyTorch's: the parameters of
a model as one flat vector and back (for optimizers that work on a vector, such as line searches)."""
import wick

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_same_device(param, device):
    """The device of the parameters so far (None before the first); they must all be on one."""
    if device is not None and param.device != device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return param.device


def parameters_to_vector(parameters):
    """parameters_to_vector(parameters) -> Tensor: the parameters, flattened and concatenated in order."""
    device = None
    vec = []
    for param in parameters:
        device = _check_same_device(param, device)
        vec.append(param.view(-1))
    return wick.cat(vec)


def vector_to_parameters(vec, parameters):
    """vector_to_parameters(vec, parameters) -> None

    Makes the data of each parameter, in order, the next numel() elements of `vec` (views of it), in its shape.
    """
    if not isinstance(vec, wick.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_same_device(param, device)
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param


def _typename(obj):
    """torch.typename of a non-tensor: its class, qualified by its module unless a builtin."""
    cls = type(obj)
    module = "" if cls.__module__ in ("builtins", "__builtin__") else cls.__module__ + "."
    return module + cls.__name__
