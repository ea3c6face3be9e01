"""wick.sampling (python_ext/wick/sampling.py): normal, bernoulli, poisson, multinomial and the in-place samplers
exponential_, random_, cauchy_, log_normal_, geometric_ and bernoulli_, against PyTorch 1.13: shapes, dtypes,
errors and gradients on the same calls; distributions by moments, supports and frequencies on fixed seeds, each
bound at Z standard errors, so that a wrong transform or a biased draw crosses it; the same values for the same
seed, whatever the number of threads."""
import math
import warnings

import numpy as np
import pytest
import torch

import wick
import wick.sampling

FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTEGERS = ["uint8", "int8", "int16", "int32", "int64"]
N = 2**17
Z = 6.0  # standard errors allowed by every statistical bound below

FUNCTIONS = ("normal", "bernoulli", "poisson", "multinomial")


def call(lib, name, *args, **kwargs):
    """name on args in lib: PyTorch's function or Tensor method (the tensor first), or wick.sampling's."""
    if lib is wick:
        return getattr(wick.sampling, name)(*args, **kwargs)
    return getattr(torch if name in FUNCTIONS else torch.Tensor, name)(*args, **kwargs)


def values(t):
    """A tensor's values as float64 NumPy, through float64 so that every dtype reads exactly."""
    return np.asarray(t.double()).copy()


def seeded(seed, f, *args, **kwargs):
    wick.manual_seed(seed)
    return f(*args, **kwargs)


def assert_mean(x, mean, variance, what=""):
    """The sample mean of x within Z standard errors of mean, for draws of that variance."""
    assert abs(x.mean() - mean) < Z * math.sqrt(variance / len(x)), (what, x.mean(), mean)


def assert_frequency(hits, n, p, what=""):
    assert abs(hits / n - p) < Z * math.sqrt(p * (1 - p) / n) + 1e-12, (what, hits / n, p)


def assert_fits(counts, probabilities):
    """Chi-square of counts against probabilities, bins of fewer than 5 expected merged into a last one."""
    n = counts.sum()
    expected = n * np.asarray(probabilities)
    big = expected >= 5
    observed = np.append(counts[big], counts[~big].sum())
    expected = np.append(expected[big], expected[~big].sum())
    keep = expected > 0
    chi2 = ((observed[keep] - expected[keep]) ** 2 / expected[keep]).sum()
    df = keep.sum() - 1
    assert chi2 < df + Z * math.sqrt(2 * df), (chi2, df)


# --- shapes and dtypes, as PyTorch's ---------------------------------------------------------------

SHAPE_CASES = {
    "normal tensor tensor broadcast": lambda L: call(L, "normal", L.zeros(3), L.ones(2, 1)),
    "normal tensor tensor float64 std": lambda L: call(L, "normal", L.zeros(3), L.ones(3, 1, dtype=L.float64)),
    "normal tensor tensor int std": lambda L: call(L, "normal", L.zeros(3), L.ones(3, dtype=L.int64)),
    "normal float64 mean": lambda L: call(L, "normal", L.zeros(3, dtype=L.float64), L.ones(3)),
    "normal float16 mean": lambda L: call(L, "normal", L.zeros(3, dtype=L.float16), L.ones(3)),
    "normal tensor float": lambda L: call(L, "normal", L.zeros(2, 3, dtype=L.bfloat16), 2.0),
    "normal tensor default std": lambda L: call(L, "normal", L.zeros(4)),
    "normal keywords": lambda L: call(L, "normal", mean=L.zeros(3), std=2.0),
    "normal float tensor": lambda L: call(L, "normal", 1.0, L.ones(2, 2, dtype=L.float64)),
    "normal float std keyword": lambda L: call(L, "normal", 1.0, std=L.ones(3)),
    "normal 0-d": lambda L: call(L, "normal", L.zeros(()), L.ones(())),
    "normal empty": lambda L: call(L, "normal", L.zeros(0, 3), L.ones(3)),
    "normal floats size": lambda L: call(L, "normal", 0.0, 1.0, (2, 3)),
    "normal ints size list": lambda L: call(L, "normal", 0, 1, [4]),
    "normal floats size keyword": lambda L: call(L, "normal", 0.0, 1.0, size=(2,)),
    "normal floats dtype": lambda L: call(L, "normal", 0.0, 1.0, (2,), dtype=L.float64),
    "normal floats empty size": lambda L: call(L, "normal", 0.0, 1.0, ()),
    "normal out float64": lambda L: call(L, "normal", L.zeros(3), L.ones(3), out=L.empty(3, dtype=L.float64)),
    "normal floats out": lambda L: call(L, "normal", 0.0, 1.0, (3,), out=L.empty(2, dtype=L.float64)),
    "bernoulli": lambda L: call(L, "bernoulli", L.tensor([0.0, 1.0, 0.5])),
    "bernoulli bfloat16": lambda L: call(L, "bernoulli", L.full((2, 2), 0.5, dtype=L.bfloat16)),
    "bernoulli 0-d": lambda L: call(L, "bernoulli", L.tensor(0.5)),
    "bernoulli p": lambda L: call(L, "bernoulli", L.zeros(2, 3), 0.3),
    "bernoulli p int input": lambda L: call(L, "bernoulli", L.zeros(4, dtype=L.int64), 0.3),
    "bernoulli p bool input": lambda L: call(L, "bernoulli", L.zeros(4, dtype=L.bool), p=0.3),
    "bernoulli out int64": lambda L: call(L, "bernoulli", L.ones(2), out=L.empty(2, dtype=L.int64)),
    "bernoulli out bool": lambda L: call(L, "bernoulli", L.ones(2), out=L.empty(2, dtype=L.bool)),
    "bernoulli method p": lambda L: call(L, "bernoulli", L.zeros(3, dtype=L.float64), 0.3),
    "poisson": lambda L: call(L, "poisson", L.tensor([1.0, 20.0])),
    "poisson float64 2-d": lambda L: call(L, "poisson", L.ones(2, 3, dtype=L.float64)),
    "poisson bfloat16": lambda L: call(L, "poisson", L.ones(3, dtype=L.bfloat16)),
    "poisson 0-d": lambda L: call(L, "poisson", L.tensor(3.0)),
    "poisson empty": lambda L: call(L, "poisson", L.ones(0, 2)),
    "poisson generator": lambda L: call(L, "poisson", L.ones(2), None),
    "multinomial replacement": lambda L: call(L, "multinomial", L.tensor([0.2, 0.8]), 5, True),
    "multinomial no replacement": lambda L: call(L, "multinomial", L.tensor([0.2, 0.8, 0.0]), 3),
    "multinomial one": lambda L: call(L, "multinomial", L.ones(3), 1, True),
    "multinomial 2-d": lambda L: call(L, "multinomial", L.ones(4, 3, dtype=L.float64), 2),
    "multinomial 2-d replacement": lambda L: call(L, "multinomial", L.ones(4, 3, dtype=L.bfloat16), 7, True),
    "multinomial no rows": lambda L: call(L, "multinomial", L.ones(0, 3), 2),
    "multinomial keywords": lambda L: call(L, "multinomial", L.ones(2), num_samples=2, replacement=False),
    "multinomial out": lambda L: call(L, "multinomial", L.ones(2), 2, out=L.empty(5, dtype=L.int64)),
}


