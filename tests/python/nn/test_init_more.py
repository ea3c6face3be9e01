"""wick.nn.init's trunc_normal_, eye_, dirac_, orthogonal_, sparse_, calculate_gain and the deprecated names, and
wick.nn.utils' parameters_to_vector, vector_to_parameters, clip_grad_norm(_) and rnn.pad_sequence, against PyTorch
1.13: exact results where deterministic, the properties and statistics of the random ones, the errors."""
import math
import warnings

import numpy as np
import pytest
import torch

import wick
from wick.nn import init


def numpy(t):
    return t.detach().numpy()


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (6, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_eye_matches_torch(shape, dtype):
    w = wick.full(shape, 7, dtype=getattr(wick, dtype), requires_grad=dtype != "int64")
    t = torch.full(shape, 7, dtype=getattr(torch, dtype), requires_grad=dtype != "int64")
    assert init.eye_(w) is w
    torch.nn.init.eye_(t)
    np.testing.assert_array_equal(numpy(w), numpy(t))
    assert w.requires_grad == t.requires_grad


@pytest.mark.parametrize("shape,groups", [((4, 2, 3), 1), ((4, 2, 3), 2), ((3, 5, 3, 2), 1), ((6, 2, 3, 3), 3),
                                          ((2, 3, 3, 4, 5), 1), ((4, 1, 2, 2, 2), 2)])
def test_dirac_matches_torch(shape, groups):
    w, t = wick.ones(*shape), torch.ones(*shape)
    assert init.dirac_(w, groups) is w
    torch.nn.init.dirac_(t, groups)
    np.testing.assert_array_equal(numpy(w), numpy(t))


def test_dirac_convolution_is_identity():
    weight = init.dirac_(wick.empty(3, 3, 3, 3, dtype=wick.float64))
    x = wick.from_numpy(np.random.default_rng(0).standard_normal((2, 3, 5, 5)))
    np.testing.assert_allclose(numpy(wick.nn.functional.conv2d(x, weight, padding=1)), numpy(x), rtol=0, atol=0)


@pytest.mark.parametrize("shape", [(4, 4), (3, 7), (8, 2), (5, 2, 3), (2, 3, 2, 2)])
@pytest.mark.parametrize("gain", [1, 0.5])
def test_orthogonal_is_orthogonal(shape, gain):
    w = wick.empty(*shape, dtype=wick.float64, requires_grad=True)
    assert init.orthogonal_(w, gain=gain) is w
    assert w.requires_grad and w.grad_fn is None
    flat = numpy(w).reshape(shape[0], -1)
    small = min(flat.shape)
    gram = flat @ flat.T if flat.shape[0] == small else flat.T @ flat
    np.testing.assert_allclose(gram, gain ** 2 * np.eye(small), atol=1e-12)
    other = numpy(init.orthogonal_(wick.empty(*shape, dtype=wick.float64)))
    assert not np.allclose(flat, other.reshape(flat.shape))  # random


def test_orthogonal_of_empty_tensor_is_a_no_op():
    w = wick.empty(0, 3)
    assert init.orthogonal_(w) is w


def test_trunc_normal_bounds_and_statistics():
    mean, std, a, b = 0.5, 2.0, -1.0, 3.0
    w = init.trunc_normal_(wick.empty(200000, dtype=wick.float64), mean, std, a, b)
    values = numpy(w)
    assert values.min() >= a and values.max() <= b
    assert values.min() < a + 0.01 and values.max() > b - 0.01
    # The moments of the normal truncated to [a, b].
    alpha, beta = (a - mean) / std, (b - mean) / std
    pdf = lambda x: math.exp(-x * x / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda x: (1 + math.erf(x / math.sqrt(2))) / 2  # noqa: E731
    z = cdf(beta) - cdf(alpha)
    expected_mean = mean + (pdf(alpha) - pdf(beta)) / z * std
    expected_var = std ** 2 * (1 + (alpha * pdf(alpha) - beta * pdf(beta)) / z - ((pdf(alpha) - pdf(beta)) / z) ** 2)
    assert abs(values.mean() - expected_mean) < 0.02
    assert abs(values.var() - expected_var) < 0.02


def test_trunc_normal_defaults_and_warning():
    values = numpy(init.trunc_normal_(wick.empty(1000, 10)))
    assert values.min() >= -2 and values.max() <= 2 and 0.7 < values.std() < 0.95
    with pytest.warns(UserWarning, match="mean is more than 2 std from"):
        init.trunc_normal_(wick.empty(10), mean=10.0, std=1.0, a=-2.0, b=2.0)


@pytest.mark.parametrize("rows,cols,sparsity", [(10, 4, 0.3), (7, 3, 0.5), (5, 5, 0.0), (4, 2, 1.0)])
def test_sparse_zeroes_as_many_per_column_as_torch(rows, cols, sparsity):
    std = 0.05
    values = numpy(init.sparse_(wick.empty(rows, cols), sparsity, std=std))
    torch_values = numpy(torch.nn.init.sparse_(torch.empty(rows, cols), sparsity, std=std))
    np.testing.assert_array_equal((values == 0).sum(0), (torch_values == 0).sum(0))
    assert np.all((values == 0).sum(0) == math.ceil(sparsity * rows))
    assert np.abs(values).max() < 6 * std


def test_sparse_statistics():
    values = numpy(init.sparse_(wick.empty(1000, 100, dtype=wick.float64), 0.2, std=0.1))
    nonzero = values[values != 0]
    assert nonzero.size == 800 * 100
    assert abs(nonzero.std() - 0.1) < 0.002 and abs(nonzero.mean()) < 0.002


NONLINEARITIES = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                  "sigmoid", "tanh", "relu", "leaky_relu", "selu"]


@pytest.mark.parametrize("nonlinearity", NONLINEARITIES)
@pytest.mark.parametrize("param", [None, 0.2, 3])
def test_calculate_gain_matches_torch(nonlinearity, param):
    assert init.calculate_gain(nonlinearity, param) == torch.nn.init.calculate_gain(nonlinearity, param)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.init.eye_(lib.ones(2, 2, 2)),
    lambda lib: lib.nn.init.eye_(lib.ones(3)),
    lambda lib: lib.nn.init.dirac_(lib.ones(3, 3)),
    lambda lib: lib.nn.init.dirac_(lib.ones(2, 2, 2, 2, 2, 2)),
    lambda lib: lib.nn.init.dirac_(lib.ones(3, 2, 3), groups=2),
    lambda lib: lib.nn.init.orthogonal_(lib.ones(3)),
    lambda lib: lib.nn.init.sparse_(lib.ones(3, 3, 3), 0.5),
    lambda lib: lib.nn.init.calculate_gain("softplus"),
    lambda lib: lib.nn.init.calculate_gain("leaky_relu", True),
])
def test_invalid_arguments_raise_as_torch(call):
    with pytest.raises(ValueError) as torch_error:
        call(torch)
    with pytest.raises(ValueError) as wick_error:
        call(wick)
    assert str(wick_error.value) == str(torch_error.value)


