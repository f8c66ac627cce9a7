"""The runs of an exploration: one run of a kernel under a schedule, checked and hashed
(:func:`dispatch_once`, :func:`outcome_hash`), a range of runs of a seeded family of strategies
(:func:`explore_runs`, the unit of work that :func:`~asyncshader.explore` gives each worker),
an exhaustive search or single schedule (:func:`explore_search`), and the report
(:class:`ExploreReport`, :class:`Failure`).

:class:`Exhaustive` is a stateless depth-first search of schedules in the manner of CHESS and
loom: every run replays a prefix of decisions recorded by the previous one and then tries the
next untried choice. It bounds the number of *preemptions* and prunes with *sleep sets* built
from the memory each step touched (see its docstring). It lives in
:mod:`asyncshader.schedules.exhaustive`, with the footprints it prunes by.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random as _random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.context import current_run
from .._core.validation import (
    check_callable,
    option_error,
)
from .._core.verdicts import check_failed
from ..errors import (
    BindingError,
    DivergenceError,
    ForeignAwaitError,
    ReplayMismatchError,
    ShaderError,
    StepLimitError,
)
from ..sanitizers.findings import DataRaceError, errors_of, render_findings
from ..schedules.exhaustive import DeterminismError, Exhaustive, Footprints, _SleepBlocked
from ..schedules.names import STRATEGY_NAMES, strategy_from_name
from ..schedules.strategies import PCT, InOrder, Random, Replay, Reverse, Strategy
from ..schedules.trace import Trace

__all__ = ["DeterminismError", "Exhaustive", "ExploreReport", "Failure", "RunSpec",
           "explore_runs", "explore_search", "family", "strategy_from_name"]


# ------------------------------------------------------------------------------ recording
class Recorded(Strategy):
    """Wraps a strategy and keeps what is needed for a complete trace even when the run stops
    with an error (the scheduler writes its canonical tail only at the end of a run)."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.name = inner.name
        self.scheduler: Any = None
        self.job: Any = None
        self.canon = 0
        self.count = 0
        self.run: Strategy | None = None  # the inner strategy's object for the run

    def for_run(self) -> Recorded:
        """Itself: a recording is made for one run, and read after it."""
        return self

    def begin(self, scheduler: Any) -> None:
        self.scheduler, self.job = scheduler, current_run()
        self.canon = self.count = 0
        self.run = self.inner.for_run()  # the wrapped strategy's own object for this run
        self.run.begin(scheduler)

    def pick(self, runnable: list) -> int:
        pos = self.run.pick(runnable)  # type: ignore[union-attr]
        self.count += 1
        self.canon = 0 if pos else self.canon + 1
        return pos

    def end(self, scheduler: Any) -> None:
        self.run.end(scheduler)  # type: ignore[union-attr]

    def describe(self) -> dict[str, Any]:
        return (self.run if self.run is not None else self.inner).describe()

    def trace(self) -> Trace | None:
        """The trace of the run so far (None before the run started)."""
        from array import array

        sched, job = self.scheduler, self.job
        if sched is None or job is None:
            return None
        kernel = getattr(job, "kernel", None) or getattr(job, "shader", None)
        d = array(sched.decisions.typecode, sched.decisions)
        return Trace(kernel=dict(kernel.identity), dispatch=dict(job.config),
                     strategy=self.describe(), decisions=d, canonical_tail=self.canon,
                     steps=sched.steps, decision_count=self.count)


# -------------------------------------------------------------------------------- families
def _family(strategy: Any) -> Callable[[int, int | None], Strategy]:
    """``make(run_index, measured_decisions)`` -> the strategy of that run."""
    if isinstance(strategy, str):
        strategy = strategy_from_name(strategy)
    if isinstance(strategy, Exhaustive):
        search = strategy.new_search()  # the object given describes the search; not changed
        return lambda i, k: search
    if isinstance(strategy, PCT):
        base, depth, steps = strategy.seed, strategy.depth, strategy.steps
        cls = type(strategy)  # a subclass stays itself
        return lambda i, k: cls(base + i, depth, steps if steps is not None else k)
    if type(strategy) is Random:
        return lambda i, k: Random(strategy.seed + i)
    if isinstance(strategy, (InOrder, Reverse)):
        return lambda i, k: type(strategy)()
    if isinstance(strategy, Strategy) or hasattr(strategy, "run_dispatch"):
        return lambda i, k: strategy  # (a schedule that runs dispatches itself: Lockstep)
    hint = (f"; pass an instance, e.g. strategy={strategy.__name__}()"
            if isinstance(strategy, type) and issubclass(strategy, Strategy) else None)
    raise option_error("strategy", strategy, "a Strategy or one of the names "
                       + ", ".join(STRATEGY_NAMES), hint=hint)