@pytest.mark.parametrize("case", SHAPE_CASES.values(), ids=SHAPE_CASES.keys())
def test_shape_and_dtype_as_pytorch(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an out= that is resized warns in both
        theirs, ours = case(torch), case(wick)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype).rpartition(".")[2] == str(theirs.dtype).rpartition(".")[2]


INPLACE = {
    "exponential_": (), "cauchy_": (1.0, 2.0), "log_normal_": (0.0, 0.5), "geometric_": (0.3,), "random_": (),
    "bernoulli_": (),
}


# PyTorch 1.13 has no CPU loop for these (it raises "... not implemented for 'Half'"); wick draws them.
FLOAT16_GAPS = ("bernoulli_", "bernoulli", "poisson", "multinomial")


@pytest.mark.parametrize("dtype", FLOATS + INTEGERS + ["bool"])
@pytest.mark.parametrize("name", INPLACE)
def test_in_place_samplers_return_self_in_its_dtype(name, dtype):
    x = wick.zeros(5, 7, dtype=getattr(wick, dtype))
    t = torch.zeros(5, 7, dtype=getattr(torch, dtype))
    try:
        call(torch, name, t, *INPLACE[name])
    except RuntimeError as e:  # no kernel for the dtype: the same error
        if dtype == "float16" and name in FLOAT16_GAPS:
            assert "not implemented for 'Half'" in str(e)
            assert call(wick, name, x, *INPLACE[name]) is x
            return
        with pytest.raises(RuntimeError, match=str(e).split()[0]):
            call(wick, name, x, *INPLACE[name])
        return
    assert call(wick, name, x, *INPLACE[name]) is x
    assert x.dtype is getattr(wick, dtype) and tuple(x.shape) == (5, 7)


@pytest.mark.parametrize("name", INPLACE)
@pytest.mark.parametrize("view", ["transpose", "strided"])
def test_in_place_samplers_write_through_strides(name, view):
    base = wick.full((40, 60), -7.0, dtype=wick.float64)
    x = base.t() if view == "transpose" else base[:, ::3]
    wick.manual_seed(8)
    assert call(wick, name, x, *INPLACE[name]) is x
    wick.manual_seed(8)
    dense = call(wick, name, wick.empty(tuple(x.shape), dtype=wick.float64), *INPLACE[name])
    np.testing.assert_array_equal(values(x), values(dense))  # the draws in logical order
    if view == "strided":
        kept = values(base)
        kept[:, ::3] = -7.0
        assert (kept == -7.0).all()  # the columns between untouched
    assert not (values(x) == -7.0).all()


# --- errors, as PyTorch's --------------------------------------------------------------------------

def vec(L, *data):
    return L.tensor(list(data))


