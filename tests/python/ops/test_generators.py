"""wick.Generator and the random state (core/include/wick/generator.h, python_ext/generator_object.cpp,
wick/sampling.py): the API's shape against PyTorch 1.13 (what each call returns, how seeds are read, which
errors), and what a generator promises: its own stream, independent of every other generator and of the default
one; the same draws for the same seed, whatever the generator object, the number of threads, or a state saved and
restored in between; draws that never interleave when threads share one generator."""
import gc
import sys
import threading

import numpy as np
import pytest
import torch

import wick
import wick.sampling


def values(t):
    return np.asarray(t.double()).copy()


def same(a, b):
    np.testing.assert_array_equal(values(a), values(b))


def gen(seed):
    return wick.Generator().manual_seed(seed)


# Every function that draws, each a call with a given generator (None: the default one). The sizes are not
# multiples of randn's chunk (Note [Random draws]), and poisson's rates take both of its methods.
DRAWS = {
    "rand": lambda g: wick.rand(5, 7, generator=g),
    "rand float64": lambda g: wick.rand(37, dtype=wick.float64, generator=g),
    "rand float16": lambda g: wick.rand(37, dtype=wick.float16, generator=g),
    "randn": lambda g: wick.randn(3, 11, generator=g),
    "randn bfloat16": lambda g: wick.randn(45, dtype=wick.bfloat16, generator=g),
    "randint": lambda g: wick.randint(-5, 100, (40,), generator=g),
    "randint high": lambda g: wick.randint(7, (3, 4), dtype=wick.int32, generator=g),
    "randperm": lambda g: wick.randperm(50, generator=g),
    "uniform_": lambda g: wick.empty(33).uniform_(-2, 3, generator=g),
    "normal_": lambda g: wick.empty(33, dtype=wick.float64).normal_(1, 2, generator=g),
    "normal tensors": lambda g: wick.sampling.normal(wick.zeros(9), wick.ones(9), generator=g),
    "normal floats": lambda g: wick.sampling.normal(0.0, 2.0, (9,), generator=g),
    "bernoulli": lambda g: wick.sampling.bernoulli(wick.full((20,), 0.5), generator=g),
    "bernoulli p": lambda g: wick.sampling.bernoulli(wick.zeros(20), 0.3, generator=g),
    "bernoulli_": lambda g: wick.zeros(20).bernoulli_(0.4, generator=g),
    "poisson": lambda g: wick.sampling.poisson(wick.tensor([0.5, 3.0, 12.0, 400.0]), generator=g),
    "multinomial": lambda g: wick.sampling.multinomial(wick.tensor([1.0, 2.0, 3.0]), 8, True, generator=g),
    "multinomial without replacement": lambda g: wick.sampling.multinomial(wick.ones(2, 6), 4, generator=g),
    "exponential_": lambda g: wick.empty(15).exponential_(2.0, generator=g),
    "random_": lambda g: wick.empty(15).random_(3, 90, generator=g),
    "random_ every int64": lambda g: wick.empty(15, dtype=wick.int64).random_(generator=g),
    "cauchy_": lambda g: wick.empty(15).cauchy_(generator=g),
    "log_normal_": lambda g: wick.empty(15).log_normal_(generator=g),
    "geometric_": lambda g: wick.empty(15).geometric_(0.3, generator=g),
}


# --- the API, as PyTorch's ----------------------------------------------------------------------------------------

def test_module_functions_return_what_pytorch_returns():
    assert wick.manual_seed(3) is wick.default_generator
    assert torch.manual_seed(3) is torch.default_generator
    assert type(wick.default_generator) is wick.Generator
    for lib in (torch, wick):
        assert lib.initial_seed() == 3
        seed = lib.seed()
        assert type(seed) is int and 0 <= seed < 2**64 and lib.initial_seed() == seed
        state = lib.get_rng_state()
        assert state.dtype == lib.uint8 and state.dim() == 1
        assert lib.set_rng_state(state) is None


