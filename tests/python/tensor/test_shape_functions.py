"""wick.shape_functions (tile, rot90, flips, stacks, splits, diagonals, index grids, take_along_dim, argwhere,
repeat_interleave) against PyTorch 1.13's functions of the same names: each case runs on both libraries, which
must give the same values, dtypes and shapes, or raise the same kind of exception."""
import itertools
import warnings

import numpy as np
import pytest
import torch

import wick

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
SHAPES = [(), (0,), (5,), (2, 3), (3, 0), (2, 3, 4), (1, 2, 1, 3)]


def make(lib, data, dtype="float32"):
    """data (array-like) as a tensor of lib, in the dtype of that name (bfloat16 by way of float32)."""
    array = np.asarray(data, dtype="float32" if dtype == "bfloat16" else dtype)
    tensor = lib.from_numpy(array.copy()) if lib is torch else wick.tensor(array)
    return tensor.to(getattr(lib, dtype))


def arange(lib, shape, dtype="float32", start=1):
    """Distinct values (1, 2, ...; alternately 0 and 1 for bool) of shape: a copy that goes wrong shows."""
    values = np.arange(start, start + int(np.prod(shape))).reshape(shape)
    return make(lib, values % 2 if dtype == "bool" else values % 100 if dtype in ("uint8", "int8") else values, dtype)


def values(tensor):
    """tensor's dtype name, shape and values (as float64 NumPy; every dtype here is exact in it)."""
    dtype = str(tensor.dtype).split(".")[1]
    data = tensor.detach().to(torch.float64 if isinstance(tensor, torch.Tensor) else wick.float64)
    return dtype, tuple(tensor.shape), np.asarray(data.tolist(), dtype=np.float64).reshape(tuple(tensor.shape))


def assert_same(ours, theirs):
    if isinstance(theirs, (tuple, list)):
        assert isinstance(ours, tuple) == isinstance(theirs, tuple) and len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            assert_same(o, t)
    elif isinstance(theirs, torch.Tensor):
        assert isinstance(ours, wick.Tensor), f"{type(ours).__name__} where PyTorch gives a Tensor"
        (od, os_, ov), (td, ts, tv) = values(ours), values(theirs)
        assert (od, os_) == (td, ts)
        np.testing.assert_array_equal(ov, tv)
    else:
        assert ours == theirs


def check(case):
    """case(lib, T) with lib wick and then torch, T(data, dtype) making lib's tensors: PyTorch's result, or the
    exception it raises, and wick's must agree. Returns wick's result."""
    outcomes = []
    for lib in (wick, torch):
        try:
            outcomes.append((True, case(lib, lambda data, dtype="float32": make(lib, data, dtype))))
        except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
            outcomes.append((False, e))
    (ours_ok, ours), (theirs_ok, theirs) = outcomes
    if not theirs_ok:
        assert not ours_ok, f"PyTorch raised {type(theirs).__name__}: {theirs}; wick returned {ours!r}"
        assert type(ours) is type(theirs), f"wick raised {type(ours).__name__}: {ours}; PyTorch {theirs!r}"
        return ours
    assert ours_ok, f"wick raised {type(ours).__name__}: {ours}; PyTorch returned {theirs!r}"
    assert_same(ours, theirs)
    return ours


def check_grad(case, *shapes):
    """The gradients of sum(case(lib, *inputs) * weights) with respect to float64 inputs of the shapes agree."""
    grads = []
    for lib in (wick, torch):
        inputs = [arange(lib, s, "float64", start=10 * i).requires_grad_(True) for i, s in enumerate(shapes)]
        out = case(lib, *inputs)
        out = out if isinstance(out, (tuple, list)) else (out,)
        total = sum((o * arange(lib, tuple(o.shape), "float64", start=3)).sum() for o in out)
        total.backward()
        grads.append([x.grad for x in inputs])
    for ours, theirs in zip(*grads):
        assert_same(ours, theirs)


# tile, rot90, fliplr, flipud

@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dims", [(), (2,), (1, 3), (2, 1, 2), (0, 2), (1, 1, 1, 1, 2)], ids=str)
def test_tile(shape, dims):
    check(lambda lib, T: lib.tile(arange(lib, shape), dims))
    check(lambda lib, T: arange(lib, shape).tile(list(dims)))
    if dims:
        check(lambda lib, T: arange(lib, shape).tile(*dims))  # the method's other form


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile_dtypes(dtype):
    check(lambda lib, T: lib.tile(arange(lib, (2, 3), dtype), dims=(2, 1, 2)))


@pytest.mark.parametrize("dims", [(2.0,), (True,), "2", None, (-1,), [1, -2]], ids=repr)
def test_tile_errors(dims):
    check(lambda lib, T: lib.tile(arange(lib, (2, 3)), dims))
    if isinstance(dims, tuple):
        check(lambda lib, T: arange(lib, (2, 3)).tile(*dims))


def test_tile_takes_the_method_forms():
    """wick.tile is also Tensor.tile, so it takes the method's x.tile(2, 3) and x.tile(2) too (PyTorch's function
    wants a sequence)."""
    x = wick.arange(6).reshape(2, 3)
    assert wick.tile(x, 2, 3).tolist() == wick.tile(x, (2, 3)).tolist() == torch.arange(6).reshape(2, 3).tile(
        2, 3).tolist()
    assert wick.tile(x, 2).tolist() == torch.arange(6).reshape(2, 3).tile(2).tolist()


def test_tile_of_a_non_tensor():
    check(lambda lib, T: lib.tile([1, 2], (2,)))


def test_tile_gradient():
    check_grad(lambda lib, x: lib.tile(x, (2, 1, 3)), (2, 3))


@pytest.mark.parametrize("k", range(-5, 6))
@pytest.mark.parametrize("shape,dims", [((2, 3), (0, 1)), ((2, 3), [1, 0]), ((2, 3, 4), (0, 2)),
                                        ((2, 3, 4), (-1, 1)), ((2, 3, 4), [2, -3]), ((0, 3), (0, 1))], ids=str)