def _single_schedule(strategy: Strategy) -> bool:
    """A deterministic schedule: one run (per subgroup size) explores all it does."""
    return isinstance(strategy, (InOrder, Reverse, Replay)) or hasattr(strategy, "run_dispatch")


# ---------------------------------------------------------------------------------- report
@dataclass
class Failure:
    """A failing run: its index, what went wrong, and the trace that replays it. ``stored``:
    a failure saved by an earlier exploration, replayed from the store first (run -1)."""

    run: int
    error: str
    trace: Trace | None
    exception: BaseException | None = None
    stored: bool = False

    @property
    def trace_string(self) -> str:
        return self.trace.to_string() if self.trace is not None else ""

    def __str__(self) -> str:
        """A few lines for people: the run, the error, and how to replay it (the trace's
        decisions are in :attr:`trace`, :attr:`trace_string` and ``trace.save(path)``)."""
        error = self.error if len(self.error) <= 2000 else self.error[:2000] + " ..."
        where = "a stored failure" if self.stored else f"run {self.run}"
        replay = (f"\n  {self.trace!r}: replay it with ash.run(kernel, ..., schedule="
                  "ash.Replay(failure.trace)), keep it with failure.trace.save(path)"
                  if self.trace is not None else "")
        return f"{where} failed: {error}{replay}"

    def __repr__(self) -> str:
        error = self.error if len(self.error) <= 200 else self.error[:200] + " ..."
        return (f"Failure(run={self.run}, error={error!r}, trace={self.trace!r}"
                + (", stored=True" if self.stored else "") + ")")


@dataclass
class ExploreReport:
    """What :func:`explore` found: ``runs`` done, ``outcomes`` (outcome hash -> count, in order of
    first appearance; an error counts as the outcome ``"error: <type>"``), ``failures``,
    ``schedules_per_second``, and ``complete``: True when an exhaustive search covered its whole
    bounded space (or the strategy has a single schedule)."""

    kernel: str
    strategy: dict[str, Any]
    runs: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    examples: dict[str, int] = field(default_factory=dict)  # outcome -> first run giving it
    failing_outcomes: set = field(default_factory=set)
    failures: list[Failure] = field(default_factory=list)
    elapsed: float = 0.0
    complete: bool = False
    pruned: int = 0
    rechecked: int = 0
    stopped: str = ""
    races: bool = False  # whether the race detector ran on every run (explore(races=True))
    #: with races=True: the distinct error-level findings over all runs (data races,
    #: out-of-bounds accesses), each as first found, with the run that found it first
    findings: list = field(default_factory=list)
    finding_runs: list[int] = field(default_factory=list)
    #: traces of earlier failures replayed from the failure store before exploring
    replayed: int = 0

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    @property
    def schedules_per_second(self) -> float:
        return self.runs / self.elapsed if self.elapsed > 0 else math.inf

    def summary(self) -> str:
        """A few lines for people."""
        lines = [f"{self.kernel}: {self.runs:,} schedules ({self.strategy.get('name')}) in "
                 f"{self.elapsed:.2f} s, {self.schedules_per_second:,.0f}/s; "
                 f"{len(self.outcomes)} distinct outcome(s); {len(self.failures)} failing run(s)"
                 + ("; the bounded space is covered" if self.complete else "")
                 + (f"; stopped: {self.stopped}" if self.stopped else "")]
        if self.replayed:
            still = sum(f.stored for f in self.failures)
            lines.append(f"  replayed {self.replayed} stored failure(s) first: {still} still "
                         "fail")
        if self.races:
            lines.append(f"  race detector on every run: {len(self.findings)} distinct "
                         "finding(s)" + "".join(
                             f"\n    run {i}: {f.render().splitlines()[0]}"
                             for f, i in zip(self.findings, self.finding_runs)))
        for outcome, n in self.outcomes.items():
            mark = "FAIL" if outcome in self.failing_outcomes else "ok"
            lines.append(f"  {mark:4} {outcome[:60]:60} x{n}")
        return "\n".join(lines)


