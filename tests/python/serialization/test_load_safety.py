"""wick.load never runs code from a file, and refuses every malformed file with a clear exception: files built by
hand, inside the archive and as bare pickles."""
import io
import os
import pickle
import struct
import zipfile

import pytest

import wick
from handmade import Call, Pid, archive, structure, tensor
from wick import serialization

STORAGE = {"0": bytes(8)}  # two float32 zeros


def load_bytes(data, **kwargs):
    return wick.load(io.BytesIO(data), **kwargs)


class Evil:
    """Unpickles as os.system("touch <marker>")."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


@pytest.mark.parametrize("where", ["archive", "bare pickle"])
def test_a_pickle_that_calls_os_system_is_refused_and_nothing_runs(tmp_path, where):
    marker = tmp_path / "ran"
    payload = pickle.dumps({"weights": [Evil(marker)]})
    pickle.loads(payload)  # the payload is live: plain pickle runs it
    assert marker.exists()
    marker.unlink()
    data = archive(payload) if where == "archive" else payload
    with pytest.raises(pickle.UnpicklingError, match=r"refuses to load the global (posix|nt)\.system"):
        load_bytes(data)
    assert not marker.exists()


@pytest.mark.parametrize("func", [eval, exec, getattr, __import__, wick.serialization.save,
                                  wick.serialization._Pickler, wick.zeros])
def test_any_other_global_is_refused_by_name(func):
    payload = structure(Call(func, "1"))
    with pytest.raises(pickle.UnpicklingError, match=f"global .*{func.__name__}"):
        load_bytes(archive(payload))
    with pytest.raises(pickle.UnpicklingError, match=f"global .*{func.__name__}"):
        load_bytes(payload)


def test_each_format_allows_only_its_own_rebuild_function():
    in_archive = structure(Call(serialization._rebuild, bytes(4), "float32", "cpu", 0, (1,), (1,), None))
    with pytest.raises(pickle.UnpicklingError, match="_rebuild"):
        load_bytes(archive(in_archive))
    with pytest.raises(pickle.UnpicklingError, match="_rebuild_tensor"):
        load_bytes(structure(tensor()))


def valid():
    return archive(structure(tensor()), STORAGE)


CASES = [
    (b"", pickle.UnpicklingError, "Ran out of input"),
    (b"\x80\x04garbage", pickle.UnpicklingError, ""),
    (pickle.dumps([1, 2, 3])[:-3], pickle.UnpicklingError, ""),
    (b"PK\x03\x04" + bytes(40), RuntimeError, "not a valid wick.save archive"),
    (valid()[:len(valid()) // 2], RuntimeError, "not a valid wick.save archive"),
    (archive(structure(tensor()), STORAGE, version=b"2\n"), RuntimeError, "unsupported file version b'2"),
    (archive(structure(tensor()), STORAGE, version=None), RuntimeError, "no entry 'archive/version'"),
    (archive(None, STORAGE), RuntimeError, "no entry 'archive/data.pkl'"),
    (archive(structure(tensor()), STORAGE, byteorder=b"big"), RuntimeError, "byte order b'big'"),
    (archive(structure(tensor()), STORAGE, compression=zipfile.ZIP_DEFLATED), RuntimeError, "compressed"),
    (archive(structure(tensor()), {}), RuntimeError, "no entry 'archive/data/0'"),
    (archive(structure(tensor()), {"0": bytes(4)}), RuntimeError, "should hold 8 bytes, but its entry holds 4"),
    (archive(structure(Pid(("blob", 1))), STORAGE), pickle.UnpicklingError, "unknown persistent id"),
    (archive(structure(tensor(nbytes=-1)), STORAGE), pickle.UnpicklingError, "invalid storage persistent id"),
    (archive(structure(tensor(nbytes=8.0)), STORAGE), pickle.UnpicklingError, "invalid storage persistent id"),
    (archive(structure([tensor(), tensor(location="cuda:0")]), STORAGE), pickle.UnpicklingError, "named both"),
    (archive(structure(tensor(location="tpu:0")), STORAGE), pickle.UnpicklingError, "location 'tpu:0'"),
    (archive(structure(tensor(location=7)), STORAGE), pickle.UnpicklingError, "location must be a str"),
    (archive(structure(Call(serialization._rebuild_tensor, "0", "float32", 0, (2,), (1,))), STORAGE),
     pickle.UnpicklingError, "must be a persistent id"),
    (archive(structure(tensor(dtype="complex64")), STORAGE), pickle.UnpicklingError, "unknown dtype 'complex64'"),
    (archive(structure(tensor(size=(3,))), STORAGE), RuntimeError, "reaches outside its storage of 8 bytes"),
    (archive(structure(tensor(storage_offset=1)), STORAGE), RuntimeError, "reaches outside"),
    (archive(structure(tensor(size=(2,), stride=(2,))), STORAGE), RuntimeError, "reaches outside"),
    (archive(structure(tensor(size=(0,), storage_offset=3)), STORAGE), RuntimeError, "reaches outside"),
    (archive(structure(tensor(size=(2**62, 2**62), stride=(0, 0))), STORAGE), RuntimeError, "more elements"),
    (archive(structure(tensor(size=(2, 2**61), stride=(2**62, 1))), STORAGE), RuntimeError, "reaches outside"),
    (archive(structure(tensor(size=(2**63,), stride=(0,))), STORAGE), ValueError, "fit in int64"),
    (archive(structure(tensor(stride=(-1,))), STORAGE), ValueError, "non-negative"),
    (archive(structure(tensor(storage_offset=-1)), STORAGE), ValueError, "non-negative"),
    (archive(structure(tensor(size=(2,), stride=(1, 1))), STORAGE), ValueError, "1 dims but stride has 2"),
    (archive(structure(tensor(size=(2.0,))), STORAGE), pickle.UnpicklingError, "size must be a tuple of ints"),
    (archive(structure(tensor(size=(True,))), STORAGE), pickle.UnpicklingError, "size must be a tuple of ints"),
    (archive(structure(tensor(size=5)), STORAGE), pickle.UnpicklingError, "size must be a tuple of ints"),
    (archive(structure(tensor(storage_offset=0.0)), STORAGE), pickle.UnpicklingError, "storage_offset must be"),
    (pickle.dumps(Pid), pickle.UnpicklingError, "refuses to load the global handmade.Pid"),
    (structure(Pid(("storage", "0", "cpu", 8))), pickle.UnpicklingError, "bare pickle holds no storages"),
]


@pytest.mark.parametrize("data, error, match", CASES, ids=[f"{i}-{match}" for i, (_, _, match) in enumerate(CASES)])
def test_a_malformed_file_gives_a_clear_exception(data, error, match):
    with pytest.raises(error, match=match):
        load_bytes(data)


def test_a_file_from_torch_save_is_refused_by_its_version():
    torch = pytest.importorskip("torch")
    f = io.BytesIO()
    torch.save({"w": torch.ones(2)}, f)
    with pytest.raises(RuntimeError, match="unsupported file version b'3"):
        load_bytes(f.getvalue())


def test_a_corrupted_storage_fails_its_checksum():
    data = bytearray(valid())
    at = data.index(STORAGE["0"])
    data[at] ^= 0xFF
    with pytest.raises(RuntimeError, match="CRC"):
        load_bytes(bytes(data))


def test_entries_that_claim_more_bytes_than_the_file_holds_are_refused_before_any_allocation():
    data = bytearray(valid())
    record = data.rindex(b"archive/data/0") - 46  # the entry's record in the central directory
    assert data[record:record + 4] == b"PK\x01\x02"
    struct.pack_into("<II", data, record + 20, 2**31, 2**31)  # compressed and uncompressed sizes
    with pytest.raises(RuntimeError, match="claim 2147483"):
        load_bytes(bytes(data))


def test_a_valid_handmade_file_loads():
    """The control for the cases above: the same construction, with valid values, loads."""
    data = structure([tensor(), tensor(storage_offset=1, size=(1,)), tensor(dtype="int16", size=(4,))])
    a, b, c = load_bytes(archive(data, {"0": bytes([0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0])}))
    assert a.tolist() == [1.0, -2.0] and b.tolist() == [-2.0] and c.tolist() == [0, 16256, 0, -16384]


def test_a_malicious_pickle_of_a_tensor_is_checked_like_a_file():
    """pickle.loads of wick's own rebuild function with hostile arguments: refused, nothing built."""
    for args, error in [((bytes(4), "float32", "cpu", 0, (2,), (1,), None), RuntimeError),
                        ((bytes(4), "float32", "cpu", 0, (1,), (-1,), None), ValueError),
                        (("text", "float32", "cpu", 0, (1,), (1,), None), pickle.UnpicklingError),
                        ((bytes(4), "float32", "cpu", 0, (1,), (1,), dict), pickle.UnpicklingError)]:
        with pytest.raises(error):
            pickle.loads(structure(Call(serialization._rebuild, *args)))
