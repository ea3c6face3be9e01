"""wick.serialization as type checkers see it (wick/serialization.py): wick.save and wick.load."""
import os
from typing import IO, Any, Dict, Union

from wick._C import device

_File = Union[str, os.PathLike[str], IO[bytes]]
_MapLocation = Union[None, str, device, Dict[str, Union[str, device]]]

def save(obj: Any, f: _File) -> None: ...
def load(f: _File, map_location: _MapLocation = ...) -> Any: ...
