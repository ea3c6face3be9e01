"""Matrix products against NumPy (np.matmul, np.einsum, np.outer): matmul, mm, mv, bmm, dot, outer, addmm,
addmv, addbmm and baddbmm, where the declared op tests (ops/test_declared_ops.py) do not reach.

The generated tests check every dtype on each op's samples, contiguous and with the
first operand transposed and the second sliced with a step. Here: the other shapes
of matmul (batches on both sides, empty batches and inner dims), operands in the
other layouts (transposed, which BLAS reads in place; sliced with a step, which it
cannot, so they are copied first; broadcast batches, read through a stride of 0,
never expanded in memory), sizes that reach BLAS, mixed dtypes, beta=0 with NaN in
self, in-place forms on views, out= that must be resized or cast, and the errors.
"""
import warnings
import zlib

import numpy as np
import pytest

import wick
from reference import assert_close, make, random_values, to_numpy, wdtype

PRODUCT_DTYPES = ["float32", "float64", "int64", "int32", "int16", "uint8", "float16", "bfloat16"]


def operand(shape, dtype, rng, layout="contiguous"):
    """A wick tensor of `shape` in `layout`, and the exact values it holds as a NumPy array."""
    shape = tuple(shape)
    if layout == "transposed" and len(shape) >= 2:
        t = make(random_values(dtype, shape[:-2] + (shape[-1], shape[-2]), rng), dtype).transpose(-1, -2)
    elif layout == "sliced" and len(shape) >= 1:
        t = make(random_values(dtype, shape[:-1] + (2 * shape[-1],), rng), dtype)[..., ::2]
    else:
        t = make(random_values(dtype, shape, rng), dtype)
    assert tuple(t.shape) == shape
    return t, to_numpy(t)


def reference(fn, dtype, *arrays):
    """fn over the arrays in float64 (or int64), wrapped like the dtype's arithmetic."""
    wide = np.float64 if dtype in ("float16", "bfloat16", "float32", "float64") else np.int64
    result = np.asarray(fn(*[a.astype(wide) for a in arrays]))
    if dtype == "uint8":
        result = result % 256
    return result


# The shapes of matmul's samples, (4,) @ (4,), (3, 4) @ (4,), (4,) @ (4, 5), (3, 4) @ (4, 5),
# (2, 3, 4) @ (4,), (3, 4) @ (2, 4, 5) and (2, 1, 3, 4) @ (5, 4, 2), and (0,) @ (0,) (the first
# laid out empty), are generated tests; these are the others.
MATMUL_SHAPES = [
    ((4,), (2, 4, 5)),
    ((2, 3, 4), (4, 5)),
    ((2, 3, 4), (2, 4, 5)),
    ((1, 3, 4), (6, 1, 4, 5)),
    ((0, 3, 4), (4, 5)),
    ((3, 0), (0, 5)),
    ((2, 3, 0), (2, 0, 5)),
    ((2, 3, 4), (2, 4, 0)),
]


