"""wick.nn.parameter: Parameter, the tensor a Module registers as one of its learnable weights."""
from wick import _C
from wick._tensor import Tensor


class Parameter(Tensor):
    """Parameter(data=None, requires_grad=True)

    A tensor that a Module registers among its parameters when it is assigned as an attribute. It is a
    leaf over the memory of `data` (an empty tensor if None): writing into either is seen by the other,
    and by autograd, as for data.detach().
    """

    __module__ = "wick.nn"

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _C.empty(0)
        # PyTorch's _make_subclass: a new tensor of class cls over the memory of data, without its history.
        # _legacy_new wraps core's make_tensor (what detach() runs, sharing the version counter) as cls.
        param = _C._legacy_new(cls, data.dtype, data)
        param.requires_grad = requires_grad
        return param

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.detach().clone(), self.requires_grad)
        return memo[id(self)]

    # A pickled tensor keeps its memory, not requires_grad: the parameter is rebuilt from its data.
    def __reduce_ex__(self, protocol):
        return type(self), (self.detach(), self.requires_grad), self.__dict__ or None
