"""wick.backends: what wick's backends were built for and run with, as torch.backends."""
from wick.backends import cpu  # noqa: F401