# --------------------------------------------------------------------------------- running
def setup_bindings(kernel: Any, bindings: Any, sized: bool = True) -> dict[str, Any]:
    """What ``setup()`` returned, checked (a copy): a mapping of the bindings, holding
    ``width`` and ``height`` for a fragment shader when ``sized``; else a BindingError."""
    if not isinstance(bindings, Mapping):
        raise BindingError(
            f"setup() must return a dict of the bindings (resources by name, and dispatch "
            f"options such as workgroups=), got a {type(bindings).__name__}: e.g. "
            "return {'workgroups': 1, 'out': np.zeros(64, np.float32)}")
    missing = [k for k in ("width", "height") if k not in bindings]
    if sized and missing and getattr(kernel, "stage", None) == "fragment":
        raise BindingError(
            f"setup() for a fragment shader must return width= and height= (the size of the "
            f"grid it shades) among the bindings; it has no {' and no '.join(missing)}: e.g. "
            "return {'width': 8, 'height': 8}")
    return dict(bindings)


def dispatch_once(kernel: Any, bindings: dict[str, Any], schedule: Any,
                  instruments: list | tuple = (), sanitize: str = "off", **options: Any) -> Any:
    """One synchronous dispatch of a compute kernel or fragment shader with ``bindings`` (what
    ``setup()`` returned: resources plus dispatch options such as ``workgroups``, or ``width``
    and ``height`` for a fragment shader).

    The race detector is off here unless ``sanitize`` (or ``setup()``) turns it on: for the
    accesses a run executes its findings do not depend on the schedule, so a kernel whose
    control flow does not depend on the schedule needs one ordinary dispatch (where it is on
    by default); ``explore(races=True)`` turns it on for kernels whose control flow does
    (a branch on an atomic's result)."""
    from ..stages.compute import run
    from ..stages.fragment import run_fragments

    kw = setup_bindings(kernel, bindings)
    for name, value in {"sanitize": sanitize, **options}.items():
        kw.setdefault(name, value)  # what setup() returns wins
    if getattr(kernel, "stage", None) == "fragment":
        width, height = kw.pop("width"), kw.pop("height")
        return run_fragments(kernel, width, height, schedule=schedule,
                             instruments=instruments, **kw)
    return run(kernel, schedule=schedule, instruments=instruments, **kw)


def outcome_hash(result: Any) -> str:
    """A short hash of a run's outputs (storage buffers and fragment outputs, by name)."""
    h = hashlib.sha256()
    for name, value in sorted(result.outputs.items()):
        arr = np.ascontiguousarray(np.asarray(value))
        h.update(f"{name}:{arr.dtype.str}:{arr.shape}:".encode())
        h.update(arr.tobytes())
    return h.hexdigest()[:12]