def test_rot90(k, shape, dims):
    ours = check(lambda lib, T: lib.rot90(arange(lib, shape), k, dims))
    check(lambda lib, T: arange(lib, shape).rot90(k=k, dims=dims))
    assert ours.is_contiguous() or k % 4 in (1, 3)


def test_rot90_default_and_copy():
    check(lambda lib, T: lib.rot90(arange(lib, (3, 4), "int16")))
    x = wick.arange(6.0).reshape(2, 3)
    for k in (0, 4):  # a whole turn is a copy, as PyTorch's
        y = wick.rot90(x, k)
        y[0, 0] = 100
        assert x[0, 0].item() == 0


@pytest.mark.parametrize("shape,k,dims", [((2, 3), 1, (0,)), ((2, 3), 1, (0, 1, 2)), ((3,), 1, (0, 1)),
                                          ((), 1, (0, 1)), ((2, 3), 1, (0, 0)), ((2, 3), 1, (0, -2)),
                                          ((2, 3), 1, (0, 2)), ((2, 3, 4), 1, (-4, 1)), ((2, 3, 4), 1, (3, 1)),
                                          ((2, 3), 1.0, (0, 1)), ((2, 3), True, (0, 1)), ((2, 3), 1, 0),
                                          ((2, 3), 1, (0.0, 1))], ids=str)
def test_rot90_errors(shape, k, dims):
    check(lambda lib, T: lib.rot90(arange(lib, shape), k, dims))


def test_rot90_gradient():
    check_grad(lambda lib, x: lib.rot90(x, 3, (2, 0)), (2, 3, 4))


@pytest.mark.parametrize("name", ["fliplr", "flipud"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["bool", "int64", "bfloat16", "float64"])
def test_flips(name, shape, dtype):
    check(lambda lib, T: getattr(lib, name)(arange(lib, shape, dtype)))
    check(lambda lib, T: getattr(arange(lib, shape, dtype), name)())


def test_flips_gradient_and_bad_input():
    check_grad(lambda lib, x: lib.fliplr(x), (2, 3))
    check_grad(lambda lib, x: lib.flipud(x), (4,))
    check(lambda lib, T: lib.fliplr(np.ones((2, 2))))


# dstack, column_stack, row_stack

STACKS = [[(3,), (3,)], [(), ()], [(2, 3), (2, 3)], [(2, 3, 1), (2, 3, 2)], [(0,), (0,)], [(4,)],
          [(2,), (2, 1), (2, 3)], [(1, 2), (2,), (2, 2)]]


@pytest.mark.parametrize("name", ["dstack", "column_stack", "row_stack"])
@pytest.mark.parametrize("shapes", STACKS, ids=str)
def test_stacks(name, shapes):
    check(lambda lib, T: getattr(lib, name)([arange(lib, s, start=10 * i) for i, s in enumerate(shapes)]))
    check(lambda lib, T: getattr(lib, name)(tuple(arange(lib, s, "int32", 10 * i) for i, s in enumerate(shapes))))


@pytest.mark.parametrize("name", ["dstack", "column_stack", "row_stack"])
def test_stacks_promote_and_write_out(name):
    check(lambda lib, T: getattr(lib, name)([arange(lib, (2, 2), "int16"), arange(lib, (2, 2), "float64")]))
    for lib in (wick, torch):
        out = lib.empty(0, dtype=lib.float64)
        result = getattr(lib, name)([arange(lib, (2, 2), "float64"), arange(lib, (2, 2), "float64")], out=out)
        assert result is out
    check(lambda lib, T: getattr(lib, name)([arange(lib, (2, 2)), arange(lib, (2, 2))], out=lib.empty(0)))


@pytest.mark.parametrize("name", ["dstack", "column_stack", "row_stack"])
@pytest.mark.parametrize("bad", ["empty", "tensor", "int", "mixed", "mismatch"])
def test_stack_errors(name, bad):
    def case(lib, T):
        x = arange(lib, (2, 3))
        tensors = {"empty": [], "tensor": x, "int": [1], "mixed": [x, 2.0], "mismatch": [x, arange(lib, (3, 2))]}
        return getattr(lib, name)(tensors[bad])

    check(case)


def test_stacks_gradient():
    for name in ("dstack", "column_stack", "row_stack"):
        check_grad(lambda lib, a, b: getattr(lib, name)([a, b]), (3,), (3,))


# tensor_split, hsplit, vsplit, dsplit

SPLITS = [1, 2, 3, 5, 7, [], [1], [2, 4], [0, 0], [5, -1, 1], [-2], [10, 20], (1, 3), [-10, 2]]


@pytest.mark.parametrize("split", SPLITS, ids=str)
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((5, 3), 0), ((3, 5), 1), ((3, 5), -1), ((0, 4), 0),
                                       ((2, 6, 2), 1)], ids=str)
def test_tensor_split(split, shape, dim):
    check(lambda lib, T: lib.tensor_split(arange(lib, shape), split, dim))
    check(lambda lib, T: arange(lib, shape).tensor_split(split, dim=dim))
    tensor_form = torch.tensor(split) if isinstance(split, int) else torch.tensor(list(split), dtype=torch.int64)
    check(lambda lib, T: lib.tensor_split(arange(lib, shape), T(tensor_form.numpy(), "int64"), dim))


def test_tensor_split_keywords_and_views():
    check(lambda lib, T: lib.tensor_split(arange(lib, (7,)), sections=3))
    check(lambda lib, T: lib.tensor_split(arange(lib, (7,)), indices=[2, 3]))
    check(lambda lib, T: lib.tensor_split(arange(lib, (7,)), tensor_indices_or_sections=T(3, "int64")))
    x = wick.arange(12.0).reshape(3, 4).clone()
    pieces = wick.tensor_split(x, [1, 3], dim=1)
    assert all(p._base is x for p in pieces)
    pieces[1][0, 0] = 100  # the pieces are views: a write shows in x
    assert x[0, 1].item() == 100


