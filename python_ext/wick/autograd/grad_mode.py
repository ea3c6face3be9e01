"""no_grad, enable_grad, set_grad_enabled and inference_mode: PyTorch's context managers and decorators over
the per-thread flags of wick._C (Note [Grad mode] in core/include/wick/autograd/grad_mode.h)."""
from __future__ import annotations

import functools
import inspect
from types import TracebackType
from typing import Any, Callable, Generator, Optional, Type, TypeVar, cast

from wick import _C

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]

F = TypeVar("F", bound=Callable[..., Any])
is_grad_enabled = _C.is_grad_enabled
is_inference_mode_enabled = _C.is_inference_mode_enabled


class _DecoratorContextManager:
    """A context manager that also decorates a function (or a generator function, each of whose steps then
    runs inside it) with a fresh copy of itself per call."""

    def __call__(self, func: F) -> F:
        if inspect.isgeneratorfunction(func):
            return cast(F, self._wrap_generator(func))

        @functools.wraps(func)
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)
        return cast(F, decorated)

    def _wrap_generator(self, func: Callable[..., Generator[Any, Any, Any]]) -> Callable[..., Any]:
        # The generator's code runs in the mode, each time the caller resumes it; the caller's code between
        # two steps runs in the caller's own.
        @functools.wraps(func)
        def generator(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as thrown:  # thrown in by the caller: on into the generator
                        with self.clone():
                            response = gen.throw(thrown)
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value
        return generator

    def clone(self) -> "_DecoratorContextManager":
        return self.__class__()

    def __enter__(self) -> None:
        raise NotImplementedError

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        raise NotImplementedError


class _GradModeSwitch(_DecoratorContextManager):
    """Grad mode as `enabled` inside the block or the decorated function, and back to what it was after."""

    enabled = False

    def __new__(cls, func: Optional[Callable[..., Any]] = None) -> Any:
        # Also as a bare decorator, @wick.no_grad, as PyTorch 2 allows.
        return super().__new__(cls)(func) if func is not None else super().__new__(cls)

    def __init__(self, func: Optional[Callable[..., Any]] = None) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self.enabled)

    def __exit__(self, *exc: object) -> None:
        _C._set_grad_enabled(self.prev)


class no_grad(_GradModeSwitch):
    """Turns grad mode off inside the block or the decorated function, and back to what it was after."""

    enabled = False


class enable_grad(_GradModeSwitch):
    """Turns grad mode on inside the block or the decorated function (inside no_grad, say), and back after."""

    enabled = True


class set_grad_enabled(_DecoratorContextManager):
    """Sets grad mode to `mode` at once, as a function; as a context manager or decorator, back to what it was
    after the block or the call."""

    def __init__(self, mode: bool) -> None:
        self.prev = _C.is_grad_enabled()
        self.mode = mode
        _C._set_grad_enabled(mode)

    def __call__(self, func: F) -> F:
        _C._set_grad_enabled(self.prev)  # as a decorator it changes nothing until the call
        return super().__call__(func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _C._set_grad_enabled(self.prev)

    def clone(self) -> "set_grad_enabled":
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Turns inference mode on and grad mode off inside the block or the decorated function, or, with
    mode=False, the other way round; both back to what they were after."""

    def __new__(cls, mode: Any = True) -> Any:
        if callable(mode):  # as a bare decorator, @wick.inference_mode
            return cls(True)(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"inference_mode(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.mode = mode
        self.prev = (False, False)

    def __enter__(self) -> None:
        self.prev = (_C.is_grad_enabled(), _C.is_inference_mode_enabled())
        _C._set_inference_mode(self.mode)

    def __exit__(self, *exc: object) -> None:
        grad, inference = self.prev
        _C._set_inference_mode(inference)
        _C._set_grad_enabled(grad)

    def clone(self) -> "inference_mode":
        return self.__class__(self.mode)
