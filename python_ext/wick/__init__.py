"""Wick: a tensor library whose Python bindings are generated from YAML declarations.

    >>> import wick
    >>> x = wick.FloatTensor(10).fill_(1)
    >>> x.add_(1) is x
    True
"""
from wick import _C
from wick._C import (  # noqa: F401  (re-exported)
    bfloat16, bool, device, dtype, float16, float32, float64, int8, int16, int32, int64, uint8,
)
from wick._names import FUNCTIONS as _FUNCTIONS
from wick._tensor import Tensor
from wick._C import __version__, from_dlpack, from_numpy, get_num_threads, set_num_threads
from wick._C import Size, channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format
from wick.serialization import load, save
from wick.functional import (atleast_1d, atleast_2d, atleast_3d, broadcast_shapes, broadcast_tensors,
                             broadcast_to, is_complex, is_floating_point, is_tensor, meshgrid)
from wick.type_info import *  # noqa: F401,F403
from wick.shape_functions import *  # noqa: F401,F403
from wick.index_functions import *  # noqa: F401,F403
from wick.reduction_functions import *  # noqa: F401,F403
from wick.scan_functions import *  # noqa: F401,F403
from wick.search_functions import *  # noqa: F401,F403
from wick.contractions import *  # noqa: F401,F403
from wick.sampling import *  # noqa: F401,F403
from wick.pointwise_functions import *  # noqa: F401,F403
from wick.creation_functions import *  # noqa: F401,F403
from wick.printing import set_printoptions  # noqa: F401
from wick import type_info as _type_info, shape_functions as _shape_functions, index_functions as _index_functions
from wick import reduction_functions as _reduction_functions, contractions as _contractions
from wick import scan_functions as _scan_functions, search_functions as _search_functions
from wick import sampling as _sampling, pointwise_functions as _pointwise_functions
from wick import creation_functions as _creation_functions, storage as _storage
from wick.safetensors import load_file, save_file
from wick.autograd import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                           set_grad_enabled)
from wick._legacy import *  # noqa: F401,F403  (FloatTensor, LongTensor, ...)
from wick.storage import *  # noqa: F401,F403  (UntypedStorage, TypedStorage, FloatStorage, ...)
from wick import autograd, backends, cuda  # noqa: F401
from wick import linalg, nn, optim  # noqa: F401
from wick import utils  # noqa: F401
from wick import return_types  # noqa: F401
from wick import distributions, special  # noqa: F401
from wick.integration_functions import *  # noqa: F401,F403
from wick import integration_functions as _integration_functions
# torch.special's functions PyTorch also has at the top level, under these names.
lgamma, digamma, polygamma, i0 = special.gammaln, special.digamma, special.polygamma, special.i0
mvlgamma = special.multigammaln

# Every declared function (declarations/*.yaml with `variants: [function]`).
for _name in _FUNCTIONS:
    globals()[_name] = getattr(_C, _name)
del _name

# PyTorch's aliases.
half, float, double = float16, float32, float64
short, int, long = int16, int32, int64

__all__ = ["Tensor", "dtype", "device", "from_dlpack", "from_numpy", "get_num_threads", "set_num_threads",
           "save", "load", "save_file", "load_file", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "inference_mode", "is_inference_mode_enabled", "is_tensor", "is_floating_point", "is_complex",
           "broadcast_shapes", "broadcast_tensors", "broadcast_to", "atleast_1d", "atleast_2d", "atleast_3d",
           "meshgrid", "set_printoptions", "memory_format", "contiguous_format", "preserve_format", "channels_last",
           "channels_last_3d", "Size",
           *_type_info.__all__, *_shape_functions.__all__, *_index_functions.__all__, *_reduction_functions.__all__,
           *_scan_functions.__all__, *_search_functions.__all__, *_contractions.__all__,
           *_sampling.__all__, *_pointwise_functions.__all__,
           *_creation_functions.__all__, *_storage.__all__,
           *_integration_functions.__all__,
           *_FUNCTIONS]
__all__ += ["lgamma", "digamma", "polygamma", "i0", "mvlgamma"]  # from wick.special
