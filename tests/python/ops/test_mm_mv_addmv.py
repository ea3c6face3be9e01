"""mm, mv and addmv against NumPy, including the seed's addmv_ example."""
import numpy as np
import pytest

import wick
from reference import assert_close, make, random_values, to_numpy


def test_seed_addmv_examples():
    rng = np.random.default_rng(4)
    mat, vec, x0 = rng.normal(size=(3, 4)), rng.normal(size=4), rng.normal(size=3)
    m, v = wick.tensor(mat.tolist()), wick.tensor(vec.tolist())
    x = wick.tensor(x0.tolist())
    ref_x, ref_m, ref_v = to_numpy(x).astype(np.float64), to_numpy(m).astype(np.float64), to_numpy(v).astype(np.float64)
    assert x.addmv_(m, v) is x
    assert_close(x, ref_x + ref_m @ ref_v, "float32")
    y = wick.tensor(x0.tolist())
    y.addmv_(m, v, beta=2, alpha=0.5)
    assert_close(y, 2 * ref_x + 0.5 * (ref_m @ ref_v), "float32")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "float16", "bfloat16", "uint8"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
def test_mm_matches_numpy(dtype, layout):
    rng = np.random.default_rng(5)
    a = make(random_values(dtype, (5, 7) if layout != "transposed" else (7, 5), rng), dtype)
    b = make(random_values(dtype, (7, 3) if layout != "transposed" else (3, 7), rng), dtype)
    if layout == "transposed":
        a, b = a.t(), b.t()
    elif layout == "sliced":
        a, b = a[:, :6], b[:6]
    ref = to_numpy(a).astype(np.float64) @ to_numpy(b).astype(np.float64)
    out = a.mm(b)
    assert out.dtype is a.dtype and out.shape == ref.shape
    if dtype == "uint8":
        ref = ref.astype(np.int64) % 256
    assert_close(out, ref, dtype)
    assert_close(a @ b, ref, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_mv_matches_numpy(dtype):
    rng = np.random.default_rng(6)
    a = make(random_values(dtype, (4, 6), rng), dtype)
    v = make(random_values(dtype, (6,), rng), dtype)
    ref = to_numpy(a).astype(np.float64) @ to_numpy(v).astype(np.float64)
    assert_close(wick.mv(a, v), ref, dtype)
    assert_close(a @ v, ref, dtype)


def test_out_forms():
    a, b = wick.ones(2, 3), wick.ones(3, 4)
    out = wick.empty(0)
    assert wick.mm(a, b, out=out) is out and out.tolist() == [[3.0] * 4] * 2
    r = wick.empty(0)
    assert wick.addmv(wick.ones(2), a, wick.ones(3), beta=0, out=r) is r and r.tolist() == [3.0, 3.0]


def test_beta_zero_ignores_self():
    x = wick.tensor([float("nan"), 1.0])
    x.addmv_(wick.ones(2, 2), wick.ones(2), beta=0)
    assert x.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("call,exc,match", [
    (lambda: wick.mm(wick.ones(2, 3), wick.ones(2, 3)), RuntimeError, "cannot be multiplied \\(2x3 and 2x3\\)"),
    (lambda: wick.mm(wick.ones(2, 3), wick.ones(3, 2, dtype=wick.float64)), TypeError, "same dtype"),
    (lambda: wick.mm(wick.ones(3), wick.ones(3, 2)), RuntimeError, "2-D"),
    (lambda: wick.mv(wick.ones(2, 3), wick.ones(2)), RuntimeError, "size mismatch"),
    (lambda: wick.ones(4).addmv_(wick.ones(3, 2), wick.ones(2)), RuntimeError, "does not broadcast"),
    (lambda: wick.addmv(wick.ones(2, 3), wick.ones(3, 2), wick.ones(2)), RuntimeError, "does not broadcast"),
    (lambda: wick.ones(3, dtype=wick.int8).addmv_(wick.ones(3, 2, dtype=wick.int8),
                                                 wick.ones(2, dtype=wick.int8), alpha=128), RuntimeError,
     "value cannot be converted to type int8_t without overflow"),
])
def test_linalg_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_empty_inner_dimension_gives_zeros():
    assert wick.mm(wick.ones(2, 0), wick.ones(0, 3)).tolist() == [[0.0] * 3] * 2
