"""Diagnostics: what the scheduler says when a run goes wrong, written for the person reading it.

Every message names the invocation(s) (by the dispatch's ids), where each one stands
(``file:line`` and the source text), what that means in WGSL terms, and the fix. The
:class:`Diagnostics` mixin gives the scheduler these messages; nothing here runs on the hot path.
"""

from __future__ import annotations

import linecache
import os
from types import CoroutineType, GeneratorType
from typing import TYPE_CHECKING, Any

from ..errors import (
    AsyncShaderError,
    DeadlockError,
    DivergenceError,
    ForeignAwaitError,
    ShaderError,
    ShaderTimeoutError,
    StepLimitError,
)
from .sources import internal, user_code, user_file, user_frames
from .sources import where as frame_position
from .watchdog import Interrupt, take_fired

if TYPE_CHECKING:
    from .invocations import Group, Invocation

class Diagnostics:
    """The scheduler's error messages (a mixin: it reads ``runnable``, ``live``, ``max_points``)."""

    runnable: list
    live: list
    max_points: int

    def describe_position(self, inv: Invocation) -> str:
        """Where ``inv`` stands, for messages: ``file:line (op)``, ``returned``, ..."""
        if inv.done:
            return "returned (finished the shader)"
        if inv.coro is None or inv.frame.f_lasti < 0:
            return "not started"
        name, line, text = inv.position()
        op = inv.req.op if inv.req is not None and inv not in self.runnable else None
        if inv.pending is not None:
            op = getattr(inv.pending, "op", "scheduling point")
        if inv in self.runnable and inv.pending is None:
            return f"runnable at {_short(name)}:{line}: {text}" + _callers(inv)
        return f"waits at {_short(name)}:{line} in {op}(): {text}" + _callers(inv)

    def _positions(self, members: list[Invocation]) -> list[tuple[str, list[Invocation]]]:
        where: dict[str, list[Invocation]] = {}
        for m in members:
            where.setdefault(self.describe_position(m), []).append(m)
        return list(where.items())

    def _format_positions(self, group: Group, positions: list) -> str:
        scope = group.scope
        lines = []
        for where, invs in positions:
            lanes = _ranges(sorted(m.lanes[scope] for m in invs))
            helpers = sum(1 for m in invs if m.helper)
            note = ("" if not helpers else ", helper invocations" if helpers == len(invs)
                    else f", {helpers} of them helper invocations")
            lines.append(f"  {group.lane_name} {lanes} ({len(invs)} invocation"
                         f"{'s' if len(invs) != 1 else ''}{note}): {where}")
        return "\n".join(lines)

    def _divergence(self, group: Group) -> DivergenceError:
        positions = self._positions(group.members)
        first = group.arrived[0]
        err_cls = getattr(first.req, "divergence_error", DivergenceError)
        hint = getattr(first.req, "divergence_hint", "")
        if group.finished:
            what = "some invocations returned while others wait at a rendezvous"
        else:
            what = "invocations stopped at different rendezvous (operation or call site)"
        msg = (f"{err_cls.__name__ if err_cls is not DivergenceError else 'Divergence'} in "
               f"{group.label}: {what}. This is non-uniform control flow.\n"
               f"{self._format_positions(group, positions)}")
        if hint:
            msg += f"\nFix: {hint}"
        return err_cls(msg, [(w, [str(m) for m in ms]) for w, ms in positions])

    def _deadlock(self) -> DeadlockError:
        parts = []
        all_positions: list = []
        for unit in self.live:
            positions = self._positions(unit.members)
            all_positions += [(w, [str(m) for m in ms]) for w, ms in positions]
            parts.append(f"{unit.label}:\n{self._format_positions(unit, positions)}")
        msg = ("Deadlock: no invocation can run, but some are blocked at a rendezvous that can "
               "never complete (members of a group wait at different operations).\n"
               + "\n".join(parts))
        return DeadlockError(msg, all_positions)

    def _shader_error(self, inv: Invocation, exc: BaseException,
                      suspended: bool = False) -> BaseException:
        if isinstance(exc, Interrupt):  # the watchdog stopped a shader that never suspends
            return self._stalled(inv, exc)
        if isinstance(exc, KeyboardInterrupt):  # Ctrl-C: say which invocation it stopped
            name, line, text = spin_position(exc)
            where = f" at {_short(name)}:{line}: {text}" if line else ""
            exc.add_note(f"asyncshader: it stopped invocation {inv}{where}")
        if isinstance(exc, (GeneratorExit, KeyboardInterrupt, SystemExit, ShaderError)):
            return exc
        name, line, text = inv.position() if suspended else ("?", 0, "")
        if not suspended:
            name, line, text = _raised_at(exc)
        if _no_event_loop(exc):
            return self._foreign_loop(inv, exc, (name, line, text))
        where = f" at {_short(name)}:{line}: {text}" if line else ""
        _word_attribute_error(exc)
        msg = f"invocation {inv} raised {type(exc).__name__}: {exc}{where}"
        return ShaderError(msg, str(inv), exc)

    def _foreign_loop(self, inv: Invocation, exc: BaseException,
                      at: tuple[str, int, str]) -> ForeignAwaitError:
        """An async library (anyio, asyncio, trio, sniffio) raised because no event loop of
        its own runs: the shader awaited (or called) something that is not an asyncshader
        operation."""
        name, line, text = at
        called = _library_call(exc)
        return ForeignAwaitError(
            f"invocation {inv} called {called} at {_short(name)}:{line}: {text}\n"
            f"It needs an event loop ({type(exc).__name__}: {exc}), and a shader runs under "
            f"asyncshader's scheduler, not under asyncio, trio or anyio. {_FOREIGN_FIX}")

    def _resolve_error(self, group: Group, req: Any, brought: list[tuple[Invocation, Any]],
                       exc: Exception) -> AsyncShaderError:
        """A rendezvous's resolver could not combine what the members brought (``brought``:
        member and value, in lane order), e.g. ``dpdx`` of a ``vec3f`` in one member and of a
        ``vec2f`` in another. WGSL types an expression once, so a GPU never meets this."""
        if getattr(exc, "asyncshader_complete", False):  # a resolver's own, complete message
            return exc
        name, line, text = brought[0][0].position()
        if isinstance(exc, DivergenceError):  # a value WGSL requires to be uniform is not
            return self._nonuniform(group, req, brought, exc)
        values = "\n".join(f"  {m}: {_brief(v)}" for m, v in brought)
        return ShaderError(
            f"{req.op}() in {group.label} at {_short(name)}:{line}: {text}\n"
            f"The members' values do not combine ({type(exc).__name__}: {exc}):\n{values}\n"
            f"WGSL gives an expression one type, the same in every member of the "
            f"{group.scope}. Fix: give {req.op}() the same type in every member (convert, "
            "e.g. f32(v) or vec3f(v)).",
            ", ".join(str(m) for m, _ in brought), exc)

    def _nonuniform(self, group: Group, req: Any, brought: list[tuple[Invocation, Any]],
                    exc: DivergenceError) -> DivergenceError:
        """The members brought different values where WGSL requires one uniform value (the
        pointer of workgroup_uniform_load): a uniformity violation, not a type error. Names the
        call's line and each member's value (``req.describe_value``), grouped by value."""
        name, line, text = brought[0][0].position()
        describe = getattr(req, "describe_value", _brief)
        where: dict[str, list[Invocation]] = {}
        for m, v in brought:
            where.setdefault(describe(v), []).append(m)
        positions = list(where.items())
        fix = getattr(req, "uniform_fix", "")
        return type(exc)(
            f"Divergence in {group.label}: {req.op}() at {_short(name)}:{line}: {text}\n"
            f"{exc}: a uniformity violation. The members' values:\n"
            f"{self._format_positions(group, positions)}" + (f"\nFix: {fix}." if fix else ""),
            [(f"{_short(name)}:{line} {req.op}({w})", [str(m) for m in ms])
             for w, ms in positions])

    def _foreign(self, inv: Invocation, obj: Any) -> ForeignAwaitError:
        name, line, text = inv.position()
        chain = []
        awaited = inv.coro.cr_await
        while True:  # through helper coroutines and generator-based coroutines
            if isinstance(awaited, CoroutineType):
                chain.append(awaited.cr_code.co_qualname)
                awaited = awaited.cr_await
            elif isinstance(awaited, GeneratorType) and awaited.gi_yieldfrom is not None:
                chain.append(awaited.gi_code.co_qualname)
                awaited = awaited.gi_yieldfrom
            else:
                break
        what = f"{'.'.join(chain) or type(awaited).__name__}() which yielded {obj!r}"
        return ForeignAwaitError(
            f"invocation {inv} awaited {what} at {_short(name)}:{line}: {text}\n"
            f"The scheduler cannot run other event loops' awaitables. {_FOREIGN_FIX}")

    def _no_group(self, inv: Invocation, req: Any) -> AsyncShaderError:
        name, line, text = inv.position()
        have = ", ".join(inv.groups) or "none"
        return AsyncShaderError(
            f"invocation {inv} called {req.op}() at {_short(name)}:{line}: {text}\n"
            f"{req.op}() works on a {req.scope} group, and this dispatch has none (its groups: "
            f"{have}). {getattr(req, 'no_group_hint', '')}".rstrip())

    def _step_limit(self, inv: Invocation) -> StepLimitError:
        name, line, text = inv.position()
        head = (f"invocation {inv} passed {self.max_points:,} scheduling points without "
                f"finishing, last at {_short(name)}:{line}: {text}\n")
        unit = inv.unit
        waiting = [m for m in unit.members if m is not inv and not m.done] if unit else []
        if waiting:  # others of its own workgroup (unit) are still there: it may wait on one
            strategy = self.strategy
            named = getattr(strategy, "describe", dict)().get("name", type(strategy).__name__)
            unfair = "" if getattr(strategy, "fair", True) else (
                f" The {named} schedule is not fair: it runs one invocation until it blocks, "
                "and an atomic does not block, so a wait on another invocation never lets that "
                "one run (random and pct are fair).")
            return StepLimitError(
                head + f"A spin loop waiting for another invocation of {unit.label}? "
                f"{len(waiting)} of its invocations have not finished.{unfair} WGSL gives no "
                "forward-progress guarantee between invocations (a GPU may run a subgroup's "
                "invocations in lockstep): wait at a workgroup_barrier() where you can. Fix "
                "the loop, or raise max_points_per_invocation.")
        return StepLimitError(
            head + "A spin loop waiting for another workgroup? WGSL gives no forward-progress "
            "guarantee between workgroups. Fix the loop, or raise max_points_per_invocation.")

    def _stalled(self, inv: Invocation | None, exc: BaseException) -> ShaderTimeoutError:
        """The watchdog (:mod:`.watchdog`) interrupted ``inv`` (None: it landed outside the
        shader): name it, the line it was running (the innermost user frame of ``exc``'s
        traceback) and the fix. A deadline's error is flagged ``deadline`` (the caller lets the
        host's cancellation happen instead)."""
        fired = take_fired()
        name, line, text = spin_position(exc)
        if not line and inv is not None and inv.coro is not None:
            name, line, text = inv.position()
        where = f" at {_short(name)}:{line}: {text}" if line else ""
        who = f"invocation {inv}" if inv is not None else "a shader invocation"
        stalled = f"{fired.stalled:.1f} s" if fired is not None else "too long"
        if fired is not None and fired.reason == "deadline":
            err = ShaderTimeoutError(
                f"{who} was still running without suspending when the deadline of the "
                f"enclosing cancel scope passed (after {stalled} without a scheduling point or "
                f"a rendezvous){where}\nThe dispatch was stopped there.", str(inv or ""))
            err.deadline = True  # type: ignore[attr-defined]
            return err
        limit = f"watchdog={fired.limit:g} s" if fired is not None else "the watchdog's limit"
        return ShaderTimeoutError(
            f"{who} ran for {stalled} without suspending (no scheduling point, no rendezvous; "
            f"{limit}){where}\nA loop with no await in it never lets another invocation run: "
            "a spin-wait on memory another invocation writes never sees the write without a "
            "rendezvous (WGSL gives no forward-progress guarantee, and without atomics or a "
            "barrier the write is not even visible). Fix: an await is missing; wait with an "
            "atomic (`while await ash.atomic_load(ptr) == 0`) or a workgroup_barrier(). If the "
            "shader is only slow, raise watchdog= (None turns the limit off).", str(inv or ""))


