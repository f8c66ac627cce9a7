"""The watchdog: stops a shader that runs without ever suspending (``while flag[0] == 0: pass``).

A loop without an ``await`` never gives the scheduler back control, so no checkpoint, cancel
scope or step limit can stop it. The watchdog does, without adding anything to the scheduler's
loops: one daemon thread, started on first use, samples every watched dispatch (four times per
limit, at most every 2.5 s, and every 0.1 s past a deadline). The shader running in a thread
is the coroutine frame whose caller is one of the scheduler's loop functions
(:func:`register_loops`), found through ``sys._current_frames()``. A *signature* of that frame
(the object itself, held by reference so its id cannot be reused) and of the scheduler's
counters that every loop bumps per round or per scheduling point (``rendezvous``, ``points``,
``invocations``) that stays the same for the whole limit means that one invocation has
run that long without suspending. The thread then raises :class:`Interrupt` in the dispatch's
thread (``PyThreadState_SetAsyncExc``); the scheduler's ``except BaseException`` around
``coro.send`` turns it into a :class:`~asyncshader.ShaderTimeoutError` naming the invocation and
the line (:meth:`~asyncshader._core.diagnostics.Diagnostics._stalled`).

A deadline (``anyio.fail_after`` around ``await dispatch(...)``, given by ``drive_async``) is
enforced the same way: a shader still running without suspending once the deadline has passed
(seen so by two looks in a row: one that suspends meets a checkpoint anyway) is interrupted, and
``drive_async`` lets the cancellation happen.

Where the exception lands: the sampler finds the shader frame and raises without releasing the
GIL in between (a few microseconds), so the dispatch's thread, frozen meanwhile, receives it where
it stood: inside the shader (or a function it calls), at the next instruction that checks for
pending events. Residual risks (docs/concepts.md, "The watchdog"): a shader that catches
``BaseException`` swallows it (the watchdog fires again a limit later); a shader frozen inside a C
call that releases the GIL receives it at the next check after that call returns, which is outside
the shader only if the shader returns or suspends without any call or loop jump in between;
``drive`` then still reports it.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from inspect import CO_COROUTINE, CO_ITERABLE_COROUTINE
from types import CodeType, FrameType
from typing import Any

_COROUTINE = CO_COROUTINE | CO_ITERABLE_COROUTINE

#: how often the sampler looks: a quarter of the shortest limit, within these bounds (seconds);
#: a stall is seen up to two looks late. Each look takes the GIL from the running dispatch (a
#: handoff that, on a machine with more busy threads than cores, can cost it a trip through the
#: OS's run queue), so the looks are kept few: docs/performance.md, "Watchdog"
FINEST, COARSEST = 0.02, 2.5
#: how often it looks once a deadline has passed, and how long a shader must then have run
#: without suspending to be interrupted (one that suspends meets a checkpoint anyway)
AFTER_DEADLINE = 0.1
DEADLINE_STALL = 0.2
#: the sampler thread ends after this long with nothing to watch (it restarts on use)
_IDLE = 5.0


class Interrupt(BaseException):
    """Raised by the watchdog inside a shader that ran too long without suspending. Private: the
    scheduler turns it into :class:`~asyncshader.ShaderTimeoutError` (or a cancellation)."""


_LOOP_CODES: set[CodeType] = set()  # the functions that call coro.send
_RUN_CODES: set[CodeType] = set()  # Scheduler.run: one frame per dispatch


def register_loops(run: Any, loops: list[Any]) -> None:
    """The scheduler names its generator ``run`` and the functions that resume shaders."""
    _RUN_CODES.add(run.__code__)
    _LOOP_CODES.update(f.__code__ for f in loops)


class Watch:
    """One watched dispatch: its scheduler, the thread that runs it, the frame of its ``run``
    generator, the stall limit (seconds or None) and the deadline (``time.monotonic()``, or
    None); the sampler's last signature and since when it has held; and, once fired, why."""

    __slots__ = ("deadline", "frame", "limit", "reason", "scheduler", "signature", "since",
                 "stalled", "thread")

    def __init__(self, scheduler: Any, frame: FrameType, limit: float | None,
                 deadline: float | None) -> None:
        self.scheduler, self.frame, self.limit, self.deadline = scheduler, frame, limit, deadline
        self.thread = threading.get_ident()
        self.signature: tuple | None = None
        self.since = 0.0
        self.reason: str | None = None  # "limit" or "deadline", once fired
        self.stalled = 0.0  # how long the shader had run without suspending then


