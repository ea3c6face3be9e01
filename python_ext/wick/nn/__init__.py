"""wick.nn: neural-network building blocks, as PyTorch's torch.nn: Parameter, the Module classes
(wick.nn.modules), the functions behind them (wick.nn.functional) and the initialisations (wick.nn.init)."""
from wick.nn.parameter import Parameter
from wick.nn import functional, init  # noqa: F401  (wick.nn.functional, wick.nn.init)
from wick.nn.modules import *  # noqa: F401,F403
from wick.nn.modules import __all__ as _modules_all

__all__ = ["Parameter", "functional", "init", *_modules_all]
