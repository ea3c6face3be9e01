"""nan_to_num (method, function, in place, out=) against np.nan_to_num, where the generated op tests
(ops/test_declared_ops.py) do not reach: the defaults (the dtype's largest finite values), some replacements
given and not others, self sliced with a step, results that are new tensors, positional arguments,
out= of another dtype."""
import warnings

import numpy as np
import pytest

import wick
from reference import DTYPES, FLOATS, LAYOUTS, assert_equal, make, root, shares_storage, tensor_in

# The largest finite value of each floating dtype (torch.finfo(dtype).max); NumPy has no bfloat16.
FINITE_MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
              "float32": float(np.finfo(np.float32).max), "float64": float(np.finfo(np.float64).max)}
SPECIAL = [np.nan, np.inf, -np.inf, 1.5, -0.0, -2.25]


def with_specials(layout, dtype):
    """A (3, 4, 6) tensor in `layout` whose first elements are NaN and infinities, and its values."""
    t, a = tensor_in(layout, dtype, (3, 4, 6), seed=7)
    if dtype in FLOATS:
        t[0, 0] = wick.tensor(SPECIAL, dtype=getattr(wick, dtype))
        t[2, 1, 2:4] = wick.tensor([np.inf, np.nan], dtype=getattr(wick, dtype))
        a = a.copy()
        a[0, 0] = SPECIAL
        a[2, 1, 2:4] = [np.inf, np.nan]
    return t, a


def reference(a, dtype, nan=0.0, posinf=None, neginf=None):
    if dtype not in FLOATS:
        return a
    big = FINITE_MAX[dtype]
    return np.nan_to_num(a.astype(np.float64), nan=nan, posinf=big if posinf is None else posinf,
                         neginf=-big if neginf is None else neginf)


def sweep():
    """All three replacements given, self contiguous or transposed: nan_to_num-<dtype>-contiguous and
    -noncontiguous, whose samples give all three; in place and out=, -inplace and -out."""
    cases = {"defaults": {}, "nan": {"nan": 1.5}, "all": {"nan": -1.0, "posinf": 7.0, "neginf": -8.0},
             "neginf": {"neginf": 0.5}}
    for name, args in cases.items():
        for dtype in DTYPES:
            for layout in ("stepped",) if name == "all" else LAYOUTS:
                yield pytest.param(args, dtype, layout, id=f"{name}-{dtype}-{layout}")


@pytest.mark.parametrize("args,dtype,layout", sweep())
def test_matches_numpy(args, dtype, layout):
    t, a = with_specials(layout, dtype)
    want = reference(a, dtype, **args)
    for result in (t.nan_to_num(**args), wick.nan_to_num(t, **args)):
        assert result._base is None and not shares_storage(root(t), result)
        assert_equal(result, want, dtype)
    out = wick.empty(0, dtype=getattr(wick, dtype))
    assert wick.nan_to_num(t, **args, out=out) is out
    assert_equal(out, want, dtype)
    assert t.nan_to_num_(**args) is t
    assert_equal(t, want, dtype)


def test_positional_arguments_and_none():
    x = wick.tensor([np.nan, np.inf, -np.inf, 2.0])
    assert x.nan_to_num(1.0, 2.0, 3.0).tolist() == [1.0, 2.0, 3.0, 2.0]
    assert wick.nan_to_num(x, None, None, -1.0).tolist() == [0.0, FINITE_MAX["float32"], -1.0, 2.0]


def test_defaults_are_the_dtypes_largest_finite_values():
    for dtype in FLOATS:
        x = wick.tensor([np.inf, -np.inf], dtype=getattr(wick, dtype)).nan_to_num()
        assert x.tolist() == [FINITE_MAX[dtype], -FINITE_MAX[dtype]]
        assert x.isfinite().all().item()


def test_integers_and_bool_are_copied():
    for dtype in ("bool", "uint8", "int32", "int64"):
        x = make(np.array([1, 0, 1]), dtype)
        r = x.nan_to_num(nan=5.0)
        assert r.dtype == x.dtype and r.tolist() == x.tolist() and not shares_storage(x, r)


def test_out_must_have_the_dtype_of_self():
    x = wick.tensor([np.nan, 1.0])
    with pytest.raises(TypeError, match="dtype of out: Double should be same as input: Float"):
        wick.nan_to_num(x, out=wick.empty(2, dtype=wick.float64))
    with pytest.raises(TypeError, match="dtype of out: Float should be same as input: Long"):
        wick.nan_to_num(wick.tensor([1]), out=wick.empty(1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="was resized"):
            wick.nan_to_num(x, out=wick.empty(3))


def test_bad_arguments():
    with pytest.raises(TypeError, match="invalid combination|must be float"):
        wick.ones(2).nan_to_num(nan="a")
    with pytest.raises(TypeError):
        wick.nan_to_num([1.0, np.nan])
