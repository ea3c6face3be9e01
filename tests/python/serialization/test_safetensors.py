"""wick.save_file and wick.load_file against safetensors files written by hand from the published format, round
trips of every dtype, and every malformed file the reference reader refuses."""
import json
import struct

import numpy as np
import pytest
import torch

import wick
from reference import DTYPES, make, to_numpy

CODES = {"bool": "BOOL", "uint8": "U8", "int8": "I8", "int16": "I16", "int32": "I32", "int64": "I64",
         "float16": "F16", "bfloat16": "BF16", "float32": "F32", "float64": "F64"}


def handmade(header, buffer, pad=True):
    """A safetensors file: the 8-byte little-endian header size, the JSON header (padded with spaces to a
    multiple of 8 as the reference writer pads it), the buffer."""
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    if pad:
        text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + buffer


def bf16_bytes(values):
    """bfloat16 is the upper half of float32: exact for these values."""
    return (np.array(values, "<f4").view("<u4") >> 16).astype("<u2").tobytes()


def load_bytes(tmp_path, data):
    path = tmp_path / "t.safetensors"
    path.write_bytes(data)
    return wick.load_file(path)


def test_a_handmade_file_loads(tmp_path):
    f16 = np.array([[0.5, -1.25], [65504.0, 2.0**-24]], "<f2")
    i64 = np.array([2**62, -3], "<i8")
    buffer = i64.tobytes() + np.array(3.5, "<f4").tobytes() + f16.tobytes() + bf16_bytes([1.5, -2.0, 0.15625])
    header = {
        "__metadata__": {"format": "pt", "note": "written by hand"},
        "ints": {"dtype": "I64", "shape": [2], "data_offsets": [0, 16]},
        "scalar": {"dtype": "F32", "shape": [], "data_offsets": [16, 20]},
        "half": {"dtype": "F16", "shape": [2, 2], "data_offsets": [20, 28]},
        "brain": {"dtype": "BF16", "shape": [3], "data_offsets": [28, 34]},
        "empty": {"dtype": "F32", "shape": [0, 3], "data_offsets": [34, 34]},
    }
    got = load_bytes(tmp_path, handmade(header, buffer))
    assert set(got) == {"ints", "scalar", "half", "brain", "empty"}
    assert got["ints"].dtype is wick.int64 and got["ints"].tolist() == i64.tolist()
    assert got["scalar"].shape == () and got["scalar"].item() == 3.5
    assert got["half"].dtype is wick.float16
    np.testing.assert_array_equal(to_numpy(got["half"]), f16)
    assert got["brain"].dtype is wick.bfloat16
    assert got["brain"].tolist() == torch.tensor([1.5, -2.0, 0.15625], dtype=torch.bfloat16).tolist()
    assert got["empty"].shape == (0, 3) and got["empty"].dtype is wick.float32


def test_the_header_may_be_unpadded_or_padded_with_more_spaces(tmp_path):
    header = {"x": {"dtype": "U8", "shape": [3], "data_offsets": [0, 3]}}
    for text in (json.dumps(header).encode(), json.dumps(header).encode() + b" " * 13):
        data = struct.pack("<Q", len(text)) + text + bytes([1, 2, 255])
        assert load_bytes(tmp_path, data)["x"].tolist() == [1, 2, 255]


