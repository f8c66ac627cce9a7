"""Shrinking a failing schedule: a simpler schedule that fails the same way.

First an iterative preemption-bounded search (CHESS's strategy: bounds 0, 1, ... below the
failing schedule's count, within a budget of runs) looks for a schedule with fewer preemptions
that fails the same way. Then the schedule is rewritten as *overrides*: the decisions where it
did not go on with the invocation that ran last (or, when that one could not go on, did not
take the lowest runnable one). Every other decision follows that default, which has no
preemption. Delta debugging (Zeller and
Hildebrandt's ddmin) then removes overrides in chunks, then one by one, keeping a candidate
when it still fails the same way (same exception type, or the check still failing) and is no
worse in (preemptions, context switches, steps), compared in that order.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._core.instruments import Instrument
from .._core.validation import check_int
from ..errors import ReplayMismatchError
from ..schedules.strategies import Replay, Strategy, reduction_seed
from ..schedules.trace import Trace
from .explore import Exhaustive, Recorded, _run_checked, check_target, explore

__all__ = ["ScheduleStats", "ShrinkReport", "schedule_stats", "shrink"]


class _StepLog(Instrument):
    """Which invocation ran each step."""

    def run_started(self, scheduler: Any) -> None:
        self.keys: list[int] = []
        self.count: dict[int, int] = {}

    def invocation_resumed(self, inv: Any) -> None:
        self.keys.append(inv.key)
        self.count[inv.key] = self.count.get(inv.key, 0) + 1


class _Guided(Strategy):
    """Follows ``overrides`` ((invocation that ran last, its steps so far) -> invocation to run
    next: "switch from X after its n-th step to Y") and otherwise goes on with the invocation
    that ran last, or the lowest runnable one. Keyed by the invocation's own progress, an
    override keeps its meaning when others are removed. Logs every decision; wraps another
    strategy instead (``inner``) to log that one's decisions."""

    name = "guided"

    def __init__(self, overrides: dict[tuple, int] | None = None, inner: Strategy | None = None,
                 log: _StepLog | None = None, seed: int | None = None) -> None:
        self.overrides = dict(overrides or {})
        self.inner = inner
        self.log = log
        #: the seed of subgroup_reduction="shuffled" (the shrunk trace's: its fold orders)
        self.seed = seed
        self.run: Strategy | None = None  # the inner strategy's object for the run

    def for_run(self) -> _Guided:
        """Itself: a guide is made for one run, and its decisions are read after it."""
        return self

    def begin(self, scheduler: Any) -> None:
        self.decisions: list[tuple[tuple[int, ...], int, int | None, int]] = []
        self.run = self.inner.for_run() if self.inner is not None else None
        if self.run is not None:
            self.run.begin(scheduler)

    def pick(self, runnable: list) -> int:
        keys = tuple(inv.key for inv in runnable)
        log = self.log
        last = log.keys[-1] if log is not None and log.keys else None
        progress = log.count.get(last, 0) if log is not None else 0
        if self.run is not None:
            pos = self.run.pick(runnable)
        else:
            want = self.overrides.get((last, progress))
            if want is not None and want in keys:
                pos = keys.index(want)
            else:
                pos = keys.index(last) if last in keys else 0
        self.decisions.append((keys, keys[pos], last, progress))
        return pos

    def end(self, scheduler: Any) -> None:
        if self.run is not None:
            self.run.end(scheduler)

    def describe(self) -> dict[str, Any]:
        if self.inner is not None:
            return (self.run if self.run is not None else self.inner).describe()
        return {"name": "shrunk", "overrides": len(self.overrides)}


@dataclass(frozen=True)
class ScheduleStats:
    """How complex a schedule is: preemptions (switching away from an invocation that could go
    on), context switches (consecutive steps by different invocations), steps, and overrides
    (decisions off the no-preemption default)."""

    preemptions: int
    context_switches: int
    steps: int
    overrides: int

    def key(self) -> tuple[int, int, int]:
        return (self.preemptions, self.context_switches, self.steps)

    def __str__(self) -> str:
        return (f"{self.preemptions} preemption(s), {self.context_switches} context switch(es), "
                f"{self.steps} step(s)")


@dataclass
class ShrinkReport:
    """The failing schedule before and after shrinking, and the shrunk trace."""

    failure: str
    before: ScheduleStats
    after: ScheduleStats
    trace: Trace
    runs: int
    original: Trace = field(repr=False, default=None)  # type: ignore[assignment]

    def summary(self) -> str:
        return (f"shrunk in {self.runs} runs: {self.before} -> {self.after}\n"
                f"  still fails: {self.failure}\n  replay: {self.trace.to_string()}")


def _overrides(decisions: list) -> dict[tuple, int]:
    out = {}
    for keys, chosen, last, progress in decisions:
        default = last if last in keys else keys[0]
        if chosen != default:
            out[(last, progress)] = chosen
    return out


def _order(item: tuple) -> tuple:
    (last, n), key = item
    return (-1 if last is None else last, n, key)