ERROR_CASES = {
    "normal negative std tensor": (lambda L: call(L, "normal", L.zeros(3), -L.ones(3)), "std >= 0.0"),
    "normal NaN std tensor": (lambda L: call(L, "normal", 0.0, vec(L, math.nan)), "std >= 0.0"),
    "normal negative std": (lambda L: call(L, "normal", L.zeros(3), -1.0), "but found std -1"),
    "normal NaN std": (lambda L: call(L, "normal", 0.0, math.nan, (2,)), "but found std nan"),
    "normal no broadcast": (lambda L: call(L, "normal", L.zeros(2, 3), L.ones(3, 2)), None),
    "normal int mean": (lambda L: call(L, "normal", L.zeros(3, dtype=L.int64), 1.0), "not implemented for 'Long'"),
    "normal int std": (lambda L: call(L, "normal", 0.0, L.ones(3, dtype=L.int64)), "not implemented for 'Long'"),
    "normal int dtype": (lambda L: call(L, "normal", 0.0, 1.0, (2,), dtype=L.int64), "not implemented for 'Long'"),
    "normal bool out": (lambda L: call(L, "normal", L.zeros(3), 1.0, out=L.empty(3, dtype=L.bool)),
                        "not implemented for 'Bool'"),
    "normal floats without size": (lambda L: call(L, "normal", 0.0, 1.0), None),
    "normal int size": (lambda L: call(L, "normal", 0.0, 1.0, 3), None),
    "normal tensor with size": (lambda L: call(L, "normal", L.zeros(3), 1.0, (3,)), None),
    "normal str mean": (lambda L: call(L, "normal", "a", 1.0, (1,)), None),
    "normal negative size": (lambda L: call(L, "normal", 0.0, 1.0, (-1,)), "negative dimension"),
    "normal dtype against out": (lambda L: call(L, "normal", 0.0, 1.0, (2,), out=L.empty(2, dtype=L.float64),
                                                dtype=L.float32), "does not match dtype of out"),
    "normal out requires grad": (lambda L: call(L, "normal", L.zeros(3, requires_grad=True), 1.0,
                                                out=L.empty(3)), "don't support automatic differentiation"),
    "normal generator": (lambda L: call(L, "normal", L.zeros(3), 1.0, generator=3), None),
    "bernoulli int input": (lambda L: call(L, "bernoulli", vec(L, 0, 1)), "not implemented for 'Long'"),
    "bernoulli above 1": (lambda L: call(L, "bernoulli", vec(L, 0.0, 1.5)), "p_in >= 0 && p_in <= 1"),
    "bernoulli negative": (lambda L: call(L, "bernoulli", vec(L, 0.0, -0.5)), "p_in >= 0 && p_in <= 1"),
    "bernoulli NaN": (lambda L: call(L, "bernoulli", vec(L, 0.0, math.nan)), "p_in >= 0 && p_in <= 1"),
    "bernoulli p above 1": (lambda L: call(L, "bernoulli", L.zeros(2), 1.5), "expects p to be in \\[0, 1\\]"),
    "bernoulli p NaN": (lambda L: call(L, "bernoulli", L.zeros(2), math.nan), "but got p=nan"),
    "bernoulli p tensor": (lambda L: call(L, "bernoulli", L.zeros(2), vec(L, 0.5)), None),
    "bernoulli p and out": (lambda L: call(L, "bernoulli", L.zeros(2), 0.5, out=L.empty(2)), None),
    "bernoulli out requires grad": (lambda L: call(L, "bernoulli", L.zeros(3, requires_grad=True), out=L.empty(3)),
                                    "don't support automatic differentiation"),
    "bernoulli not a tensor": (lambda L: call(L, "bernoulli", [0.5]), None),
    "bernoulli_ p above 1": (lambda L: call(L, "bernoulli_", L.zeros(3), 1.5), "but got p=1.5"),
    "bernoulli_ p tensor above 1": (lambda L: call(L, "bernoulli_", L.zeros(3), vec(L, 1.5, 0, 0)), "p_in >= 0"),
    "bernoulli_ int p": (lambda L: call(L, "bernoulli_", L.zeros(3), vec(L, 0, 1, 1)), "not implemented for 'Long'"),
    "bernoulli_ p too big": (lambda L: call(L, "bernoulli_", L.zeros(1), vec(L, 0.2, 0.3)), "expanded size"),
    "bernoulli_ str p": (lambda L: call(L, "bernoulli_", L.zeros(3), "a"), None),
    "bernoulli_ leaf": (lambda L: call(L, "bernoulli_", L.zeros(3, requires_grad=True), 0.3), "leaf Variable"),
    "poisson int": (lambda L: call(L, "poisson", vec(L, 1, 2)), "not implemented for 'Long'"),
    "poisson negative": (lambda L: call(L, "poisson", vec(L, -1.0, 2.0)), "invalid Poisson rate"),
    "poisson NaN": (lambda L: call(L, "poisson", vec(L, math.nan)), "invalid Poisson rate"),
    "poisson out": (lambda L: call(L, "poisson", vec(L, 1.0), out=L.empty(1)), None),
    "poisson generator": (lambda L: call(L, "poisson", vec(L, 1.0), 3), None),
    "multinomial too many": (lambda L: call(L, "multinomial", vec(L, 0.2, 0.8), 3),
                             "cannot sample n_sample > prob_dist.size\\(-1\\) samples without replacement"),
    "multinomial all zero row": (lambda L: call(L, "multinomial", L.tensor([[0.0, 0.0], [1.0, 1.0]]), 2, True),
                                 "sum of probabilities <= 0"),
    "multinomial all zero one": (lambda L: call(L, "multinomial", vec(L, 0.0, 0.0), 1), "sum of probabilities <= 0"),
    "multinomial no categories": (lambda L: call(L, "multinomial", L.ones(2, 0), 2, True),
                                  "sum of probabilities <= 0"),
    "multinomial int": (lambda L: call(L, "multinomial", vec(L, 1, 2), 1), "only supports floating-point dtypes"),
    "multinomial negative": (lambda L: call(L, "multinomial", vec(L, 1.0, -2.0), 1), "contains either `inf`"),
    "multinomial negative replacement": (lambda L: call(L, "multinomial", vec(L, 1.0, -2.0), 2, True),
                                         "encountering probability entry < 0"),
    "multinomial NaN replacement": (lambda L: call(L, "multinomial", vec(L, 1.0, math.nan), 2, True),
                                    "encountering probability entry < 0"),
    "multinomial inf replacement": (lambda L: call(L, "multinomial", vec(L, 1.0, math.inf), 2, True),
                                    "infinity or NaN"),
    "multinomial inf": (lambda L: call(L, "multinomial", vec(L, 1.0, math.inf), 1), "contains either `inf`"),
    "multinomial NaN": (lambda L: call(L, "multinomial", vec(L, 1.0, math.nan), 1), "contains either `inf`"),
    "multinomial zero samples": (lambda L: call(L, "multinomial", L.ones(2), 0), "n_sample <= 0"),
    "multinomial negative samples": (lambda L: call(L, "multinomial", L.ones(2), -1, True), "n_sample <= 0"),
    "multinomial 0-d": (lambda L: call(L, "multinomial", L.tensor(1.0), 1), "prob_dist must be 1 or 2 dim"),
    "multinomial 3-d": (lambda L: call(L, "multinomial", L.ones(2, 2, 2), 1), "prob_dist must be 1 or 2 dim"),
    "multinomial float count": (lambda L: call(L, "multinomial", L.ones(2), 2.0), "must be int, not float"),
    "multinomial bool count": (lambda L: call(L, "multinomial", L.ones(2), True), "must be int, not bool"),
    "multinomial int replacement": (lambda L: call(L, "multinomial", L.ones(2), 2, 1), None),
    "multinomial float out": (lambda L: call(L, "multinomial", L.ones(2), 2, out=L.empty(2)),
                              "expects Long tensor out, got: Float"),
    "multinomial categories": (lambda L: call(L, "multinomial", L.ones(2**24 + 1), 2), "cannot exceed 2\\^24"),
    "exponential_ negative": (lambda L: call(L, "exponential_", L.zeros(3), -1.0), "but found lambda=-1"),
    "exponential_ NaN": (lambda L: call(L, "exponential_", L.zeros(3), math.nan), "but found lambda=nan"),
    "exponential_ int": (lambda L: call(L, "exponential_", L.zeros(3, dtype=L.int64)), "not implemented for 'Long'"),
    "exponential_ str": (lambda L: call(L, "exponential_", L.zeros(3), "a"), None),
    "exponential_ leaf": (lambda L: call(L, "exponential_", L.zeros(3, requires_grad=True)), "leaf Variable"),
    "exponential_ overlapping": (lambda L: call(L, "exponential_", L.zeros(3).expand(2, 3)), "single memory"),
    "exponential_ generator": (lambda L: call(L, "exponential_", L.zeros(3), generator=1), None),
    "cauchy_ int": (lambda L: call(L, "cauchy_", L.zeros(3, dtype=L.int32)), "not implemented for 'Int'"),
    "log_normal_ zero std": (lambda L: call(L, "log_normal_", L.zeros(3), 0.0, 0.0), "but found std=0"),
    "log_normal_ negative std": (lambda L: call(L, "log_normal_", L.zeros(3), 0.0, -1.0), "but found std=-1"),
    "log_normal_ NaN std": (lambda L: call(L, "log_normal_", L.zeros(3), 0.0, math.nan), "but found std=nan"),
    "log_normal_ int": (lambda L: call(L, "log_normal_", L.zeros(3, dtype=L.int64)), "not implemented for 'Long'"),
    "geometric_ no p": (lambda L: call(L, "geometric_", L.zeros(3)), None),
    "geometric_ zero": (lambda L: call(L, "geometric_", L.zeros(3), 0.0), "expects p to be in \\(0, 1\\)"),
    "geometric_ one": (lambda L: call(L, "geometric_", L.zeros(3), 1.0), "but got p=1"),
    "geometric_ NaN": (lambda L: call(L, "geometric_", L.zeros(3), math.nan), "but got p=nan"),
    "geometric_ bool": (lambda L: call(L, "geometric_", L.zeros(3, dtype=L.bool), 0.3), "not implemented for 'Bool'"),
    "random_ from above to": (lambda L: call(L, "random_", L.zeros(3), 5, 2),
                              "expects 'from' to be less than 'to', but got from=5 >= to=2"),
    "random_ to zero": (lambda L: call(L, "random_", L.zeros(3), 0), "but got from=0 >= to=0"),
    "random_ to negative": (lambda L: call(L, "random_", L.zeros(3), -3), "but got from=0 >= to=-3"),
    "random_ float": (lambda L: call(L, "random_", L.zeros(3), 2.5), None),
    "random_ bool": (lambda L: call(L, "random_", L.zeros(3), True), None),
    "random_ None": (lambda L: call(L, "random_", L.zeros(3), None), None),
    "random_ from only": (lambda L: call(L, "random_", L.zeros(3), **{"from": 2}), None),
    "random_ three": (lambda L: call(L, "random_", L.zeros(3), 1, 2, 3), None),
    "random_ overflow": (lambda L: call(L, "random_", L.zeros(3), 2**70), "Overflow when unpacking long"),
    "random_ uint8 from": (lambda L: call(L, "random_", L.zeros(3, dtype=L.uint8), -1, 3), "from is out of bounds"),
    "random_ uint8 to": (lambda L: call(L, "random_", L.zeros(3, dtype=L.uint8), 0, 257), "to - 1 is out of bounds"),
    "random_ uint8 from to None": (lambda L: call(L, "random_", L.zeros(3, dtype=L.uint8), 300, None),
                                   "from is out of bounds"),
    "random_ int8 from": (lambda L: call(L, "random_", L.zeros(3, dtype=L.int8), -200, None), "from is out of"),
    "random_ bool to": (lambda L: call(L, "random_", L.zeros(3, dtype=L.bool), 3), "to - 1 is out of bounds"),
    "random_ bool from": (lambda L: call(L, "random_", L.zeros(3, dtype=L.bool), -1, 1), "from is out of bounds"),
    "random_ int32 to": (lambda L: call(L, "random_", L.zeros(3, dtype=L.int32), 2**31 + 1), "to - 1 is out of"),
    "random_ float16 to": (lambda L: call(L, "random_", L.zeros(3, dtype=L.float16), 100000), "to - 1 is out of"),
    "random_ float64 from": (lambda L: call(L, "random_", L.zeros(3, dtype=L.float64), 2**60, None),
                             "to be less than or equal to 'to_inc'"),
}


