"""Exploring schedules: many runs of one kernel under a strategy, with a report of the outcomes.

:func:`explore` runs a kernel again and again, each time on fresh bindings from ``setup()`` and
under the next schedule of a strategy, checks each result with ``check(result)`` and gathers an
:class:`ExploreReport`: distinct outcomes (outputs hashed) with counts, the failing runs with
their traces, schedules per second, and, for :class:`Exhaustive`, whether the whole bounded
space was covered. Long explorations run on every core (:mod:`.parallel`), and failures are
saved in a store (:mod:`.store`) that the next exploration of the kernel replays first. The
runs themselves, and the report, are in :mod:`.runs`.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
import warnings
from collections.abc import Callable
from typing import Any

from .._core.validation import (
    check_bool,
    check_callable,
    check_int,
    check_number,
    option_error,
)
from ..collectives.subgroups import check_subgroup_size
from ..errors import ExplorationBrokenError, ReplayMismatchError, TraceError
from ..schedules.exhaustive import DeterminismError, Exhaustive, Footprints
from ..schedules.names import strategy_from_name
from ..schedules.strategies import Replay
from ..schedules.trace import Trace
from .faults import FailureSaver, stopped_error
from .parallel import explore_seeded
from .progress import progress_for
from .runs import (
    ExploreReport,
    Failure,
    Recorded,
    RunSpec,
    _detector_failure,
    _family,
    _run_checked,
    _single_schedule,
    check_target,
    dispatch_once,
    explore_search,
    family,
    outcome_hash,
)
from .store import _as_store, default_store, failure_key

__all__ = ["DeterminismError", "Exhaustive", "ExploreReport", "Failure", "Footprints", "Recorded",
           "check_target", "dispatch_once", "explore", "outcome_hash", "strategy_from_name"]

_DEFAULT = object()  # store= not given
#: (key, value) pairs this process saved: not replayed again by the explorations that follow
_SAVED_HERE: set[tuple[bytes, bytes]] = set()


def explore(kernel: Any, setup: Callable[[], dict[str, Any]],
            check: Callable[[Any], Any] | None = None, strategy: Any = "random", *,
            runs: int = 100, time_budget: float | None = None, stop_on_failure: bool = True,
            recheck: float = 0.0, progress: Any = None, races: bool = False,
            workers: int | None = None, executor: cf.Executor | None = None,
            store: Any = _DEFAULT, subgroup_sizes: Any = None) -> ExploreReport:
    """Runs ``kernel`` under up to ``runs`` schedules of ``strategy`` and reports the outcomes.

    The schedule-exploration loop of Shuttle's ``check_random``/``check_pct``/``check_dfs`` and
    Coyote's test engine. ``setup()`` returns fresh bindings for every run (resources, plus
    dispatch options like ``workgroups=``; ``width``/``height`` for fragment shaders).
    ``check(result)`` raises or returns False (numpy's ``np.False_`` too) on a bad outcome,
    None or True on a good one (any other value is an OptionError naming the check); a run
    that raises (a shader error, a deadlock, a divergence) fails too. ``strategy`` is a
    Strategy (``Random(seed)``: run ``i`` uses seed ``seed + i``; ``PCT(seed, depth)``:
    likewise, with the decisions per run measured on the first runs;
    ``Exhaustive(max_preemptions)``: until the bounded space is covered), one of their names,
    or a list of them: a *portfolio*, whose members take turns (run ``i`` is run ``i // m`` of
    member ``i % m``). ``time_budget`` (seconds) stops early;
    ``stop_on_failure`` stops at the first failing run. ``recheck`` (a fraction, e.g. 0.05)
    reruns that share of the runs and compares trace digests and outcomes: a mismatch raises
    :class:`DeterminismError`. ``progress``: a function ``progress(done, total)`` called as
    runs finish, True for a progress bar (rich's, when installed), False for none; by default
    a bar when the terminal is interactive and rich is installed.

    ``workers`` runs the runs in that many processes of this machine (None: on every core
    when the runs left after the first 16 are expected to take more than 2 s, else here);
    ``executor`` runs them on any ``concurrent.futures.Executor`` instead (a Dask cluster's
    ``Client(...).get_executor()``). The report is the serial one whatever the workers: the
    same counts, outcomes and first failure with its trace (except where ``time_budget``
    stops it). Parallel runs need ``kernel``, ``setup`` and ``check`` defined at module level
    (other processes import them). Exhaustive searches and single schedules run here.

    ``store`` (default: :func:`~asyncshader.exploration.store.default_store`, a folder
    ``.asyncshader/failures``; None for none; a folder; or any Hypothesis
    ``ExampleDatabase``) keeps the traces of failures, keyed by the kernel's name; the next
    exploration of the kernel in another process replays them first, and stops at one that
    still fails (``report.failures[0].stored``). A failure is saved when it is found, so
    Ctrl-C or a worker that dies loses none: explore then raises
    :class:`~asyncshader.ExplorationInterrupted` (a ``KeyboardInterrupt``) or
    :class:`~asyncshader.ExplorationBrokenError`, whose ``report`` holds the runs that
    finished, and whose message says how to go on from there.

    ``subgroup_sizes`` (e.g. ``[4, 8, 32, 64]``) varies the subgroup size: run ``i`` uses
    ``subgroup_sizes[i % len(subgroup_sizes)]`` (its failure text says which), to expose a
    kernel that assumes one size; a single schedule (InOrder) runs once per size.

    ``races=True`` runs the race detector on every run (``sanitize="report"``; it costs what
    the detector costs a dispatch, see races.md): a run with a data race or an out-of-bounds
    access fails, and ``report.findings`` gathers the distinct findings of all runs. Off by
    default, because the detector's findings for the accesses a run executes do not depend on
    the schedule; turn it on when the kernel's control flow does (``t = await atomic_add(c,
    1)``, then ``if t == lid: ...``): only the schedules that take the racy branch show its
    race.
    """
    check_target(kernel, setup, check)
    check_int("runs", runs, 1)
    check_number("time_budget", time_budget, 0, none_ok=True, above=True,
                 expected="a number of seconds > 0, or None (no budget)")
    check_bool("stop_on_failure", stop_on_failure)
    check_bool("races", races)
    check_number("recheck", recheck, 0, 1, expected="a fraction of the runs, from 0 to 1")
    if not (progress is None or isinstance(progress, bool)):
        check_callable("progress", progress, expected="a function progress(done, total), "
                       "True, False or None")
    check_int("workers", workers, 1, none_ok=True,
              expected="a number of processes >= 1, or None (every core for long explorations)")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise option_error("executor", executor, "a concurrent.futures.Executor (a process "
                           "pool, Dask's Client(...).get_executor()) or None")
    the_store = default_store() if store is _DEFAULT else _as_store(store)
    # (one more option every run's dispatch takes: one more entry in `options`)
    spec = RunSpec(kernel, setup, check, races, recheck,
                   options={"sanitize": "report" if races else "off"},
                   subgroup_sizes=_subgroup_sizes(subgroup_sizes))
    sequential = _sequential(strategy)
    if sequential and (executor is not None or (workers or 1) > 1):
        raise option_error(
            "workers" if executor is None else "executor", workers if executor is None
            else executor, "None or 1 with this strategy",
            hint=f"; {sequential} runs in one process (each run of an exhaustive search "
            "depends on the one before; a single schedule is one run): leave workers= and "
            "executor= out, or explore Random/PCT in parallel")
    started = time.perf_counter()
    deadline = time.time() + time_budget if time_budget is not None else None
    spec.on_failure = FailureSaver(the_store, kernel, _SAVED_HERE)  # saved as found
    callback, close = progress_for(progress, runs)
    report = None
    try:
        report = _replay_stored(spec, the_store, family(strategy)[1]
                                if not sequential else _family(strategy)(0, None).describe(),
                                stop_on_failure)
        if report.failures and stop_on_failure:
            report.stopped = "a stored failure still fails"
        else:
            explored = (explore_search(spec, strategy, runs, stop_on_failure=stop_on_failure,
                                       deadline=deadline, progress=callback) if sequential
                        else explore_seeded(spec, strategy, runs, workers=workers,
                                            executor=executor, stop_on_failure=stop_on_failure,
                                            deadline=deadline, progress=callback))
            explored.failures[:0] = report.failures  # (stored ones that still fail first)
            explored.failing_outcomes |= report.failing_outcomes
            explored.replayed = report.replayed
            report = explored
    except (KeyboardInterrupt, ExplorationBrokenError) as exc:  # what was found is kept
        partial = getattr(exc, "asyncshader_report", None)
        if partial is None or report is None:
            raise
        partial.failures[:0] = report.failures
        partial.failing_outcomes |= report.failing_outcomes
        partial.replayed = report.replayed
        partial.elapsed = time.perf_counter() - started
        raise stopped_error(exc, partial, strategy, runs, the_store) from (
            None if isinstance(exc, KeyboardInterrupt) else exc.__cause__)
    finally:
        close()
    if report.stopped == "time budget spent":
        report.stopped = f"time budget of {time_budget} s spent"
    report.elapsed = time.perf_counter() - started
    return report


def _subgroup_sizes(sizes: Any) -> tuple[int, ...] | None:
    """``explore(subgroup_sizes=...)``, checked: the sizes, or None."""
    if sizes is None:
        return None
    if isinstance(sizes, (int, str)) or not list(sizes):
        raise option_error("subgroup_sizes", sizes, "a list of subgroup sizes, e.g. [4, 8, 32]")
    return tuple(check_subgroup_size(k) for k in sizes)


def _sequential(strategy: Any) -> str:
    """What makes ``strategy`` run in one process (an exhaustive search, a single schedule),
    or ''."""
    if isinstance(strategy, (list, tuple)):
        return ""
    first = _family(strategy)(0, None)
    if isinstance(first, Exhaustive):
        return "an exhaustive search"
    return f"{first!r} (a single schedule)" if _single_schedule(first) else ""


# ---------------------------------------------------------------------------- the store
def _replay_stored(spec: RunSpec, store: Any, description: dict[str, Any],
                   stop_on_failure: bool) -> ExploreReport:
    """Replays the traces ``store`` holds for the kernel (saved by another process): a report
    of those that still fail; those that pass or no longer replay are deleted."""
    report = ExploreReport(kernel=spec.kernel.identity["name"], strategy=description,
                           races=spec.races)
    if store is None:
        return report
    key = failure_key(spec.kernel.identity)
    for value in list(store.fetch(key)):
        if (key, value) in _SAVED_HERE:
            continue
        report.replayed += 1
        try:
            trace = Trace.from_string(value.decode("utf-8"))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a changed source: replayed all the same
                result, outcome, failure, exc = _run_checked(
                    spec.kernel, spec.setup, spec.check, Replay(trace), [], **spec.options)
            if spec.races and failure is None and result is not None:
                failure, exc = _detector_failure(result.findings)
        except (TraceError, ReplayMismatchError, UnicodeDecodeError, ValueError):
            failure = None
        if failure is None:
            store.delete(key, value)
            continue
        report.failing_outcomes.add(outcome)
        report.failures.append(Failure(-1, failure, trace, exc, stored=True))
        if stop_on_failure:
            break
    return report
