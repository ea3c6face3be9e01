"""Identity and lifetime: the same C++ tensor is the same Python object, and nothing leaks."""
import gc
import os
import resource
import weakref

import wick
from memory import sanitizer_bytes_in_use


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
    if sanitizer_bytes_in_use is not None:  # ASan's quarantine of freed blocks is resident too (memory.py)
        return sanitizer_bytes_in_use() / 2**20
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


def test_attributes_survive_while_only_cpp_holds_the_tensor():
    x = wick.arange(5)
    x.tag = 1
    y = x[1:]
    del x
    gc.collect()
    base = y._base
    assert base.tag == 1 and base.tolist() == [0, 1, 2, 3, 4]
    assert y._base is base  # still one object
    assert base._base is None and y[1:]._base is base  # views of views point at the root


def test_preserved_objects_are_freed_with_the_last_reference():
    x = wick.ones(3)
    ref = weakref.ref(x)
    y = x.view(3)
    del x
    gc.collect()
    assert ref() is not None  # preserved: only y's C++ side holds it
    del y
    gc.collect()
    assert ref() is None


def test_subclass_objects_are_preserved_with_their_class():
    class Tagged(wick.Tensor):
        pass

    x = Tagged(4)
    x.note = "kept"
    v = x.t()
    del x
    gc.collect()
    assert type(v._base) is Tagged and v._base.note == "kept"
    ref = weakref.ref(v._base)
    del v
    gc.collect()
    assert ref() is None


def test_preservation_does_not_leak():
    before = _rss_mb()
    for _ in range(300):
        x = wick.ones(1 << 16)  # 256 KiB
        x.tag = list(range(100))
        y = x[1:]
        del x
        assert y._base.tag[5] == 5
        del y
    gc.collect()
    assert _rss_mb() - before < 32


def test_subclasses_with_slots_del_and_weakrefs_are_freed_cleanly():
    deleted = []

    class Slotted(wick.Tensor):
        __slots__ = ("payload",)

        def __del__(self):
            deleted.append(True)

    x = Slotted(2)
    x.payload = [1, 2, 3]
    ref = weakref.ref(x)
    v = x[1:]
    del x
    gc.collect()
    assert ref() is not None and v._base.payload == [1, 2, 3] and deleted == []
    del v
    gc.collect()
    assert ref() is None and deleted == [True]


def _dies(make_cycle):
    """Whether the tensor make_cycle() returns is freed by the collector once dropped."""
    ref = weakref.ref(make_cycle())
    gc.collect()
    return ref() is None


def test_cycles_through_views_are_collected():
    def view_in_dict():
        x = wick.ones(8)
        x.tag = x[1:]
        return x

    def views_of_views_in_a_list():
        x = wick.ones(8)
        x.tags = [x[1:][::2], x.view(2, 4).t(), x[None]]
        return x

    def view_holds_its_base():
        x = wick.ones(8)
        y = x[2:]
        y.back = x
        x.fwd = y
        return x

    class Sub(wick.Tensor):
        pass

    def subclass_cycle():
        x = Sub(8)
        x.tag = x.t()
        return x

    for make in (view_in_dict, views_of_views_in_a_list, view_holds_its_base, subclass_cycle):
        assert _dies(make), make.__name__


def _current_rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_cycles_through_views_do_not_leak():
    def churn():  # 256 MiB in cycles, left to the collector
        refs = []
        for _ in range(256):
            x = wick.ones(1 << 18)
            x.tag = x[1:]
            refs.append(weakref.ref(x))
        del x
        gc.collect()
        return refs

    # The first round sizes the allocator's pools; freed memory need not go back to the system.
    assert all(ref() is None for ref in churn())
    before = _current_rss_mb()
    assert all(ref() is None for ref in churn())
    assert _current_rss_mb() - before < 64


def test_finalizer_that_resurrects_keeps_a_valid_tensor():
    saved = []

    class Phoenix(wick.Tensor):
        def __del__(self):
            saved.append(self)

    x = Phoenix(3).fill_(2)
    y = x[1:]
    del x
    gc.collect()
    del y  # the last reference to x goes with its view
    gc.collect()
    (back,) = saved
    assert type(back) is Phoenix and back.shape == (3,) and back.sum().item() == 6
    assert back[1:]._base is back
    saved.clear()  # __del__ has run once: freed for good now
    gc.collect()


def test_long_chains_through_slots_are_freed_without_recursion():
    class Link(wick.Tensor):
        __slots__ = ("next",)

    head = Link(1)
    for _ in range(200_000):  # deeper than the C stack could unwind one by one
        link = Link(1)
        link.next = head
        head = link
    ref = weakref.ref(head)
    del head, link
    assert ref() is None