@pytest.mark.parametrize("case", [
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), 0),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), -2),
    lambda lib, T: lib.tensor_split(arange(lib, ()), 2),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), 2, 1),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), 2, -2),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), 2.0),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), True),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), (1.5,)),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), "2"),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), 2, 0.0),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), T([1, 2], "int32")),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), T([2.0])),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), T([[1, 2]], "int64")),
    lambda lib, T: lib.tensor_split(arange(lib, (4,)), T(0, "int64")),
    lambda lib, T: lib.tensor_split([1, 2], 2),
    lambda lib, T: lib.tensor_split(arange(lib, (4,))),
])
def test_tensor_split_errors(case):
    check(case)


def test_tensor_split_refuses_absurd_section_counts():
    with pytest.raises(RuntimeError, match="sections"):
        wick.tensor_split(wick.ones(3), 2 ** 31 - 1)


@pytest.mark.parametrize("name,shape", [("hsplit", (6,)), ("hsplit", (2, 6)), ("hsplit", (2, 6, 3)),
                                        ("vsplit", (6, 2)), ("vsplit", (6, 2, 3)), ("dsplit", (2, 3, 6)),
                                        ("dsplit", (1, 2, 6, 2))], ids=str)
@pytest.mark.parametrize("split", [1, 2, 3, 6, 4, 0, -3, 12, [], [1, 4], [5, 2], (3,)], ids=str)
def test_hsplit_vsplit_dsplit(name, shape, split):
    check(lambda lib, T: getattr(lib, name)(arange(lib, shape), split))
    check(lambda lib, T: getattr(arange(lib, shape), name)(split))


@pytest.mark.parametrize("name", ["hsplit", "vsplit", "dsplit"])
def test_hsplit_vsplit_dsplit_keywords_and_errors(name):
    shape = (6, 6, 6)
    check(lambda lib, T: getattr(lib, name)(arange(lib, shape), sections=3))
    check(lambda lib, T: getattr(lib, name)(arange(lib, shape), indices=[2]))
    for too_few in [(), (6,), (6, 6)][:{"hsplit": 1, "vsplit": 2, "dsplit": 3}[name]]:
        check(lambda lib, T: getattr(lib, name)(arange(lib, too_few), 1))
    check(lambda lib, T: getattr(lib, name)(arange(lib, shape), 2.0))
    check(lambda lib, T: getattr(lib, name)(6, 2))


def test_splits_gradient():
    check_grad(lambda lib, x: lib.tensor_split(x, [1, 3], 1), (2, 5))
    check_grad(lambda lib, x: lib.vsplit(x, 2), (4, 3))


# diag_embed, diagflat, block_diag