@pytest.mark.parametrize("case,fragment", ERROR_CASES.values(), ids=ERROR_CASES.keys())
def test_errors_as_pytorch(case, fragment):
    with pytest.raises(Exception) as theirs:
        case(torch)
    with pytest.raises(theirs.type) as ours:
        case(wick)
    if fragment is not None:
        assert theirs.match(fragment) and ours.match(fragment)


def test_out_is_resized_written_and_returned():
    mean = wick.zeros(3)
    out = wick.empty(5, dtype=wick.float64)
    with pytest.warns(UserWarning, match="resized"):
        result = seeded(3, wick.sampling.normal, mean, 2.0, out=out)
    assert result is out and tuple(out.shape) == (3,) and out.dtype is wick.float64
    np.testing.assert_array_equal(values(out), values(seeded(3, wick.sampling.normal, mean.double(), 2.0)))
    indices = wick.empty(0, dtype=wick.int64)
    p = wick.rand(4, 6)
    assert seeded(4, wick.sampling.multinomial, p, 3, out=indices) is indices
    np.testing.assert_array_equal(values(indices), values(seeded(4, wick.sampling.multinomial, p, 3)))
    flags = wick.empty(4, dtype=wick.bool)
    assert seeded(5, wick.sampling.bernoulli, wick.tensor([0.0, 1.0, 0.0, 1.0]), out=flags) is flags
    assert flags.tolist() == [False, True, False, True]


