"""wick.nn: neural-network building blocks, as PyTorch's torch.nn: Parameter, the Module classes
(wick.nn.modules), the functions behind them (wick.nn.functional), the initialisations (wick.nn.init) and
gradient clipping (wick.nn.utils)."""
from wick.nn.parameter import Parameter
from wick.nn import functional, init, utils  # noqa: F401  (wick.nn.functional, wick.nn.init, wick.nn.utils)
from wick.nn.modules import *  # noqa: F401,F403
from wick.nn.modules import __all__ as _modules_all

__all__ = ["Parameter", "functional", "init", "utils", *_modules_all]
