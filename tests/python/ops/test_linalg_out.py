"""out= on wick.linalg, against PyTorch 1.13: the result written into out (resized from zero elements, or with
PyTorch's warning from a wrong shape) and out returned; the dtype rules and messages of each function's out=
(most take only the result's dtype, pinv, matrix_rank, lstsq and matrix_power for n = 0 or 1 any dtype it casts
to safely); tuple outs (a tuple or a list, returned as the named tuple of the out tensors); and out= refused where
an input requires grad, except by matrix_norm, norm, matrix_power (n = 0 or 1) and matrix_rank, which take it
(the first three recording the copy into out, whose gradient is checked).
"""
import re
import warnings

import numpy as np
import pytest
import torch

import wick
from reference import to_numpy

RNG = np.random.default_rng(0)
SQUARE = RNG.uniform(-1, 1, (2, 3, 3)).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
SPD = (SQUARE + SQUARE.swapaxes(-1, -2)) / 2 + 3 * np.eye(3, dtype=np.float32)
TALL = RNG.uniform(-1, 1, (4, 3)).astype(np.float32)
RHS = RNG.uniform(-1, 1, (4, 2)).astype(np.float32)
VECTORS = RNG.standard_normal((2, 4, 3)).astype(np.float32)
RIGHT = RNG.uniform(-1, 1, (2, 2, 3)).astype(np.float32)
RANK_ONE = np.outer([1.0, 2.0, 3.0], [1.0, -1.0, 2.0]).astype(np.float32)

# Unique results, compared with PyTorch's within float32's LAPACK rounding; cast to float16, that rounding may
# round the two to neighbouring halves.
TOLERANCE = {torch.float16: dict(rtol=1e-3, atol=1e-3)}
FLOAT32 = dict(rtol=2e-4, atol=2e-5)


def tensor(lib, a, requires_grad=False):
    """lib's tensor (torch or wick) of the NumPy array a."""
    return lib.from_numpy(a.copy()).requires_grad_(requires_grad)


def as_torch(t):
    """A wick tensor's values as a torch tensor, dtype and shape included."""
    return torch.from_numpy(np.array(to_numpy(t)))