def test_generator_none_is_the_default_one():
    wick.manual_seed(1)
    a = wick.sampling.normal(wick.zeros(3), 1.0, generator=None)
    b = wick.sampling.normal(wick.zeros(3), 1.0, generator=wick.Generator().manual_seed(1))
    wick.manual_seed(1)
    np.testing.assert_array_equal(values(a), values(wick.sampling.normal(wick.zeros(3), 1.0)))
    np.testing.assert_array_equal(values(a), values(b))
    with pytest.raises(TypeError, match="argument 'generator' must be wick.Generator, not object"):
        wick.sampling.multinomial(wick.ones(2), 1, generator=object())


@pytest.mark.parametrize("case", [
    lambda L: call(L, "random_", L.zeros(3, dtype=L.float16), 0, 2050),
    lambda L: call(L, "random_", L.zeros(3, dtype=L.float16), -3000, None),
    lambda L: call(L, "random_", L.zeros(3, dtype=L.bfloat16), 0, 258),
])
def test_random_warns_past_the_integers_a_float_holds(case):
    with pytest.warns(UserWarning, match=r"out of bounds \[-\(2\^\d+\), 2\^\d+\]"):
        case(torch)
    with pytest.warns(UserWarning, match=r"out of bounds \[-\(2\^\d+\), 2\^\d+\]"):
        case(wick)


# --- gradients, as PyTorch's: samplers are not reparametrised --------------------------------------

@pytest.mark.parametrize("case", [
    lambda L, a, b: call(L, "normal", a, b),
    lambda L, a, b: call(L, "normal", a, 2.0),
    lambda L, a, b: call(L, "normal", 1.0, b),
    lambda L, a, b: call(L, "bernoulli", a.sigmoid()) + b,
    lambda L, a, b: call(L, "poisson", a.exp()) + b,
])
def test_parameters_get_a_zero_gradient(case):
    grads = []
    for L in (torch, wick):
        a = L.tensor(np.linspace(0.1, 0.9, 6).reshape(2, 3), requires_grad=True)
        b = L.tensor([[0.5], [1.5]], dtype=L.float64, requires_grad=True)
        result = case(L, a, b)
        assert result.requires_grad
        result.sum().backward()
        grads.append([None if g is None else values(g) for g in (a.grad, b.grad)])
    for theirs, ours in zip(*grads):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_array_equal(ours, theirs)


def test_what_needs_no_gradient_records_none():
    x = wick.ones(3, requires_grad=True)
    assert not wick.sampling.bernoulli(x, 0.5).requires_grad  # as PyTorch: p alone decides
    assert not wick.sampling.multinomial(x, 2).requires_grad
    assert wick.sampling.normal(0.0, 1.0, (2,), requires_grad=True).requires_grad


@pytest.mark.parametrize("name", INPLACE)
def test_in_place_samplers_give_a_zero_gradient_to_what_they_overwrite(name):
    for L in (torch, wick):
        x = L.ones(3, requires_grad=True)
        y = x * 2
        call(L, name, y, *INPLACE[name])
        (y * 3).sum().backward()
        np.testing.assert_array_equal(values(x.grad), np.zeros(3))