def test_save_file_writes_what_the_reference_writer_writes(tmp_path):
    """Compact JSON, __metadata__ first, tensors by dtype (I64 before F32 before U8) then name, padded to 8."""
    path = tmp_path / "w.safetensors"
    wick.save_file({"b": wick.tensor([1.0, -2.0]), "a": wick.tensor([5, 6]), "c": wick.tensor([7], dtype=wick.uint8),
                    "aa": wick.tensor(0.25)}, path, metadata={"k": "v"})
    header = ('{"__metadata__":{"k":"v"},"a":{"dtype":"I64","shape":[2],"data_offsets":[0,16]},'
              '"aa":{"dtype":"F32","shape":[],"data_offsets":[16,20]},'
              '"b":{"dtype":"F32","shape":[2],"data_offsets":[20,28]},'
              '"c":{"dtype":"U8","shape":[1],"data_offsets":[28,29]}}').encode()
    header += b" " * (-len(header) % 8)
    buffer = (np.array([5, 6], "<i8").tobytes() + np.array(0.25, "<f4").tobytes()
              + np.array([1.0, -2.0], "<f4").tobytes() + bytes([7]))
    assert path.read_bytes() == struct.pack("<Q", len(header)) + header + buffer


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)])
def test_every_dtype_round_trips(tmp_path, dtype, shape):
    values = np.random.default_rng(3).integers(0 if dtype in ("uint8", "bool") else -50, 50, size=shape)
    x = make(values.astype(bool) if dtype == "bool" else values / (4 if dtype.startswith(("float", "bf")) else 1),
             dtype)
    wick.save_file({"x": x}, tmp_path / "x.safetensors")
    y = wick.load_file(tmp_path / "x.safetensors")["x"]
    assert y.dtype is x.dtype and y.shape == x.shape and y.device == wick.device("cpu")
    np.testing.assert_array_equal(to_numpy(y), to_numpy(x))


def test_a_non_contiguous_tensor_is_written_contiguous(tmp_path):
    x = wick.arange(12, dtype=wick.int32).reshape(3, 4)
    views = {"t": x.t(), "col": x.clone()[:, 1], "expanded": wick.tensor([9.0]).expand(2, 2)}
    wick.save_file(views, str(tmp_path / "v.safetensors"))
    got = wick.load_file(str(tmp_path / "v.safetensors"), device=wick.device("cpu"))
    for name, view in views.items():
        assert got[name].is_contiguous() and got[name].tolist() == view.tolist()


def test_tensors_whose_bytes_overlap_are_refused_by_name(tmp_path):
    x = wick.arange(10.0)
    with pytest.raises(RuntimeError, match=r"share memory.*\[\['a', 'view'\]\]"):
        wick.save_file({"a": x, "view": x[3:5], "b": wick.ones(2)}, tmp_path / "s.safetensors")
    assert not (tmp_path / "s.safetensors").exists()
    wick.save_file({"head": x[:5], "tail": x[5:]}, tmp_path / "s.safetensors")  # one storage, apart: fine
    got = wick.load_file(tmp_path / "s.safetensors")
    assert got["head"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0] and got["tail"].tolist() == [5.0, 6.0, 7.0, 8.0, 9.0]


@pytest.mark.parametrize("tensors, metadata, error", [
    ([wick.ones(1)], None, TypeError), ({1: wick.ones(1)}, None, TypeError), ({"x": [1.0]}, None, TypeError),
    ({"x": wick.ones(1)}, {"k": 1}, TypeError), ({"__metadata__": wick.ones(1)}, None, ValueError),
])
def test_save_file_checks_its_arguments(tmp_path, tensors, metadata, error):
    with pytest.raises(error):
        wick.save_file(tensors, tmp_path / "bad.safetensors", metadata=metadata)


def test_load_file_onto_a_missing_cuda_device(tmp_path):
    if wick.cuda.is_available():
        pytest.skip("needs a machine without CUDA")
    wick.save_file({"x": wick.ones(2)}, tmp_path / "x.safetensors")
    with pytest.raises(RuntimeError, match="CUDA"):
        wick.load_file(tmp_path / "x.safetensors", device=0)


@pytest.mark.cuda
def test_load_file_onto_cuda(tmp_path):
    x = wick.arange(6.0).reshape(2, 3).cuda()
    wick.save_file({"x": x.t()}, tmp_path / "x.safetensors")
    for device in ("cuda:0", 0, wick.device("cuda", 0)):
        y = wick.load_file(tmp_path / "x.safetensors", device=device)["x"]
        assert y.device == wick.device("cuda:0") and y.cpu().tolist() == x.t().cpu().tolist()


ENTRY = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
BUFFER = np.array([1.0, 2.0], "<f4").tobytes()


def with_size(size, rest):
    return struct.pack("<Q", size) + rest


