"""The failure store: failing schedules saved where the next run finds them.

Every failure :func:`~asyncshader.explore` finds (in this process or in any worker) is saved as
its one-line trace string under a key made from the kernel's identity
(:func:`failure_key`), and the next exploration of that kernel in another process replays the
stored traces first, as Hypothesis replays its example database before generating: a bug
found overnight on a cluster fails the next plain ``pytest`` at once. A stored trace that no
longer fails (the bug is fixed) or no longer replays (the kernel changed) is deleted.

A store is any object with Hypothesis's ``ExampleDatabase`` methods ``save(key, value)``,
``fetch(key)`` and ``delete(key, value)`` (bytes), so Hypothesis's own classes work as they
are (``DirectoryBasedExampleDatabase``, ``InMemoryExampleDatabase``, a Redis one, a
``MultiplexedDatabase`` shared by a team). The default is a :class:`DirectoryStore` in
``.asyncshader/failures`` under the current directory (like Hypothesis's ``.hypothesis/``);
the environment variable ``ASYNCSHADER_STORE`` names another folder, or ``off``;
:func:`set_failure_store` sets the default of this process; ``explore(store=...)`` one call's.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from .._core.validation import option_error

__all__ = ["DirectoryStore", "FailureStore", "default_store", "failure_key",
           "set_failure_store"]

#: the environment variable naming the default store's folder (or "off")
STORE_ENV = "ASYNCSHADER_STORE"
_OFF = ("", "off", "none", "0", "false")


class FailureStore(Protocol):
    """What a failure store does: Hypothesis's ``ExampleDatabase`` interface."""

    def save(self, key: bytes, value: bytes) -> None: ...

    def fetch(self, key: bytes) -> Iterable[bytes]: ...

    def delete(self, key: bytes, value: bytes) -> None: ...


class DirectoryStore:
    """A folder of small files, one per saved value, in a subfolder per key (the layout of
    Hypothesis's ``DirectoryBasedExampleDatabase``): safe to share between processes (writes
    are atomic renames) and to keep in a project's cache, not its version control."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

    def _folder(self, key: bytes) -> Path:
        return self.path / hashlib.sha256(key).hexdigest()[:16]

    def save(self, key: bytes, value: bytes) -> None:
        """Saves ``value`` under ``key`` (once: saving it again changes nothing)."""
        folder = self._folder(key)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / hashlib.sha256(value).hexdigest()[:16]
        if target.exists():
            return
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(value)
        os.replace(tmp, target)

    def fetch(self, key: bytes) -> Iterable[bytes]:
        """The values saved under ``key``, in the order of their names (stable)."""
        folder = self._folder(key)
        if not folder.is_dir():
            return []
        values = []
        for file in sorted(folder.iterdir()):
            if not file.name.startswith(".tmp"):
                try:
                    values.append(file.read_bytes())
                except OSError:  # deleted by another process meanwhile
                    continue
        return values

    def delete(self, key: bytes, value: bytes) -> None:
        """Removes ``value`` from ``key`` (nothing if it is not there)."""
        try:
            (self._folder(key) / hashlib.sha256(value).hexdigest()[:16]).unlink()
        except FileNotFoundError:
            pass

    def __repr__(self) -> str:
        return f"DirectoryStore({str(self.path)!r})"


_configured: list[Any] = []  # what set_failure_store() set, if it was called


def set_failure_store(store: Any) -> None:
    """Sets the store of this process's explorations: a store object, a folder, or None (no
    store). ``ASYNCSHADER_STORE`` in the environment still wins, so a test session can
    point every process it starts at one temporary folder."""
    _configured[:] = [_as_store(store)]


def default_store() -> Any:
    """The store an exploration uses when ``store=`` is not given: ``ASYNCSHADER_STORE`` (a
    folder, or ``off``), else what :func:`set_failure_store` set, else
    ``.asyncshader/failures`` under the current directory."""
    env = os.environ.get(STORE_ENV)
    if env is not None:
        return None if env.strip().lower() in _OFF else DirectoryStore(env)
    if _configured:
        return _configured[0]
    return DirectoryStore(Path.cwd() / ".asyncshader" / "failures")


def _as_store(store: Any) -> Any:
    if store is None or all(callable(getattr(store, m, None))
                            for m in ("save", "fetch", "delete")):
        return store
    if isinstance(store, (str, os.PathLike)):
        return DirectoryStore(store)
    raise option_error("store", store, "a folder, None (no store), or an object with save, "
                       "fetch and delete (a Hypothesis ExampleDatabase)")


def failure_key(identity: dict[str, str]) -> bytes:
    """The store's key of a kernel's failures: its name (module and qualified name), not its
    source hash, so that a changed kernel's stale traces are found, tried and deleted."""
    return f"asyncshader.explore:{identity['name']}".encode()
