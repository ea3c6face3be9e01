"""wick.printing: set_printoptions, how repr() lays tensors out, as torch.set_printoptions.

    >>> wick.set_printoptions(precision=2)
    >>> wick.tensor([1.2345])
    tensor([1.23])
    >>> wick.set_printoptions(profile="default")

The options live in the core (core/src/tensor_print.cpp), so that C++'s << prints as repr() does.
"""
import operator

from wick import _C

__all__ = ["set_printoptions"]

# PyTorch's profiles: (precision, threshold, edgeitems, linewidth).
_PROFILES = {"default": (4, 1000.0, 3, 80), "short": (2, 1000.0, 2, 80), "full": (4, float("inf"), 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
    sci_mode=None) -> None: the digits after the point (4), the number of elements above which a tensor is
    summarised (1000), the elements kept at each end of a summarised dim (3), the characters per line (80),
    a profile that sets those four first ("default", "short" or "full"), and scientific notation forced on
    (True) or off (False), or chosen by the values (None). Options left None keep their value, but sci_mode,
    which is always set, as in PyTorch."""
    if profile is not None and not isinstance(profile, str):
        raise TypeError(f"set_printoptions(): profile must be a str, not {type(profile).__name__}")
    options = list(_PROFILES[profile] if profile in _PROFILES else _C._get_printoptions()[:4])
    for i, (name, value) in enumerate((("precision", precision), ("threshold", threshold),
                                       ("edgeitems", edgeitems), ("linewidth", linewidth))):
        if value is None:
            continue
        number = "__float__" if name == "threshold" else "__index__"
        if isinstance(value, bool) or not hasattr(type(value), number):
            raise TypeError(f"set_printoptions(): {name} must be a number, not {type(value).__name__}")
        options[i] = float(value) if name == "threshold" else operator.index(value)
    if sci_mode is not None and not isinstance(sci_mode, bool):
        raise TypeError(f"set_printoptions(): sci_mode must be True, False or None, not {type(sci_mode).__name__}")
    _C._set_printoptions(*options, sci_mode)