def _word_attribute_error(exc: BaseException) -> None:
    """Reword Python's ``'vec3f' object has no attribute 'q'`` with the class's own message
    (``_attribute_error``: a vector names its components and aliases). A class that words its
    missing attributes so without a ``__getattr__`` keeps its attribute reads on the fast path."""
    if isinstance(exc, AttributeError) and isinstance(exc.name, str):
        explain = getattr(type(exc.obj), "_attribute_error", None)
        if explain is not None:
            exc.args = (explain(exc.obj, exc.name),)


def spin_position(exc: BaseException) -> tuple[str, int, str]:
    """(file, line, text) of the innermost user-code frame of ``exc``'s traceback (not
    asyncshader, the standard library or installed packages); ``("?", 0, "")`` if none."""
    found: tuple[str, int, str] = ("?", 0, "")
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if user_file(name):
            found = (name, tb.tb_lineno, linecache.getline(name, tb.tb_lineno).strip())
        tb = tb.tb_next
    return found


_FOREIGN_FIX = ("A shader may await only asyncshader operations (workgroup_barrier(), "
                "atomic_add(), dpdx(), ...) and its own async helpers that await those. Fix: "
                "call the code without awaiting it, or use the asyncshader operation it "
                "stands for.")

#: the async libraries whose code, run without their event loop, raises RuntimeError (anyio's
#: NoEventLoopError and sniffio's AsyncLibraryNotFoundError are RuntimeErrors too)
_ASYNC_LIBRARIES = frozenset({"anyio", "asyncio", "sniffio", "trio", "curio"})
_NO_LOOP_MESSAGES = frozenset({"no running event loop", "no current event loop"})