def _stats(decisions: list, log: _StepLog) -> ScheduleStats:
    pre = sum(1 for keys, chosen, last, _ in decisions if last in keys and chosen != last)
    keys = log.keys
    switches = sum(1 for a, b in itertools.pairwise(keys) if a != b)
    return ScheduleStats(pre, switches, len(keys), len(_overrides(decisions)))


def _attempt(kernel: Any, setup: Callable, check: Callable | None, strategy: _Guided
             ) -> tuple[str | None, ScheduleStats, Trace | None]:
    log = _StepLog()
    strategy.log = log
    rec = Recorded(strategy)
    result, _, failure, exc = _run_checked(kernel, setup, check, rec, [log])
    kind = None
    if failure is not None:
        kind = "check" if result is not None else type(exc).__name__
    trace = result.trace if result is not None else rec.trace()
    return kind, _stats(strategy.decisions, log), trace


def schedule_stats(kernel: Any, setup: Callable, trace: Trace | str) -> ScheduleStats:
    """Preemptions, context switches and steps of the schedule ``trace`` records."""
    check_target(kernel, setup, None)
    t = trace if isinstance(trace, Trace) else Trace.load(trace)
    _, stats, _ = _attempt(kernel, setup, None, _Guided(inner=Replay(t)))
    return stats


def shrink(kernel: Any, setup: Callable[[], dict[str, Any]], trace: Trace | str,
           check: Callable[[Any], Any] | None = None, *, max_runs: int = 1000) -> ShrinkReport:
    """Finds a simpler schedule than ``trace`` that still fails the same way.

    ``setup`` and ``check`` are those given to :func:`asyncshader.explore`. Returns a
    :class:`ShrinkReport` with the statistics before and after and the shrunk trace, which
    :class:`~asyncshader.Replay` reproduces. Raises ValueError if ``trace`` does not fail,
    :class:`~asyncshader.ReplayMismatchError` if it does not replay on this kernel, and
    :class:`~asyncshader.TraceError` if it cannot be read.
    """
    check_target(kernel, setup, check)
    check_int("max_runs", max_runs, 1)
    original = trace if isinstance(trace, Trace) else Trace.load(trace)
    try:
        kind, before, _ = _attempt(kernel, setup, check, probe := _Guided(inner=Replay(original)))
    except ReplayMismatchError as exc:
        raise ReplayMismatchError(f"shrink: the trace does not replay on this kernel: {exc}"
                                  ) from None
    if kind is None:
        raise ValueError("the trace does not fail: replaying it raises nothing and check() "
                         "passes, so there is nothing to shrink (wrong check, or wrong trace?)")
    current = _overrides(probe.decisions)
    # the guided runs fold shuffled subgroup reductions in the original's orders
    guided = functools.partial(_Guided, seed=reduction_seed(Replay(original)))
    # the same schedule as overrides over the no-preemption default
    kind0, best, best_trace = _attempt(kernel, setup, check, guided(current))
    runs = 2
    if kind0 != kind:  # cannot happen for a deterministic kernel; keep the original then
        best, best_trace = before, original
    # iterative preemption bounding (CHESS): the fewest preemptions that fail the same way
    budget = max_runs // 2
    for bound in range(best.preemptions):
        if runs >= budget:
            break
        # all the failures within this bound: another way of failing must not end the search
        found = explore(kernel, setup, check, Exhaustive(bound), runs=budget - runs,
                        stop_on_failure=False)
        runs += found.runs + found.pruned
        same_kind = False
        for hit in (f for f in found.failures if f.trace is not None):
            probe = _Guided(inner=Replay(hit.trace))
            k, stats, _ = _attempt(kernel, setup, check, probe)
            runs += 1
            if k != kind:
                continue
            same_kind = True
            if stats.key() < best.key():
                cand = _overrides(probe.decisions)
                k2, stats2, t2 = _attempt(kernel, setup, check, guided(cand))
                runs += 1
                if k2 == kind and t2 is not None and stats2.key() < best.key():
                    best, best_trace, current = stats2, t2, cand
            break
        if same_kind or not found.complete:
            break

    def fails(cand: dict[int, int]) -> bool:
        nonlocal best, best_trace, current, runs
        if runs >= max_runs:
            return False
        runs += 1
        k, stats, t = _attempt(kernel, setup, check, guided(cand))
        if k == kind and stats.key() <= best.key() and t is not None:
            best, best_trace, current = stats, t, cand
            return True
        return False

    # ddmin over the overrides (complements first: remove chunks)
    n = 2
    while len(current) >= 1 and runs < max_runs:
        items = sorted(current.items(), key=_order)
        chunk = max(1, len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            cand = dict(items[:start] + items[start + chunk:])
            if fails(cand):
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(n * 2, len(items))
    # then: move each switch one step of its invocation earlier or later if that is simpler
    for (last, n), key in sorted(current.items(), key=_order):
        for m in (n - 1, n + 1):
            if m >= 0 and (last, m) not in current and runs < max_runs:
                cand = {k: v for k, v in current.items() if k != (last, n)}
                cand[(last, m)] = key
                fails(cand)
    return ShrinkReport(failure=kind, before=before, after=best, trace=best_trace, runs=runs,
                        original=original)