BAD_FILES = [
    (b"\x08\x00\x00", ValueError, "fewer than the 8"),
    (with_size(1000, b"{}"), ValueError, "a header of 1000 bytes in a file of 10"),
    (with_size(2**40, b"{}"), ValueError, "at most"),
    (with_size(2, b"[]"), ValueError, "does not start with '{'"),
    (with_size(3, b" {}"), ValueError, "does not start with '{'"),
    (with_size(4, b"{\"a\""), ValueError, "invalid safetensors header"),
    (with_size(3, b"{\xff}"), ValueError, "invalid safetensors header"),
    (with_size(4, b"{}{}"), ValueError, "Extra data"),
    (with_size(100_005, b'{"a":' + b"[" * 100_000), ValueError, "invalid safetensors header"),
    (with_size(26, b'{"x":1,"x":2}             '), ValueError, "the key 'x' appears twice"),
    (with_size(34, b'{"__metadata__":{"a":"1","a":"2"}}'), ValueError, "the key 'a' appears twice"),
    (handmade({"__metadata__": {"a": 1}}, b""), ValueError, "__metadata__ must be a dict of str to str"),
    (handmade({"__metadata__": ["a"]}, b""), ValueError, "__metadata__ must be a dict of str to str"),
    (handmade({"x": [1]}, b""), ValueError, "not an object"),
    (handmade({"x": {"dtype": "F32", "shape": [0]}}, b""), ValueError, "has no data_offsets"),
    (handmade({"x": {**ENTRY, "dtype": "U16"}}, BUFFER), TypeError, "dtype 'U16', which wick lacks"),
    (handmade({"x": {**ENTRY, "dtype": "F8_E4M3"}}, BUFFER), TypeError, "'F8_E4M3'"),
    (handmade({"x": {**ENTRY, "dtype": "f32"}}, BUFFER), TypeError, "'f32'"),
    (handmade({"x": {**ENTRY, "shape": [-2]}}, BUFFER), ValueError, r"shape \[-2\]"),
    (handmade({"x": {**ENTRY, "shape": [True, 2]}}, BUFFER), ValueError, r"shape \[True, 2\]"),
    (handmade({"x": {**ENTRY, "shape": "2"}}, BUFFER), ValueError, "shape '2'"),
    (handmade({"x": {**ENTRY, "shape": [2**63]}}, BUFFER), ValueError, "shape"),
    (handmade({"x": {**ENTRY, "shape": [2**31, 2**31, 4]}}, BUFFER), ValueError, "takes 73786976294838206464 bytes"),
    (handmade({"x": {**ENTRY, "data_offsets": [0]}}, BUFFER), ValueError, "data_offsets"),
    (handmade({"x": {**ENTRY, "data_offsets": [8, 0]}}, BUFFER), ValueError, "data_offsets"),
    (handmade({"x": {**ENTRY, "data_offsets": [0, 4]}}, BUFFER), ValueError, "takes 8 bytes, but its data_offsets"),
    (handmade({"x": ENTRY}, BUFFER + b"\x00"), ValueError, "the tensors take 8 bytes of a buffer of 9"),
    (handmade({"x": ENTRY}, BUFFER[:6]), ValueError, "the tensors take 8 bytes of a buffer of 6"),
    (handmade({"x": {**ENTRY, "data_offsets": [4, 12]}}, BUFFER * 2), ValueError, "starts at byte 4"),
    (handmade({"x": ENTRY, "y": {**ENTRY, "data_offsets": [4, 12]}}, BUFFER * 2), ValueError, "'y' starts at byte 4"),
    (handmade({"x": ENTRY, "y": {**ENTRY, "data_offsets": [12, 20]}}, BUFFER * 3), ValueError, "'y' starts at byte 12"),
]


@pytest.mark.parametrize("data, error, match", BAD_FILES, ids=[f"{i}-{m}" for i, (_, _, m) in enumerate(BAD_FILES)])
def test_a_malformed_file_gives_a_clear_exception(tmp_path, data, error, match):
    with pytest.raises(error, match=match):
        load_bytes(tmp_path, data)


def test_a_valid_file_of_the_same_construction_loads(tmp_path):
    """The control for the cases above."""
    got = load_bytes(tmp_path, handmade({"x": ENTRY, "y": {**ENTRY, "data_offsets": [8, 16]}}, BUFFER * 2))
    assert got["x"].tolist() == [1.0, 2.0] and got["y"].tolist() == [1.0, 2.0]
    got["x"][0] = 5
    assert got["y"].tolist() == [1.0, 2.0]  # each tensor has a storage of its own
