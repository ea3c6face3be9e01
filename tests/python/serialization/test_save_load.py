"""wick.save and wick.load: raw little-endian bytes per storage, geometry, shared storages, containers, paths and
file objects, devices and map_location, and what save refuses."""
import collections
import io
import pathlib
import pickle
import sys
import zipfile

import numpy as np
import pytest
import torch

import wick
from handmade import archive, structure, tensor
from reference import DTYPES, make, to_numpy


def round_trip(obj, **load_kwargs):
    f = io.BytesIO()
    wick.save(obj, f)
    f.seek(0)
    return wick.load(f, **load_kwargs)


def saved_entries(obj):
    f = io.BytesIO()
    wick.save(obj, f)
    with zipfile.ZipFile(f) as z:
        return {name: z.read(name) for name in z.namelist()}


def values_of(dtype, shape=(3, 4)):
    rng = np.random.default_rng(7)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        return rng.integers(-40, 40, size=shape) / 8  # exact in every float dtype
    return rng.integers(0 if dtype == "uint8" else -100, 100, size=shape)


def little_endian_bytes(values, dtype):
    """The bytes of `values` in `dtype`, little-endian, as NumPy (or PyTorch for bfloat16) lays them out."""
    if dtype == "bfloat16":
        return torch.tensor(values, dtype=torch.bfloat16).view(torch.int16).numpy().astype("<i2").tobytes()
    return np.asarray(values).astype(np.dtype(dtype).newbyteorder("<")).tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_is_saved_as_its_raw_little_endian_bytes(dtype):
    values = values_of(dtype)
    x = make(values, dtype)
    entries = saved_entries(x)
    assert sorted(entries) == ["archive/byteorder", "archive/data.pkl", "archive/data/0", "archive/version"]
    assert entries["archive/data/0"] == little_endian_bytes(values, dtype)
    assert entries["archive/version"] == b"1\n" and entries["archive/byteorder"] == b"little"
    y = round_trip(x)
    assert type(y) is wick.Tensor and y.dtype is x.dtype and y.shape == x.shape and y.stride() == x.stride()
    np.testing.assert_array_equal(to_numpy(y), values.astype(to_numpy(y).dtype))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (1,), (5,)])
def test_shapes_without_elements_or_dims(shape):
    x = make(values_of("float64", shape), "float64")
    y = round_trip(x)
    assert y.shape == x.shape and y.tolist() == x.tolist()


def test_views_that_share_a_storage_still_share_one_after_loading():
    x = wick.arange(12.0).reshape(3, 4)
    a, b = x[1:], x.t()
    entries = saved_entries((x, a, b))
    assert [n for n in entries if n.startswith("archive/data/")] == ["archive/data/0"]  # one storage, once
    lx, la, lb = round_trip((x, a, b))
    assert (la.storage_offset(), la.stride(), lb.stride()) == (4, (4, 1), (1, 4))
    la[0, 0] = 100
    assert lx[1, 0].item() == 100 and lb[0, 1].item() == 100
    assert x[1, 0].item() == 4  # the saved tensor is untouched


def test_a_view_saves_its_whole_storage_as_pytorch_does():
    x = wick.arange(10, dtype=wick.int32)
    y = round_trip(x[2:4])
    assert y.tolist() == [2, 3] and y.storage_offset() == 2
    assert len(saved_entries(x[2:4])["archive/data/0"]) == 40
    expanded = round_trip(wick.tensor([7]).expand(3, 2))
    assert expanded.stride() == (0, 0) and expanded.tolist() == [[7, 7]] * 3


def test_the_same_tensor_twice_loads_as_one_object():
    x = wick.ones(3)
    d = round_trip({"a": x, "b": [x]})
    assert d["a"] is d["b"][0]


def test_a_state_dict_keeps_its_structure_and_types():
    w, bias = wick.randn(3, 2), wick.zeros(3)
    state = collections.OrderedDict([("layer.weight", w), ("layer.bias", bias)])
    obj = {"state": state, "step": 10, "lr": 0.5, "flags": (True, None, "adam", b"\x00\xff"), "hist": [[1, 2], []]}
    got = round_trip(obj)
    assert type(got["state"]) is collections.OrderedDict and list(got["state"]) == ["layer.weight", "layer.bias"]
    assert got["state"]["layer.weight"].tolist() == w.tolist() and got["state"]["layer.bias"].tolist() == [0.0] * 3
    assert {k: v for k, v in got.items() if k != "state"} == {k: v for k, v in obj.items() if k != "state"}


def test_attributes_are_kept_and_may_refer_to_the_tensor():
    x = wick.arange(3.0)
    x.tag, x.me = "kept", x
    y = round_trip(x)
    assert y.tag == "kept" and y.me is y and y.tolist() == [0.0, 1.0, 2.0]


