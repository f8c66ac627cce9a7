"""You are the scheduler: a compute dispatch run one step at a time, the caller choosing.

``s = ash.stepper(kernel, workgroups=1, **bindings)`` builds the dispatch and stops before its
first step. ``print(s)`` shows every live invocation and where it stands (``file:line`` and the
source line: ready, waiting at a barrier, finished), the memory and the race detector's findings;
``s.pick(3)`` runs invocation 3 until it next suspends (an atomic or a barrier, the scheduling
points); ``s.run_with(ash.Random(1), steps=10)`` lets a strategy choose; ``s.undo()`` takes the
last step back; ``s.trace`` is the schedule taken, which ``ash.Replay`` (``schedule=s.trace``)
runs again to the same outputs.

How: one scheduler core, no copy of it. The dispatch is built as :func:`asyncshader.run` builds
it, with a :class:`Driven` strategy that returns the position the caller chose, and the
scheduler's generator is advanced one step per call (``checkpoint_every=0``: the general loop
hands back control before every step). So the stepper runs exactly the code a dispatch runs:
the same rendezvous rules, errors, race detector and trace.

Undo re-runs: a coroutine cannot be copied, so a step cannot be taken back in place. Since a
run is a pure function of its choices (the scheduler is deterministic), ``undo`` rebuilds the
dispatch from the bindings as first given and replays the choices before the last step. It costs
one run of the prefix (milliseconds for the small dispatches one steps through by hand); what
it replays is the list of invocations picked per step, the same information as a
:class:`~asyncshader.Trace` and exact by construction.

The stepper lives in the exploration layer, beside :func:`~asyncshader.explore`: both choose
schedules for dispatches the stages build; the schedules layer only gets a :class:`Strategy`.
"""

from __future__ import annotations

import inspect
import os
import textwrap
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._core.validation import check_int
from .._core.watchdog import unwatch, watch
from ..errors import AsyncShaderError
from ..schedules.names import as_strategy
from ..schedules.strategies import Strategy
from ..schedules.trace import Trace
from ..stages.compute import _is_storage, _prepare
from ..stages.dispatch import (
    DEFAULT_MAX_POINTS,
    DEFAULT_WATCHDOG,
    DispatchResult,
    _attach_trace,
    _running,
    check_replay,
)


class StepperError(AsyncShaderError):
    """A stepper was asked for something it cannot do now (picking an invocation that is not
    runnable, stepping a finished run, the trace of an unfinished run...)."""


class Driven(Strategy):
    """The strategy of a stepped dispatch: returns the position its driver set before the step.
    The trace records it as ``{"name": "stepper"}``; :class:`~asyncshader.Replay` replays it."""

    name = "stepper"
    position = 0

    def for_run(self) -> Driven:
        return self  # one stepper's state by design, never shared

    def pick(self, runnable: list) -> int:
        return self.position


class InvocationView:
    """One invocation as the stepper shows it: ``number`` (what :meth:`Stepper.pick` takes:
    the global invocation index in dispatch order), ``ids`` (its WGSL builtin ids), ``state``
    (``"ready"``, ``"not started"``, ``"at <op>"`` for a barrier it waits at, ``"finished"``)
    and where it stands: ``file``, ``line`` and ``source`` (the line's text)."""

    def __init__(self, number: int, ids: str, state: str, file: str, line: int,
                 source: str) -> None:
        self.number, self.ids, self.state = number, ids, state
        self.file, self.line, self.source = file, line, source

    @property
    def runnable(self) -> bool:
        """Whether :meth:`Stepper.pick` may choose it now."""
        return self.state in ("ready", "not started")

    def __repr__(self) -> str:
        where = f"{os.path.basename(self.file)}:{self.line}" if self.line else ""
        return (f"#{self.number:<3} {self.state:<20} {where:<18} {self.source}").rstrip()


