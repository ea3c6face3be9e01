"""The CPU kernels' fast paths against NumPy: tensors above the parallel threshold, unaligned and
strided data, Python numbers as operands, 16-bit conversions in bulk, long accurate sums, and results
that do not depend on the thread count."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import wick
from reference import assert_close, to_numpy

LARGE = 200_003  # several parallel ranges (wick/cpu/parallel.h), and no multiple of a vector width


def rng(seed=0):
    return np.random.default_rng(seed)


def as_wick(a, dtype=None):
    return wick.from_numpy(np.ascontiguousarray(a)) if dtype is None else wick.from_numpy(a).to(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("op, ref", [
    ("exp", np.exp), ("log", np.log), ("tanh", np.tanh), ("sqrt", np.sqrt), ("sin", np.sin),
    ("sigmoid", lambda a: 1 / (1 + np.exp(-a))), ("floor", np.floor), ("abs", np.abs),
])
def test_unary_math_on_large_tensors(op, ref, dtype):
    a = rng().uniform(0.01, 4.0, LARGE)
    x = as_wick(a.astype(np.float32), getattr(wick, dtype))
    values = to_numpy(x.float()).astype(np.float64)  # what the 16-bit formats hold
    assert_close(getattr(wick, op)(x), ref(values), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "int8", "float16"])
def test_binary_ops_on_large_tensors(dtype):
    r = rng(1)
    a, b = r.integers(-50, 50, LARGE), r.integers(1, 50, LARGE)
    x, y = as_wick(a).to(getattr(wick, dtype)), as_wick(b).to(getattr(wick, dtype))
    assert_close(x + y, a + b, dtype)
    assert_close(x * y, a * b if dtype != "int8" else (a * b).astype(np.int8), dtype)
    assert_close(wick.maximum(x, y), np.maximum(a, b), dtype)
    assert_close(x // y, a // b, dtype)
    np.testing.assert_array_equal(to_numpy(x < y), a < b)
    np.testing.assert_array_equal(to_numpy(wick.where(x < y, x, y)), np.where(a < b, a, b))


@pytest.mark.parametrize("offset, length", [(1, 1001), (3, 17), (5, 64), (7, LARGE), (2, 1)])
def test_unaligned_offsets_and_odd_lengths(offset, length):
    base = rng(2).uniform(-3, 3, length + 16).astype(np.float32)
    x = as_wick(base)[offset:offset + length]  # a view starting off the allocation's alignment
    a = base[offset:offset + length]
    assert_close(wick.exp(x), np.exp(a.astype(np.float64)), "float32")
    assert_close(x * 2.5 + x, a * 2.5 + a, "float32")
    assert_close(wick.atan2(x, x + 1), np.arctan2(a, a + 1).astype(np.float64), "float32")
    np.testing.assert_array_equal(to_numpy(wick.isnan(x)), np.isnan(a))


def test_strided_and_broadcast_operands():
    r = rng(3)
    a = r.uniform(-2, 2, (600, 700)).astype(np.float32)
    b = r.uniform(-2, 2, (700,)).astype(np.float32)
    c = r.uniform(-2, 2, (600, 1)).astype(np.float32)
    x, y, z = as_wick(a), as_wick(b), as_wick(c)
    assert_close(wick.tanh(x.t()), np.tanh(a.T.astype(np.float64)), "float32")
    assert_close(wick.exp(x[::3, ::2]), np.exp(a[::3, ::2].astype(np.float64)), "float32")
    assert_close(x + y, a + b, "float32")
    assert_close(x * z - y, a * c - b, "float32")
    assert_close(wick.addcmul(x.t(), z.t(), y.view(700, 1), value=0.5), a.T + 0.5 * c.T * b.reshape(700, 1),
                 "float32")
    out = wick.empty(700, 600)
    wick.mul(x.t(), 3.0, out=out)
    assert_close(out, a.T * 3, "float32")
    strided_out = wick.zeros(600, 1400)[:, ::2]  # a strided output
    wick.sigmoid(x, out=strided_out)
    assert_close(strided_out, 1 / (1 + np.exp(-a.astype(np.float64))), "float32")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16", "bfloat16"])
def test_python_numbers_as_operands(dtype):
    a = rng(4).integers(-20, 20, LARGE)
    x = as_wick(a).to(getattr(wick, dtype))
    values = to_numpy(x.double())
    assert_close(x + 3, values + 3, dtype)
    assert_close(wick.add(x, 2, alpha=3), values + 6, dtype)
    assert_close(x.mul(2), values * 2, dtype)
    assert_close(wick.clamp_min(x, 0), np.maximum(values, 0), dtype)
    np.testing.assert_array_equal(to_numpy(x >= 1), values >= 1)
    y = x.clone()
    y.sub_(4)
    assert_close(y, values - 4, dtype)


def test_integer_division_by_zero_raises_from_a_parallel_range():
    x = wick.ones(LARGE, dtype=wick.int32)
    y = wick.ones(LARGE, dtype=wick.int32)
    y[150_000] = 0  # in a range no thread but a worker may take
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        x // y


# --- 16-bit conversions in bulk ---------------------------------------------------------------------

def float32_samples():
    r = rng(5)
    values = np.concatenate([
        r.uniform(-70000, 70000, 100_000), r.standard_normal(100_000) * 1e-5,  # overflow and subnormals
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 65504, 65520, 65519.99, 6e-8, 3e-8, 2.98e-8, 1e-45]])
    return values.astype(np.float32)


def test_float16_conversion_in_bulk_matches_numpy_bit_for_bit():
    a = float32_samples()
    h = as_wick(a).half()
    with np.errstate(over="ignore"):
        want = a.astype(np.float16)
    bits_got = np.asarray(h).view(np.uint16)
    nan = np.isnan(want)
    np.testing.assert_array_equal(bits_got[~nan], want.view(np.uint16)[~nan])
    assert np.isnan(np.asarray(h)[nan]).all()
    # And back, exactly, and through float64 and integers.
    np.testing.assert_array_equal(np.asarray(h.float()), want.astype(np.float32))
    np.testing.assert_array_equal(np.asarray(h.double()), want.astype(np.float64))
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.asarray(h.long())[finite], want[finite].astype(np.int64))


def test_bfloat16_conversion_in_bulk_matches_pytorch_bit_for_bit():
    a = float32_samples()
    got = as_wick(a).bfloat16()
    want = torch.from_numpy(a).bfloat16()
    # bfloat16 widens to float32 exactly: equal float32 bits are equal bfloat16 bits.
    got_values = np.asarray(got.float())
    want_values = want.float().numpy()
    nan = np.isnan(want_values)
    np.testing.assert_array_equal(got_values[~nan].view(np.uint32), want_values[~nan].view(np.uint32))
    assert np.isnan(got_values[nan]).all()
    np.testing.assert_array_equal(np.asarray(as_wick(a.astype(np.float64)).bfloat16().float())[~nan],
                                  want_values[~nan])


# --- reductions -------------------------------------------------------------------------------------

def test_float32_sum_of_16m_elements_is_accurate():
    # Blocks of float additions, at most 3 roundings of 2^-24 per element, summed pairwise in double
    # (Note [Deterministic reductions]); then one rounding to float32. A running float sum of 16M
    # elements has 16M roundings, and loses everything below 2^-24 of the total.
    def bound(a, total):
        return 3 * 2.0**-24 * np.abs(a.astype(np.float64)).sum() + 0.5 * np.spacing(np.float32(abs(total)))

    a = rng(6).random(16 * 2**20, dtype=np.float32)
    exact = a.astype(np.float64).sum()
    assert abs(as_wick(a).sum().item() - exact) <= bound(a, exact)
    # Values of many magnitudes and signs.
    b = (rng(7).standard_normal(16 * 2**20) * np.exp(rng(8).uniform(-20, 20, 16 * 2**20))).astype(np.float32)
    exact = b.astype(np.float64).sum()
    assert abs(as_wick(b).sum().item() - exact) <= bound(b, exact)
    assert abs(as_wick(b).mean().item() - exact / b.size) <= bound(b, exact) / b.size + np.spacing(
        np.float32(abs(exact / b.size)))
    # Ones, fewer than 2^24 of them: every partial sum is exact.
    assert as_wick(np.ones(2**24 - 3, dtype=np.float32)).sum().item() == 2**24 - 3


def test_float64_sum_of_16m_elements_is_accurate():
    a = rng(9).standard_normal(16 * 2**20)
    exact = float(np.sum(a.astype(np.longdouble)))
    # Blocked and pairwise: the error bound of about 150 roundings, where a running sum has 16M.
    assert abs(as_wick(a).sum().item() - exact) <= 150 * 2.0**-53 * np.abs(a).sum()


@pytest.mark.parametrize("shape, dims", [((4099, 300), [0]), ((300, 4099), [1]), ((40, 50, 60), [0, 2]),
                                         ((5, 3000, 7), [1]), ((9000, 2), [0])])
def test_sums_along_dims_of_large_tensors(shape, dims):
    a = rng(10).uniform(-1, 1, shape).astype(np.float32)
    x = as_wick(a)
    want = a.astype(np.float64).sum(axis=tuple(dims))
    assert_close(x.sum(dims), want, "float32")
    assert_close(x.mean(dims), a.astype(np.float64).mean(axis=tuple(dims)), "float32")
    assert_close(wick.amax(x, dims), a.max(axis=tuple(dims)), "float32")
    assert_close(x.var(dims), a.astype(np.float64).var(axis=tuple(dims), ddof=1), "float32")
    assert_close(wick.logsumexp(x, dims), np.log(np.exp(a.astype(np.float64)).sum(axis=tuple(dims))), "float32")
    assert_close(x.norm(2, dims), np.sqrt((a.astype(np.float64) ** 2).sum(axis=tuple(dims))), "float32")
    # The same reduction of a permuted (non-contiguous) view.
    order = list(range(len(shape)))[::-1]
    assert_close(x.permute(*order).sum([order.index(d) for d in dims]), want.T, "float32")


def test_extremes_across_chunk_boundaries():
    a = np.zeros(3 * 4096 * 5 + 11, dtype=np.float32)
    a[5000] = a[40000] = 7.0  # a tie: the first position wins
    x = as_wick(a)
    assert x.argmax().item() == 5000
    assert x.max().item() == 7.0
    a[60000] = np.nan  # in a later chunk: NaN still wins, at its position
    x = as_wick(a)
    assert np.isnan(x.max().item()) and x.argmax().item() == 60000
    b = -np.arange(50000, dtype=np.float32)
    b[45000] = -np.inf
    assert as_wick(b).argmin().item() == 45000
    assert as_wick(b).amin().item() == -np.inf


def test_logsumexp_with_infinities_in_large_groups():
    a = np.full((2, 50000), -np.inf, dtype=np.float32)
    a[1, 30000] = np.inf
    got = np.asarray(wick.logsumexp(as_wick(a), [1]))
    assert got[0] == -np.inf and got[1] == np.inf


def test_all_and_any_of_large_tensors():
    a = np.ones(LARGE, dtype=bool)
    assert wick.all(as_wick(a)).item()
    a[LARGE - 3] = False
    assert not wick.all(as_wick(a)).item()
    assert wick.any(as_wick(~a)).item() and not wick.any(as_wick(np.zeros(LARGE, dtype=bool))).item()


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32"])
def test_all_and_any_see_the_one_element_that_decides_in_every_chunk(dtype):
    # The partial results of neighbouring chunks, computed by different threads, are kept apart
    # (a vector<bool> of them would share words); NaN counts as true.
    n = 1 << 20
    for where in (0, 4095, 4096, n // 2 + 1, n - 1):
        a = np.ones(n, dtype=dtype) if dtype != "float32" else np.full(n, np.nan, dtype)
        a[where] = 0
        assert not wick.all(as_wick(a)).item(), where
        assert wick.any(as_wick(a == 0)).item(), where
        assert wick.all(as_wick(a).view(1024, 1024), 1).numpy().tolist() == a.reshape(1024, 1024).all(1).tolist()


def test_scans_of_many_lines():
    a = rng(11).uniform(0.5, 1.5, (3000, 40)).astype(np.float32)
    assert_close(wick.cumsum(as_wick(a), 1), np.cumsum(a.astype(np.float64), 1), "float32")
    assert_close(wick.cumsum(as_wick(a), 0), np.cumsum(a.astype(np.float64), 0), "float32")
    assert_close(wick.cumprod(as_wick(a[:, :10]), 1), np.cumprod(a[:, :10].astype(np.float64), 1), "float32")


# --- results do not depend on the thread count ----------------------------------------------------

SCRIPT = r"""
import sys, numpy as np, wick
a = np.random.default_rng(12).standard_normal((1500, 1111)).astype(np.float32)
x = wick.from_numpy(a)
outs = [x.sum(), x.sum([0]), x.sum([1]), wick.exp(x), wick.tanh(x.t()), x.var(), wick.logsumexp(x, [0]),
        x.norm(), x.argmax(), wick.cumsum(x, 0), x.double().sum(), x.half().sum(), x < x[:, :1], x[:, 1::2] >= 0]
