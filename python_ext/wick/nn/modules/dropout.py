"""wick.nn.modules.dropout: Dropout, which zeroes elements at random while the module is training."""
from wick.nn import functional as F
from wick.nn.modules.module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """Dropout(p=0.5, inplace=False)

    In training, zeroes each element with probability p and scales the others by 1 / (1 - p); in eval mode,
    the identity.
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"
