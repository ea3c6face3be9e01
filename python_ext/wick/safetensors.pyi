"""wick.safetensors as type checkers see it (wick/safetensors.py): wick.save_file and wick.load_file."""
import os
from typing import Dict, Optional, Union

from wick._C import TensorBase, device
from wick._tensor import Tensor

def save_file(tensors: Dict[str, TensorBase], filename: Union[str, os.PathLike[str]],
              metadata: Optional[Dict[str, str]] = ...) -> None: ...
def load_file(filename: Union[str, os.PathLike[str]], device: Union[str, device, int] = ...) -> Dict[str, Tensor]: ...