def same(got, expected):
    got = as_torch(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    torch.testing.assert_close(got, expected.detach(), **TOLERANCE.get(got.dtype, FLOAT32))


def empty(dtype):
    """A wick tensor with no elements of the dtype of that name."""
    return wick.empty(0, dtype=getattr(wick, dtype))


def dtype_name(t):
    return str(t.dtype).split(".")[1]


# name -> call(lib, x, **kw), x(array) making lib's tensors; each takes out= in PyTorch 1.13.
SINGLE = {
    "vector_norm": lambda lib, x, **kw: lib.linalg.vector_norm(x(VECTORS), 3, (0, 2), **kw),
    "vector_norm_dtype": lambda lib, x, **kw: lib.linalg.vector_norm(x(TALL), dtype=lib.float64, **kw),
    "matrix_norm": lambda lib, x, **kw: lib.linalg.matrix_norm(x(SQUARE), **kw),
    "matrix_norm_nuc": lambda lib, x, **kw: lib.linalg.matrix_norm(x(SQUARE), "nuc", keepdim=True, **kw),
    "matrix_norm_inf": lambda lib, x, **kw: lib.linalg.matrix_norm(x(TALL), float("inf"), **kw),
    "norm": lambda lib, x, **kw: lib.linalg.norm(x(SQUARE), **kw),
    "norm_matrix": lambda lib, x, **kw: lib.linalg.norm(x(TALL), 1, **kw),
    "cross": lambda lib, x, **kw: lib.linalg.cross(x(VECTORS[0]), x(VECTORS[1]), **kw),
    "vecdot": lambda lib, x, **kw: lib.linalg.vecdot(x(VECTORS[0]), x(VECTORS[1]), dim=0, **kw),
    "matrix_power_0": lambda lib, x, **kw: lib.linalg.matrix_power(x(SQUARE), 0, **kw),
    "matrix_power_1": lambda lib, x, **kw: lib.linalg.matrix_power(x(SQUARE), 1, **kw),
    "matrix_power_3": lambda lib, x, **kw: lib.linalg.matrix_power(x(SQUARE), 3, **kw),
    "matrix_power_-1": lambda lib, x, **kw: lib.linalg.matrix_power(x(SQUARE), -1, **kw),
    "matrix_power_-2": lambda lib, x, **kw: lib.linalg.matrix_power(x(SQUARE), -2, **kw),
    "multi_dot": lambda lib, x, **kw: lib.linalg.multi_dot([x(TALL), x(SQUARE[0]), x(RHS[:3])], **kw),
    "multi_dot_vectors": lambda lib, x, **kw: lib.linalg.multi_dot([x(TALL[:, 0]), x(TALL), x(SQUARE[0, 0])], **kw),
    "inv": lambda lib, x, **kw: lib.linalg.inv(x(SQUARE), **kw),
    "solve": lambda lib, x, **kw: lib.linalg.solve(x(SQUARE[0]), x(RHS[:3]), **kw),
    "solve_right": lambda lib, x, **kw: lib.linalg.solve(x(SQUARE), x(RIGHT), left=False, **kw),
    "det": lambda lib, x, **kw: lib.linalg.det(x(SQUARE), **kw),
    "cholesky": lambda lib, x, **kw: lib.linalg.cholesky(x(SPD), **kw),
    "cholesky_upper": lambda lib, x, **kw: lib.linalg.cholesky(x(SPD), upper=True, **kw),
    "eigvalsh": lambda lib, x, **kw: lib.linalg.eigvalsh(x(SPD), "U", **kw),
    "svdvals": lambda lib, x, **kw: lib.linalg.svdvals(x(TALL), **kw),
    "pinv": lambda lib, x, **kw: lib.linalg.pinv(x(TALL), **kw),
    "pinv_hermitian": lambda lib, x, **kw: lib.linalg.pinv(x(SPD), hermitian=True, **kw),
    "matrix_rank": lambda lib, x, **kw: lib.linalg.matrix_rank(x(RANK_ONE), **kw),
    "matrix_rank_hermitian": lambda lib, x, **kw: lib.linalg.matrix_rank(x(SPD), hermitian=True, **kw),
}

# name -> (call, the fields unique enough to compare with PyTorch's values); the others are compared with wick's
# own result without out= (and with PyTorch's in dtype and shape).
TUPLES = {
    "slogdet": (lambda lib, x, **kw: lib.linalg.slogdet(x(SQUARE), **kw), ("sign", "logabsdet")),
    "qr": (lambda lib, x, **kw: lib.linalg.qr(x(TALL), **kw), ()),
    "qr_complete": (lambda lib, x, **kw: lib.linalg.qr(x(TALL), "complete", **kw), ()),
    "qr_r": (lambda lib, x, **kw: lib.linalg.qr(x(TALL), mode="r", **kw), ("Q",)),
    "eigh": (lambda lib, x, **kw: lib.linalg.eigh(x(SPD), **kw), ("eigenvalues",)),
    "svd": (lambda lib, x, **kw: lib.linalg.svd(x(TALL), **kw), ("S",)),
    "svd_reduced": (lambda lib, x, **kw: lib.linalg.svd(x(SQUARE), False, **kw), ("S",)),
    "lstsq": (lambda lib, x, **kw: lib.linalg.lstsq(x(TALL), x(RHS), **kw),
              ("solution", "residuals", "rank", "singular_values")),
    "lstsq_gelsd": (lambda lib, x, **kw: lib.linalg.lstsq(x(TALL), x(RHS), driver="gelsd", **kw),
                    ("solution", "residuals", "rank", "singular_values")),
    "lstsq_gels_vector": (lambda lib, x, **kw: lib.linalg.lstsq(x(TALL), x(RHS[:, 0]), driver="gels", **kw),
                          ("solution", "residuals", "rank", "singular_values")),
}


def plain(lib):
    return lambda a: tensor(lib, a)


def outcome(call):
    """(the result, None) of call(), or (None, the exception it raised), with the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return call(), None, caught
        except Exception as e:  # compared between torch and wick by the caller
            return None, e, caught


@pytest.mark.parametrize("name", SINGLE)
def test_out_matches_pytorch(name):
    call = SINGLE[name]
    expected = call(torch, plain(torch))
    out = empty(dtype_name(expected))
    got = call(wick, plain(wick), out=out)
    assert got is out
    same(out, expected)
    np.testing.assert_array_equal(to_numpy(out), to_numpy(call(wick, plain(wick))))


@pytest.mark.parametrize("name", SINGLE)
def test_wrong_shape_is_resized_with_a_warning(name):
    call = SINGLE[name]
    expected = call(torch, plain(torch))
    out = wick.ones(5, 7, dtype=getattr(wick, dtype_name(expected)))
    with pytest.warns(UserWarning, match="was resized"):
        torch_out = torch.ones(5, 7, dtype=expected.dtype)
        call(torch, plain(torch), out=torch_out)  # PyTorch warns too, which pytest.warns sees as well
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert call(wick, plain(wick), out=out) is out
    assert any("was resized" in str(w.message) for w in caught)
    same(out, expected)


@pytest.mark.parametrize("dtype", ["float64", "float16", "int64", "int8", "bool"])
@pytest.mark.parametrize("name", SINGLE)
def test_out_dtype_rules(name, dtype):
    """Whichever out dtypes PyTorch takes, wick takes, writing the same values cast; the others raise the same
    error, with PyTorch's message."""
    call = SINGLE[name]
    torch_out = torch.empty(0, dtype=getattr(torch, dtype))
    expected, torch_error, _ = outcome(lambda: call(torch, plain(torch), out=torch_out))
    out = empty(dtype)
    got, error, _ = outcome(lambda: call(wick, plain(wick), out=out))
    if torch_error is not None:
        assert type(error) is type(torch_error) and str(error) == str(torch_error)
    else:
        assert error is None and got is out
        same(out, expected)


@pytest.mark.parametrize("name", SINGLE)
def test_inputs_requiring_grad(name):
    """Refused with out= as by PyTorch (which names an inner op where wick names the function), except by the
    functions that copy into out, whose gradient flows through the copy."""
    call = SINGLE[name]
    torch_inputs, wick_inputs = [], []

    def recorded(lib, inputs):
        """lib's tensors requiring grad, kept in inputs."""
        def x(a):
            inputs.append(tensor(lib, a, requires_grad=True))
            return inputs[-1]
        return x

    result = call(torch, plain(torch))
    expected, torch_error, _ = outcome(lambda: call(torch, recorded(torch, torch_inputs),
                                                    out=torch.empty(0, dtype=result.dtype)))
    out = empty(dtype_name(result))
    got, error, _ = outcome(lambda: call(wick, recorded(wick, wick_inputs), out=out))
    if torch_error is not None:
        assert type(error) is RuntimeError is type(torch_error)
        assert re.match(r"linalg_\w+\(\): functions with out=\.\.\. arguments don't support automatic "
                        "differentiation", str(error)), error
        return
    assert error is None and got is out
    same(out, expected)
    assert out.requires_grad == expected.requires_grad
    with wick.no_grad():  # and out= takes them where grad is off
        assert call(wick, plain(wick), out=empty(dtype_name(expected))) is not None
    if expected.requires_grad and name != "matrix_norm_nuc":  # wick has no derivative of the SVD yet
        expected.sum().backward()
        out.sum().backward()
        for ours, theirs in zip(wick_inputs, torch_inputs):
            same(ours.grad, theirs.grad)


def test_out_requires_grad_is_taken_without_grad_mode():
    with wick.no_grad():
        a = tensor(wick, SQUARE, requires_grad=True)
        out = empty("float32")
        assert wick.linalg.inv(a, out=out) is out
    same(out, torch.linalg.inv(tensor(torch, SQUARE)))


@pytest.mark.parametrize("kind", [tuple, list])
@pytest.mark.parametrize("name", TUPLES)
def test_tuple_out_matches_pytorch(name, kind):
    call, unique = TUPLES[name]
    expected = call(torch, plain(torch))
    outs = kind(empty(dtype_name(t)) for t in expected)
    got = call(wick, plain(wick), out=outs)
    own = call(wick, plain(wick))
    assert type(got) is type(own)  # the named tuple, of PyTorch's field names
    for field, ours, without_out, out in zip(got._fields, got, own, outs):
        theirs = getattr(expected, field)
        assert ours is out
        assert as_torch(ours).dtype == theirs.dtype and tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_array_equal(to_numpy(ours), to_numpy(without_out))
        if field in unique:
            same(ours, theirs)


@pytest.mark.parametrize("name", TUPLES)
def test_tuple_out_is_resized_with_a_warning(name):
    call, _ = TUPLES[name]
    expected = call(torch, plain(torch))
    outs = [wick.ones(2, 5, dtype=getattr(wick, dtype_name(t))) for t in expected]
    _, error, caught = outcome(lambda: call(wick, plain(wick), out=outs))
    assert error is None
    resized = sum("was resized" in str(w.message) for w in caught)
    assert resized == len(expected)  # every field has another shape than (2, 5)
    for ours, theirs in zip(outs, expected):
        assert tuple(ours.shape) == tuple(theirs.shape)


@pytest.mark.parametrize("name", TUPLES)
def test_tuple_out_of_the_wrong_form(name):
    call, _ = TUPLES[name]
    expected = call(torch, plain(torch))
    fields = [empty(dtype_name(t)) for t in expected]
    with pytest.raises(TypeError):
        call(torch, plain(torch), out=torch.empty(0))
    for wrong in (fields[0], tuple(fields[1:]), fields + [empty("float32")], [*fields[:-1], 3]):
        with pytest.raises(TypeError):
            call(wick, plain(wick), out=wrong)


@pytest.mark.parametrize("dtype", ["float64", "int64", "bool"])
@pytest.mark.parametrize("name", [name for name in TUPLES if not name.startswith("lstsq")])
def test_tuple_out_dtypes(name, dtype):
    """Each field of out must have its own dtype: a wrong one anywhere raises PyTorch's error before any write."""
    call, _ = TUPLES[name]
    expected = call(torch, plain(torch))
    for i in range(len(expected)):
        torch_outs = [torch.empty(0, dtype=getattr(torch, dtype) if j == i else t.dtype)
                      for j, t in enumerate(expected)]
        outs = [empty(dtype if j == i else dtype_name(t)) for j, t in enumerate(expected)]
        _, torch_error, _ = outcome(lambda: call(torch, plain(torch), out=torch_outs))
        _, error, _ = outcome(lambda: call(wick, plain(wick), out=outs))
        assert type(error) is type(torch_error) is RuntimeError and str(error) == str(torch_error)
        assert all(out.numel() == 0 for out in outs)


# lstsq: PyTorch 1.13 checks that each out is castable from its field's dtype (its message for residuals names
# solution, a slip wick does not copy). When the solution out has the input's dtype, PyTorch writes the other
# fields in place and then takes only their own dtypes (failing some by an INTERNAL ASSERT); wick takes any
# castable dtype for each field, so only cases where the two rules agree are compared.
LSTSQ_DTYPES = [
    ("gelsd", 0, "float64"), ("gelsd", 0, "int64"), ("gelsd", 1, "int32"), ("gelsd", 2, "int8"),
    ("gelsd", 2, "float64"), ("gelsd", 2, "bool"), ("gelsd", 3, "int64"), ("gelsd", 3, "float64"),
    ("gelsy", 2, "int32"), ("gels", 0, "float64"), ("gels", 2, "bool"), ("gels", 3, "int8"),
]


@pytest.mark.parametrize("driver, field, dtype", LSTSQ_DTYPES)
def test_lstsq_out_dtypes(driver, field, dtype):
    fields = ["float32", "float32", "int64", "float32"]
    fields[field] = dtype
    expected, torch_error, _ = outcome(lambda: torch.linalg.lstsq(
        tensor(torch, TALL), tensor(torch, RHS), driver=driver, out=[torch.empty(0, dtype=getattr(torch, d))
                                                                     for d in fields]))
    outs = [empty(d) for d in fields]
    got, error, _ = outcome(lambda: wick.linalg.lstsq(tensor(wick, TALL), tensor(wick, RHS), driver=driver,
                                                      out=outs))
    if torch_error is not None:
        assert type(error) is type(torch_error) is RuntimeError
        assert "torch.linalg.lstsq: Expected" in str(error) and "to be safely castable from" in str(error)
    else:
        assert error is None and all(ours is out for ours, out in zip(got, outs))
        for ours, theirs in zip(got, expected):
            same(ours, theirs)


def test_matrix_power_checks_castability_first():
    """PyTorch's matrix_power refuses an out that input's dtype does not cast to before computing (message
    included), then, for n other than 0 and 1, any out but one of input's dtype."""
    for n, dtype in [(2, "int64"), (0, "bool"), (-1, "int8")]:
        with pytest.raises(RuntimeError, match="matrix_power: Expected result to be safely castable from Float "
                                               "dtype, but got result with dtype"):
            wick.linalg.matrix_power(tensor(wick, SQUARE), n, out=empty(dtype))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float, but got double instead"):
        wick.linalg.matrix_power(tensor(wick, SQUARE), 2, out=empty("float64"))


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError, match=r"linalg_inv\(\): argument 'out' must be Tensor, not int"):
        wick.linalg.inv(tensor(wick, SQUARE), out=3)
