"""PyTorch as the reference for a call: what wick raises or returns against what PyTorch does.

Each test passes `call(lib)`, run once with lib = wick and once with lib = torch; the
tests that import this skip where PyTorch is not installed."""
import pytest

import wick


def outcome(lib, call):
    """What `call(lib)` gives: ("raises", type name, message) or ("returns", dtype name, values)."""
    try:
        result = call(lib)
    except Exception as e:  # noqa: BLE001 (the kind and words are what is compared)
        return "raises", type(e).__name__, str(e)
    if isinstance(result, tuple):  # (values, indices) and the like
        return "returns", tuple(str(r.dtype).split(".")[1] for r in result), tuple(r.tolist() for r in result)
    return "returns", str(result.dtype).split(".")[1], result.tolist()


def assert_as_torch(torch, call, exact=True):
    """wick raises what PyTorch raises, with its words, or returns its dtype and values. Not
    `exact`: the kind of outcome alone (16-bit float arithmetic rounds in another order there).
    Returns whether there was anything to compare: False where PyTorch 1.13 has no CPU kernel."""
    got, want = outcome(wick, call), outcome(torch, call)
    if want[0] == "raises" and "not implemented for" in want[2]:
        return False
    assert got[:2] == want[:2], f"wick {got}, PyTorch {want}"
    if exact and want[0] == "raises":
        # wick names the op first, and itself where PyTorch names torch.
        assert want[2].replace("torch.", "wick.") in got[2], f"wick says {got[2]!r}, PyTorch {want[2]!r}"
    elif exact:
        assert repr(got[2]) == repr(want[2])  # NaN in the same places, -0.0 as -0.0
    return True


def skip_unless_compared(compared):
    """For a test whose every call met a dtype PyTorch 1.13 has no CPU kernel for."""
    if not any(compared):
        pytest.skip("PyTorch 1.13 has no CPU kernel for these calls")
