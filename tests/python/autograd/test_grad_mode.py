"""The grad modes: no_grad, enable_grad, set_grad_enabled and inference_mode as context managers and decorators,
their nesting, exceptions, generators and threads, each run the same way against PyTorch's."""
import threading

import pytest
import torch

import wick


def both(program):
    """What `program(lib)` returns with wick and with torch: the two must agree."""
    return program(wick), program(torch)


def modes(lib):
    return lib.is_grad_enabled(), lib.is_inference_mode_enabled()


@pytest.fixture(autouse=True)
def default_modes():
    """Every test starts and ends with grad mode on and inference mode off, in both libraries."""
    assert modes(wick) == (True, False)
    yield
    assert modes(wick) == (True, False) and modes(torch) == (True, False)


def test_context_managers_nest_and_restore():
    def program(lib):
        seen = [modes(lib)]
        with lib.no_grad():
            seen.append(modes(lib))
            with lib.enable_grad():
                seen.append(modes(lib))
                with lib.set_grad_enabled(False):
                    seen.append(modes(lib))
                seen.append(modes(lib))
            seen.append(modes(lib))
        seen.append(modes(lib))
        with lib.inference_mode():
            seen.append(modes(lib))
            with lib.inference_mode(False):
                seen.append(modes(lib))
            seen.append(modes(lib))
        seen.append(modes(lib))
        return seen

    ours, theirs = both(program)
    assert ours == theirs


def test_set_grad_enabled_as_a_function_sets_at_once():
    def program(lib):
        lib.set_grad_enabled(False)
        off = lib.is_grad_enabled()
        lib.set_grad_enabled(True)
        return off, lib.is_grad_enabled()

    assert both(program) == ((False, True), (False, True))


def test_decorators_with_and_without_parentheses():
    def program(lib):
        @lib.no_grad()
        def called():
            return modes(lib)

        @lib.inference_mode()
        def inferred():
            return modes(lib)

        @lib.set_grad_enabled(False)
        def disabled():
            return modes(lib)

        # Decorating with set_grad_enabled changes nothing until the call in wick, as in PyTorch 2; PyTorch
        # 1.13 leaves grad mode off from the decoration on.
        decorated = modes(lib)
        lib.set_grad_enabled(True)
        with lib.no_grad():
            @lib.enable_grad()
            def enabled():
                return modes(lib)
            inside = enabled()
        return called(), inferred(), disabled(), inside, called.__name__, decorated

    ours, theirs = both(program)
    assert ours[:-1] == theirs[:-1]
    assert ours[-1] == (True, False)
    # PyTorch 1.13 has no bare @no_grad; wick takes it as PyTorch 2 does.
    assert wick.no_grad(lambda: wick.is_grad_enabled())() is False
    assert wick.inference_mode(lambda: wick.is_inference_mode_enabled())() is True


def test_an_exception_leaves_the_modes_as_they_were():
    def program(lib):
        with pytest.raises(ValueError):
            with lib.no_grad():
                with lib.inference_mode():
                    raise ValueError("out of both blocks")
        return modes(lib)

    assert both(program) == ((True, False), (True, False))


def test_a_decorated_generator_runs_its_steps_in_the_mode_and_the_caller_in_its_own():
    def program(lib):
        @lib.no_grad()
        def steps():
            received = yield modes(lib)
            yield (received, modes(lib))
            return "done"

        gen = steps()
        first = next(gen)
        between = modes(lib)
        second = gen.send("sent")
        with pytest.raises(StopIteration) as stop:
            next(gen)
        return first, between, second, stop.value.value

    ours, theirs = both(program)
    assert ours == theirs == ((False, False), (True, False), ("sent", (False, False)), "done")


def test_each_thread_has_its_own_modes():
    def program(lib):
        seen = []
        with lib.no_grad():
            t = threading.Thread(target=lambda: seen.append(modes(lib)))
            t.start()
            t.join()
            seen.append(modes(lib))
        return seen

    assert both(program) == ([(True, False), (False, False)], [(True, False), (False, False)])


def test_modes_take_bools_only():
    with pytest.raises(TypeError, match="must be bool"):
        wick._C._set_grad_enabled(1)
    with pytest.raises(TypeError, match="must be bool"):
        wick.inference_mode(mode="yes")
    assert wick.autograd.no_grad is wick.no_grad and wick.autograd.grad_mode.is_grad_enabled() is True