def _describe_error(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".strip()


#: errors a run of the kernel can end with (outcomes); strategy bugs and usage errors propagate
_KERNEL_ERRORS = (ShaderError, DivergenceError, StepLimitError, ForeignAwaitError, DataRaceError)


def _run_checked(kernel: Any, setup: Callable, check: Callable | None, schedule: Strategy,
                 instruments: list, sanitize: str = "off", **options: Any
                 ) -> tuple[Any, str, str | None, BaseException | None]:
    """(result or None, outcome, failure text or None, exception)."""
    try:
        result = dispatch_once(kernel, setup(), schedule, instruments, sanitize, **options)
    except _SleepBlocked:
        raise
    except ReplayMismatchError:
        raise
    except DeterminismError:
        raise
    except _KERNEL_ERRORS as exc:  # what the kernel did; anything else is a bug or a misuse
        return None, f"error: {type(exc).__name__}", _describe_error(exc), exc
    outcome = outcome_hash(result)
    if check is not None:
        try:
            verdict = check(result)
        except Exception as exc:
            return result, outcome, f"check failed: {_describe_error(exc)}", exc
        if check_failed(verdict, check):
            return result, outcome, "check returned False", None
    return result, outcome, None, None


@dataclass
class RunSpec:
    """What every run of one exploration shares; a parallel exploration sends it to each
    worker (:mod:`asyncshader.exploration.parallel`), so an option that every run takes is one
    more entry in ``options``."""

    kernel: Any
    setup: Callable[[], dict[str, Any]]
    check: Callable[[Any], Any] | None = None
    races: bool = False
    recheck: float = 0.0
    #: keyword options of every run's dispatch (:func:`dispatch_once`)
    options: dict[str, Any] = field(default_factory=dict)
    #: ``explore(subgroup_sizes=...)``: run ``i`` dispatches with ``sizes[i % len(sizes)]``
    subgroup_sizes: tuple[int, ...] | None = None
    #: called with each failure as a run finds it, here (the failure store's saver); a
    #: worker's runs have none: their failures are passed to it when their part comes back
    on_failure: Callable[[Failure], None] | None = None

    def run_options(self, i: int) -> dict[str, Any]:
        """The dispatch options of run ``i``."""
        if self.subgroup_sizes is None:
            return self.options
        return {**self.options, "subgroup_size": self.size_of(i)}

    def size_of(self, i: int) -> int | None:
        """The subgroup size of run ``i`` (None: the dispatch's own)."""
        sizes = self.subgroup_sizes
        return sizes[i % len(sizes)] if sizes else None


#: the runs that measure PCT's decisions per run (``PCT(steps=None)``): run ``i`` below this
#: uses the largest decision count of the runs before it, every later run the largest count of
#: these first runs; so no run's schedule depends on runs another worker does, and
#: ``explore(workers=N)`` gives the serial report
MEASURED_RUNS = 16


def family(strategy: Any) -> tuple[Callable[[int, int | None], Strategy], dict[str, Any]]:
    """``(make, description)``: ``make(run_index, measured_decisions)`` -> the strategy of that
    run, and the report's description of the whole family. A list or tuple of strategies is a
    *portfolio*: run ``i`` is run ``i // m`` of member ``i % m`` (``m`` members), round robin."""
    if not isinstance(strategy, (list, tuple)):
        make = _family(strategy)
        return make, make(0, None).describe()
    if not strategy:
        raise option_error("strategy", strategy, "a Strategy, a strategy name, or a non-empty "
                           "list of them (a portfolio)")
    makes = []
    for member in strategy:
        make = _family(member)
        first = make(0, None)
        if isinstance(first, Exhaustive) or _single_schedule(first):
            raise option_error(
                "strategy", strategy, "a portfolio of strategies with seeds (Random, PCT, or "
                "your own)", hint=f"; {first!r} has a single schedule or a sequential search: "
                "explore it on its own")
        makes.append(make)
    m = len(makes)
    members = [make(0, None).describe() for make in makes]
    return (lambda i, k: makes[i % m](i // m, k)), {"name": "portfolio", "members": members}


def new_report(spec: RunSpec, description: dict[str, Any]) -> ExploreReport:
    """An empty report of ``spec``'s kernel under the strategy ``description``."""
    return ExploreReport(kernel=spec.kernel.identity["name"], strategy=description,
                         races=spec.races)


def _do_run(spec: RunSpec, report: ExploreReport, seen: set, i: int, strat: Strategy,
            again: Callable[[], Strategy], instruments: list, exhaustive: bool = False
            ) -> tuple[bool, Trace | None]:
    """Run ``i`` under ``strat``, added to ``report``: (whether it completed, its trace).
    ``again()`` makes the run's strategy anew (to retrace a run that raised, or recheck it)."""
    try:
        result, outcome, failure, exc = _run_checked(spec.kernel, spec.setup, spec.check, strat,
                                                     instruments, **spec.run_options(i))
        if spec.races and failure is None and result is not None:
            failure, exc = _detector_failure(result.findings)
    except _SleepBlocked:
        return False, None
    report.runs += 1
    trace = result.trace if result is not None else None
    if trace is None:
        trace = getattr(exc, "asyncshader_trace", None) or _retrace(spec, again(), i)
    report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
    if spec.races and result is not None:
        _gather_findings(report, seen, result.findings, i)
    report.examples.setdefault(outcome, i)
    if failure is not None:
        if spec.subgroup_sizes is not None:
            failure += f" (subgroup_size={spec.size_of(i)})"
        report.failing_outcomes.add(outcome)
        report.failures.append(Failure(i, failure, trace, exc))
        if spec.on_failure is not None:
            spec.on_failure(report.failures[-1])
    if spec.recheck and trace is not None and _rechecked(report.strategy, i, spec.recheck):
        _recheck(spec, again(), trace, outcome, i, exhaustive)
        report.rechecked += 1
    return True, trace


def _rechecked(strategy: dict[str, Any], i: int, share: float) -> bool:
    """Whether run ``i`` is rechecked: a draw of its own (the same in every worker)."""
    return _random.Random(f"recheck:{strategy}:{i}").random() < share


def explore_runs(spec: RunSpec, strategy: Any, start: int, stop: int, *,
                 measured: int | None = None, stop_on_failure: bool = True,
                 deadline: float | None = None, progress: Callable[[int], None] | None = None,
                 halt: Callable[[int], bool] | None = None) -> tuple[ExploreReport, int | None]:
    """Runs ``start`` to ``stop - 1`` of a family of seeded strategies (Random, PCT, a
    portfolio, a strategy of your own): ``(report, measured decisions)``. The unit of work of
    :func:`~asyncshader.explore`, serial or parallel: run ``i`` gives the same outcome whoever
    runs it. ``measured`` is PCT's decision count from the runs before ``start``; stops at a
    failure (``stop_on_failure``), past ``deadline`` (``time.time()``), or when ``halt(i)``
    says so after run ``i``; ``progress(runs done)`` after each run."""
    make, description = family(strategy)
    report = new_report(spec, description)
    seen: set = set()
    try:
        for i in range(start, stop):
            made_with = measured  # run i's strategy is make(i, made_with), for reruns too
            _, trace = _do_run(spec, report, seen, i, make(i, made_with),
                               functools.partial(make, i, made_with), [])
            if trace is not None and i < MEASURED_RUNS:
                measured = max(measured or 0, trace.decision_count)
            if progress is not None:
                progress(report.runs)
            if stop_on_failure and report.failures:
                report.stopped = "failure found"
                break
            if deadline is not None and time.time() > deadline:
                report.stopped = "time budget spent"
                break
            if halt is not None and halt(i):
                report.stopped = "halted"
                break
    except KeyboardInterrupt as exc:  # Ctrl-C: the runs before it are kept
        raise stopped_with(exc, report, start + report.runs, measured) from None
    return report, measured


def explore_search(spec: RunSpec, strategy: Any, runs: int, *, stop_on_failure: bool = True,
                   deadline: float | None = None,
                   progress: Callable[[int, int], None] | None = None) -> ExploreReport:
    """An exploration with a single schedule (InOrder, Reverse, Replay) or an exhaustive search
    (its runs depend on the ones before: it runs in one process)."""
    make = _family(strategy)
    template = make(0, None)
    exhaustive = template if isinstance(template, Exhaustive) else None
    report = new_report(spec, template.describe())
    limit = runs if exhaustive is not None else len(spec.subgroup_sizes or (None,))
    try:
        _search(spec, report, make, exhaustive, runs, limit, stop_on_failure, deadline,
                progress)
    except KeyboardInterrupt as exc:  # Ctrl-C: the runs before it are kept
        raise stopped_with(exc, report, None) from None
    if exhaustive is not None:
        report.pruned = exhaustive.pruned
        report.complete = exhaustive.exhausted
    else:
        report.complete = True
    return report


def _search(spec: RunSpec, report: ExploreReport, make: Callable, exhaustive: Any, runs: int,
            limit: int, stop_on_failure: bool, deadline: float | None,
            progress: Callable[[int, int], None] | None) -> None:
    """The runs of :func:`explore_search`, added to ``report``."""
    seen: set = set()
    i = 0
    while i < limit:
        instruments: list = [Footprints()] if exhaustive is not None else []
        completed, _ = _do_run(spec, report, seen, i, make(i, None),
                               functools.partial(make, i, None), instruments,
                               exhaustive is not None)
        if exhaustive is not None:
            exhaustive.advance(completed)
        if progress is not None:
            progress(report.runs, limit)
        i += 1
        if exhaustive is not None:
            if exhaustive.exhausted:
                break
            limit = runs + exhaustive.pruned  # cut-short runs do not count
        if failure_stop(report, stop_on_failure):
            report.stopped = "failure found"
            break
        if deadline is not None and time.time() > deadline:
            report.stopped = "time budget spent"
            break
    else:
        if exhaustive is not None:
            report.stopped = f"{runs} runs done"


def stopped_with(exc: BaseException, report: ExploreReport, done: int | None,
                 measured: int | None = None) -> BaseException:
    """``exc`` (Ctrl-C, or workers that died), given what the runs before it found: ``report``,
    and ``done``: runs 0 to ``done - 1`` all finished (None: the runs do not resume by index,
    as an exhaustive search's); ``measured``: PCT's decision count, once measured.
    :func:`~asyncshader.explore` reads them (:mod:`.faults`)."""
    exc.asyncshader_report = report  # type: ignore[attr-defined]
    exc.asyncshader_done = done  # type: ignore[attr-defined]
    exc.asyncshader_measured = measured  # type: ignore[attr-defined]
    return exc


def check_target(kernel: Any, setup: Any, check: Any) -> None:
    """The kernel, ``setup`` and ``check`` of :func:`explore` and :func:`shrink`."""
    if getattr(kernel, "stage", None) not in ("compute", "fragment"):
        raise option_error("kernel", kernel, "a @compute kernel or a @fragment shader",
                           hint="; decorate the async def with @asyncshader.compute(...) or "
                           "@asyncshader.fragment" if callable(kernel) else "")
    check_callable("setup", setup, expected="a function returning fresh bindings, "
                   "setup() -> dict")
    check_callable("check", check, none_ok=True,
                   expected="a function check(result) that raises or returns False")


def _detector_failure(findings: list) -> tuple[str | None, BaseException | None]:
    """A run whose race detector found bugs on this schedule's path fails (notes do not)."""
    found = errors_of(findings)
    if not found:
        return None, None
    text = render_findings(found)
    return f"race detector: {text.splitlines()[0]}", DataRaceError(text, found)


def _gather_findings(report: ExploreReport, seen: set, findings: list, run: int) -> None:
    """Adds the run's error-level findings that no earlier run had to the report."""
    for f in errors_of(findings):
        key = _finding_key(f)
        if key not in seen:
            seen.add(key)
            report.findings.append(f)
            report.finding_runs.append(run)


def _finding_key(f: Any) -> tuple:
    """What makes two runs' findings the same: the kind, the memory, and the source lines."""
    if hasattr(f, "race"):
        return ("race", f.race, f.memory, tuple(sorted(
            [(f.first.file, f.first.line), (f.second.file, f.second.line)])))
    access = getattr(f, "access", None)
    return (type(f).__name__, getattr(f, "memory", ""),
            (access.file, access.line) if access is not None else None)


def failure_stop(report: ExploreReport, stop_on_failure: bool) -> bool:
    return stop_on_failure and bool(report.failures)


def _retrace(spec: RunSpec, strategy: Strategy, i: int) -> Trace | None:
    """Re-runs run ``i``, which raised, under a recording wrapper, to get its complete
    trace."""
    rec = Recorded(strategy)
    try:
        dispatch_once(spec.kernel, spec.setup(), rec, **spec.run_options(i))
    except Exception:
        pass
    return rec.trace()


def _recheck(spec: RunSpec, strategy: Strategy, trace: Trace, outcome: str, index: int,
             exhaustive: bool) -> None:
    # rerun the strategy itself (a fresh instance, same seed): replaying the trace would force
    # the same decisions and could not notice a strategy that is not deterministic; an
    # exhaustive search's runs depend on the ones before, so those are replayed
    again = Replay(trace) if exhaustive else strategy
    rec = Recorded(again)
    result, outcome2, _, _ = _run_checked(spec.kernel, spec.setup, spec.check, rec, [],
                                          **spec.run_options(index))
    trace2 = result.trace if result is not None else rec.trace()
    if trace2 is None or trace2.digest() != trace.digest() or outcome2 != outcome:
        raise DeterminismError(
            f"determinism self-check failed on run {index}: the same schedule gave "
            f"trace {trace2.digest() if trace2 else '?'} and outcome {outcome2} the second "
            f"time, {trace.digest()} and {outcome} the first. Something outside the scheduler "
            "leaks into the kernel: setup() must return fresh bindings, and the kernel must not "
            "read the clock, id(), set order, randomness or shared Python state.")
