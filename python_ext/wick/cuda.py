"""wick.cuda: whether CUDA devices can be used."""
from wick import _C


def is_available():
    """True when wick was built with CUDA and a CUDA device is present."""
    return bool(_C._cuda_is_available())


def device_count():
    """The number of CUDA devices wick can use."""
    return _C._cuda_device_count()