@pytest.mark.parametrize("shape", [(3,), (0,), (2, 3), (2, 0), (2, 3, 2)], ids=str)
@pytest.mark.parametrize("offset", [0, 1, -2, 3])
@pytest.mark.parametrize("dims", [(-2, -1), (-1, -2), (0, 1), (1, 0), (0, -1), (0, 2), (2, 0), (1, -1)], ids=str)
def test_diag_embed(shape, offset, dims):
    check(lambda lib, T: lib.diag_embed(arange(lib, shape), offset, *dims))
    check(lambda lib, T: arange(lib, shape).diag_embed(offset=offset, dim1=dims[0], dim2=dims[1]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_embed_and_diagflat_dtypes(dtype):
    check(lambda lib, T: lib.diag_embed(arange(lib, (2, 3), dtype), 1))
    if dtype == "float16":  # PyTorch 1.13 has no float16 diag on the CPU: wick's is its float32 one, rounded
        assert_same(wick.diagflat(arange(wick, (2, 2), dtype), -1).float(),
                    torch.diagflat(arange(torch, (2, 2), "float32"), -1))
    else:
        check(lambda lib, T: lib.diagflat(arange(lib, (2, 2), dtype), -1))


@pytest.mark.parametrize("case", [
    lambda lib, T: lib.diag_embed(arange(lib, ())),
    lambda lib, T: lib.diag_embed(arange(lib, (3,)), 0, 1, 1),
    lambda lib, T: lib.diag_embed(arange(lib, (3,)), 0, -1, 1),
    lambda lib, T: lib.diag_embed(arange(lib, (3,)), 0, 0, 2),
    lambda lib, T: lib.diag_embed(arange(lib, (3,)), 0, -3, 1),
    lambda lib, T: lib.diag_embed(arange(lib, (3,)), 1.0),
    lambda lib, T: lib.diag_embed([1.0, 2.0]),
    lambda lib, T: lib.diagflat(arange(lib, (3,)), 0.5),
    lambda lib, T: lib.diagflat((1, 2)),
])
def test_diag_errors(case):
    check(case)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("offset", [0, 2, -1])
def test_diagflat(shape, offset):
    check(lambda lib, T: lib.diagflat(arange(lib, shape), offset))
    check(lambda lib, T: arange(lib, shape).transpose(0, -1).diagflat(offset=offset) if len(shape) > 1 else
          arange(lib, shape).diagflat(offset))


def test_diag_gradients():
    check_grad(lambda lib, x: lib.diag_embed(x, -1, 0, 2), (2, 3))
    check_grad(lambda lib, x: lib.diagflat(x, 2), (2, 2))


BLOCKS = [[], [(2, 2)], [(), (3,), (2, 2)], [(0, 3), (2, 0), (1, 1)], [(2, 3), (3, 2), (0,)], [(1, 0)]]


@pytest.mark.parametrize("shapes", BLOCKS, ids=str)
def test_block_diag(shapes):
    check(lambda lib, T: lib.block_diag(*(arange(lib, s, start=10 * i) for i, s in enumerate(shapes))))


@pytest.mark.parametrize("dtypes", [("int64", "float32"), ("bool", "uint8"), ("int8", "uint8"),
                                    ("float16", "bfloat16"), ("bool", "bool")], ids=str)
@pytest.mark.parametrize("shapes", [[(2,), (2, 2)], [(), (2, 2)], [(2, 2), ()], [(), ()]], ids=str)
def test_block_diag_promotes_as_result_type(dtypes, shapes):
    check(lambda lib, T: lib.block_diag(*(arange(lib, s, d) for s, d in zip(shapes, dtypes))))


def test_block_diag_errors_and_gradient():
    check(lambda lib, T: lib.block_diag(arange(lib, (1, 1, 1))))
    check(lambda lib, T: lib.block_diag(arange(lib, (2,)), 1))
    check(lambda lib, T: lib.block_diag([arange(lib, (2,))]))
    check_grad(lambda lib, a, b, c: lib.block_diag(a, b, c), (2, 3), (), (2,))


# cartesian_prod, combinations, triu_indices, tril_indices

@pytest.mark.parametrize("shapes", [[(3,)], [(2,), (3,)], [(2,), (0,)], [(1,), (2,), (3,)], [(2,), (2,), (2,), (2,)]],
                         ids=str)
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool", "bfloat16"])
def test_cartesian_prod(shapes, dtype):
    check(lambda lib, T: lib.cartesian_prod(*(arange(lib, s, dtype, start=10 * i) for i, s in enumerate(shapes))))


def test_cartesian_prod_of_one_is_itself_and_errors():
    x = wick.arange(3)
    assert wick.cartesian_prod(x) is x
    check(lambda lib, T: lib.cartesian_prod())
    check(lambda lib, T: lib.cartesian_prod(arange(lib, ())))
    check(lambda lib, T: lib.cartesian_prod(arange(lib, (2,)), arange(lib, (2, 2))))
    check(lambda lib, T: lib.cartesian_prod(arange(lib, (2,)), arange(lib, (2,), "int64")))
    check(lambda lib, T: lib.cartesian_prod(arange(lib, (2,)), [1, 2]))
    check_grad(lambda lib, a, b: lib.cartesian_prod(a, b), (2,), (3,))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("r", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("with_replacement", [False, True])
def test_combinations(n, r, with_replacement):
    ours = check(lambda lib, T: lib.combinations(arange(lib, (n,)), r, with_replacement))
    if r:
        pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
        assert ours.tolist() == [list(c) for c in pick(range(1, n + 1), r)]


@pytest.mark.parametrize("dtype", ["bool", "int16", "float16", "float64"])
def test_combinations_dtypes_and_keywords(dtype):
    check(lambda lib, T: lib.combinations(arange(lib, (4,), dtype), r=3, with_replacement=True))


def test_combinations_errors_and_gradient():
    check(lambda lib, T: lib.combinations(arange(lib, ())))
    check(lambda lib, T: lib.combinations(arange(lib, (2, 2))))
    check(lambda lib, T: lib.combinations(arange(lib, (3,)), -1))
    check(lambda lib, T: lib.combinations(arange(lib, (3,)), 2.0))
    check(lambda lib, T: lib.combinations(arange(lib, (3,)), 2, 1))
    check(lambda lib, T: lib.combinations([1, 2, 3]))
    check_grad(lambda lib, x: lib.combinations(x, 2), (4,))
    check_grad(lambda lib, x: lib.combinations(x, 3, True), (3,))


def test_combinations_of_long_tuples():
    """r far past any grid's dims: an input of 0 or 1 element gives at most one row at once; more elements give a
    grid too big to hold."""
    assert wick.combinations(wick.tensor([7]), 10 ** 6, True).shape == (1, 10 ** 6)
    assert wick.combinations(wick.tensor([7]), 10 ** 6).shape == (0, 10 ** 6)
    assert wick.combinations(wick.ones(0), 10 ** 6).shape == (0, 10 ** 6)
    with pytest.raises(MemoryError):
        wick.combinations(wick.ones(2), 2 ** 31)


@pytest.mark.parametrize("name", ["triu_indices", "tril_indices"])
@pytest.mark.parametrize("row,col", [(0, 0), (0, 3), (3, 0), (1, 1), (3, 3), (3, 5), (5, 3)], ids=str)
@pytest.mark.parametrize("offset", [-6, -2, -1, 0, 1, 2, 6])
def test_triangle_indices(name, row, col, offset):
    check(lambda lib, T: getattr(lib, name)(row, col, offset))


@pytest.mark.parametrize("name", ["triu_indices", "tril_indices"])
def test_triangle_indices_options_and_errors(name):
    check(lambda lib, T: getattr(lib, name)(4, 3, -1, dtype=lib.int32, device="cpu"))
    check(lambda lib, T: getattr(lib, name)(4, 3, offset=1, dtype=None))
    check(lambda lib, T: getattr(lib, name)(row=2, col=3))
    for dtype in ["float32", "float64", "int16", "uint8", "bool", "bfloat16"]:
        check(lambda lib, T: getattr(lib, name)(3, 3, dtype=getattr(lib, dtype)))
    for args in [(-1, 3), (3, -1), (3.0, 3), (3, 3, 1.0), (True, 3), ("3", 3)]:
        check(lambda lib, T: getattr(lib, name)(*args))
    check(lambda lib, T: getattr(lib, name)(3, 3, requires_grad=True))
    check(lambda lib, T: getattr(lib, name)(3, 3, dtype="int64"))


def test_triangle_indices_of_huge_matrices_with_few_cells():
    """The work follows the cells there are, not the matrix (as PyTorch's), also at the ends of int64."""
    check(lambda lib, T: lib.tril_indices(2 ** 40, 0))
    check(lambda lib, T: lib.triu_indices(2 ** 40, 0, -5))
    check(lambda lib, T: lib.tril_indices(2 ** 40, 1, -2 ** 40 + 2))
    check(lambda lib, T: lib.triu_indices(2 ** 40, 2 ** 40, 2 ** 40 - 2))
    check(lambda lib, T: lib.triu_indices(3, 3, 2 ** 62))
    check(lambda lib, T: lib.tril_indices(3, 3, -2 ** 63))
    # PyTorch 1.13 overflows here and makes up six cells; there are none above the diagonal 2**63 - 1.
    assert wick.triu_indices(3, 3, 2 ** 63 - 1).shape == (2, 0)


# take_along_dim, argwhere

@pytest.mark.parametrize("shape,index,dim", [
    ((2, 3), [[0, 2]], 1), ((2, 3), [[1], [0]], 1), ((2, 3), [[0, 1, 0]], 0),
    ((3, 1, 2), np.zeros((1, 4, 2), "int64"), 2), ((3, 1, 2), np.zeros((1, 4, 2), "int64"), 1),
    ((2, 3), np.ones((2, 5), "int64"), -1), ((2, 3), np.zeros((2, 0), "int64"), 1), ((0, 3), [[1]], 1),
    ((2, 3), [[0, 2]], None), ((2, 3), [5, 0, 1], None), ((), 0, None), ((2, 3), [[0, 2]], 0),
    ((2, 3), [0, 2], 1), ((2, 3), [[0, 1, 2]], -3), ((), 0, 0), ((), 0, 1),
    ((2, 3), np.zeros((3, 3), "int64"), 1)], ids=str)
def test_take_along_dim(shape, index, dim):
    check(lambda lib, T: lib.take_along_dim(arange(lib, shape), T(index, "int64"), dim))
    check(lambda lib, T: arange(lib, shape).take_along_dim(T(index, "int64"), dim=dim))


@pytest.mark.parametrize("dtype", DTYPES)
def test_take_along_dim_dtypes_and_out(dtype):
    check(lambda lib, T: lib.take_along_dim(arange(lib, (3, 4), dtype), T([[2, 0, 1, 1]], "int64"), 0))
    check(lambda lib, T: lib.take_along_dim(arange(lib, (3, 4), dtype), T([[3, 0]], "int64"), 1,
                                            out=lib.empty(0, dtype=getattr(lib, dtype))))


@pytest.mark.parametrize("index,dim", [([[7]], 1), ([[-1, 0]], 1), ([6], None), ([-1], None)], ids=str)
def test_take_along_dim_out_of_range(index, dim):
    """As PyTorch's, gather() refuses the index; wick's gather says so with an IndexError, PyTorch's with a
    RuntimeError."""
    x = wick.arange(6.0).reshape(2, 3)
    with pytest.raises(IndexError, match="out of bounds"):
        wick.take_along_dim(x, wick.tensor(index), dim)
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.take_along_dim(torch.arange(6.0).reshape(2, 3), torch.tensor(index), dim)


def test_take_along_dim_errors_and_gradient():
    check(lambda lib, T: lib.take_along_dim(arange(lib, (2, 3)), T([[0]], "int32"), 1))
    check(lambda lib, T: lib.take_along_dim(arange(lib, (2, 3)), T([0], "int32")))
    check(lambda lib, T: lib.take_along_dim(arange(lib, (2, 3)).t(), T([0], "int64")))  # PyTorch views, so fails
    check(lambda lib, T: lib.take_along_dim(arange(lib, (2, 3)), 1))
    check(lambda lib, T: lib.take_along_dim(arange(lib, (2, 3)), T([[0]], "int64"), 1.0))
    check_grad(lambda lib, x: lib.take_along_dim(x, make(lib, [[1, 1, 0], [2, 0, 0]], "int64"), 0), (3, 3))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_argwhere(shape, dtype):
    check(lambda lib, T: lib.argwhere(arange(lib, shape, dtype) % 3 if dtype != "bool" else arange(lib, shape, dtype)))
    check(lambda lib, T: arange(lib, shape, dtype).argwhere())


def test_argwhere_of_a_non_tensor():
    check(lambda lib, T: lib.argwhere([1, 0]))


# repeat_interleave

@pytest.mark.parametrize("repeats", [[1, 0, 2], [0, 0], [], [3], [2, 5, 0, 1]], ids=str)
@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_repeat_interleave_of_repeats_alone(repeats, dtype):
    check(lambda lib, T: lib.repeat_interleave(T(repeats, dtype)))
    check(lambda lib, T: lib.repeat_interleave(T(repeats, dtype), output_size=sum(repeats)))


@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (0, 3), (2, 0, 2)], ids=str)
@pytest.mark.parametrize("repeats", [0, 1, 3, "0-d", "1 of 1", "per slice", "int32 per slice"])
@pytest.mark.parametrize("dim", [None, 0, 1, -1, 2])
def test_repeat_interleave(shape, repeats, dim):
    def case(lib, T):
        x = arange(lib, shape)
        size = x.numel() if dim is None else x.size(dim)
        counts = {"0-d": T(2, "int64"), "1 of 1": T([3], "int64"), "per slice": T(np.arange(size) % 3, "int64"),
                  "int32 per slice": T(np.arange(size) % 3, "int32")}.get(repeats, repeats)
        return lib.repeat_interleave(x, counts, dim)

    check(case)


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_interleave_dtypes_keywords_and_method(dtype):
    check(lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3), dtype), repeats=2, dim=1))
    check(lambda lib, T: arange(lib, (2, 3), dtype).repeat_interleave(T([1, 2], "int64"), dim=0, output_size=3))
    check(lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3), dtype), 2, None, output_size=12))