wick.manual_seed(4)
outs += [wick.randn(300_001), wick.randn(70_000, dtype=wick.bfloat16).float(), wick.rand(5)]
sys.stdout.buffer.write(b"".join(np.ascontiguousarray(np.asarray(o)).tobytes() for o in outs))
"""


def test_results_do_not_depend_on_the_thread_count():
    def run(threads):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        return subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, check=True).stdout

    one = run(1)
    assert one == run(2)
    assert one == run(3)


# --- vectorised expressions that combine several functions ----------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_floor_divide_and_remainder_of_floats(dtype):
    r = rng(13)
    a = np.concatenate([r.uniform(-50, 50, 5000), [0.0, -0.0, 7.0, -7.0, np.inf, -np.inf, np.nan, 5.0, 1e-30]])
    b = np.concatenate([r.uniform(-5, 5, 5000), [3.0, 3.0, -2.0, 2.0, 3.0, 3.0, 1.0, 0.0, -1e30]])
    a, b = a.astype(dtype), b.astype(dtype)
    x, y = as_wick(a), as_wick(b)
    with np.errstate(all="ignore"):
        quotient, remainder = np.floor_divide(a, b), np.remainder(a, b)
    np.testing.assert_array_equal(np.asarray(x // y), quotient)
    np.testing.assert_array_equal(np.asarray(x % y), remainder)
    assert np.signbit(np.asarray(x // y)[5001]) and np.signbit(quotient[5001])  # -0.0 // 3.0 is -0.0


def test_gelu_of_floats_is_pytorchs():
    a = rng(14).uniform(-6, 6, LARGE).astype(np.float32)
    got = np.asarray(wick.gelu(as_wick(a))).astype(np.float64)
    # erf by Abramowitz and Stegun's 7.1.26, as PyTorch's CPU kernel: 1 + erf within 1.5e-7 and a few
    # float32 roundings near 1 (6e-8 each) of the exact value, scaled by x / 2; then the result's roundings.
    x = a.astype(np.float64)
    exact = 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    assert (np.abs(got - exact) <= 0.5 * np.abs(x) * 4e-7 + 2 * np.spacing(np.abs(exact).astype(np.float32))).all()
    want = torch.nn.functional.gelu(torch.from_numpy(a)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


# --- matrix products with a vector side: BLAS's gemv and dot ---------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_products_with_a_vector_side(dtype):
    r = rng(15)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == "float32" else dict(rtol=1e-12, atol=1e-11)
    m = r.standard_normal((300, 200)).astype(dtype)
    v = r.standard_normal(600).astype(dtype)
    w = r.standard_normal(300).astype(dtype)
    for x in (as_wick(m), as_wick(np.ascontiguousarray(m.T)).t()):  # stored as is, and transposed
        np.testing.assert_allclose(np.asarray(wick.mv(x, as_wick(v)[::3])), m @ v[::3], **tol)
        np.testing.assert_allclose(np.asarray(wick.matmul(as_wick(w), x)), w @ m, **tol)
    np.testing.assert_allclose(np.asarray(wick.dot(as_wick(v)[::2], as_wick(v)[1::2])).item(), v[::2] @ v[1::2],
                               **tol)
    # beta = 0 ignores self, NaN included; beta != 0 scales it.
    nan = as_wick(np.full(300, np.nan, dtype=dtype))
    np.testing.assert_allclose(np.asarray(wick.addmv(nan, as_wick(m), as_wick(v[:200]), beta=0)), m @ v[:200],
                               **tol)
    np.testing.assert_allclose(np.asarray(wick.addmv(as_wick(w), as_wick(m), as_wick(v[:200]), beta=0.5, alpha=2)),
                               0.5 * w + 2 * (m @ v[:200]), **tol)
    # Batches of vector products, and their sum (addbmm).
    b1 = r.standard_normal((4, 1, 50)).astype(dtype)
    b2 = r.standard_normal((4, 50, 7)).astype(dtype)
    np.testing.assert_allclose(np.asarray(wick.bmm(as_wick(b1), as_wick(b2))), b1 @ b2, **tol)
    c2 = r.standard_normal((4, 50, 1)).astype(dtype)
    start = r.standard_normal((1, 1)).astype(dtype)
    np.testing.assert_allclose(np.asarray(wick.addbmm(as_wick(start), as_wick(b1), as_wick(c2), beta=2)),
                               2 * start + (b1 @ c2).sum(0), **tol)


FORK_SCRIPT = r"""
import os, sys, numpy as np, wick
x = wick.from_numpy(np.random.default_rng(16).random(1 << 20).astype(np.float32))
parent = np.asarray(wick.exp(x))  # a parallel region: the OpenMP threads exist now
pid = os.fork()
if pid == 0:
    child = np.asarray(wick.exp(x))
    os._exit(0 if np.array_equal(child, parent) else 3)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_runs_kernels():
    # A child that entered libgomp's pool from its parent would wait forever: see Note [OpenMP and fork].
    run = subprocess.run([sys.executable, "-c", FORK_SCRIPT], env=dict(os.environ, OMP_NUM_THREADS="2"),
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("shape, dim", [((7, 1000), 1), ((3, 9000), 1), ((1000, 7), 0), ((300, 300), 1)])
def test_extremes_and_their_positions_along_a_dim(shape, dim, dtype):
    """max/min(dim), argmax/argmin and amax/amin through the vector loops: ties keep the first position,
    a NaN wins at its first position, and |x| extremes (the infinity norm) see -x as x, as PyTorch."""
    r = rng(3)
    a = r.integers(-20, 20, shape).astype(np.float32)  # many ties
    if shape[1] > 100:
        a[1, 17] = a[1, 4000 % shape[1]] = np.nan
        a[2 % shape[0], :] = -np.inf
    x, t = as_wick(a, getattr(wick, dtype)), torch.from_numpy(a).to(getattr(torch, dtype))
    for largest in (True, False):
        name = "max" if largest else "min"
        values, indices = getattr(x, name)(dim)
        want_values, want_indices = getattr(t, name)(dim)
        np.testing.assert_array_equal(to_numpy(values.float()), want_values.float().numpy())
        np.testing.assert_array_equal(to_numpy(indices), want_indices.numpy())
        arg = "argmax" if largest else "argmin"
        np.testing.assert_array_equal(to_numpy(getattr(x, arg)(dim)), getattr(t, arg)(dim).numpy())
        amax = "amax" if largest else "amin"
        np.testing.assert_array_equal(to_numpy(getattr(x, amax)(dim).float()), getattr(t, amax)(dim).float().numpy())
    for p in (np.inf, -np.inf):
        np.testing.assert_array_equal(to_numpy(x.norm(p, dim).float()), t.float().norm(p, dim).numpy())