def test_bernoulli_in_place_records_a_probability_tensor_that_requires_grad():
    for L in (torch, wick):
        p = L.full((3,), 0.5, requires_grad=True)
        y = call(L, "bernoulli_", L.zeros(3), p)
        assert y.requires_grad
        y.sum().backward()
        np.testing.assert_array_equal(values(p.grad), np.zeros(3))


# --- the same seed, the same values, whatever the threads -----------------------------------------

DRAWS = {
    "normal": lambda: wick.sampling.normal(wick.zeros(300, 1), wick.linspace(0.5, 2, 700)),
    "normal floats": lambda: wick.sampling.normal(2.0, 3.0, (70_001,), dtype=wick.float64),
    "bernoulli": lambda: wick.sampling.bernoulli(wick.rand(100_000)),
    "bernoulli_": lambda: wick.sampling.bernoulli_(wick.empty(1000, 200).t(), 0.3),
    "poisson": lambda: wick.sampling.poisson(wick.linspace(0, 40, 200_000)),
    "multinomial": lambda: wick.sampling.multinomial(wick.rand(1000, 1000), 40, True),
    "multinomial no replacement": lambda: wick.sampling.multinomial(wick.rand(300, 500), 40),
    "exponential_": lambda: wick.sampling.exponential_(wick.empty(100_000, dtype=wick.float16), 2.0),
    "cauchy_": lambda: wick.sampling.cauchy_(wick.empty(100_000)),
    "log_normal_": lambda: wick.sampling.log_normal_(wick.empty(100_000, dtype=wick.float64)),
    "geometric_": lambda: wick.sampling.geometric_(wick.empty(100_000, dtype=wick.int32), 0.1),
    "random_": lambda: wick.sampling.random_(wick.empty(100_000, dtype=wick.int64)),
}


@pytest.mark.parametrize("draw", DRAWS.values(), ids=DRAWS.keys())
def test_the_same_seed_gives_the_same_values_whatever_the_threads(draw):
    threads = wick.get_num_threads()
    try:
        wick.set_num_threads(1)
        one = values(seeded(5, draw))
        again = values(seeded(5, draw))
        wick.set_num_threads(2)
        two = values(seeded(5, draw))
        other = values(seeded(6, draw))
    finally:
        wick.set_num_threads(threads)
    np.testing.assert_array_equal(one, again)
    np.testing.assert_array_equal(one, two)
    assert not np.array_equal(one, other)


