"""GPUPromise: what wgpu-py's ``*_async`` methods return. Work on this device completes before
the call returns, so a promise is settled from the start: ``await`` it, ``sync_wait()`` it, or
chain ``then``/``catch`` (called at once)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any


class GPUPromise:
    """A settled result: a value, or the error the call raised."""

    def __init__(self, title: str, value: Any = None, error: BaseException | None = None
                 ) -> None:
        self._title, self._value, self._error = title, value, error

    @classmethod
    def of(cls, title: str, call: Callable[[], Any]) -> GPUPromise:
        """The promise of ``call()``: its value, or the error it raised."""
        try:
            return cls(title, call())
        except Exception as exc:  # (a rejected promise: raised by sync_wait or await)
            return cls(title, error=exc)

    def sync_wait(self) -> Any:
        """The result (or the error, raised)."""
        if self._error is not None:
            raise self._error
        return self._value

    def __await__(self) -> Generator[Any, None, Any]:
        return self.sync_wait()
        yield  # (a generator: awaitable without suspending)

    def then(self, callback: Callable[[Any], Any],
             error_callback: Callable[[BaseException], Any] | None = None,
             title: str | None = None) -> GPUPromise:
        """The promise of ``callback(result)``, or of ``error_callback(error)``."""
        if not callable(callback):
            raise TypeError(f"GPUPromise.then() got a callback that is not callable: "
                            f"{callback!r}")
        title = title or f"{self._title} -> {getattr(callback, '__name__', callback)}"
        if self._error is not None:
            if error_callback is not None:
                error_callback(self._error)
            return GPUPromise(title, error=self._error)
        return GPUPromise.of(title, lambda: callback(self._value))

    def catch(self, callback: Callable[[BaseException], Any]) -> GPUPromise:
        """The promise of ``callback(error)`` if this one failed."""
        if self._error is None:
            return self
        return GPUPromise.of(f"Catcher for {self._title}", lambda: callback(self._error))

    def __repr__(self) -> str:
        state = "rejected" if self._error is not None else "fulfilled"
        return f"<GPUPromise '{self._title}' {state}>"
