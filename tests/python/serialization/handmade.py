"""Files and pickles built by hand, byte for byte, so that tests can give wick.load what wick.save never writes."""
import io
import pickle
import zipfile

from wick import serialization


class Call:
    """Pickles as the call func(*args), whatever func is: the way a hostile pickle names a function."""

    def __init__(self, func, *args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


class Pid:
    """Pickles as the persistent id `pid`."""

    def __init__(self, pid):
        self.pid = pid


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        return obj.pid if isinstance(obj, Pid) else None


def structure(obj, protocol=4):
    """The bytes of data.pkl for `obj`, with Pid objects as persistent ids."""
    out = io.BytesIO()
    _Pickler(out, protocol=protocol).dump(obj)
    return out.getvalue()


def tensor(key="0", dtype="float32", storage_offset=0, size=(2,), stride=(1,), location="cpu", nbytes=8):
    """A tensor as wick.save pickles one, with any geometry."""
    return Call(serialization._rebuild_tensor, Pid(("storage", key, location, nbytes)), dtype, storage_offset,
                size, stride)


def archive(data_pkl, storages=(), version=b"1\n", byteorder=b"little", compression=zipfile.ZIP_STORED):
    """A wick.save archive: entries as Note [wick.save file format] lists them, with any content."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        for name, data in (("version", version), ("byteorder", byteorder), ("data.pkl", data_pkl)):
            if data is not None:
                z.writestr("archive/" + name, data)
        for key, data in dict(storages).items():
            z.writestr(f"archive/data/{key}", data)
    return out.getvalue()