@pytest.mark.parametrize("case", [
    lambda lib, T: lib.repeat_interleave(T([1, -1, 2], "int64")),
    lambda lib, T: lib.repeat_interleave(T([1, 2], "int16")),
    lambda lib, T: lib.repeat_interleave(T([1.0, 2.0])),
    lambda lib, T: lib.repeat_interleave(T(2, "int64")),
    lambda lib, T: lib.repeat_interleave(T([[2]], "int64")),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), -1),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), 2.0),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), True),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), None, 0),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), dim=0),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), 2, 0.0),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), T([1, 2], "int64"), 1),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), T([1, 2], "int64")),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), T([[1]], "int64"), 0),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), T([1, -2], "int64"), 0),
    lambda lib, T: lib.repeat_interleave(arange(lib, (2, 3)), T(3.0), 0),
    lambda lib, T: lib.repeat_interleave(arange(lib, ()), 3, 0),
    lambda lib, T: lib.repeat_interleave([1, 2], 2),
])
def test_repeat_interleave_errors(case):
    check(case)


def test_repeat_interleave_output_size_must_match():
    """PyTorch 1.13 writes past its buffer when output_size is wrong; wick refuses it."""
    with pytest.raises(RuntimeError, match="does not match"):
        wick.repeat_interleave(wick.tensor([1, 2]), output_size=2)
    with pytest.raises(RuntimeError, match="does not match"):
        wick.repeat_interleave(wick.ones(2, 3), 2, dim=0, output_size=5)


