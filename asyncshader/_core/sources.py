"""Where code stands: a frame's ``file:line`` and source text, and which files are asyncshader's
own machinery (skipped when a message looks for the user's line)."""

from __future__ import annotations

import ast
import linecache
import os
import sys
import sysconfig
from types import CoroutineType, GeneratorType
from typing import Any

#: the package's root folder (asyncshader/), with a trailing separator
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
#: the package's folder as code objects may name it: also as imported (a script that put
#: ``.../benchmarks/..`` on sys.path imports ``.../benchmarks/../asyncshader/...``), and with
#: links resolved
_AS_IMPORTED = os.path.dirname(os.path.dirname(__file__)) + os.sep
_PKG_DIRS = tuple({_PKG_DIR, os.path.realpath(_PKG_DIR) + os.sep}
                  | ({_AS_IMPORTED} if os.path.isabs(_AS_IMPORTED) else set()))
#: files inside the package that hold shaders (user code as far as positions are concerned)
_BUNDLED_SHADERS = frozenset(os.path.join(d, "tools", "demo.py") for d in _PKG_DIRS)
#: the sources registered by :func:`register_source` (generated shaders' files, wherever they
#: are: a .wgsl file of an installed package is the shader's source, so user code), by name
_REGISTERED: dict[str, tuple] = {}


def internal(filename: str) -> bool:
    """Whether ``filename`` is asyncshader's own machinery (not a shader it bundles): frames
    there are skipped when looking for the user's line."""
    return (filename.startswith(_PKG_DIRS) and filename not in _BUNDLED_SHADERS
            and filename not in _REGISTERED)


_LIBRARY_DIRS = tuple({p + os.sep for k, p in sysconfig.get_paths().items()
                       if k in ("stdlib", "platstdlib", "purelib", "platlib")} | set(_PKG_DIRS))
#: file names of code generated at run time (``exec``: asyncshader's vector classes, dataclass
#: methods) or frozen into the interpreter: no line there is the user's
_GENERATED = ("<string>", "<frozen ")


def user_code(filename: str) -> bool:
    """Whether ``filename`` is the user's own code, where a message should point: not
    asyncshader's machinery (but the shaders it bundles), not the standard library or an
    installed package, not code generated with ``exec`` (``<string>``). A generated shader's
    registered source (:func:`register_source`) is the user's wherever it lies."""
    if filename in _REGISTERED:
        return True
    if filename.startswith(_LIBRARY_DIRS):
        return filename in _BUNDLED_SHADERS
    return not filename.startswith(_GENERATED)


def user_file(filename: str) -> bool:
    """Whether ``filename`` is the user's code: not asyncshader's machinery, the standard
    library or an installed package (shaders bundled with asyncshader and generated shaders'
    registered sources count as the user's)."""
    return (not filename.startswith(_LIBRARY_DIRS) or filename in _BUNDLED_SHADERS
            or filename in _REGISTERED)


def position_of(inv: Any) -> tuple[str, int, str]:
    """(filename, line, source text) where ``inv`` stands: the innermost user-code frame of its
    await chain."""
    frames = user_frames(inv)
    return where(frames[-1] if frames else inv.frame)


def user_frames(inv: Any) -> list:
    """The frames of ``inv``'s await chain that are user code, outermost (the shader) first:
    the shader's frame, then each helper ``async def`` and generator-based coroutine
    (``@types.coroutine``) it awaits through that is :func:`user_code`."""
    if inv.coro is None:
        return []
    frames = [inv.frame]
    for frame in awaited_frames(inv.coro):
        if user_code(frame.f_code.co_filename):
            frames.append(frame)
    return frames


def awaited_frames(coro: Any) -> list:
    """The frames that ``coro`` awaits through, outermost first: each awaited coroutine's and
    each generator's (generator-based coroutines, ``__await__`` generators, traps)."""
    frames = []
    aw = coro.cr_await
    while True:
        if isinstance(aw, CoroutineType):
            frame, aw = aw.cr_frame, aw.cr_await
        elif isinstance(aw, GeneratorType):
            frame, aw = aw.gi_frame, aw.gi_yieldfrom
        else:
            return frames
        if frame is None:
            return frames
        frames.append(frame)


def where(frame: Any) -> tuple[str, int, str]:
    """(filename, line, source text) of ``frame`` (``("?", 0, "")`` for none)."""
    if frame is None:
        return ("?", 0, "")
    name, line = frame.f_code.co_filename, frame.f_lineno
    return (name, line, linecache.getline(name, line).strip())


def register_source(filename: str, text: str) -> None:
    """Makes ``text`` the source of ``filename`` for every reader of lines (``linecache``:
    tracebacks, race reports, timelines, the stepper), without writing a file: for code
    generated from another language (a WGSL module) and compiled with that file's name, whose
    lines are the other language's. The entry has no modification time, so
    ``linecache.checkcache`` keeps it; :func:`restore_sources` puts it back after a
    ``linecache.clearcache``."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    entry = (len(text), None, lines, filename)
    _REGISTERED[filename] = entry
    linecache.cache[filename] = entry


def restore_sources() -> None:
    """Puts the sources :func:`register_source` registered back into ``linecache`` where they
    are missing (``linecache.clearcache`` empties it); run before every dispatch."""
    cache = linecache.cache
    for filename, entry in _REGISTERED.items():
        if cache.get(filename) is not entry:
            cache[filename] = entry


def in_finally(filename: str, line: int) -> bool:
    """Whether ``line`` of ``filename`` is in a ``finally:`` block (the innermost ``try``
    block around it; not in an ``except`` handler): where code that awaits may hold up an
    exception on its way out."""
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return False
    innermost = (0, False)  # (first line of the innermost block around `line`, a finally?)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Try, ast.TryStar)):
            blocks = [(node.finalbody, True)] + [(h.body, False) for h in node.handlers]
            for body, is_finally in blocks:
                if body and body[0].lineno <= line <= (body[-1].end_lineno or 0) \
                        and body[0].lineno >= innermost[0]:
                    innermost = (body[0].lineno, is_finally)
    return innermost[1]


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning (issued by this function's caller) point at the
    first caller outside asyncshader's machinery."""
    level, frame = 2, sys._getframe(2)
    while frame is not None and internal(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level
