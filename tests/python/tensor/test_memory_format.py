"""memory_format=, against PyTorch: the four wick.memory_format objects, the strides that
contiguous, clone, empty and the *_like factories give in each format (clone keeps a dense
input's layout by default), is_contiguous in each format, and the errors for a format that does
not fit the tensor's rank or the op.
"""
import pickle

import numpy as np
import pytest
import torch

import wick
from reference import to_numpy

FORMATS = ["contiguous_format", "preserve_format", "channels_last", "channels_last_3d"]


def pair(*shape, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return wick.from_numpy(a.copy()), torch.from_numpy(a.copy())


def layouts():
    """(name, wick tensor, torch tensor) of several layouts of a 4-d tensor."""
    x, t = pair(2, 3, 4, 5)
    yield "contiguous", x, t
    yield "channels_last", x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2), \
        t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    yield "transposed", x.transpose(1, 3), t.transpose(1, 3)
    yield "sliced", x[:, :, ::2], t[:, :, ::2]
    yield "one_channel", x[:, :1], t[:, :1]
    yield "expanded", x[:, :1].expand(2, 3, 4, 5), t[:, :1].expand(2, 3, 4, 5)


LAYOUTS = {name: (x, t) for name, x, t in layouts()}


def same(ours, theirs):
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(to_numpy(ours), theirs.numpy())


@pytest.mark.parametrize("name", FORMATS)
def test_the_objects(name):
    fmt = getattr(wick, name)
    assert type(fmt) is wick.memory_format
    assert repr(fmt) == f"wick.{name}"
    assert pickle.loads(pickle.dumps(fmt)) is fmt
    with pytest.raises(TypeError):
        wick.memory_format()


@pytest.mark.parametrize("fmt", ["contiguous_format", "channels_last"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_contiguous_in_a_format(layout, fmt):
    x, t = LAYOUTS[layout]
    ours, theirs = x.contiguous(memory_format=getattr(wick, fmt)), t.contiguous(memory_format=getattr(torch, fmt))
    assert ours.stride() == theirs.stride()
    same(ours, theirs)
    assert (ours is x) == (theirs is t)  # self itself when it is laid out so already
    for check in ("contiguous_format", "channels_last"):
        assert ours.is_contiguous(memory_format=getattr(wick, check)) == \
            theirs.is_contiguous(memory_format=getattr(torch, check))
        assert x.is_contiguous(memory_format=getattr(wick, check)) == \
            t.is_contiguous(memory_format=getattr(torch, check))


@pytest.mark.parametrize("fmt", [None, "contiguous_format", "preserve_format", "channels_last"])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "transposed", "one_channel"])
def test_clone_in_a_format(layout, fmt):
    x, t = LAYOUTS[layout]
    kw, tkw = ({}, {}) if fmt is None else ({"memory_format": getattr(wick, fmt)},
                                            {"memory_format": getattr(torch, fmt)})
    ours, theirs = x.clone(**kw), t.clone(**tkw)
    assert ours.stride() == theirs.stride()
    same(ours, theirs)
    same(wick.clone(x, **kw), theirs)


def test_clone_keeps_a_transpose():
    x, t = pair(3, 4)
    assert x.t().clone().stride() == t.t().clone().stride() == (1, 4)
    assert x.t().clone().reshape(-1).tolist() == t.t().clone().reshape(-1).tolist()


@pytest.mark.parametrize("fmt", ["contiguous_format", "channels_last"])
@pytest.mark.parametrize("factory", ["empty_like", "zeros_like", "ones_like", "rand_like", "randn_like", "full_like"])
def test_like_factories_in_a_format(factory, fmt):
    x, t = LAYOUTS["transposed"]
    args = (7,) if factory == "full_like" else ()
    ours = getattr(wick, factory)(x, *args, memory_format=getattr(wick, fmt))
    theirs = getattr(torch, factory)(t, *args, memory_format=getattr(torch, fmt))
    assert ours.stride() == theirs.stride()
    if factory in ("zeros_like", "ones_like", "full_like"):
        same(ours, theirs)


@pytest.mark.parametrize("fmt,shape", [("channels_last", (2, 3, 4, 5)), ("channels_last_3d", (2, 3, 4, 5, 6)),
                                       ("contiguous_format", (2, 0, 3))])