def test_repeat_interleave_gradient():
    check_grad(lambda lib, x: lib.repeat_interleave(x, 2, 1), (2, 3))
    check_grad(lambda lib, x: lib.repeat_interleave(x, make(lib, [2, 0, 1], "int64"), 0), (3, 2))
    check_grad(lambda lib, x: lib.repeat_interleave(x, 3), (2, 2))


# The package's view of the module.

def test_exports_and_methods():
    import wick.shape_functions as module

    for name in module.__all__:
        assert getattr(wick, name) is getattr(module, name)
        assert getattr(torch, name)
    for name in module.METHODS:
        assert getattr(wick.Tensor, name) is getattr(module, name)
        assert hasattr(torch.Tensor, name)
    in_place = {n for n in module.METHODS if n.endswith("_")}  # methods only, as in PyTorch
    assert set(module.METHODS) - in_place == {n for n in module.__all__ if hasattr(torch.Tensor, n)}
    assert all(n[:-1] in module.__all__ and not hasattr(torch, n) for n in in_place)


# Indexed writes and reductions: index_copy, index_fill, masked_scatter, scatter_reduce, index_reduce and their
# in-place forms.

def check_in_place(name, make_self, *args, **kwargs):
    """self.name_(*args) agrees with PyTorch's, returns self and leaves in self what name() returns."""
    def case(lib, T):
        self = make_self(lib)
        result = getattr(self, name + "_")(*[a(lib) if callable(a) else a for a in args], **kwargs)
        assert result is self
        return self

    ours = check(case)
    functional = check(lambda lib, T: getattr(make_self(lib), name)(*[a(lib) if callable(a) else a for a in args],
                                                                    **kwargs))
    if isinstance(ours, wick.Tensor):
        assert values(ours)[:2] == values(functional)[:2]
        np.testing.assert_array_equal(values(ours)[2], values(functional)[2])
    else:
        assert type(ours) is type(functional)


def index(lib, data):
    return make(lib, data, "int64")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim,idx,source_shape", [(0, [1, 0], (2, 3)), (1, [2, 0], (2, 2)), (-1, [1], (2, 1)),
                                                  (1, [0, 0], (2, 2)), (1, [], (2, 0)), (1, 1, (2, 1))], ids=str)
def test_index_copy(dtype, dim, idx, source_shape):
    source = lambda lib: arange(lib, source_shape, dtype, start=50)  # noqa: E731
    check(lambda lib, T: lib.index_copy(arange(lib, (2, 3), dtype), dim, index(lib, idx), source(lib)))
    check_in_place("index_copy", lambda lib: arange(lib, (2, 3), dtype), dim, lambda lib: index(lib, idx), source)


@pytest.mark.parametrize("case", [
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 2]).int(), s),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 3]), s),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, -1]), s),
    lambda lib, x, s: x.index_copy(2, index(lib, [0, 2]), s),
    lambda lib, x, s: x.index_copy(1, index(lib, [[0, 2]]), s),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 2]), s.double()),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 2]), s[0]),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 2]), s.t()),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 1, 2]), s),
    lambda lib, x, s: x.index_copy(1, index(lib, [0, 2]), s.sum()),
    lambda lib, x, s: x.index_copy(1, index(lib, 1), s.sum()),
    lambda lib, x, s: x[0, 0].index_copy(0, index(lib, [0]), s.sum()),
    lambda lib, x, s: x[0, 0].index_copy(0, index(lib, [0, 0]), s.sum()),
    lambda lib, x, s: x[0, 0].index_copy(0, index(lib, [0]), s[0, :1]),
    lambda lib, x, s: x[0].index_copy(0, index(lib, [1]), s.sum()),
    lambda lib, x, s: x.index_copy(1, [0, 2], s),
    lambda lib, x, s: x.index_copy(1.0, index(lib, [0, 2]), s),
])
def test_index_copy_edges_and_errors(case):
    check(lambda lib, T: case(lib, arange(lib, (2, 3)), arange(lib, (2, 2), start=50)))


def test_index_copy_gradient():
    check_grad(lambda lib, x, s: lib.index_copy(x, 1, index(lib, [2, 0]), s), (2, 3), (2, 2))
    check_grad(lambda lib, x, s: (x * 1).index_copy_(0, index(lib, [1]), s), (2, 3), (1, 3))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim,idx,value", [(0, [1], 7), (1, [2, 0, 2], -1), (-1, [-1, -3], 2.5), (1, 1, True),
                                           (1, [], 3), (0, [0], 300)], ids=str)
def test_index_fill(dtype, dim, idx, value):
    check(lambda lib, T: lib.index_fill(arange(lib, (2, 3), dtype), dim, index(lib, idx), value))
    check_in_place("index_fill", lambda lib: arange(lib, (2, 3), dtype), dim, lambda lib: index(lib, idx), value)
    check(lambda lib, T: arange(lib, (2, 3), dtype).index_fill(dim, index(lib, idx), make(lib, 4, "int64")))