def test_generator_methods_return_what_pytorch_returns():
    for lib in (torch, wick):
        g = lib.Generator()
        assert g.initial_seed() == 67280421310721  # PyTorch's default_rng_seed_val
        assert g.manual_seed(5) is g and g.initial_seed() == 5
        assert str(g.device) == "cpu" and g.device == lib.device("cpu")
        assert lib.Generator(device="cpu").device == lib.device("cpu")
        assert lib.Generator("cpu").device.type == "cpu"
        seed = g.seed()
        assert type(seed) is int and g.initial_seed() == seed
        state = g.get_state()
        assert isinstance(state, lib.Tensor) and state.dtype == lib.uint8 and state.is_contiguous()
        assert g.set_state(state) is g


@pytest.mark.parametrize("seed", [0, 1, -1, 2**63, 2**64 - 1, -2**63, 12345678901234567890])
def test_seeds_read_as_pytorch_reads_them(seed):
    assert wick.Generator().manual_seed(seed).initial_seed() == torch.Generator().manual_seed(seed).initial_seed()
    assert wick.manual_seed(seed).initial_seed() == torch.manual_seed(seed).initial_seed()


@pytest.mark.parametrize("seed", [2**64, -2**63 - 1, 1.5, "3", None, True, [1]])
def test_bad_seeds_of_a_generator_as_pytorch(seed):
    with pytest.raises(Exception) as theirs:
        torch.Generator().manual_seed(seed)
    with pytest.raises(theirs.type) as ours:
        wick.Generator().manual_seed(seed)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("seed", [1.5, "3", True, 2**64, None])
def test_manual_seed_reads_int_of_its_seed_as_pytorch(seed):
    try:
        expected = torch.manual_seed(seed).initial_seed()
    except Exception as e:
        with pytest.raises(type(e)):
            wick.manual_seed(seed)
    else:
        assert wick.manual_seed(seed).initial_seed() == expected


def test_a_numpy_integer_seeds():
    assert wick.Generator().manual_seed(np.int64(-2)).initial_seed() == 2**64 - 2


def test_a_seed_whose_index_raises_propagates_and_changes_nothing():
    class Hostile:
        def __index__(self):
            raise ZeroDivisionError("hostile")

    g = gen(4)
    with pytest.raises(ZeroDivisionError, match="hostile"):
        g.manual_seed(Hostile())
    assert g.initial_seed() == 4
    same(wick.rand(3, generator=g), wick.rand(3, generator=gen(4)))


# --- streams ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("draw", DRAWS.values(), ids=DRAWS.keys())
def test_the_same_seed_gives_the_same_draws(draw):
    first, second = draw(gen(11)), draw(gen(11))
    same(first, second)
    # The default generator draws the same way for the same seed.
    wick.manual_seed(11)
    same(draw(None), first)
    # A generator takes its own stream: draws from the default one or another generator do not move it.
    g, other = gen(11), gen(11)
    wick.rand(100)
    draw(other)
    same(draw(g), first)


@pytest.mark.parametrize("draw", DRAWS.values(), ids=DRAWS.keys())
def test_a_generator_leaves_the_default_stream_alone(draw):
    wick.manual_seed(4)
    expected = wick.rand(20)
    wick.manual_seed(4)
    draw(gen(9))
    same(wick.rand(20), expected)


def test_different_seeds_and_successive_draws_differ():
    g = gen(1)
    a, b = wick.rand(64, generator=g), wick.rand(64, generator=g)
    assert not np.array_equal(values(a), values(b))
    assert not np.array_equal(values(wick.rand(64, generator=gen(2))), values(a))


def test_generators_interleaved_keep_their_own_sequences():
    g1, g2 = gen(21), gen(21)
    one = [wick.randn(10, generator=g1) for _ in range(3)]
    two = []
    for _ in range(3):
        two.append(wick.randn(10, generator=g2))
        wick.randn(10, generator=gen(99))
    for a, b in zip(one, two):
        same(a, b)


@pytest.mark.parametrize("draw", [DRAWS["randn"], DRAWS["rand float64"], DRAWS["poisson"],
                                  lambda g: wick.randn(70_001, generator=g),
                                  lambda g: wick.rand(70_001, dtype=wick.float16, generator=g)])
def test_draws_do_not_depend_on_the_number_of_threads(draw):
    threads = wick.get_num_threads()
    try:
        wick.set_num_threads(1)
        one = draw(gen(8))
        wick.set_num_threads(2)
        two = draw(gen(8))
    finally:
        wick.set_num_threads(threads)
    same(one, two)


