"""Identity and lifetime: the same C++ tensor is the same Python object, and nothing leaks."""
import gc
import resource
import weakref

import wick


def test_in_place_ops_return_self():
    x = wick.ones(4)
    assert x.add_(1) is x and x.zero_() is x and x.fill_(3) is x and x.mul_(x) is x and x.copy_(x) is x
    assert wick.fill_(x, 2) is x


def test_out_returns_the_out_object():
    x, out = wick.ones(2), wick.empty(2)
    assert wick.add(x, x, out=out) is out


def test_objects_die_with_their_last_reference():
    x = wick.ones(3)
    ref = weakref.ref(x)
    del x
    gc.collect()
    assert ref() is None


def test_views_keep_their_storage_alive():
    base = wick.arange(10)
    view = base[2:5]
    del base
    gc.collect()
    assert view.tolist() == [2, 3, 4]


def _rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_repeated_ops_do_not_leak():
    x = wick.ones(1 << 18)  # 1 MiB
    for _ in range(50):  # warm up allocator pools
        (x + x).sum()
    before = _rss_mb()
    for _ in range(2000):  # 2000 MiB allocated in total
        y = x + x
        y.add_(1)
        y[1:10] = 3
        _ = y.view(-1)[::2].sum().item()
        del y
    assert _rss_mb() - before < 64
