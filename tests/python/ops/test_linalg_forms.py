"""The out= and in-place forms of the structured matrix products (Note [Structured ops]) against PyTorch:
mm, mv, dot, bmm, matmul, addmv, addmm, addbmm and baddbmm.

An out= that is not contiguous or that overlaps an operand, and an in-place self that is a
transposed view or that overlaps another operand, are written through a temporary result
that the framework copies in; a contiguous out= or self that overlaps nothing is written
directly, the add*mm ops reading self where it is as BLAS's C. Either way the values are
PyTorch's and the form returns its destination.
"""
import numpy as np
import pytest
import torch

import wick
from reference import to_numpy

# (op, operand shapes): the first operand of the add* ops is self.
PRODUCTS = [
    ("mm", [(3, 4), (4, 5)]),
    ("mv", [(3, 4), (4,)]),
    ("dot", [(4,), (4,)]),
    ("bmm", [(2, 3, 4), (2, 4, 5)]),
    ("matmul", [(2, 3, 4), (4, 5)]),
    ("matmul", [(3, 4), (4,)]),
    ("matmul", [(4,), (2, 4, 5)]),
    ("addmv", [(3,), (3, 4), (4,)]),
    ("addmm", [(3, 5), (3, 4), (4, 5)]),
    ("addbmm", [(3, 5), (2, 3, 4), (2, 4, 5)]),
    ("baddbmm", [(2, 3, 5), (2, 3, 4), (2, 4, 5)]),
]
ADD_OPS = [p for p in PRODUCTS if p[0].startswith(("addm", "addb", "badd"))]
SCALARS = {"beta": 2, "alpha": -3}


def ids(p):
    return f"{p[0]}-{'x'.join(map(str, p[1][0]))}-{'x'.join(map(str, p[1][-1]))}"


def operands(shapes, dtype=torch.float64, seed=0):
    """Torch tensors of small integers (exact in every dtype) and wick copies of them."""
    g = torch.Generator().manual_seed(seed)
    ts = [torch.randint(-4, 5, s, generator=g).to(dtype) for s in shapes]
    return ts, [wick.from_numpy(t.numpy().copy()) for t in ts]


def torch_op(op, *ts, beta=1, alpha=1):
    """PyTorch's result of op; the add* ops spelled out, since torch 1.13's baddbmm on CPU reads its
    uninitialized result when beta is 0 (NaN where it held NaN)."""
    if op not in ("addmv", "addmm", "addbmm", "baddbmm"):
        return getattr(torch, op)(*ts)
    self, x, y = ts
    product = torch.matmul(x, y)
    if op == "addbmm":
        product = product.sum(0)
    return alpha * product if beta == 0 else beta * self + alpha * product


def kwargs(op):
    return SCALARS if op.startswith(("addm", "addb", "badd")) else {}


def result_shape(op, shapes):
    ts, _ = operands(shapes)
    return tuple(torch_op(op, *ts, **kwargs(op)).shape)


def noncontiguous(array):
    """A wick tensor that is not contiguous holding `array`'s values (a 0-d one is always contiguous),
    and the tensor that holds its memory."""
    if array.ndim >= 2:  # its dims reversed in memory
        base = wick.from_numpy(np.ascontiguousarray(array.transpose()))
        return base.permute(*reversed(range(array.ndim))), base
    base = wick.from_numpy(np.repeat(array.reshape(-1), 2))  # every second element
    return (base[::2] if array.ndim else base[0]), base


@pytest.mark.parametrize("p", PRODUCTS, ids=ids)
@pytest.mark.parametrize("layout", ["transposed", "step"])
def test_out_not_contiguous(p, layout):
    op, shapes = p
    ts, ws = operands(shapes)
    expected = torch_op(op, *ts, **kwargs(op)).numpy()
    shape = expected.shape
    if layout == "transposed":
        out, base = noncontiguous(np.full(shape, np.nan))
        outside = np.zeros(0)
    else:  # the elements between are left alone
        base = wick.full(shape[:-1] + (2 * shape[-1],) if shape else (2,), float("nan"), dtype=wick.float64)
        out = base[..., ::2] if shape else base[0]
        outside = to_numpy(base)[..., 1::2] if shape else to_numpy(base)[1:]
    assert not out.is_contiguous() or not shape
    assert getattr(wick, op)(*ws, **kwargs(op), out=out) is out
    np.testing.assert_array_equal(to_numpy(out), expected)
    if layout == "step":
        assert np.isnan(to_numpy(base)[..., 1::2] if shape else to_numpy(base)[1:]).all()
    assert outside.size == 0 or np.isnan(outside).all()


@pytest.mark.parametrize("p", [("mm", [(4, 4), (4, 4)]), ("mv", [(4, 4), (4,)]), ("bmm", [(2, 4, 4), (2, 4, 4)]),
                               ("matmul", [(4, 4), (4,)]), ("matmul", [(2, 4, 4), (4, 4)]),
                               ("matmul", [(4, 4), (2, 4, 4)])], ids=ids)
def test_out_is_an_operand(p):
    """out= an operand of the result's shape: computed aside, then copied in."""
    op, shapes = p
    ts, _ = operands(shapes, seed=2)
    expected = torch_op(op, *ts).numpy()
    written = 0
    for i in range(len(shapes)):
        _, ws = operands(shapes, seed=2)
        if tuple(ws[i].shape) == expected.shape:
            assert getattr(wick, op)(*ws, out=ws[i]) is ws[i]
            np.testing.assert_array_equal(to_numpy(ws[i]), expected)
            written += 1
    assert written


