"""How much memory this process holds, for the tests that look for leaks: a number that grows by at least
the size of whatever a leak leaves behind.

The resident set (/proc/self/statm) does not: memory that the process freed earlier stays resident, in
malloc's heap and in CPython's arenas, and a leak fills it first without a page more. So the allocators
are asked instead. Normally: the bytes that malloc has handed out and not had back (glibc's mallinfo2), plus
the blocks of CPython's small-object allocator in use, counted at 32 bytes each (a float's block; blocks hold
16 to 512 bytes). Under AddressSanitizer (scripts/sanitize), whose allocator serves every allocation, Python
objects included since PYTHONMALLOC=malloc there: the bytes it has handed out and not had back.
"""
import ctypes
import gc
import os
import sys


def _sanitizer_counter():
    """ASan's count of live bytes, where its allocator serves every allocation; else None."""
    if os.environ.get("PYTHONMALLOC") != "malloc":
        return None
    counter = getattr(ctypes.CDLL(None), "__sanitizer_get_current_allocated_bytes", None)
    if counter is not None:
        counter.restype = ctypes.c_size_t
    return counter


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


sanitizer_bytes_in_use = _sanitizer_counter()
_mallinfo2 = ctypes.CDLL(None).mallinfo2
_mallinfo2.restype = _Mallinfo2
SMALL_BLOCK = 32


def memory_held():
    """Bytes in use after a full collection, as the allocators count them."""
    gc.collect()
    if sanitizer_bytes_in_use is not None:
        return sanitizer_bytes_in_use()
    info = _mallinfo2()  # the main arena, where this thread allocates, and blocks of their own (mmap)
    return info.uordblks + info.hblkhd + SMALL_BLOCK * sys.getallocatedblocks()
