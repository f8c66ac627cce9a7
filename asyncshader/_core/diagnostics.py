"""Diagnostics: what the scheduler says when a run goes wrong, written for the person reading it.

Every message names the invocation(s) (by the dispatch's ids), where each one stands
(``file:line`` and the source text), what that means in WGSL terms, and the fix. The
:class:`Diagnostics` mixin gives the scheduler these messages; nothing here runs on the hot path.
"""

from __future__ import annotations

import linecache
import os
from types import CoroutineType
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
from .sources import internal, user_file
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
            return f"runnable at {_short(name)}:{line}: {text}"
        return f"waits at {_short(name)}:{line} in {op}(): {text}"

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
        tb = exc.__traceback__
        while tb is not None and not suspended:  # the innermost frame in user code
            fname = tb.tb_frame.f_code.co_filename
            if not internal(fname):
                name, line = fname, tb.tb_lineno
                text = linecache.getline(name, line).strip()
            tb = tb.tb_next
        where = f" at {_short(name)}:{line}: {text}" if line else ""
        msg = f"invocation {inv} raised {type(exc).__name__}: {exc}{where}"
        return ShaderError(msg, str(inv), exc)

    def _resolve_error(self, group: Group, req: Any, brought: list[tuple[Invocation, Any]],
                       exc: Exception) -> ShaderError:
        """A rendezvous's resolver could not combine what the members brought (``brought``:
        member and value, in lane order), e.g. ``dpdx`` of a ``vec3f`` in one member and of a
        ``vec2f`` in another. WGSL types an expression once, so a GPU never meets this."""
        name, line, text = brought[0][0].position()
        values = "\n".join(f"  {m}: {_brief(v)}" for m, v in brought)
        return ShaderError(
            f"{req.op}() in {group.label} at {_short(name)}:{line}: {text}\n"
            f"The members' values do not combine ({type(exc).__name__}: {exc}):\n{values}\n"
            f"WGSL gives an expression one type, the same in every member of the "
            f"{group.scope}. Fix: give {req.op}() the same type in every member (convert, "
            "e.g. f32(v) or vec3f(v)).",
            ", ".join(str(m) for m, _ in brought), exc)

    def _foreign(self, inv: Invocation, obj: Any) -> ForeignAwaitError:
        name, line, text = inv.position()
        awaited = inv.coro.cr_await
        chain = []
        while isinstance(awaited, CoroutineType):
            chain.append(awaited.cr_code.co_qualname)
            awaited = awaited.cr_await
        what = f"{'.'.join(chain) or type(awaited).__name__}() which yielded {obj!r}"
        return ForeignAwaitError(
            f"invocation {inv} awaited {what} at {_short(name)}:{line}: {text}\n"
            "A shader may only await asyncshader operations (workgroup_barrier(), atomic_add(), "
            "dpdx(), ...); the scheduler cannot run other event loops' awaitables. Fix: call the "
            "code without awaiting it, or use the asyncshader operation it stands for.")

    def _no_group(self, inv: Invocation, req: Any) -> AsyncShaderError:
        name, line, text = inv.position()
        have = ", ".join(inv.groups) or "none"
        return AsyncShaderError(
            f"invocation {inv} called {req.op}() at {_short(name)}:{line}: {text}\n"
            f"{req.op}() works on a {req.scope} group, and this dispatch has none (its groups: "
            f"{have}). {getattr(req, 'no_group_hint', '')}".rstrip())

    def _step_limit(self, inv: Invocation) -> StepLimitError:
        name, line, text = inv.position()
        return StepLimitError(
            f"invocation {inv} passed {self.max_points:,} scheduling points without "
            f"finishing, last at {_short(name)}:{line}: {text}\nA spin loop waiting for another "
            "invocation or workgroup? WGSL gives no forward-progress guarantee between "
            "workgroups. Fix the loop, or raise max_points_per_invocation.")

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
