"""Types of wick.utils (python_ext/wick/utils/__init__.py)."""
from wick.utils import data as data