def test_paths_and_file_objects(tmp_path):
    x = wick.arange(4.0)
    for f in (str(tmp_path / "a.wick"), tmp_path / "b.wick"):
        wick.save(x, f)
        assert wick.load(f).tolist() == x.tolist()
        with open(f, "rb") as opened:
            assert wick.load(opened).tolist() == x.tolist()
            assert not opened.closed  # the caller's file stays open

    class Unseekable(io.RawIOBase):  # a pipe or socket: wick.load reads it whole first
        def __init__(self, data):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self.inner.readinto(b)

    assert wick.load(Unseekable((tmp_path / "b.wick").read_bytes())).tolist() == x.tolist()
    with pytest.raises(TypeError, match="path"):
        wick.save(x, 3)


def test_saving_is_deterministic():
    obj = {"x": wick.arange(6).reshape(2, 3), "y": [1.5]}
    first, second = io.BytesIO(), io.BytesIO()
    wick.save(obj, first)
    wick.save(obj, second)
    assert first.getvalue() == second.getvalue()


class Subclass(wick.Tensor):
    pass


@pytest.mark.parametrize("obj, name", [
    (Subclass([1.0]), "Subclass"), (1j, "complex"), (object(), "object"), (len, "builtin_function_or_method"),
    (wick.float32, "dtype"), ({"deep": [collections.defaultdict(int)]}, "defaultdict"),
])
def test_save_refuses_what_load_would_have_to_import(tmp_path, obj, name):
    with pytest.raises(TypeError, match=name):
        wick.save(obj, tmp_path / "refused.wick")
    assert not (tmp_path / "refused.wick").exists()  # nothing written


def cuda_file():
    """A file as wick.save writes a cuda:0 float32 tensor [1.5, -2] and a view of it, built by hand."""
    data = structure({"x": tensor(location="cuda:0"), "tail": tensor(location="cuda:0", storage_offset=1, size=(1,))})
    return archive(data, {"0": np.array([1.5, -2.0], "<f4").tobytes()})


@pytest.mark.skipif(wick.cuda.is_available(), reason="needs a build or machine without CUDA")
def test_a_cuda_file_on_a_machine_without_cuda_asks_for_map_location():
    with pytest.raises(RuntimeError, match=r"wick.cuda.is_available\(\) is False.*map_location=wick.device\('cpu'\)"):
        wick.load(io.BytesIO(cuda_file()))
    with pytest.raises(RuntimeError, match="is_available"):  # a dict that leaves the location as it is
        wick.load(io.BytesIO(cuda_file()), map_location={"cuda:1": "cpu"})


@pytest.mark.parametrize("map_location", ["cpu", wick.device("cpu"), {"cuda:0": "cpu"}, {"cuda:0": wick.device("cpu")}])
def test_map_location_sends_storages_to_the_cpu(map_location):
    d = wick.load(io.BytesIO(cuda_file()), map_location=map_location)
    assert d["x"].device == wick.device("cpu") and d["x"].tolist() == [1.5, -2.0] and d["tail"].tolist() == [-2.0]
    d["tail"][0] = 3
    assert d["x"].tolist() == [1.5, 3.0]


def test_map_location_of_the_wrong_kind():
    with pytest.raises(TypeError, match="map_location"):
        wick.load(io.BytesIO(cuda_file()), map_location=lambda storage, location: storage)
    with pytest.raises(TypeError, match="map_location"):
        wick.load(io.BytesIO(cuda_file()), map_location={0: "cpu"})


@pytest.mark.cuda
def test_a_cuda_tensor_keeps_its_device_and_its_views():
    x = wick.arange(6.0).reshape(2, 3).cuda()
    lx, lt = round_trip((x, x.t()))
    assert lx.device == x.device and lt.device == x.device and lt.stride() == (1, 3)
    lt[1, 0] = 50
    assert lx.cpu().tolist() == [[0.0, 50.0, 2.0], [3.0, 4.0, 5.0]]
    on_cpu = round_trip(x, map_location="cpu")
    assert on_cpu.device == wick.device("cpu") and on_cpu.tolist() == x.cpu().tolist()
    assert round_trip(x.cpu(), map_location="cuda:0").device == x.device


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_load_reads_bare_pickles_of_tensors_and_containers(protocol):
    x = wick.arange(6.0).reshape(2, 3)
    got = wick.load(io.BytesIO(pickle.dumps(collections.OrderedDict(w=x.t(), n=[1, "a"]), protocol)))
    assert got["w"].tolist() == x.t().tolist() and got["w"].stride() == (1, 3) and got["n"] == [1, "a"]


def test_a_big_endian_host_is_refused(monkeypatch):
    monkeypatch.setattr(sys, "byteorder", "big")
    with pytest.raises(RuntimeError, match="big-endian"):
        wick.save(wick.ones(1), io.BytesIO())
    with pytest.raises(RuntimeError, match="big-endian"):
        wick.load(io.BytesIO(cuda_file()), map_location="cpu")


def test_nested_containers_of_bfloat16_and_empty_tensors(tmp_path):
    path = pathlib.Path(tmp_path) / "nested.wick"
    wick.save([wick.ones(2, dtype=wick.bfloat16), {"k": (wick.zeros(0),)}], path)
    got = wick.load(path)
    assert got[0].dtype is wick.bfloat16 and got[0].tolist() == [1.0, 1.0] and got[1]["k"][0].shape == (0,)