class Stepper:
    """A compute dispatch stepped by hand. Made by :func:`stepper`; see this module's docstring.

    Attributes: ``steps`` (steps taken), ``done`` (the run ended, normally or with an error),
    ``error`` (the exception that ended it, e.g. a barrier in divergent control flow), ``result``
    (the :class:`~asyncshader.DispatchResult` once it finished normally).
    """

    def __init__(self, kernel: Any, workgroups: Any = 1, *, max_live_workgroups: int = 1,
                 sanitize: str = "report", allow_races: Any = (), derivatives: str = "coarse",
                 max_points_per_invocation: int = DEFAULT_MAX_POINTS,
                 watchdog: float | None = DEFAULT_WATCHDOG, subgroup_size: int | None = None,
                 subgroup_reduction: str = "lanes", **bindings: Any) -> None:
        for option in ("schedule", "instruments"):
            if option in bindings:
                raise StepperError(
                    f"the stepper takes no {option}=: you are the schedule (pick steps, or "
                    "let a strategy choose with s.run_with(strategy))" if option == "schedule"
                    else f"the stepper takes no {option}= (it shows positions, memory and "
                    "findings itself); use ash.run(..., schedule=s.trace, instruments=[...]) "
                    "to observe the same run")
        if getattr(kernel, "stage", None) == "fragment":
            raise StepperError(f"{kernel!r} is a fragment shader; the stepper runs compute "
                               "kernels (@ash.compute) only, for now")
        self._options = dict(workgroups=workgroups, max_live=max_live_workgroups,
                             sanitize=sanitize, allow_races=allow_races,
                             derivatives=derivatives, max_points=max_points_per_invocation,
                             watchdog=watchdog, subgroup_size=subgroup_size,
                             subgroup_reduction=subgroup_reduction)
        self.kernel = kernel
        # the bindings as given: every (re)start runs on fresh copies, the caller's stay as they are
        self._given = {k: np.array(v, copy=True) if _is_storage(v) else v
                       for k, v in bindings.items()}
        self._choices: list[int] = []  # the invocation run at each step
        self._start()

    # ----------------------------------------------------------------------------- driving
    def pick(self, number: int) -> Stepper:
        """Runs invocation ``number`` (see :attr:`InvocationView.number`) until it next
        suspends: at an atomic, a barrier, or the end of the shader. Returns the stepper."""
        check_int("number", number, 0)
        self._check_running("pick an invocation")
        runnable = self._sched.runnable
        for pos, inv in enumerate(runnable):
            if inv.key == number:
                self._advance(pos)
                return self
        ready = ", ".join(f"#{inv.key}" for inv in runnable)
        state = next((v.state for v in self.invocations if v.number == number), None)
        why = (f"it is {state}" if state is not None else
               "no live invocation has that number")
        raise StepperError(f"cannot pick invocation #{number}: {why}. Runnable now: {ready}")

    def run_with(self, strategy: Any = None, steps: int | None = None) -> Stepper:
        """Lets ``strategy`` (``ash.Random(1)``, ``ash.InOrder()``, a strategy name...; default
        in order) choose the next ``steps`` steps (None: to the end of the run). Strategies are
        asked only when more than one invocation is runnable, as in a dispatch. A trace (or
        ``Replay``) must be one of this kernel's."""
        check_int("steps", steps, 0, none_ok=True)
        self._check_running("run steps")
        chooser = as_strategy(strategy)
        check_replay(chooser, self.kernel.identity, self._job.config)
        with _running(self._job):
            chooser.begin(self._sched)
        taken = 0
        while not self.done and (steps is None or taken < steps):
            runnable = self._sched.runnable
            pos = 0 if len(runnable) < 2 else chooser.pick(runnable)
            self._advance(pos)
            taken += 1
        return self

    def finish(self) -> Stepper:
        """Runs the rest in order (the lowest runnable invocation first)."""
        return self.run_with(None)

    def undo(self, steps: int = 1) -> Stepper:
        """Takes back the last ``steps`` steps (see the module docstring: it re-runs the rest)."""
        check_int("steps", steps)
        if not 0 < steps <= len(self._choices):
            raise StepperError(f"cannot undo {steps} step(s): {len(self._choices)} taken")
        keep = self._choices[:len(self._choices) - steps]
        self.close()
        self._choices = []
        self._start()
        for key in keep:
            self.pick(key)
        return self

    def close(self) -> None:
        """Ends the run here (closing the invocations' coroutines)."""
        if self._gen is not None:
            self._gen.close()
            self._gen = None

    # ------------------------------------------------------------------------------ looking
    @property
    def steps(self) -> int:
        """Steps taken so far."""
        return len(self._choices)

    @property
    def invocations(self) -> list[InvocationView]:
        """Every invocation of the live workgroups, in dispatch order, and where it stands."""
        sched = self._sched
        runnable = set(map(id, sched.runnable))
        views = []
        for unit in sched.live:
            for inv in unit.members:
                views.append(_view(inv, id(inv) in runnable))
        return views

    @property
    def runnable(self) -> list[int]:
        """The numbers of the invocations :meth:`pick` may choose now."""
        return [] if self.done else [inv.key for inv in self._sched.runnable]

    @property
    def memory(self) -> dict[str, np.ndarray]:
        """Copies of the storage buffers, and of each live workgroup's ``var<workgroup>``
        variables (named ``var`` for the only live workgroup, ``var@w`` with workgroup index w
        when several are live)."""
        mem = {k: np.array(v) for k, v in self._job.bindings.items() if _is_storage(v)}
        live = self._sched.live
        for unit in live:
            ctx = unit.context
            if ctx is None:
                continue
            saved = ctx.saved or [np.zeros_like(np.asarray(v)) for v in ctx.vars]
            for var, values in zip(ctx.vars, saved):
                name = var.var_name if len(live) == 1 else f"{var.var_name}@{unit.index}"
                mem[name] = np.array(values)
        return mem

    @property
    def findings(self) -> list:
        """The race detector's findings so far (data races, out-of-bounds accesses...)."""
        det = self._job.detector
        return list(det.findings) if det is not None else []

    @property
    def trace(self) -> Trace:
        """The schedule taken, once the run ended: ``ash.run(kernel, schedule=s.trace, ...)``
        (or ``ash.Replay(s.trace)``) runs it again to the same outputs (or the same error)."""
        if not self.done:
            raise StepperError(
                f"the run is not finished ({self.steps} steps taken, invocations "
                f"{', '.join(f'#{k}' for k in self.runnable)} runnable): a trace replays a "
                "whole run. Finish it first: s.finish() (in order) or s.run_with(strategy)")
        if self.error is not None:
            return self.error.asyncshader_trace
        return self.result.trace  # type: ignore[union-attr]

    def show(self, memory: bool = True) -> str:
        """The text ``print(s)`` shows: the invocations, the memory, findings and the outcome."""
        lines = [f"{self.kernel.identity['name']}: step {self.steps}"
                 + (", finished" if self.done and self.error is None else "")
                 + (", stopped by an error" if self.error is not None else "")]
        invs = self.invocations
        lines += [f"  {v!r}" for v in invs]
        if not invs and not self.done:
            lines.append("  (no live invocation)")
        if memory:
            for name, value in self.memory.items():
                text = np.array2string(np.asarray(value), threshold=32, max_line_width=96)
                lines.append(f"  {name} = " + text.replace("\n", "\n    "))
        for f in self.findings:
            lines.append("  ! " + _brief(f))
        if self.error is not None:
            lines.append(textwrap.indent(f"{type(self.error).__name__}: {self.error}", "  "))
        elif not self.done:
            lines.append(f"  runnable: {', '.join(f'#{k}' for k in self.runnable)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.show()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython and Jupyter show the whole state (``s`` alone in a cell)."""
        printer.text(self.show())

    def __repr__(self) -> str:
        state = ("error" if self.error is not None else "finished" if self.done
                 else f"runnable {self.runnable}")
        return f"<Stepper {self.kernel.identity['name']} step {self.steps}: {state}>"

    # ------------------------------------------------------------------------------ inside
    def _start(self) -> None:
        o = self._options
        bindings = {k: np.array(v, copy=True) if _is_storage(v) else v
                    for k, v in self._given.items()}
        self._driven = Driven()
        self._job = _prepare(self.kernel, o["workgroups"], self._driven, o["max_live"], (),
                             bindings, o["max_points"], o["derivatives"], o["sanitize"],
                             o["allow_races"], o["watchdog"], o["subgroup_size"],
                             o["subgroup_reduction"])
        self._sched = self._job.scheduler
        self._sched.checkpoint_every = 0  # the general loop hands back control at every step
        self.done = False
        self.error: BaseException | None = None
        self.result: DispatchResult | None = None
        self._gen: Iterator[None] | None = self._sched.run()
        self._resume()  # to just before the first step

    def _advance(self, pos: int) -> None:
        self._choices.append(self._sched.runnable[pos].key)
        self._driven.position = pos
        self._resume()

    def _resume(self) -> None:
        gen = self._gen
        w = watch(gen, self._sched, self._job.watchdog)
        try:
            try:
                with _running(self._job):
                    next(gen)  # type: ignore[arg-type]
            except StopIteration:
                self.done, self._gen = True, None
                self.result = self._job.result()  # (sanitize="error": may raise)
        except Exception as exc:  # the run's own error: shown, and the trace reproduces it
            _attach_trace(exc, self._job)
            self.done, self.error, self._gen, self.result = True, exc, None, None
        finally:
            unwatch(w)

    def _check_running(self, what: str) -> None:
        if self.done:
            ended = (f"it stopped with {type(self.error).__name__}" if self.error is not None
                     else "every invocation finished")
            raise StepperError(f"cannot {what}: the run is over ({ended} after {self.steps} "
                               "steps). s.undo() takes steps back")


def _view(inv: Any, runnable: bool) -> InvocationView:
    """Where ``inv`` stands, for :attr:`Stepper.invocations`."""
    if inv.done:
        return InvocationView(inv.key, str(inv), "finished", "", 0, "")
    file, line, source = inv.position()
    if inspect.getcoroutinestate(inv.coro) == inspect.CORO_CREATED:  # (at its decorator line)
        code = inv.frame.f_code
        return InvocationView(inv.key, str(inv), "not started", file, line,
                              f"(before the first line of {code.co_name})")
    if runnable:
        state = "ready"
    else:
        state = f"at {inv.req.op}" if inv.req is not None else "waiting"
    return InvocationView(inv.key, str(inv), state, file, line, source)


def _brief(finding: Any) -> str:
    """A finding in one line: its title and the lines of both accesses."""
    title = finding.render().splitlines()[0].rstrip(":")
    accesses = [a for a in (getattr(finding, "first", None), getattr(finding, "second", None),
                            getattr(finding, "access", None)) if a is not None]
    where = ", ".join(f"{a.kind} at {os.path.basename(a.file)}:{a.line}" for a in accesses)
    return f"{title} ({where})" if where else title


def stepper(kernel: Any, workgroups: Any = 1, **options_and_bindings: Any) -> Stepper:
    """Starts ``kernel`` (a ``@compute`` kernel) as :func:`asyncshader.run` would, stopped
    before its first step, for the caller to schedule by hand: a :class:`Stepper`. Takes
    ``run``'s options (``max_live_workgroups``, ``sanitize`` (default ``"report"``),
    ``allow_races``...) and bindings; storage arrays are copied, never written."""
    return Stepper(kernel, workgroups, **options_and_bindings)