def test_threads_sharing_a_generator_draw_whole_calls():
    """Each call draws under the generator's lock: two threads get the two blocks a single thread draws, in some
    order, never a mix."""
    n = 1 << 18
    g = gen(5)
    expected = [values(wick.rand(n, generator=g)) for _ in range(2)]
    g.manual_seed(5)
    results = [None, None]

    def draw(i):
        results[i] = values(wick.rand(n, generator=g))

    workers = [threading.Thread(target=draw, args=(i,)) for i in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if np.array_equal(results[0], expected[1]):
        results.reverse()
    np.testing.assert_array_equal(results[0], expected[0])
    np.testing.assert_array_equal(results[1], expected[1])


# --- state --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("draw", DRAWS.values(), ids=DRAWS.keys())
def test_a_restored_state_replays_the_draws(draw):
    g = gen(13)
    wick.randn(5, generator=g)  # half a normal chunk drawn: nothing is left over for the next call
    state = g.get_state()
    first = draw(g)
    after = wick.rand(4, generator=g)
    assert g.set_state(state) is g
    same(draw(g), first)
    same(wick.rand(4, generator=g), after)
    # Another generator takes the state, and its initial seed with it.
    other = wick.Generator().set_state(state)
    assert other.initial_seed() == 13
    same(draw(other), first)


def test_the_state_is_a_copy():
    g = gen(3)
    state = g.get_state()
    expected = wick.rand(8, generator=g)
    g.set_state(state)
    state.zero_()
    same(wick.rand(8, generator=g), expected)
    assert not bool((g.get_state() == 0).all())


def test_the_state_holds_the_seed_and_the_engine():
    """Note [Generator state]: 8-byte little-endian words, the initial seed first."""
    g = wick.Generator().manual_seed(2**64 - 3)
    state = np.asarray(g.get_state())
    assert state.size % 8 == 0 and state.size > 8 * 312
    assert int.from_bytes(state[:8].tobytes(), "little") == 2**64 - 3
    assert state.size == wick.default_generator.get_state().numel()


def test_rng_state_round_trip():
    wick.manual_seed(17)
    wick.randn(3)
    state = wick.get_rng_state()
    expected = [wick.randn(9), wick.randint(10, (5,)), wick.randperm(7)]
    wick.rand(50)
    wick.set_rng_state(state)
    for a, b in zip([wick.randn(9), wick.randint(10, (5,)), wick.randperm(7)], expected):
        same(a, b)
    assert wick.initial_seed() == 17


# --- errors -------------------------------------------------------------------------------------------------------

STATE_SIZE = wick.default_generator.get_state().numel()
BAD_STATES = {
    "too short": (lambda L: L.zeros(3, dtype=L.uint8), RuntimeError, "RNG state size to be 3"),
    "float": (lambda L: L.zeros(5056, dtype=L.float32), TypeError, "RNG state must be a"),
    "int": (lambda L: 5, TypeError, "but got int"),
    "None": (lambda L: None, TypeError, "but got NoneType"),
    "strided": (lambda L: L.zeros(2 * 5056, dtype=L.uint8)[::2], RuntimeError, "must be contiguous"),
}


@pytest.mark.parametrize("make,kind,fragment", BAD_STATES.values(), ids=BAD_STATES.keys())
def test_bad_states_raise_as_pytorch(make, kind, fragment):
    with pytest.raises(kind, match=fragment):
        torch.Generator().set_state(make(torch))
    with pytest.raises(kind, match=fragment):
        torch.set_rng_state(make(torch))
    g = gen(1)
    expected = wick.rand(3, generator=gen(1))
    with pytest.raises(kind, match=fragment):
        g.set_state(make(wick).reshape(-1)[:STATE_SIZE] if fragment == "must be contiguous" else make(wick))
    with pytest.raises(kind, match=fragment):
        wick.set_rng_state(make(wick))
    same(wick.rand(3, generator=g), expected)  # a refused state changes nothing


def test_a_state_of_any_shape_is_read_by_its_bytes():
    g = gen(6)
    state = g.get_state()
    expected = wick.rand(5, generator=g)
    g.set_state(state.reshape(8, -1))
    same(wick.rand(5, generator=g), expected)


CALLS = {
    "rand": lambda L, g: L.rand(2, generator=g),
    "randn": lambda L, g: L.randn(2, generator=g),
    "randint": lambda L, g: L.randint(0, 5, (2,), generator=g),
    "randperm": lambda L, g: L.randperm(4, generator=g),
    "uniform_": lambda L, g: L.zeros(2).uniform_(generator=g),
    "normal_": lambda L, g: L.zeros(2).normal_(generator=g),
    "normal": lambda L, g: L.normal(L.zeros(2), 1.0, generator=g),
    "bernoulli": lambda L, g: L.bernoulli(L.zeros(2), generator=g),
    "bernoulli_": lambda L, g: L.zeros(2).bernoulli_(generator=g),
    "poisson": lambda L, g: L.poisson(L.ones(2), g),
    "multinomial": lambda L, g: L.multinomial(L.ones(2), 1, generator=g),
    "exponential_": lambda L, g: L.zeros(2).exponential_(generator=g),
    "random_": lambda L, g: L.zeros(2).random_(generator=g),
    "cauchy_": lambda L, g: L.zeros(2).cauchy_(generator=g),
    "log_normal_": lambda L, g: L.zeros(2).log_normal_(generator=g),
    "geometric_": lambda L, g: L.zeros(2).geometric_(0.5, generator=g),
    # PyTorch 1.13's rand_like and randn_like take no generator.
    "rand_like": lambda L, g: L.rand_like(L.zeros(2), generator=g),
    "randn_like": lambda L, g: L.randn_like(L.zeros(2), generator=g),
}


@pytest.mark.parametrize("bad", [5, "cpu", object()], ids=["int", "str", "object"])
@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_a_generator_that_is_not_one_is_a_type_error(call, bad):
    with pytest.raises(TypeError):
        call(torch, bad)
    with pytest.raises(TypeError, match="generator|Generator"):
        call(wick, bad)


@pytest.mark.parametrize("name", [n for n in CALLS if not n.endswith("_like")])
def test_every_drawing_call_takes_a_generator_or_none(name):
    for lib in (torch, wick):
        CALLS[name](lib, None)
        CALLS[name](lib, lib.Generator())
        CALLS[name](lib, lib.default_generator)


def test_a_binding_names_the_generator_type():
    with pytest.raises(TypeError, match="wick.Generator"):
        wick.rand(2, generator=5)
    expected = r"poisson\(\): argument 'generator' \(position 2\) must be wick.Generator, not int"
    with pytest.raises(TypeError, match=expected):
        wick.sampling.poisson(wick.ones(2), 5)


@pytest.mark.skipif(wick.cuda.is_available(), reason="without CUDA only")
def test_a_cuda_generator_needs_cuda():
    with pytest.raises(RuntimeError, match="CUDA"):
        wick.Generator(device="cuda")


def test_generator_constructor_arguments():
    with pytest.raises(TypeError):
        wick.Generator(device="cpu", seed=3)
    with pytest.raises(TypeError):
        wick.Generator(1.5)
    with pytest.raises(TypeError):
        wick.Generator("cpu", "cpu")


# --- the generator argument's lifetime ----------------------------------------------------------------------------

def test_the_binding_holds_the_generator_for_the_call():
    """A hostile __index__ drops every reference the caller's code holds to the generator while the arguments are
    read: the binding still draws from it, and gives back exactly the references it took."""
    expected = wick.randint(0, 3, (50,), generator=gen(31))
    kwargs = {"generator": gen(31)}
    probe = kwargs["generator"]
    count = sys.getrefcount(probe)

    class Hostile:
        def __index__(self):
            kwargs.clear()
            gc.collect()
            return 3

    same(wick.randint(0, Hostile(), (50,), **kwargs), expected)
    assert sys.getrefcount(probe) == count - 1  # only the dict's reference is gone


def test_a_generator_is_freed_after_its_calls():
    import weakref
    g = gen(2)
    with pytest.raises(TypeError):
        weakref.ref(g)  # as torch.Generator: no weak references; sys.getrefcount instead
    count = sys.getrefcount(g)
    for draw in DRAWS.values():
        draw(g)
    with pytest.raises(TypeError):
        wick.rand(2, dtype=5, generator=g)
    with pytest.raises(TypeError):
        wick.rand_like(wick.zeros(2), dtype=wick.int64)
    assert sys.getrefcount(g) == count