@pytest.mark.parametrize("p", ADD_OPS, ids=ids)
@pytest.mark.parametrize("beta", [0, 1, 2])
def test_add_out_is_self(p, beta):
    op, shapes = p
    ts, ws = operands(shapes, seed=3)
    expected = torch_op(op, *ts, beta=beta, alpha=3).numpy()
    assert getattr(wick, op)(*ws, beta=beta, alpha=3, out=ws[0]) is ws[0]
    np.testing.assert_array_equal(to_numpy(ws[0]), expected)


@pytest.mark.parametrize("p", ADD_OPS, ids=ids)
def test_add_out_overlaps_an_operand(p):
    """out= a view of memory that mat1/batch1 shares: computed aside, then copied in."""
    op, shapes = p
    ts, ws = operands(shapes, seed=4)
    shape = result_shape(op, shapes)
    n, k = int(np.prod(shape)), ws[1].numel()
    buf = wick.cat([ws[1].reshape(-1), wick.zeros(n, dtype=wick.float64)])
    a = buf[:k].reshape(tuple(shapes[1]))
    out = buf[k - 1:k - 1 + n].reshape(shape)  # its first element is a's last
    expected = torch_op(op, *ts, **SCALARS).numpy()
    assert getattr(wick, op)(ws[0], a, ws[2], **SCALARS, out=out) is out
    np.testing.assert_array_equal(to_numpy(out), expected)


@pytest.mark.parametrize("p", ADD_OPS, ids=ids)
@pytest.mark.parametrize("beta", [0, 1, 2])
def test_inplace_on_a_noncontiguous_view(p, beta):
    op, shapes = p
    ts, ws = operands(shapes, seed=5)
    view, base = noncontiguous(ts[0].numpy())
    assert not view.is_contiguous()
    expected = torch_op(op, *ts, beta=beta, alpha=3).numpy()
    assert getattr(view, op + "_")(ws[1], ws[2], beta=beta, alpha=3) is view
    np.testing.assert_array_equal(to_numpy(view), expected)
    # written through the view into its base
    written = to_numpy(base).transpose() if expected.ndim >= 2 else to_numpy(base)[::2]
    np.testing.assert_array_equal(written, expected)
    if expected.ndim == 1:  # and nothing else
        np.testing.assert_array_equal(to_numpy(base)[1::2], ts[0].numpy())


@pytest.mark.parametrize("op,shapes", [
    ("addmm", [(4, 4), "self", (4, 4)]),
    ("addmm", [(4, 4), (4, 4), "self"]),
    ("addmm", [(4, 4), "self", "self"]),
    ("addmm", [(4, 4), "self.T", (4, 4)]),
    ("addmv", [(4,), (4, 4), "self"]),
    ("addbmm", [(3, 3), (2, 3, 3), "self[None]"]),
    ("baddbmm", [(2, 3, 3), "self", (2, 3, 3)]),
    ("baddbmm", [(2, 3, 3), (2, 3, 3), "self"]),
])
@pytest.mark.parametrize("beta", [0, 1, 2])
def test_inplace_whose_operand_is_self(op, shapes, beta):
    ts, ws = operands([shapes[0]] + [s for s in shapes[1:] if not isinstance(s, str)], seed=6)
    rest_t, rest_w = iter(ts[1:]), iter(ws[1:])
    t_args, w_args = [], []
    for s in shapes[1:]:
        if s == "self":
            t_args.append(ts[0]), w_args.append(ws[0])
        elif s == "self.T":
            t_args.append(ts[0].T), w_args.append(ws[0].transpose(0, 1))
        elif s == "self[None]":
            t_args.append(ts[0].expand(2, 3, 3)), w_args.append(ws[0].unsqueeze(0).expand(2, 3, 3))
        else:
            t_args.append(next(rest_t)), w_args.append(next(rest_w))
    # The in-place form is the functional one on the values before, assigned to self.
    expected = torch_op(op, ts[0].clone(), *[t.clone() for t in t_args], beta=beta, alpha=-2).numpy()
    assert getattr(ws[0], op + "_")(*w_args, beta=beta, alpha=-2) is ws[0]
    np.testing.assert_array_equal(to_numpy(ws[0]), expected)


@pytest.mark.parametrize("p", ADD_OPS, ids=ids)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
@pytest.mark.parametrize("beta", [0, 1, 2])
def test_inplace_on_contiguous_self(p, dtype, beta):
    """Written directly: the same tensor and the same memory, with PyTorch's values; with beta 0,
    what self held (NaN included) is ignored."""
    op, shapes = p
    ts, _ = operands(shapes, dtype, seed=7)
    if beta == 0:
        ts[0].fill_(float("nan") if dtype.is_floating_point else 7)
    ws = [wick.from_numpy(t.numpy().copy()) for t in ts]
    address = ws[0].data_ptr()
    expected = torch_op(op, *ts, beta=beta, alpha=3).numpy()
    assert getattr(ws[0], op + "_")(ws[1], ws[2], beta=beta, alpha=3) is ws[0]
    assert ws[0].data_ptr() == address and ws[0].is_contiguous()
    np.testing.assert_array_equal(to_numpy(ws[0]), expected)