@pytest.mark.parametrize("name,args", [("uniform", ()), ("normal", ()), ("constant", (0.5,)), ("eye", ()),
                                       ("xavier_uniform", ()), ("xavier_normal", ()), ("kaiming_uniform", ()),
                                       ("kaiming_normal", ()), ("orthogonal", ()), ("sparse", (0.5,))])
def test_deprecated_names_warn_as_torch(name, args):
    with pytest.warns(UserWarning) as torch_warnings:
        getattr(torch.nn.init, name)(torch.empty(4, 3), *args)
    with pytest.warns(UserWarning) as wick_warnings:
        w = getattr(wick.nn.init, name)(wick.empty(4, 3), *args)
    assert [str(w.message) for w in wick_warnings] == [str(w.message) for w in torch_warnings]
    assert wick_warnings[0].filename == __file__  # the warning points at the caller
    assert w.shape == (4, 3)


def test_deprecated_dirac_warns():
    with pytest.warns(UserWarning, match=r"nn.init.dirac is now deprecated in favor of nn.init.dirac_."):
        init.dirac(wick.empty(2, 2, 3))


# wick.nn.utils


def params(lib):
    rng = np.random.default_rng(1)
    return [lib.nn.Parameter(lib.from_numpy(rng.standard_normal(shape))) for shape in [(2, 3), (4,), (1, 2, 2)]]


def test_parameters_to_vector_matches_torch():
    vec = wick.nn.utils.parameters_to_vector(params(wick))
    np.testing.assert_array_equal(numpy(vec), numpy(torch.nn.utils.parameters_to_vector(params(torch))))
    assert vec.requires_grad and vec.grad_fn is not None  # differentiable, as torch's
    vec.sum().backward()