def _callers(inv: Invocation) -> str:
    """The call sites that lead to where ``inv`` stands, innermost first, when it stands inside
    helpers: a barrier in one helper, called from two branches, is reached at two different
    call sites."""
    frames = user_frames(inv)[:-1]
    return "".join(f"\n      called from {_short(n)}:{ln}: {t}"
                   for n, ln, t in (frame_position(f) for f in reversed(frames)))


def _raised_at(exc: BaseException) -> tuple[str, int, str]:
    """Where ``exc`` was raised, for the user: the innermost frame of its traceback in the
    user's own code (not asyncshader's, the standard library's, an installed package's, or
    generated code), else the innermost outside asyncshader."""
    found = fallback = None
    tb = exc.__traceback__
    while tb is not None:
        fname = tb.tb_frame.f_code.co_filename
        if user_code(fname):
            found = tb
        elif not internal(fname):
            fallback = tb
        tb = tb.tb_next
    tb = found or fallback
    if tb is None:
        return ("?", 0, "")
    name, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
    return (name, line, linecache.getline(name, line).strip())


def _library(tb: Any) -> str:
    return str(tb.tb_frame.f_globals.get("__name__", "")).partition(".")[0]


def _no_event_loop(exc: BaseException) -> bool:
    """Whether ``exc`` is an async library's complaint that its event loop is not running."""
    if not isinstance(exc, RuntimeError):
        return False
    tb, last = exc.__traceback__, None
    while tb is not None:
        last, tb = tb, tb.tb_next
    if last is not None and _library(last) in _ASYNC_LIBRARIES:
        return True
    return str(exc) in _NO_LOOP_MESSAGES  # asyncio's C functions (get_running_loop())


def _library_call(exc: BaseException) -> str:
    """The library function the user's code called (``anyio's sleep()``), from the first
    library frame of the traceback after the last user frame."""
    tb, called = exc.__traceback__, None
    while tb is not None:
        if user_code(tb.tb_frame.f_code.co_filename):
            called = None
        elif called is None and _library(tb):
            called = tb
        tb = tb.tb_next
    if called is None:
        return "a function of an async library"
    return f"{_library(called)}'s {called.tb_frame.f_code.co_qualname}()"


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _short(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith("..") else path


def _ranges(nums: list[int]) -> str:
    """``[0, 1, 2, 5, 7, 8]`` -> ``"0-2, 5, 7-8"``."""
    out = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ", ".join(out)