@pytest.mark.parametrize("case", [
    lambda lib, x: x.index_fill(1, index(lib, [3]), 7),
    lambda lib, x: x.index_fill(1, index(lib, [-4]), 7),
    lambda lib, x: x.index_fill(1, index(lib, [0]).int(), 7),
    lambda lib, x: x.index_fill(1, index(lib, [0]).float(), 7),
    lambda lib, x: x.index_fill(1, index(lib, [[0]]), 7),
    lambda lib, x: x.index_fill(3, index(lib, [0]), 7),
    lambda lib, x: x.index_fill(1, index(lib, [0]), make(lib, [7.0])),
    lambda lib, x: x.index_fill(1, index(lib, [0]), "7"),
    lambda lib, x: x[0, 0].index_fill(0, index(lib, [0]), 7),
    lambda lib, x: x[0, 0].index_fill(-1, index(lib, [-1]), 7),
    lambda lib, x: x[0, 0].index_fill(0, index(lib, [1]), 7),
    lambda lib, x: x.to(lib.uint8).index_fill(1, index(lib, [0]), -1),
    lambda lib, x: x.to(lib.uint8).index_fill(1, index(lib, [0]), 256),
])
def test_index_fill_edges_and_errors(case):
    check(lambda lib, T: case(lib, arange(lib, (2, 3))))


def test_index_fill_gradient():
    check_grad(lambda lib, x: lib.index_fill(x, 1, index(lib, [2, 0, 2]), -1.0), (2, 3))
    check_grad(lambda lib, x, v: x.index_fill(1, index(lib, [2, 0, 2]), v.sum()), (2, 3), (2,))


MASKS = [[True, False, True], [[True], [False]], [[False, False, False], [False, False, False]], True]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mask", MASKS, ids=str)
def test_masked_scatter(dtype, mask):
    source = lambda lib: arange(lib, (2, 5), dtype, start=20)  # noqa: E731
    check(lambda lib, T: lib.masked_scatter(arange(lib, (2, 3), dtype), make(lib, mask, "bool"), source(lib)))
    check_in_place("masked_scatter", lambda lib: arange(lib, (2, 3), dtype), lambda lib: make(lib, mask, "bool"),
                   source)


