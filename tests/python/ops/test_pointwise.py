"""PyTorch's rules for pointwise ops: true division, aliasing, operators, integer wraparound, alpha, clamp
(promotion: dtypes/test_promotion.py)."""
import math

import pytest

import wick


def test_integer_division_is_true_division():
    r = wick.tensor([1, 2, 3]) / 2
    assert r.dtype is wick.float32 and r.tolist() == [0.5, 1.0, 1.5]
    assert (wick.tensor([1.0]) / 0).tolist() == [math.inf]
    assert (3 / wick.tensor([2])).tolist() == [1.5]


def test_in_place_on_overlapping_views_reads_the_original_values():
    t = wick.arange(6)
    t[1:].add_(t[:-1])
    assert t.tolist() == [0, 1, 3, 5, 7, 9]
    u = wick.arange(4, dtype=wick.float32)
    u.add_(u)
    assert u.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_operators_and_reflected_forms():
    x = wick.tensor([1.0, 2.0])
    assert (x + 1).tolist() == [2.0, 3.0] and (1 + x).tolist() == [2.0, 3.0]
    assert (x - 1).tolist() == [0.0, 1.0] and (1 - x).tolist() == [0.0, -1.0]
    assert (x * 3).tolist() == [3.0, 6.0] and (3 * x).tolist() == [3.0, 6.0]
    assert (x / 2).tolist() == [0.5, 1.0] and (2 / x).tolist() == [2.0, 1.0]
    assert (-x).tolist() == [-1.0, -2.0] and abs(-x).tolist() == [1.0, 2.0]
    assert (x == 1).tolist() == [True, False] and (x != 1).tolist() == [False, True]
    assert (x < 2).tolist() == [True, False] and (x > 1).tolist() == [False, True]
    y = x
    y += 1
    assert y is x and x.tolist() == [2.0, 3.0]
    y *= 2
    y -= 1
    y /= 3
    assert y is x and x.tolist() == pytest.approx([1.0, 5.0 / 3.0], rel=1e-7)
    assert bool(wick.tensor([1])) and float(wick.tensor(2.5)) == 2.5 and int(wick.tensor(7)) == 7
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(x)


def test_operators_at_the_edges_of_the_protocol():
    np = pytest.importorskip("numpy")
    x = wick.tensor([1.0, 2.0])
    assert (x == None) is False and (x != None) is True  # noqa: E711 (the operator is what is tested)
    assert x in [None, x] and {x: 1}[x] == 1 and hash(x) != hash(wick.tensor([1.0, 2.0]))
    left = np.float32(2) + x  # NumPy defers to the tensor (__array_priority__)
    assert isinstance(left, wick.Tensor) and left.tolist() == [3.0, 4.0]
    assert ([1.0, 1.0] @ x).item() == 3.0 and (x @ x).item() == 5.0
    assert (+x) is x
    with pytest.raises(TypeError, match="3rd argument"):
        pow(x, 2, 3)
    with pytest.raises(TypeError, match="add"):
        x + "a"
    z = x
    z @= x  # no in-place matmul: Python falls back to z = z @ x
    assert z is not x and z.item() == 5.0


def test_integer_wraparound_matches_two_complement():
    assert (wick.tensor([127], dtype=wick.int8) + 1).tolist() == [-128]
    assert (-wick.tensor([1], dtype=wick.uint8)).tolist() == [255]


def test_alpha_reaches_the_kernel():
    assert wick.sub(wick.tensor([10]), wick.tensor([3]), alpha=2).tolist() == [4]
    assert wick.tensor([1.0]).add(2, alpha=0.5).tolist() == [2.0]


def test_every_python_operator_matches_numpy():
    np = pytest.importorskip("numpy")
    a = np.array([[-7, -2, 3], [4, 9, 5]])
    b = np.array([[2, 3, -4], [1, 2, 3]])
    x, y = wick.tensor(a.tolist()), wick.tensor(b.tolist())
    cases = [
        (x + y, a + b), (x - y, a - b), (x * y, a * b), (x // y, a // b), (x % y, a % b), (x & y, a & b),
        (x | y, a | b), (x ^ y, a ^ b), (~x, ~a), (-x, -a), (+x, a), (abs(x), abs(a)), (x << 2, a << 2),
        (x >> 1, a >> 1), (x ** 2, a ** 2), (x <= y, a <= b), (x >= y, a >= b), (x != y, a != b),
        (7 // y, 7 // b), (7 % y, 7 % b), (2 ** abs(y), 2 ** abs(b)), (5 - x, 5 - a), (1 << abs(y), 1 << abs(b)),
    ]
    for got, want in cases:
        assert got.tolist() == want.tolist()
    z = wick.tensor([5, 6])
    z //= 2
    z %= 2
    z **= 3
    z <<= 1
    z |= 4
    assert z.tolist() == [4, 6]


def test_integer_division_by_zero_raises():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        wick.tensor([1, 2]) // wick.tensor([1, 0])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        wick.tensor([1, 2]) % 0
    assert (wick.tensor([1.0]) // 0).tolist() == [float("inf")]


@pytest.mark.parametrize("dtype", [wick.int32, wick.float32, wick.float64, wick.uint8])
def test_clamp_matches_numpy_clip(dtype):
    np = pytest.importorskip("numpy")
    a = np.array([[0, 3, 7], [9, 2, 5]])
    x = wick.tensor(a.tolist(), dtype=dtype)
    assert x.clamp(2, 6).tolist() == np.clip(a, 2, 6).tolist()
    assert wick.clamp(x, min=4).tolist() == np.maximum(a, 4).tolist()
    assert x.clamp(max=4).tolist() == np.minimum(a, 4).tolist()
    assert x.clamp(6, 2).tolist() == np.full_like(a, 2).tolist()  # min > max: max wins
    lo, hi = wick.tensor([1, 4, 6], dtype=dtype), wick.tensor([[2], [8]], dtype=dtype)
    assert x.clamp(lo, hi).tolist() == np.minimum(np.maximum(a, [1, 4, 6]), [[2], [8]]).tolist()
    y = x.clone()
    assert y.clamp_(3, 5) is y and y.tolist() == np.clip(a, 3, 5).tolist()
    out = wick.empty(0, dtype=dtype)
    assert wick.clamp(x, 1, 2, out=out) is out and out.tolist() == np.clip(a, 1, 2).tolist()
    with pytest.raises(ValueError, match="at least one of 'min' or 'max'"):
        x.clamp()


def test_clamp_keeps_nan():
    import math

    assert math.isnan(wick.tensor([math.nan, 5.0]).clamp(0, 1).tolist()[0])
