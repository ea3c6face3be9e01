"""wick.printing as type checkers see it (wick/printing.py)."""
from typing import List, Optional

__all__: List[str]

def set_printoptions(precision: Optional[int] = ..., threshold: Optional[float] = ..., edgeitems: Optional[int] = ...,
                     linewidth: Optional[int] = ..., profile: Optional[str] = ...,
                     sci_mode: Optional[bool] = ...) -> None: ...