@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=lambda s: f"{s[0]}@{s[1]}")
def test_matmul_matches_numpy(shapes, dtype):
    rng = np.random.default_rng(zlib.crc32(repr((shapes, dtype)).encode()))
    (a, an), (b, bn) = operand(shapes[0], dtype, rng), operand(shapes[1], dtype, rng)
    ref = reference(np.matmul, dtype, an, bn)
    result = wick.matmul(a, b)
    assert result.dtype is a.dtype and tuple(result.shape) == ref.shape
    assert_close(result, ref, dtype)
    assert_close(a.matmul(b), ref, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("layouts", [("transposed", "contiguous"), ("contiguous", "transposed"),
                                     ("transposed", "transposed"), ("sliced", "sliced"), ("sliced", "transposed")])
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                                    ((2, 3, 4), (4, 5)), ((4, 3), (2, 3, 5))], ids=str)
def test_matmul_noncontiguous(shapes, layouts, dtype):
    rng = np.random.default_rng(7)
    (a, an), (b, bn) = operand(shapes[0], dtype, rng, layouts[0]), operand(shapes[1], dtype, rng, layouts[1])
    assert not (a.is_contiguous() and b.is_contiguous())
    assert_close(wick.matmul(a, b), reference(np.matmul, dtype, an, bn), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_matmul_broadcast_batch_reads_expanded_operands(dtype):
    rng = np.random.default_rng(8)
    a, an = operand((1, 3, 4), dtype, rng)
    b, bn = operand((6, 4, 2), dtype, rng)
    ea = a.expand(6, 3, 4)  # stride 0 along the batch
    assert ea.stride(0) == 0
    assert_close(wick.matmul(ea, b), reference(np.matmul, dtype, np.broadcast_to(an, (6, 3, 4)), bn), dtype)
    assert_close(wick.bmm(ea, b), reference(np.matmul, dtype, np.broadcast_to(an, (6, 3, 4)), bn), dtype)
    v, vn = operand((4,), dtype, rng)
    ev = v.expand(5, 4)  # rows of stride 0
    assert_close(wick.matmul(ev, b[0]), reference(np.matmul, dtype, np.broadcast_to(vn, (5, 4)), bn[0]), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matmul_large_enough_for_blas(dtype):
    rng = np.random.default_rng(9)
    (a, an), (b, bn) = operand((3, 65, 130), dtype, rng), operand((130, 33), dtype, rng)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == "float32" else dict(rtol=1e-12, atol=1e-11)
    np.testing.assert_allclose(to_numpy(wick.matmul(a, b)), an @ bn, **tol)
    np.testing.assert_allclose(to_numpy(wick.matmul(a.transpose(1, 2).contiguous().transpose(1, 2), b)),
                               an @ bn, **tol)


def test_matmul_folded_batch_with_gaps():
    # A batch whose rows cannot fold into one matrix (a gap between batches) still multiplies right.
    rng = np.random.default_rng(10)
    base, bn_base = operand((4, 5, 3), "float64", rng)
    a, an = base[:, :4], bn_base[:, :4]
    b, bn = operand((3, 2), "float64", rng)
    assert_close(wick.matmul(a, b), an @ bn, "float64")
    assert_close(wick.matmul(a, b[:, 0]), an @ bn[:, 0], "float64")


@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
@pytest.mark.parametrize("layout", ["transposed", "sliced"])  # contiguous: bmm-<dtype>-contiguous
def test_bmm_matches_einsum(dtype, layout):
    rng = np.random.default_rng(11)
    (a, an), (b, bn) = operand((3, 2, 4), dtype, rng, layout), operand((3, 4, 5), dtype, rng, layout)
    ref = reference(lambda x, y: np.einsum("bij,bjk->bik", x, y), dtype, an, bn)
    assert_close(wick.bmm(a, b), ref, dtype)
    assert_close(a.bmm(b), ref, dtype)


@pytest.mark.parametrize("dtypes,expected", [
    (("float32", "float32"), "float32"), (("int64", "float32"), "float32"), (("int32", "int64"), "int64"),
    (("bool", "bool"), "bool"), (("uint8", "int8"), "int16"), (("float16", "float64"), "float64"),
])
def test_outer_promotes_like_mul(dtypes, expected):
    rng = np.random.default_rng(13)
    (a, an), (b, bn) = operand((4,), dtypes[0], rng), operand((3,), dtypes[1], rng, "sliced")
    result = wick.outer(a, b)
    assert result.dtype is wdtype(expected) and tuple(result.shape) == (4, 3)
    ref = np.outer(an.astype(np.float64), bn.astype(np.float64))
    assert_close(result, ref.astype(bool) if expected == "bool" else ref, expected)
    assert_close(a.outer(b), ref.astype(bool) if expected == "bool" else ref, expected)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bfloat16"])
@pytest.mark.parametrize("beta,alpha", [(1, 1), (2, 3), (0, 2), (-1, 0)])
def test_addmm_matches_numpy(dtype, beta, alpha):
    rng = np.random.default_rng(14)
    (c, cn), (a, an), (b, bn) = (operand((3, 5), dtype, rng, "transposed"), operand((3, 4), dtype, rng, "sliced"),
                                 operand((4, 5), dtype, rng, "transposed"))
    ref = reference(lambda c_, a_, b_: beta * c_ + alpha * (a_ @ b_), dtype, cn, an, bn)
    assert_close(wick.addmm(c, a, b, beta=beta, alpha=alpha), ref, dtype)
    assert_close(c.addmm(a, b, beta=beta, alpha=alpha), ref, dtype)
    row = c[0]  # self broadcasts out of place
    ref_row = reference(lambda c_, a_, b_: beta * c_ + alpha * (a_ @ b_), dtype, cn[0], an, bn)
    assert_close(wick.addmm(row, a, b, beta=beta, alpha=alpha), ref_row, dtype)
    assert c.addmm_(a, b, beta=beta, alpha=alpha) is c
    assert_close(c, ref, dtype)


def test_addmm_float_scalars():
    rng = np.random.default_rng(15)
    (c, cn), (a, an), (b, bn) = operand((2, 3), "float64", rng), operand((2, 4), "float64", rng), \
        operand((4, 3), "float64", rng)
    assert_close(wick.addmm(c, a, b, beta=0.5, alpha=-1.5), 0.5 * cn - 1.5 * (an @ bn), "float64")


@pytest.mark.parametrize("op", ["addmm", "addbmm", "baddbmm", "addmv"])
def test_beta_zero_ignores_nan_in_self(op):
    shapes = {"addmm": ((2, 3), (3, 4), (2, 4)), "addbmm": ((2, 2, 3), (2, 3, 4), (2, 4)),
              "baddbmm": ((2, 2, 3), (2, 3, 4), (2, 2, 4)), "addmv": ((2, 3), (3,), (2,))}[op]
    a, b, self_shape = wick.ones(*shapes[0]), wick.ones(*shapes[1]), shapes[2]
    result = getattr(wick, op)(wick.full(self_shape, float("nan")), a, b, beta=0)
    assert not np.isnan(to_numpy(result)).any()
    x = wick.full(self_shape, float("nan"))
    assert getattr(x, op + "_")(a, b, beta=0) is x and not np.isnan(to_numpy(x)).any()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "float16"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
def test_addbmm_and_baddbmm_match_einsum(dtype, layout):
    rng = np.random.default_rng(16)
    (b1, b1n), (b2, b2n) = operand((4, 2, 3), dtype, rng, layout), operand((4, 3, 5), dtype, rng, layout)
    (c, cn), (cb, cbn) = operand((2, 5), dtype, rng, layout), operand((4, 2, 5), dtype, rng, layout)
    beta, alpha = 2, 3
    ref = reference(lambda c_, x, y: beta * c_ + alpha * np.einsum("bij,bjk->ik", x, y), dtype, cn, b1n, b2n)
    assert_close(wick.addbmm(c, b1, b2, beta=beta, alpha=alpha), ref, dtype)
    assert_close(c.addbmm(b1, b2, beta=beta, alpha=alpha), ref, dtype)
    refb = reference(lambda c_, x, y: beta * c_ + alpha * np.einsum("bij,bjk->bik", x, y), dtype, cbn, b1n, b2n)
    assert_close(wick.baddbmm(cb, b1, b2, beta=beta, alpha=alpha), refb, dtype)
    assert_close(wick.baddbmm(c, b1, b2, beta=beta, alpha=alpha),  # self broadcasts over the batch
                 reference(lambda c_, x, y: beta * c_ + alpha * np.einsum("bij,bjk->bik", x, y), dtype, cn, b1n, b2n),
                 dtype)
    assert c.addbmm_(b1, b2, beta=beta, alpha=alpha) is c and cb.baddbmm_(b1, b2, beta=beta, alpha=alpha) is cb
    assert_close(c, ref, dtype)
    assert_close(cb, refb, dtype)


def test_inplace_forms_write_through_views():
    base = wick.zeros(3, 8, dtype=wick.float64)
    view = base[:, 1::2]  # 3 x 4, strided
    a, b = wick.ones(3, 2, dtype=wick.float64), wick.ones(2, 4, dtype=wick.float64)
    assert view.addmm_(a, b, alpha=2) is view
    assert to_numpy(base)[:, 1::2].tolist() == [[4.0] * 4] * 3 and not to_numpy(base)[:, 0::2].any()
    batch = wick.zeros(2, 3, 4, dtype=wick.float64).transpose(1, 2)  # 2 x 4 x 3
    assert batch.baddbmm_(wick.ones(2, 4, 5, dtype=wick.float64), wick.ones(2, 5, 3, dtype=wick.float64)) is batch
    assert to_numpy(batch).tolist() == [[[5.0] * 3] * 4] * 2


def test_empty_batches_and_inner_dims():
    assert wick.addbmm(wick.ones(2, 4), wick.ones(0, 2, 3), wick.ones(0, 3, 4), beta=3).tolist() == [[3.0] * 4] * 2
    assert wick.addbmm(wick.ones(2, 4), wick.ones(0, 2, 3), wick.ones(0, 3, 4), beta=0).tolist() == [[0.0] * 4] * 2
    assert wick.addmm(wick.ones(2, 4), wick.ones(2, 0), wick.ones(0, 4), beta=2).tolist() == [[2.0] * 4] * 2
    assert tuple(wick.bmm(wick.ones(0, 2, 3), wick.ones(0, 3, 4)).shape) == (0, 2, 4)
    assert wick.bmm(wick.ones(2, 2, 0), wick.ones(2, 0, 3)).tolist() == [[[0.0] * 3] * 2] * 2
    assert tuple(wick.baddbmm(wick.ones(1), wick.ones(2, 0, 3), wick.ones(2, 3, 4)).shape) == (2, 0, 4)


@pytest.mark.parametrize("op,args,shape", [
    ("matmul", ((2, 3, 4), (4, 5)), (2, 3, 5)),
    ("matmul", ((4,), (4,)), ()),
    ("matmul", ((3, 4), (4,)), (3,)),
    ("bmm", ((2, 3, 4), (2, 4, 5)), (2, 3, 5)),
    ("dot", ((4,), (4,)), ()),
    ("outer", ((4,), (3,)), (4, 3)),
    ("addmm", ((3, 5), (3, 4), (4, 5)), (3, 5)),
    ("addbmm", ((3, 5), (2, 3, 4), (2, 4, 5)), (3, 5)),
    ("baddbmm", ((2, 3, 5), (2, 3, 4), (2, 4, 5)), (2, 3, 5)),
])
def test_out_forms(op, args, shape):
    rng = np.random.default_rng(17)
    tensors = [operand(s, "float64", rng)[0] for s in args]
    expected = getattr(wick, op)(*tensors)
    out = wick.empty(0, dtype=wick.float64)
    assert getattr(wick, op)(*tensors, out=out) is out
    assert tuple(out.shape) == shape and out.tolist() == expected.tolist()
    # An output with elements of another shape is resized, with a warning.
    wrong = wick.empty(7, dtype=wick.float64)
    with pytest.warns(UserWarning, match="resized"):
        getattr(wick, op)(*tensors, out=wrong)
    assert wrong.tolist() == expected.tolist()
    with pytest.raises((TypeError, RuntimeError), match="dtype|cast"):
        getattr(wick, op)(*tensors, out=wick.empty(0, dtype=wick.int64))


def test_out_may_alias_an_operand():
    a = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
    expected = (to_numpy(a) @ to_numpy(a)).tolist()
    assert wick.matmul(a, a, out=a) is a and a.tolist() == expected


def test_products_never_return_an_operand():
    a, b = wick.ones(2, 2), wick.eye(2)
    for result in (wick.matmul(a, b), wick.bmm(a[None], b[None]), wick.addmm(a, a, b, beta=0),
                   wick.matmul(a[0], b), wick.matmul(a[None], b[0]), wick.matmul(a[0], b[None]), wick.dot(a[0], b[0]),
                   wick.outer(a[0], b[0])):
        assert result is not a and result is not b and result._base is None


I64 = dict(dtype=wick.int64)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: wick.matmul(wick.tensor(1.0), wick.ones(2, 2)), RuntimeError, "at least 1D, but they are 0D and 2D"),
    (lambda: wick.matmul(wick.ones(3), wick.ones(4)), RuntimeError, "inconsistent tensor size"),
    (lambda: wick.matmul(wick.ones(3), wick.ones(4, 2)), RuntimeError, "cannot be multiplied"),
    (lambda: wick.matmul(wick.ones(2, 3), wick.ones(4)), RuntimeError, "size mismatch"),
    (lambda: wick.matmul(wick.ones(5, 2, 3), wick.ones(4)), RuntimeError, "cannot be multiplied"),
    (lambda: wick.matmul(wick.ones(5, 2, 3), wick.ones(4, 3, 2)), RuntimeError, "must match the size"),
    (lambda: wick.matmul(wick.ones(5, 2, 3), wick.ones(5, 4, 2)), RuntimeError, "cannot be multiplied"),
    (lambda: wick.matmul(wick.ones(2, 3), wick.ones(3, 2, **I64)), TypeError, "same dtype"),
    (lambda: wick.matmul(wick.ones(2, 3, dtype=wick.bool), wick.ones(3, 2, dtype=wick.bool)), TypeError, "Bool"),
    (lambda: wick.bmm(wick.ones(2, 3), wick.ones(1, 3, 2)), RuntimeError, "batch1 must be a 3D tensor"),
    (lambda: wick.bmm(wick.ones(1, 2, 3), wick.ones(3, 2)), RuntimeError, "batch2 must be a 3D tensor"),
    (lambda: wick.bmm(wick.ones(2, 2, 3), wick.ones(3, 3, 2)), RuntimeError, r"to be: \[2, 3\] but got: \[3, 3\]"),
    (lambda: wick.bmm(wick.ones(2, 2, 3), wick.ones(2, 4, 2)), RuntimeError, r"to be: \[2, 3\] but got: \[2, 4\]"),
    (lambda: wick.bmm(wick.ones(2, 2, 3), wick.ones(2, 3, 2, dtype=wick.float64)), TypeError, "same dtype"),
    (lambda: wick.dot(wick.ones(2, 3), wick.ones(3)), RuntimeError, "1D tensors expected, but got 2D and 1D"),
    (lambda: wick.dot(wick.ones(2), wick.ones(3)), RuntimeError, "inconsistent tensor size"),
    (lambda: wick.dot(wick.ones(2), wick.ones(2, dtype=wick.float64)), TypeError, "same dtype"),
    (lambda: wick.dot(wick.ones(2, dtype=wick.bool), wick.ones(2, dtype=wick.bool)), TypeError, "Bool"),
    (lambda: wick.outer(wick.ones(2, 3), wick.ones(3)), RuntimeError, "1-D argument self, but got 2-D"),
    (lambda: wick.outer(wick.ones(3), wick.tensor(1.0)), RuntimeError, "1-D argument vec2, but got 0-D"),
    (lambda: wick.outer(wick.ones(3), wick.ones(2), out=wick.empty(0, **I64)), RuntimeError, "can't be cast"),
    (lambda: wick.addmm(wick.ones(3), wick.ones(2, 3), wick.ones(3, 4)), RuntimeError, "does not broadcast"),
    (lambda: wick.ones(4).addmm_(wick.ones(2, 3), wick.ones(3, 4)), RuntimeError, r"shape \[4\]"),
    (lambda: wick.addmm(wick.ones(4), wick.ones(3), wick.ones(3, 4)), RuntimeError, "mat1 must be a matrix"),
    (lambda: wick.addmm(wick.ones(4), wick.ones(2, 3), wick.ones(3)), RuntimeError, "mat2 must be a matrix"),
    (lambda: wick.addmm(wick.ones(4), wick.ones(2, 3), wick.ones(2, 4)), RuntimeError, r"\(2x3 and 2x4\)"),
    (lambda: wick.addmm(wick.ones(2, 4, dtype=wick.float64), wick.ones(2, 3), wick.ones(3, 4)), TypeError, "dtype"),
    (lambda: wick.addmm(wick.ones(2, 2), wick.ones(2, 3), wick.ones(3, 2), alpha=1e300),
     RuntimeError, "value cannot be converted to type float without overflow"),
    (lambda: wick.addbmm(wick.ones(4), wick.ones(2, 3), wick.ones(5, 3, 4)), RuntimeError, "batch1 must be a 3D"),
    (lambda: wick.addbmm(wick.ones(4), wick.ones(5, 2, 3), wick.ones(4, 3, 4)), RuntimeError, "same number of batches"),
    (lambda: wick.addbmm(wick.ones(4), wick.ones(5, 2, 3), wick.ones(5, 2, 4)), RuntimeError, "incompatible matrix"),
    (lambda: wick.addbmm(wick.ones(3), wick.ones(5, 2, 3), wick.ones(5, 3, 4)), RuntimeError, "does not broadcast"),
    (lambda: wick.ones(4).baddbmm_(wick.ones(5, 2, 3), wick.ones(5, 3, 4)), RuntimeError, r"shape \[4\]"),
    (lambda: wick.baddbmm(wick.ones(3), wick.ones(5, 2, 3), wick.ones(5, 3, 4)), RuntimeError, "does not broadcast"),
    (lambda: wick.baddbmm(wick.ones(1, **I64), wick.ones(1, 2, 3, **I64), wick.ones(1, 3, 4, **I64), beta=1e30),
     RuntimeError, "value cannot be converted to type int64_t without overflow"),
    (lambda: wick.matmul(wick.ones(2, 2), None), TypeError, "matmul"),
    (lambda: wick.bmm(wick.ones(1, 2, 2), [[1.0]]), TypeError, "bmm"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_matmul_of_float16_operands_accumulates_wide():
    # 4096 products of 1/64 * 1 sum to 64 exactly; a float16 accumulator would stall at 32.
    a = wick.full((1, 4096), 1 / 64, dtype=wick.float16)
    b = wick.ones(4096, 1, dtype=wick.float16)
    assert wick.matmul(a, b).item() == 64.0


def test_integer_products_wrap_like_the_dtype():
    a = wick.full((1, 2), 100, dtype=wick.int8)
    b = wick.full((2, 1), 2, dtype=wick.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert wick.matmul(a, b).item() == np.int8(np.int64(400).astype(np.int8))


def _random_layout(t, rng):
    """`t` (a contiguous wick tensor), or the same values through a transposed copy or a strided slice."""
    kind = rng.integers(0, 3)
    if kind == 1 and t.dim() >= 2:
        return t.transpose(-1, -2).contiguous().transpose(-1, -2)
    if kind == 2 and t.dim() >= 1:
        wide = wick.zeros(*t.shape[:-1], 3 * t.shape[-1] + 1, dtype=t.dtype)
        view = wide[..., 1::3]
        view.copy_(t)
        return view
    return t


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_matmul_fuzz(dtype):
    rng = np.random.default_rng(18)
    for _ in range(60):
        n, k, m = (int(v) for v in rng.integers(0, 5, size=3))
        batch = [int(v) for v in rng.integers(1, 4, size=rng.integers(0, 3))]
        a_batch = [b if rng.random() < 0.7 else 1 for b in batch][int(rng.integers(0, len(batch) + 1)):]
        b_batch = [b if rng.random() < 0.7 else 1 for b in batch][int(rng.integers(0, len(batch) + 1)):]
        a_shape = a_batch + [n, k] if rng.random() < 0.8 else [k]
        b_shape = b_batch + [k, m] if rng.random() < 0.8 else [k]
        an = random_values(dtype, a_shape, rng).astype(np.float64 if dtype != "int64" else np.int64)
        bn = random_values(dtype, b_shape, rng).astype(an.dtype)
        a = _random_layout(make(an, dtype), rng)
        b = _random_layout(make(bn, dtype), rng)
        ref = reference(np.matmul, dtype, to_numpy(a), to_numpy(b))
        assert_close(wick.matmul(a, b), ref, dtype)


# --- mm, mv and addmv ------------------------------------------------------------------------------

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
@pytest.mark.parametrize("layout", ["transposed", "sliced"])  # contiguous: mm-<dtype>-contiguous
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


def test_addmv_beta_zero_ignores_self():
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
def test_mm_mv_addmv_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_mm_of_an_empty_inner_dimension_gives_zeros():
    assert wick.mm(wick.ones(2, 0), wick.ones(0, 3)).tolist() == [[0.0] * 3] * 2
