"""What every dispatch shares: driving the scheduler (sync or awaited), the result object, the
kernel identity recorded in traces, and the checks a replay makes before it starts."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import inspect
import math
import os
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import numpy as np

from .._core.context import CURRENT_RUN
from .._core.scheduler import Scheduler
from .._core.sources import restore_sources, user_stacklevel
from .._core.watchdog import Interrupt, set_deadline, unwatch, watch
from ..errors import DispatchError, ReplayMismatchError, ShaderTimeoutError
from ..schedules.strategies import Replay, Strategy
from ..schedules.trace import Trace
from ..wgsl.memory import MemoryTurn
from ..wgsl.source import generated_tree

#: ``watchdog=``: seconds one invocation may run without suspending (docs/concepts.md)
DEFAULT_WATCHDOG = 10.0
#: ``max_points_per_invocation=``: scheduling points one invocation may pass (docs/concepts.md)
DEFAULT_MAX_POINTS = 10_000

_QUIET = {"over": "ignore", "divide": "ignore", "invalid": "ignore", "under": "ignore"}

@contextlib.contextmanager
def _running(job: Any) -> Iterator[None]:
    """Makes ``job`` the current run while its shaders run, with the context variables it
    names in ``context_values`` (``(var, value)`` pairs: what a hot operation reads without
    going through the run, e.g. the derivative built-ins' request kinds)."""
    tokens = [(CURRENT_RUN, CURRENT_RUN.set(job))]
    slots = getattr(job, "module_slots", None)  # (module-scope bindings: put back at the end)
    try:
        tokens += [(var, var.set(value)) for var, value in getattr(job, "context_values", ())]
        with np.errstate(**_QUIET), slots if slots is not None else contextlib.nullcontext():
            yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


@dataclass
class Counters:
    """What a run did: invocations run, scheduling steps, decisions the strategy made,
    rendezvous completed, switches between workgroups, scheduling points (atomics)."""

    invocations: int = 0
    steps: int = 0
    decisions: int = 0
    rendezvous: int = 0
    context_switches: int = 0
    points: int = 0


@dataclass
class DispatchResult:
    """The result of a dispatch: ``outputs`` (storage buffers by name, the caller's arrays, written
    in place), the :class:`~asyncshader.Trace` of the schedule, ``findings`` of the sanitizers and
    ``counters``. ``result["out"]`` is ``result.outputs["out"]``."""

    outputs: dict[str, Any]
    trace: Trace
    counters: Counters
    findings: list = field(default_factory=list)

    def __getitem__(self, name: str) -> Any:
        return self.outputs[name]


def refuse_nested(kernel: Any) -> None:
    """Refuses a dispatch of ``kernel`` started while another dispatch's shaders run (``ash.run``
    called inside a shader): workgroup variables are the module's, so the inner dispatch would
    overwrite the workgroup memory the outer one's invocations are using."""
    outer = CURRENT_RUN.get()
    if outer is None:
        return
    running = getattr(outer, "kernel", None) or getattr(outer, "shader", None)
    raise DispatchError(
        f"{kernel.identity['name']} was dispatched inside a running shader "
        f"({running.identity['name']}): a dispatch cannot start while another's shaders run "
        "(the inner one would overwrite the outer one's workgroup memory). Dispatch one after "
        "the other from the host: ash.run(outer, ...), then ash.run(inner, ...); or call the "
        "inner shader's logic as a plain helper function")


def check_derivative_mode(mode: Any) -> str:
    """The ``derivatives=`` dispatch option: what plain dpdx, dpdy and fwidth compute."""
    if mode not in ("coarse", "fine"):
        raise DispatchError(f"derivatives= must be 'coarse' or 'fine' (what the plain dpdx, "
                            f"dpdy and fwidth compute), got {mode!r}")
    return mode


def kernel_identity(fn: Any) -> dict[str, str]:
    """Name (module and qualified name) and a hash of the source (of a generated function's
    syntax tree, positions included; of the bytecode when there is no source)."""
    tree = generated_tree(fn)
    try:
        text = (inspect.getsource(fn) if tree is None
                else ast.dump(tree, include_attributes=True)).encode()
    except (OSError, TypeError):
        code = fn.__code__
        text = code.co_code + repr(code.co_consts).encode()
    # the same kernel is "__main__" when its file runs as a script and "pkg.mod" or "mod" when
    # imported (pytest's import modes differ too): name it by its module's last part, or file
    module = fn.__module__
    if module is None or module == "__main__":  # (None: exec'd without a __name__)
        module = os.path.splitext(os.path.basename(fn.__code__.co_filename))[0]
    return {"name": f"{module.rsplit('.', 1)[-1]}.{fn.__qualname__}",
            "source_hash": "sha256:" + hashlib.sha256(text).hexdigest()[:16]}


class TraceSourceWarning(UserWarning):
    """A trace is replayed against a kernel whose source changed since it was recorded."""


def check_replay(strategy: Strategy, identity: dict[str, str], config: dict[str, Any]) -> None:
    """Before a replay: the trace must be for this kernel and this configuration."""
    if not isinstance(strategy, Replay):
        return
    trace = strategy.trace
    if trace.kernel.get("name") != identity["name"]:
        raise ReplayMismatchError(f"the trace was recorded for kernel {trace.kernel.get('name')}, "
                                  f"not {identity['name']}")
    for key, value in config.items():
        if trace.dispatch.get(key) != value:
            raise ReplayMismatchError(
                f"the trace was recorded with {key}={trace.dispatch.get(key)!r}; this dispatch "
                f"has {key}={value!r}. Replay needs the same configuration.")
    if trace.kernel.get("source_hash") != identity["source_hash"]:
        strategy.source_note = (
            f" Note: the kernel's source changed since the trace was recorded "
            f"({trace.kernel.get('source_hash')} then, {identity['source_hash']} now).")
        warnings.warn(TraceSourceWarning(
            f"replaying a trace of {identity['name']} recorded from other source code "
            f"({trace.kernel.get('source_hash')} then, {identity['source_hash']} now): its "
            "decisions are followed while they fit, and the first one that does not is an "
            "error"), stacklevel=user_stacklevel())


def make_trace(sched: Scheduler, identity: dict, config: dict, strategy: Strategy) -> Trace:
    d = sched.decisions
    return Trace(kernel=identity, dispatch=config, strategy=strategy.describe(),
                 decisions=d, canonical_tail=sched.canonical_tail, steps=sched.steps,
                 decision_count=len(d) // 2 + sum(d[0::2]) + sched.canonical_tail)


def counters(sched: Scheduler) -> Counters:
    t = make_trace(sched, {}, {}, sched.strategy)
    return Counters(invocations=sched.invocations, steps=sched.steps,
                    decisions=t.decision_count, rendezvous=sched.rendezvous,
                    context_switches=sched.switches, points=sched.points)


def drive(job: Any) -> None:
    """Runs a dispatch's scheduler to the end, synchronously (watched: ``job.watchdog``),
    holding the turn at its workgroup variables from first step to last (docs/design.md,
    "Workgroup memory")."""
    restore_sources()
    run = job.scheduler.run()
    turn = _turn(job)
    with turn:  # (taken before the watchdog looks: waiting for a turn is not a stall)
        w = watch(run, job.scheduler, getattr(job, "watchdog", None))
        with _running(job), _ending(job, run, w, turn):
            for _ in run:
                pass


@contextlib.contextmanager
def _ending(job: Any, run: Any, w: Any, turn: MemoryTurn) -> Iterator[None]:
    """How a dispatch's run ends, synchronous or awaited: an error gets the run's trace, the
    watchdog stops watching, the scheduler's generator is closed (in the run's turn at its
    workgroup variables: closing it may still switch their classes back)."""
    try:
        yield
    except Interrupt as exc:  # the watchdog's exception landed outside a shader (rare)
        raise _stray(job, exc) from None
    except Exception as exc:
        _attach_trace(exc, job)
        raise
    finally:
        unwatch(w)
        with turn:
            run.close()


def _turn(job: Any) -> MemoryTurn:
    """The run's turn at its workgroup variables and, if it uses any, the module-scope
    bindings it swaps into module globals (docs/design.md)."""
    return MemoryTurn(getattr(job, "wg_vars", ()), getattr(job, "module_slots", None) is not None)


def _in_turns(run: Iterator[None], turn: MemoryTurn) -> Iterator[None]:
    """The steps of an awaited run from one checkpoint to the next, each in the run's turn
    at its workgroup variables (released at the checkpoints, where the run saved them)."""
    while True:
        with turn:
            try:
                next(run)
            except StopIteration:
                return
        yield


def _stray(job: Any, exc: Interrupt) -> Exception:
    """The watchdog's exception, raised after the shader it was meant for returned or
    suspended: still the error it stands for, without the invocation."""
    err = job.scheduler._stalled(None, exc)
    _attach_trace(err, job)
    return err


def _attach_trace(exc: BaseException, job: Any) -> None:
    """Gives an error that ends a dispatch the trace of the run up to it, as
    ``exc.asyncshader_trace``: replaying it reproduces the error."""
    kernel = getattr(job, "kernel", None) or getattr(job, "shader", None)
    if kernel is not None and not hasattr(exc, "asyncshader_trace"):
        exc.asyncshader_trace = make_trace(  # type: ignore[attr-defined]
            job.scheduler, kernel.identity, job.config, job.strategy)


async def drive_async(job: Any) -> None:
    """Runs a dispatch's scheduler, letting the host event loop run (and cancel) at
    checkpoints. The watchdog also enforces the host's deadline (``anyio.fail_after``) on a
    shader that never suspends: it is interrupted there, and the cancellation happens here."""
    restore_sources()
    run = job.scheduler.run()
    turn = _turn(job)
    w = watch(run, job.scheduler, getattr(job, "watchdog", None), _deadline())
    with _ending(job, run, w, turn):
        try:
            with _running(job):
                for _ in _in_turns(run, turn):
                    await anyio.lowlevel.checkpoint()
                    if w is not None:
                        set_deadline(w, _deadline())
        except ShaderTimeoutError as exc:
            if getattr(exc, "deadline", False):  # the host's deadline: its cancellation
                unwatch(w)
                with anyio.move_on_after(_GRACE):  # (asyncio delivers it a turn later)
                    await anyio.sleep_forever()
            raise


#: how long drive_async waits for the host's cancellation once the deadline has passed
_GRACE = 1.0


def _deadline() -> float | None:
    """The enclosing cancel scope's deadline on ``time.monotonic()``'s clock (None: none)."""
    deadline = anyio.current_effective_deadline()
    if deadline == math.inf:
        return None
    return time.monotonic() + (deadline - anyio.current_time())


def check_watchdog(value: Any) -> float | None:
    """The ``watchdog=`` dispatch option: seconds an invocation may run without suspending."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 < value < math.inf):
        raise DispatchError(
            f"watchdog= must be a positive number of seconds (how long one invocation may run "
            f"without reaching an await) or None (no limit), got {value!r}")
    return float(value)
