"""What an exploration keeps when it cannot finish: nothing it found is lost.

Every failure is saved in the failure store when it arrives (:class:`FailureSaver`: found by a
run here, or in a part a worker sent back), not when the exploration ends. When Ctrl-C
stops it, or its workers die, the runs' loops give the exception the report of the runs that
finished (:func:`~.runs.stopped_with`), and :func:`~asyncshader.explore` raises
:class:`~asyncshader.ExplorationInterrupted` or :class:`~asyncshader.ExplorationBrokenError`
with that report attached and a message that says what was found, where it is, and how to go
on from where it stopped (:func:`stopped_error`).
"""

from __future__ import annotations

import warnings
from typing import Any

from ..errors import ExplorationBrokenError, ExplorationInterrupted
from ..schedules.names import strategy_from_name
from ..schedules.strategies import PCT, Random
from .runs import ExploreReport, Failure
from .store import failure_key

__all__ = ["SAVED_PER_EXPLORATION", "FailureSaver", "stopped_error"]

#: at most this many failures of one exploration are saved (the first of each kind of failure)
SAVED_PER_EXPLORATION = 16


class FailureSaver:
    """Saves an exploration's failures in ``store`` as they arrive: the one of lowest run of
    each kind of failure (the text before its first colon), at most
    :data:`SAVED_PER_EXPLORATION` kinds. Failures that workers send back arrive in any order,
    so one of a lower run replaces the saved one of its kind: the store ends as a serial
    exploration leaves it. ``saved_here`` collects the (key, value) pairs saved (a process does
    not replay what it saved itself)."""

    def __init__(self, store: Any, kernel: Any, saved_here: set) -> None:
        self.store = store
        self.kernel = kernel
        self.key = failure_key(kernel.identity) if store is not None else b""
        self.saved_here = saved_here
        self.saved: dict[str, tuple[int, bytes]] = {}  # kind -> (run, value)
        self.broken = False  # the store refused a write: warned once, not tried again

    def __call__(self, failure: Failure) -> None:
        if self.store is None or self.broken or failure.stored or failure.trace is None:
            return
        kind = failure.error.split(":")[0]
        had = self.saved.get(kind)
        if (had is not None and had[0] <= failure.run) or (
                had is None and len(self.saved) >= SAVED_PER_EXPLORATION):
            return
        value = failure.trace.to_string().encode("utf-8")
        try:
            self.store.save(self.key, value)
            if had is not None and had[1] != value:
                self.store.delete(self.key, had[1])
        except OSError as e:
            self.broken = True
            warnings.warn(f"asyncshader could not save a failing schedule of "
                          f"{self.kernel.identity['name']} to {self.store!r}: {e}. Point "
                          "ASYNCSHADER_STORE at a writable folder, or pass store=None",
                          stacklevel=4)
            return
        if had is not None:
            self.saved_here.discard((self.key, had[1]))
        self.saved_here.add((self.key, value))
        self.saved[kind] = (failure.run, value)


def stopped_error(exc: BaseException, report: ExploreReport, strategy: Any, runs: int,
                  store: Any) -> BaseException:
    """The error :func:`~asyncshader.explore` raises for ``exc`` (which carries the runs'
    report, :func:`~.runs.stopped_with`), with ``report`` (the stored failures replayed first and
    those runs') attached."""
    if isinstance(strategy, str):
        strategy = strategy_from_name(strategy)
    done = getattr(exc, "asyncshader_done", None)
    interrupted = isinstance(exc, KeyboardInterrupt)
    why = "was interrupted (Ctrl-C)" if interrupted else (
        "lost its workers: they died before finishing their runs")
    report.stopped = "interrupted" if interrupted else "workers died"
    found = [f for f in report.failures if not f.stored]
    text = (f"explore({report.kernel}) {why}, after {report.runs:,} of {runs:,} runs; "
            f"{len(found)} failing run(s) found")
    if found:
        text += f" (first: run {found[0].run}: {found[0].error})"
    text += ". "
    if found and store is not None:
        text += (f"The first of each kind is saved in the failure store {store!r}, which the "
                 f"next exploration of {report.kernel} replays first. ")
    elif found:
        text += "With store=None they are saved nowhere. "
    text += "The report so far, failures and traces, is this error's .report. "
    text += _resume(strategy, done, runs, getattr(exc, "asyncshader_measured", None))
    if not interrupted:
        text += (" Why workers die: in a script, start the exploration under `if __name__ == "
                 "\"__main__\":` (the workers import the script); otherwise a run crashed the "
                 "process (memory?): try workers=1 to see its error here.")
        return ExplorationBrokenError(text, report)
    return ExplorationInterrupted(text, report)


def _resume(strategy: Any, done: int | None, runs: int, measured: int | None) -> str:
    """How to go on with the runs not done: the family shifted past the runs all finished."""
    if done is None:
        return "An exhaustive search starts again from its first schedule when explored again."
    left = runs - done
    if isinstance(strategy, Random) and type(strategy) is Random:
        shifted = f"Random({strategy.seed + done})"
    elif isinstance(strategy, PCT) and type(strategy) is PCT:
        steps = strategy.steps if strategy.steps is not None else measured
        shifted = f"PCT({strategy.seed + done}, depth={strategy.depth}" + (
            f", steps={steps})" if steps is not None else ")")
    else:
        return (f"Runs 0 to {done - 1} all finished; exploring again starts from run 0."
                if done else "Exploring again starts from run 0.")
    if done == 0:
        return "No run finished: explore again to start over."
    return (f"Runs 0 to {done - 1} all finished: to go on from there, explore again with "
            f"strategy={shifted}, runs={left:,}.")