# --- distributions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_broadcasts_means_and_deviations(dtype):
    mean = wick.tensor([[-3.0], [0.0], [5.0]], dtype=getattr(wick, dtype))
    std = wick.tensor([0.5, 1.0, 4.0, 0.0], dtype=wick.float64)
    x = values(seeded(1, wick.sampling.normal, mean.expand(3, 4).reshape(3, 4, 1).expand(3, 4, N // 16),
                      std.reshape(4, 1)))
    for i, m in enumerate([-3.0, 0.0, 5.0]):
        for j, s in enumerate([0.5, 1.0, 4.0, 0.0]):
            sample = x[i, j]
            if s == 0:
                assert (sample == m).all()
                continue
            assert_mean(sample, m, s * s, (m, s))
            assert abs(sample.var() / (s * s) - 1) < Z * math.sqrt(2 / len(sample))
            assert_frequency((np.abs(sample - m) > s).sum(), len(sample), 0.31731050786291415)


def test_normal_of_numbers():
    x = values(seeded(2, wick.sampling.normal, 2.0, 3.0, (N,)))
    assert_mean(x, 2.0, 9.0)
    assert abs(x.var() / 9 - 1) < Z * math.sqrt(2 / N)


@pytest.mark.parametrize("dtype", FLOATS)
def test_bernoulli_frequencies(dtype):
    p = wick.tensor([0.0, 0.1, 0.5, 0.97, 1.0], dtype=getattr(wick, dtype))
    x = values(seeded(3, wick.sampling.bernoulli, p.reshape(5, 1).expand(5, N // 4)))
    assert set(np.unique(x)) <= {0.0, 1.0}
    for row, q in zip(x, values(p)):
        assert_frequency(row.sum(), len(row), q, q)
    assert x[0].sum() == 0 and x[4].all()


@pytest.mark.parametrize("dtype", ["float32", "uint8", "bool"])
def test_bernoulli_in_place_frequencies(dtype):
    x = wick.empty(N, dtype=getattr(wick, dtype))
    assert_frequency(values(seeded(4, wick.sampling.bernoulli_, x, 0.2)).sum(), N, 0.2)
    assert_frequency(values(seeded(4, wick.sampling.bernoulli_, x)).sum(), N, 0.5)
    p = wick.tensor([0.0, 0.25, 1.0], dtype=wick.float64)
    rows = values(seeded(4, wick.sampling.bernoulli_, wick.empty(N // 4, 3, dtype=getattr(wick, dtype)), p))
    for column, q in zip(rows.T, [0.0, 0.25, 1.0]):
        assert_frequency(column.sum(), len(column), q)
    assert set(np.unique(rows)) <= {0.0, 1.0}


def test_bernoulli_of_a_constant_p():
    x = values(seeded(5, wick.sampling.bernoulli, wick.zeros(N, dtype=wick.int64), 0.3))
    assert set(np.unique(x)) == {0.0, 1.0}
    assert_frequency(x.sum(), N, 0.3)


def poisson_pmf(rate, ks):
    return np.exp(ks * math.log(rate) - rate - np.array([math.lgamma(k + 1) for k in ks]))


@pytest.mark.parametrize("rate", [0.0, 0.3, 3.0, 9.5, 10.0, 15.0, 40.0, 1000.0, 1e6])
def test_poisson_moments_and_frequencies(rate):
    # Rates below 10 and from 10 on take the two methods: both must give Poisson's mean, variance and frequencies.
    x = values(seeded(6, wick.sampling.poisson, wick.full((N,), rate, dtype=wick.float64)))
    assert (x >= 0).all() and (x == np.floor(x)).all()
    if rate == 0:
        assert (x == 0).all()
        return
    assert_mean(x, rate, rate, rate)
    assert abs(x.var() / rate - 1) < Z * math.sqrt((1 / rate + 2) / N), (rate, x.var())
    if rate <= 1000:
        ks = np.arange(int(rate + 12 * math.sqrt(rate) + 12))
        counts = np.bincount(x.astype(np.int64), minlength=len(ks))
        assert len(counts) == len(ks)
        assert_fits(counts, poisson_pmf(rate, ks))


def test_poisson_log_factorials():
    # Transformed rejection accepts by comparing with log(k!): a table below 10, Stirling's series above.
    k = np.concatenate([np.arange(200), np.geomspace(200, 1e15, 300).round()])
    ours = values(wick.sampling._log_factorial(wick.tensor(k, dtype=wick.float64)))
    np.testing.assert_allclose(ours, [math.lgamma(v + 1) for v in k], rtol=1e-13, atol=1e-13)


def test_poisson_mixed_rates_keep_their_places():
    rates = wick.tensor([0.5, 50.0, 0.0, math.inf, 5.0, 500.0], dtype=wick.float32)
    x = values(seeded(7, wick.sampling.poisson, rates.repeat(N // 8, 1)))
    assert x.shape == (N // 8, 6)
    for column, rate in zip(x.T, values(rates)):
        if rate in (0, math.inf):
            assert (column == rate).all()
        else:
            assert_mean(column, rate, rate, rate)


def test_multinomial_with_replacement_frequencies():
    p = wick.tensor([[0.1, 0.0, 0.3, 0.6], [2.0, 2.0, 0.0, 4.0]], dtype=wick.float32)
    x = values(seeded(8, wick.sampling.multinomial, p, N, True)).astype(np.int64)
    assert x.shape == (2, N)
    for row, weights in zip(x, values(p)):
        counts = np.bincount(row, minlength=4)
        assert len(counts) == 4 and counts[weights == 0].sum() == 0
        for count, q in zip(counts, weights / weights.sum()):
            assert_frequency(count, N, q)
    # Draws in a row are independent: a draw says nothing of the next.
    first, second = x[0, :-1], x[0, 1:]
    assert_frequency(((first == 3) & (second == 3)).sum(), N - 1, 0.36)


@pytest.mark.parametrize("dtype", FLOATS)
def test_multinomial_without_replacement_frequencies(dtype):
    p = np.array([0.5, 0.3, 0.2, 0.0])
    rows = wick.tensor(p, dtype=getattr(wick, dtype)).expand(N // 2, 4)
    x = values(seeded(9, wick.sampling.multinomial, rows, 4)).astype(np.int64)
    assert (np.sort(x, axis=1) == np.arange(4)).all()  # each category once a row
    assert (x[:, 3] == 3).all()  # the category of weight zero only after all others
    for i in range(3):
        assert_frequency((x[:, 0] == i).sum(), len(x), p[i], i)
        second = sum(p[k] * p[i] / (1 - p[k]) for k in range(3) if k != i)
        assert_frequency((x[:, 1] == i).sum(), len(x), second, i)


@pytest.mark.parametrize("scale", [1e300, 1e-310])
@pytest.mark.parametrize("replacement", [False, True])
def test_multinomial_of_extreme_weights(scale, replacement):
    # Weights whose sum overflows, or too small to divide by: each row is scaled by its largest first.
    p = wick.tensor([scale, 0.0, scale, scale], dtype=wick.float64)
    x = values(seeded(17, wick.sampling.multinomial, p.expand(N // 4, 4), 2, replacement)).astype(np.int64)
    counts = np.bincount(x.ravel(), minlength=4)
    assert len(counts) == 4 and counts[1] == 0
    for count in counts[[0, 2, 3]]:
        assert_frequency(count, x.size, 1 / 3)


def test_multinomial_one_draw_frequencies():
    p = wick.tensor([1.0, 3.0, 0.0, 4.0])
    for replacement in (False, True):
        x = values(seeded(10, wick.sampling.multinomial, p.expand(N // 2, 4), 1, replacement)).astype(np.int64)
        counts = np.bincount(x.ravel(), minlength=4)
        for count, q in zip(counts, [0.125, 0.375, 0.0, 0.5]):
            assert_frequency(count, N // 2, q)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("lambd", [0.5, 1.0, 20.0])
def test_exponential_moments(dtype, lambd):
    x = values(seeded(11, wick.sampling.exponential_, wick.empty(N, dtype=getattr(wick, dtype)), lambd))
    assert (x >= 0).all() and np.isfinite(x).all()
    mean = 1 / lambd
    assert abs(x.mean() / mean - 1) < Z / math.sqrt(N) + 2**-8
    assert abs(x.var() / mean**2 - 1) < Z * math.sqrt(8 / N) + 2**-7
    assert_frequency((x > mean).sum(), N, math.exp(-1))


def test_exponential_of_rate_zero_and_infinity():
    assert np.isinf(values(wick.sampling.exponential_(wick.empty(50), 0.0))).all()
    assert (values(wick.sampling.exponential_(wick.empty(50), math.inf)) == 0).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cauchy_quantiles(dtype):
    x = values(seeded(12, wick.sampling.cauchy_, wick.empty(N, dtype=getattr(wick, dtype)), 1.5, 2.0))
    # P(X < median + sigma tan(pi (q - 1/2))) = q
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        assert_frequency((x < 1.5 + 2.0 * math.tan(math.pi * (q - 0.5))).sum(), N, q, q)
    assert np.abs(x).max() > 1e4  # the heavy tails are there


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_log_normal_moments(dtype):
    x = values(seeded(13, wick.sampling.log_normal_, wick.empty(N, dtype=getattr(wick, dtype)), 0.5, 0.75))
    assert (x > 0).all()
    logs = np.log(x)
    assert abs(logs.mean() - 0.5) < Z * 0.75 / math.sqrt(N) + 2**-9
    assert abs(logs.std() / 0.75 - 1) < Z * math.sqrt(0.5 / N) + 2**-9
    assert values(wick.sampling.log_normal_(wick.empty(N))).mean() > 10  # defaults mean=1, std=2: e^3 on average


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "int64"])
@pytest.mark.parametrize("p", [0.05, 0.5, 0.9])
def test_geometric_moments_and_frequencies(dtype, p):
    x = values(seeded(14, wick.sampling.geometric_, wick.empty(N, dtype=getattr(wick, dtype)), p))
    assert (x >= 1).all() and (x == np.floor(x)).all()
    assert_mean(x, 1 / p, (1 - p) / p**2, p)
    ks = np.arange(1, int(40 / p))
    counts = np.bincount(x.astype(np.int64), minlength=len(ks) + 1)[1:len(ks) + 1]
    assert_fits(np.append(counts, N - counts.sum()), np.append(p * (1 - p) ** (ks - 1), (1 - p) ** ks[-1]))


RANDOM_RANGES = {  # (dtype, args): the integers [low, high] that random_ draws, by PyTorch's rule
    "float32 default": ("float32", (), 0, 2**24),
    "float16 default": ("float16", (), 0, 2**11),
    "bfloat16 default": ("bfloat16", (), 0, 2**8),
    "float64 from": ("float64", (-2**53, None), -2**53, 2**53),
    "uint8 default": ("uint8", (), 0, 255),
    "int8 default": ("int8", (), 0, 127),
    "int8 from": ("int8", (-128, None), -128, 127),
    "int16 default": ("int16", (), 0, 2**15 - 1),
    "int32 to": ("int32", (2**31,), 0, 2**31 - 1),
    "bool default": ("bool", (), 0, 1),
    "bool from to": ("bool", (1, None), 1, 1),
    "int64 to": ("int64", (5,), 0, 4),
    "int64 from to": ("int64", (-5, -3), -5, -4),
    "float32 from to": ("float32", (-3, 4), -3, 3),
}


@pytest.mark.parametrize("dtype,args,low,high", RANDOM_RANGES.values(), ids=RANDOM_RANGES.keys())
def test_random_ranges(dtype, args, low, high):
    x = values(seeded(15, wick.sampling.random_, wick.empty(N, dtype=getattr(wick, dtype)), *args))
    theirs = values(torch.empty(N, dtype=getattr(torch, dtype)).random_(*args))
    for sample in (x, theirs):
        assert low <= sample.min() and sample.max() <= high and (sample == np.floor(sample)).all()
    span = high - low + 1
    if span == 1:
        assert (x == low).all()
    elif span <= 4096:  # every value, evenly
        counts = np.bincount((x - low).astype(np.int64), minlength=span)
        assert len(counts) == span
        assert_fits(counts, np.full(span, 1 / span))
    else:  # the whole range, evenly
        assert_mean(x, (low + high) / 2, span**2 / 12)
        assert x.min() < low + span / 64 and x.max() > high - span / 64


def test_random_keywords():
    x = wick.empty(N)
    assert values(wick.sampling.random_(x, to=3)).max() == 2
    assert values(wick.sampling.random_(x, 7, to=9)).min() == 7
    assert values(wick.sampling.random_(x, **{"from": 4, "to": 6})).min() == 4


@pytest.mark.parametrize("args", [(), (-2**63, None), (-5, None), (-2**63, 2**63 - 1)])
def test_random_int64_ranges_past_randint(args):
    # Ranges of 2^63 or more integers: no overflow, both signs, the largest values reached.
    x = np.asarray(seeded(16, wick.sampling.random_, wick.empty(N, dtype=wick.int64), *args))
    low = args[0] if args else 0
    assert x.min() >= low and x.min() < low + 2**60 and x.max() > 2**63 - 2**60
    if low < -2**62:
        assert_frequency((x < 0).sum(), N, 0.5)


def test_random_of_an_empty_tensor_checks_then_draws_nothing():
    x = wick.empty(0, 3)
    assert wick.sampling.random_(x, 3) is x
    with pytest.raises(RuntimeError):
        wick.sampling.random_(x, 3, 1)