_lock = threading.Lock()
_watches: list[Watch] = []
_sampler: threading.Thread | None = None
_fired: dict[int, Watch] = {}  # thread -> the watch that raised Interrupt there, until taken
_set_async_exc = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
AVAILABLE = _set_async_exc is not None and sys.implementation.name == "cpython"


def watch(run: Any, scheduler: Any, limit: float | None,
          deadline: float | None = None) -> Watch | None:
    """Watches the dispatch whose ``run`` generator (``scheduler.run()``) this thread drives.
    Returns None (nothing watched, nothing started) without a limit or a deadline."""
    if (limit is None and deadline is None) or not AVAILABLE:
        return None
    global _sampler
    w = Watch(scheduler, run.gi_frame, limit, deadline)
    with _lock:
        _watches.append(w)
        if _sampler is None:
            _sampler = threading.Thread(target=_sample, name="asyncshader-watchdog",
                                        daemon=True)
            _sampler.start()
    return w


def set_deadline(w: Watch | None, deadline: float | None) -> None:
    """A watched dispatch's deadline changed (the host's cancel scope)."""
    if w is not None:
        w.deadline = deadline


def unwatch(w: Watch | None) -> None:
    """The dispatch ended (or left this thread's hands for good)."""
    if w is None:
        return
    with _lock:
        if w in _watches:
            _watches.remove(w)
        if _fired.get(w.thread) is w:
            del _fired[w.thread]
        w.frame = w.signature = w.scheduler = None  # type: ignore[assignment]


def take_fired() -> Watch | None:
    """The watch that interrupted this thread's shader (once): why, and after how long."""
    with _lock:
        return _fired.pop(threading.get_ident(), None)


def _sample() -> None:
    global _sampler
    wait = FINEST
    idle = 0.0
    while True:
        time.sleep(wait)
        with _lock:
            if not _watches:
                idle += wait
                if idle >= _IDLE:
                    _sampler = None
                    return
                wait = COARSEST
                continue
            idle = 0.0
            now = time.monotonic()
            frames = sys._current_frames()
            for w in _watches:
                _look(w, frames.get(w.thread), now)
            del frames
            wait = min(_next_look(w, now) for w in _watches)


def _next_look(w: Watch, now: float) -> float:
    """How soon ``w`` needs another look: a quarter of its limit, or at its deadline."""
    wait = COARSEST if w.limit is None else min(max(w.limit / 4, FINEST), COARSEST)
    if w.deadline is not None:
        wait = min(wait, max(w.deadline - now, AFTER_DEADLINE))
    return wait


def _look(w: Watch, top: FrameType | None, now: float) -> None:
    """One look at ``w``'s thread (under the lock, without releasing the GIL before raising)."""
    shader = _running_shader(top, w.frame)
    if shader is None:  # its thread is elsewhere (the host's event loop, the scheduler itself)
        w.signature = None
        return
    s = w.scheduler
    signature = (shader, s.rendezvous, s.points, s.invocations)
    if signature != w.signature:
        w.signature, w.since = signature, now
    if w.deadline is not None and now >= w.deadline and now - w.since >= DEADLINE_STALL:
        reason = "deadline"  # (a shader that suspends meets a checkpoint soon: no need)
    elif w.limit is not None and now - w.since >= w.limit:
        reason = "limit"
    else:
        return
    w.reason, w.stalled = reason, now - w.since
    w.since = now  # (a shader that swallows the exception is interrupted again a limit later)
    _fired[w.thread] = w
    _set_async_exc(ctypes.c_ulong(w.thread), ctypes.py_object(Interrupt))


def _running_shader(top: FrameType | None, run_frame: FrameType) -> FrameType | None:
    """The shader frame the thread whose innermost frame is ``top`` runs for the dispatch whose
    ``run`` generator has ``run_frame``: the coroutine frame called by a scheduler loop."""
    f = top
    while f is not None:
        back = f.f_back
        if back is not None and back.f_code in _LOOP_CODES and f.f_code.co_flags & _COROUTINE:
            r = back
            while r is not None and r.f_code not in _RUN_CODES:
                r = r.f_back
            return f if r is run_frame else None
        f = back
    return None