@pytest.mark.parametrize("case", [
    lambda lib, x, m: x.masked_scatter(m, arange(lib, (3,), start=9)),
    lambda lib, x, m: x.masked_scatter(m, arange(lib, (10,), "int64")),
    lambda lib, x, m: x[0].masked_scatter(m.expand(2, 3), arange(lib, (10,))),
    lambda lib, x, m: x[0].clone().masked_scatter_(m.expand(2, 3), arange(lib, (10,))),
    lambda lib, x, m: x.masked_scatter(m[:2], arange(lib, (10,))),
    lambda lib, x, m: x.masked_scatter(m, arange(lib, ())),
    lambda lib, x, m: x.masked_scatter(m, 1.0),
    lambda lib, x, m: x.masked_scatter(m.to(lib.uint8), arange(lib, (10,))),
    lambda lib, x, m: x[0, 0].masked_scatter(m[0], arange(lib, (1,), start=7)),
    lambda lib, x, m: x[:0].masked_scatter(m, arange(lib, (0,))),
])
def test_masked_scatter_edges_and_errors(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's and wick's deprecation of uint8 masks
        check(lambda lib, T: case(lib, arange(lib, (2, 3)), make(lib, [True, False, True], "bool")))


def test_masked_scatter_gradient():
    check_grad(lambda lib, x, s: lib.masked_scatter(x, make(lib, [[True, False, True]], "bool"), s), (2, 3), (7,))
    check_grad(lambda lib, x, s: x.masked_scatter(make(lib, [[True], [False]], "bool"), s), (1, 3), (2, 2))


REDUCTIONS = ["sum", "prod", "mean", "amax", "amin"]


def scatter_case(dtype, seed, shape=(3, 4), index_shape=(3, 5), dim=1):
    """Small-integer inputs whose products and sums are exact, with repeated indices and ties."""
    rng = np.random.default_rng(seed)
    low = 0 if dtype in ("bool", "uint8") else -3
    high = 2 if dtype == "bool" else 4
    self_data = rng.integers(low, high, shape)
    src_data = rng.integers(low, high, tuple(n + 1 for n in index_shape))
    index_data = rng.integers(0, shape[dim] if shape else 1, index_shape)
    return self_data, index_data, src_data


@pytest.mark.parametrize("reduce", REDUCTIONS)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_scatter_reduce(reduce, include_self, dtype):
    for seed, dim, shape, index_shape in [(0, 1, (3, 4), (3, 5)), (1, 0, (4, 3), (6, 2)), (2, -1, (2, 3, 4), (2, 2, 6)),
                                          (3, 0, (5,), (9,)), (4, 0, (), ()), (5, 0, (), (3,))]:
        self_data, index_data, src_data = scatter_case(dtype, seed, shape, index_shape, dim)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch's "in beta" warning
            check(lambda lib, T: lib.scatter_reduce(make(lib, self_data, dtype), dim, index(lib, index_data),
                                                    make(lib, src_data, dtype), reduce, include_self=include_self))
            check_in_place("scatter_reduce", lambda lib: make(lib, self_data, dtype), dim,
                           lambda lib: index(lib, index_data), lambda lib: make(lib, src_data, dtype), reduce,
                           include_self=include_self)


@pytest.mark.parametrize("reduce", ["amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_nans(reduce, include_self):
    nan = float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda lib, T: make(lib, [1.0, nan, 3.0, 4.0]).scatter_reduce(
            0, index(lib, [0, 0, 1, 1, 2, 2]), make(lib, [nan, 2.0, 3.0, 1.0, 2.0, nan]), reduce,
            include_self=include_self))


@pytest.mark.parametrize("case", [
    lambda lib, x, i, s: x.scatter_reduce(1, i, s, "max"),
    lambda lib, x, i, s: x.scatter_reduce(1, i, s, 3),
    lambda lib, x, i, s: x.scatter_reduce(1, i, s.double(), "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, i.int(), s, "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, i + 5, s, "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, i - 1, s, "prod"),
    lambda lib, x, i, s: x.scatter_reduce(1, i, s[:, :1], "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, i.reshape(-1), s, "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, i, s.reshape(-1), "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, index(lib, np.zeros((3, 3))), s, "sum"),
    lambda lib, x, i, s: x.scatter_reduce(2, i, s, "sum"),
    lambda lib, x, i, s: x.scatter_reduce(1, i[:, :0], s, "prod", include_self=False),
    lambda lib, x, i, s: x.scatter_reduce(1, i[:, :0].int(), s, "amax"),
    lambda lib, x, i, s: x.scatter_reduce(1, i, s, reduce="mean", include_self=1),
    lambda lib, x, i, s: x.to(lib.bool).scatter_reduce(1, i, s.to(lib.bool), "mean"),
    lambda lib, x, i, s: x.scatter_reduce_(1, i, s, "amax"),
])
def test_scatter_reduce_edges_and_errors(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda lib, T: case(lib, arange(lib, (2, 3)), index(lib, [[0, 0, 2], [1, 1, 1]]),
                                  make(lib, [[5, 1, 2, 7], [3, 3, 4, 9]])))


@pytest.mark.parametrize("reduce", REDUCTIONS)
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_gradient(reduce, include_self):
    """PyTorch's gradients, ties (shared evenly by amax and amin) and zeros (of prod) included. (src is no larger
    than index: PyTorch's backward fails where it is.)"""
    self_data = [[1.0, 0.0, 2.0], [3.0, 3.0, 0.0]]
    src_data = [[3.0, 1.0, 2.0, 2.0], [3.0, 0.0, 1.0, 3.0]]
    index_data = [[0, 0, 2, 2], [1, 2, 2, 0]]
    grads = []
    for lib in (wick, torch):
        x = make(lib, self_data, "float64").requires_grad_(True)
        s = make(lib, src_data, "float64").requires_grad_(True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = x.scatter_reduce(1, index(lib, index_data), s, reduce, include_self=include_self)
        (out * arange(lib, (2, 3), "float64", start=2)).sum().backward()
        grads.append((out, x.grad, s.grad))
    for ours, theirs in zip(*grads):
        assert_same(ours, theirs)


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_index_reduce(reduce, include_self, dtype):
    for seed, dim, shape, source_shape in [(0, 1, (3, 4), (3, 6)), (1, 0, (4, 3), (5, 3)), (3, 0, (5,), (8,)),
                                           (2, -1, (2, 3, 4), (2, 3, 7)), (4, 0, (), (3,))]:
        rng = np.random.default_rng(seed)
        low, high = (0, 2) if dtype == "bool" else (0, 4) if dtype == "uint8" else (-3, 4)
        self_data, source_data = rng.integers(low, high, shape), rng.integers(low, high, source_shape)
        index_data = rng.integers(0, shape[dim] if shape else 1, source_shape[dim] if source_shape else 1)
        for index_dtype in ("int64", "int32"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                check(lambda lib, T: lib.index_reduce(make(lib, self_data, dtype), dim,
                                                      make(lib, index_data, index_dtype),
                                                      make(lib, source_data, dtype), reduce, include_self=include_self))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_in_place("index_reduce", lambda lib: make(lib, self_data, dtype), dim,
                           lambda lib: index(lib, index_data), lambda lib: make(lib, source_data, dtype), reduce,
                           include_self=include_self)


@pytest.mark.parametrize("case", [
    lambda lib, x, i, s: x.index_reduce(1, i, s, "sum"),
    lambda lib, x, i, s: x.index_reduce(1, i, s, None),
    lambda lib, x, i, s: x.index_reduce(1, i + 1, s, "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i - 1, s, "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i.float(), s, "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i, s.double(), "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i[:2], s, "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i.reshape(3, 1), s, "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i[0], s[:, :1], "amax"),
    lambda lib, x, i, s: x.index_reduce(1, i, s[0], "mean"),
    lambda lib, x, i, s: x.index_reduce(0, i, s, "mean"),
    lambda lib, x, i, s: x.index_reduce(2, i, s, "mean"),
    lambda lib, x, i, s: x.index_reduce(1, i, make(lib, np.ones((3, 3))), "mean"),
    lambda lib, x, i, s: x.to(lib.bool).index_reduce(1, i, s.to(lib.bool), "mean"),
    lambda lib, x, i, s: x[0, 0].index_reduce(0, i[:2] * 0, s[0, :2], "prod"),
    lambda lib, x, i, s: x[0, 0].index_reduce(0, i[0] * 0, s[0, 0], "prod"),
])
def test_index_reduce_edges_and_errors(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda lib, T: case(lib, arange(lib, (2, 3)), index(lib, [0, 2, 0]), arange(lib, (2, 3), start=1)))


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_gradient(reduce, include_self):
    grads = []
    for lib in (wick, torch):
        x = make(lib, [[1.0, 0.0, 2.0], [3.0, 3.0, 0.0]], "float64").requires_grad_(True)
        s = make(lib, [[3.0, 1.0, 2.0, 2.0], [3.0, 0.0, 1.0, 3.0]], "float64").requires_grad_(True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = x.index_reduce(1, index(lib, [0, 0, 2, 2]), s, reduce, include_self=include_self)
        (out * arange(lib, (2, 3), "float64", start=2)).sum().backward()
        grads.append((out, x.grad, s.grad))
    for ours, theirs in zip(*grads):
        assert_same(ours, theirs)


def test_in_place_forms_refuse_a_leaf_that_requires_grad():
    for lib in (wick, torch):
        x = arange(lib, (2, 3), "float64").requires_grad_(True)
        with pytest.raises(RuntimeError):
            x.index_fill_(1, index(lib, [0]), 1.0)