def test_empty_in_a_format(fmt, shape):
    ours = wick.empty(shape, memory_format=getattr(wick, fmt))
    theirs = torch.empty(shape, memory_format=getattr(torch, fmt))
    assert ours.stride() == theirs.stride()
    out = wick.empty(0)
    assert wick.empty(shape, memory_format=getattr(wick, fmt), out=out) is out
    assert out.shape == theirs.shape and out.stride() == theirs.stride()


def test_channels_last_3d_round_trip():
    x, t = pair(2, 3, 4, 5, 6)
    ours, theirs = x.contiguous(memory_format=wick.channels_last_3d), t.contiguous(memory_format=torch.channels_last_3d)
    assert ours.stride() == theirs.stride()
    same(ours, theirs)
    assert ours.is_contiguous(memory_format=wick.channels_last_3d)
    assert not ours.is_contiguous(memory_format=wick.channels_last)


@pytest.mark.parametrize("call", [
    lambda m, x: x.contiguous(memory_format=m.channels_last),  # 3-d
    lambda m, x: x.clone(memory_format=m.channels_last_3d),
    lambda m, x: m.empty((2, 3), memory_format=m.channels_last),
    lambda m, x: x.transpose(0, 2).contiguous(memory_format=m.preserve_format),
    lambda m, x: m.empty((2, 3), memory_format=m.preserve_format),
    lambda m, x: m.zeros_like(x, memory_format=m.channels_last),
])
def test_errors(call):
    x, t = pair(2, 3, 4)
    with pytest.raises(RuntimeError):
        call(torch, t)
    with pytest.raises(RuntimeError):
        call(wick, x)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_preserve_format_asks_about_row_major_order(layout):
    x, t = LAYOUTS[layout]
    assert x.is_contiguous(memory_format=wick.preserve_format) == t.is_contiguous(memory_format=torch.preserve_format)
    if t.is_contiguous():
        assert x.contiguous(memory_format=wick.preserve_format) is x


@pytest.mark.parametrize("value", ["channels_last", 1, torch.channels_last])
def test_other_objects_are_type_errors(value):
    with pytest.raises(TypeError):
        wick.zeros(2, 3, 4, 5).contiguous(memory_format=value)


@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "transposed"])
def test_to_a_format(layout):
    x, t = LAYOUTS[layout]
    for kw, tkw in [({}, {}), ({"dtype": wick.float64}, {"dtype": torch.float64})]:
        ours = x.to(memory_format=wick.channels_last, **kw)
        theirs = t.to(memory_format=torch.channels_last, **tkw)
        assert ours.stride() == theirs.stride()
        assert (ours is x) == (theirs is t)
        same(ours, theirs)
    ours, theirs = x.to(wick.float64, memory_format=wick.channels_last), t.to(torch.float64,
                                                                              memory_format=torch.channels_last)
    assert ours.stride() == theirs.stride()
    assert x.to("cpu", memory_format=wick.channels_last).stride() == theirs.stride()
    assert x.to() is x


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_to_another_dtype_keeps_the_layout(layout):
    # memory_format=None is preserve_format: a dense input's stride order survives the copy.
    x, t = LAYOUTS[layout]
    for dtype in ["float64", "int32", "float16"]:
        ours, theirs = x.to(getattr(wick, dtype)), t.to(getattr(torch, dtype))
        assert ours.stride() == theirs.stride()
        same(ours, theirs)
    assert x.to(wick.float32, copy=True).stride() == t.to(torch.float32, copy=True).stride()
    assert x.double().stride() == t.double().stride()


def test_module_to_a_format():
    conv = wick.nn.Conv2d(3, 4, 3)
    conv.to(memory_format=wick.channels_last)
    assert conv.weight.is_contiguous(memory_format=wick.channels_last)
    assert conv.bias.is_contiguous()  # 1-d: left as it is
    x = wick.randn(2, 3, 8, 8).contiguous(memory_format=wick.channels_last)
    expected = torch.nn.functional.conv2d(torch.from_numpy(to_numpy(x)), torch.from_numpy(to_numpy(conv.weight)),
                                          torch.from_numpy(to_numpy(conv.bias)))
    np.testing.assert_allclose(to_numpy(conv(x)), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