def test_vector_to_parameters_views_the_vector():
    ps = params(wick)
    vec = wick.arange(14, dtype=wick.float64)
    wick.nn.utils.vector_to_parameters(vec, ps)
    torch_ps = params(torch)
    torch.nn.utils.vector_to_parameters(torch.arange(14, dtype=torch.float64), torch_ps)
    for p, t in zip(ps, torch_ps):
        np.testing.assert_array_equal(numpy(p), numpy(t))
        assert p.shape == tuple(t.shape) and p.requires_grad
    vec[0] = 100.0
    assert numpy(ps[0])[0, 0] == 100.0


def test_vector_to_parameters_needs_a_tensor():
    with pytest.raises(TypeError) as torch_error:
        torch.nn.utils.vector_to_parameters([1.0, 2.0], params(torch))
    with pytest.raises(TypeError) as wick_error:
        wick.nn.utils.vector_to_parameters([1.0, 2.0], params(wick))
    assert str(wick_error.value) == str(torch_error.value)


@pytest.mark.parametrize("norm_type", [2.0, 1, math.inf])
def test_clip_grad_norm_accepts_foreach_and_matches_torch(norm_type):
    results = []
    for lib, kwargs in ((wick, {"foreach": True}), (wick, {"foreach": None}), (torch, {})):
        ps = params(lib)
        for i, p in enumerate(ps):
            p.grad = p.detach() * (i + 1)
        total = lib.nn.utils.clip_grad_norm_(ps, 0.5, norm_type=norm_type, error_if_nonfinite=True, **kwargs)
        results.append([float(total)] + [x for p in ps for x in numpy(p.grad).ravel()])
    np.testing.assert_allclose(results[0], results[2], rtol=1e-12)
    np.testing.assert_allclose(results[1], results[2], rtol=1e-12)


def test_clip_grad_norm_deprecated_warns_as_torch():
    messages = []
    for lib in (wick, torch):
        p = lib.ones(3, requires_grad=True)
        p.grad = lib.ones(3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            total = lib.nn.utils.clip_grad_norm(p, 1.0)
        messages.append([str(w.message) for w in caught])
        assert abs(float(total) - math.sqrt(3)) < 1e-6
    assert messages[0] == messages[1] and messages[0]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("trailing", [(), (2,), (2, 3)])
def test_pad_sequence_matches_torch(batch_first, trailing):
    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal((length,) + trailing) for length in (3, 5, 1, 5, 0)]
    out = wick.nn.utils.rnn.pad_sequence([wick.from_numpy(a) for a in arrays], batch_first, padding_value=-1.5)
    expected = torch.nn.utils.rnn.pad_sequence([torch.from_numpy(a) for a in arrays], batch_first, -1.5)
    assert out.dtype == wick.float64 and out.shape == tuple(expected.shape)
    np.testing.assert_array_equal(numpy(out), numpy(expected))


def test_pad_sequence_takes_the_first_dtype_and_a_tensor():
    out = wick.nn.utils.rnn.pad_sequence([wick.ones(2, dtype=wick.int64), wick.ones(3)], padding_value=2.5)
    expected = torch.nn.utils.rnn.pad_sequence([torch.ones(2, dtype=torch.int64), torch.ones(3)], padding_value=2.5)
    assert out.dtype == wick.int64
    np.testing.assert_array_equal(numpy(out), numpy(expected))
    np.testing.assert_array_equal(numpy(wick.nn.utils.rnn.pad_sequence(wick.ones(2, 3))), np.ones((3, 2)))


@pytest.mark.parametrize("make,error", [
    (lambda lib: [], RuntimeError),
    (lambda lib: 5, RuntimeError),
    (lambda lib: [lib.tensor(1.0), lib.ones(3)], IndexError),
    (lambda lib: [lib.ones(2, 3), lib.ones(3, 2)], RuntimeError),
])
def test_pad_sequence_errors_as_torch(make, error):
    with pytest.raises(error):
        torch.nn.utils.rnn.pad_sequence(make(torch))
    with pytest.raises(error):
        wick.nn.utils.rnn.pad_sequence(make(wick))


@pytest.mark.parametrize("make,kwargs", [
    (lambda lib: [1, 2], {}),
    (lambda lib: [lib.ones(2), "x"], {}),
    (lambda lib: [lib.ones(2)], {"padding_value": "a"}),
    (lambda lib: [lib.ones(2)], {"batch_first": "a"}),
])
def test_pad_sequence_type_errors_as_torch(make, kwargs):
    with pytest.raises(TypeError) as torch_error:
        torch.nn.utils.rnn.pad_sequence(make(torch), **kwargs)
    with pytest.raises(TypeError) as wick_error:
        wick.nn.utils.rnn.pad_sequence(make(wick), **kwargs)
    assert str(wick_error.value) == str(torch_error.value)
