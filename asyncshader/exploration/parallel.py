"""Parallel exploration: the runs of :func:`~asyncshader.explore` on every core, or a cluster.

The unit of work is a :class:`Task`: (references to the kernel, ``setup`` and ``check``, the
strategy, a range of run indices, and the decision count PCT measured). Run ``i`` uses the
strategy's schedule ``i`` whoever runs it, so the chunks' reports merge, in the order of their
ranges, into the report a serial exploration gives: the same counts, outcomes, and first
failure with its trace, whatever the number of workers or their timing.

Workers find the kernel, ``setup`` and ``check`` by module and qualified name (or by file, for
a script's ``__main__``): they must be defined at module level. A kernel loaded from WGSL
travels as its source text and entry point, loaded once in each worker. Any
``concurrent.futures.Executor`` runs the tasks: by default a process pool of this machine's
cores (kept for the next exploration), or ``distributed.Client(...).get_executor()`` for a Dask
cluster, or Ray's executor.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import importlib
import importlib.util
import itertools
import math
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .._core import watchdog
from ..errors import ExplorationBrokenError, OptionError
from .runs import (
    MEASURED_RUNS,
    ExploreReport,
    RunSpec,
    _finding_key,
    explore_runs,
    new_report,
    stopped_with,
)

__all__ = ["Recipe", "Ref", "Task", "available_cores", "end_with_parent", "explore_seeded", "merge",
           "reference", "run_task"]

#: a chunk of runs takes about this long in a worker: long enough that the cost of a task
#: (pickling, a round trip to the worker) is a few per cent, short enough that a failure stops
#: the others soon and the cores share the work evenly
CHUNK_SECONDS = 0.25
#: explore(workers=None) goes parallel when the runs left after the first ones are expected to
#: take longer than this on one core (the break-even measured in benchmarks/explore_parallel.py
#: is below a second once the pool is started; the first exploration also starts the pool)
AUTO_PARALLEL_SECONDS = 2.0


# ------------------------------------------------------------------------------ references
class Recipe:
    """What a task carries in place of an object: picklable, and :meth:`resolve` gives the
    object in the worker. An object that neither imports by name nor pickles (a kernel
    generated from WGSL text) offers its own as ``obj.__asyncshader_recipe__``."""

    def resolve(self) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Ref(Recipe):
    """How a worker finds a module-level function or kernel: its module, qualified name, and
    file (to load it from when the module cannot be imported there, e.g. a script's
    ``__main__``)."""

    module: str
    qualname: str
    file: str | None = None

    def resolve(self) -> Any:
        """The object, in this process (imported once, then remembered). Thread-safe: a
        worker with several threads (Dask's) resolves a reference in one thread at a time, so
        that no thread sees a kernel file another one is still executing."""
        found = _RESOLVED.get(self)
        if found is None:
            with _RESOLVING:
                found = _RESOLVED.get(self)
                if found is None:
                    found = _RESOLVED[self] = self._find()
        return found

    def _find(self) -> Any:
        try:
            return _lookup(importlib.import_module(self.module), self.qualname)
        except (ImportError, AttributeError):
            if not self.file or not os.path.exists(self.file):
                raise
        name = (os.path.splitext(os.path.basename(self.file))[0] if self.module == "__main__"
                else self.module)
        module = sys.modules.get(name)
        if module is None or getattr(module, "__file__", None) != self.file:
            spec = importlib.util.spec_from_file_location(name, self.file)
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            sys.modules[name] = module
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        return _lookup(module, self.qualname)


_RESOLVED: dict[Ref, Any] = {}
#: held while a reference is resolved: a file is loaded by one thread, whole, before any other
#: thread looks it up (reentrant: the file may itself resolve references when it runs)
_RESOLVING = threading.RLock()


def _lookup(module: Any, qualname: str) -> Any:
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def reference(obj: Any, role: str, workers: str) -> Any:
    """What a task carries for ``obj`` (``role``: "kernel", "setup" or "check"): the object's
    own :class:`Recipe` when it offers one (a kernel loaded from WGSL: by its source text), a
    :class:`Ref` when the object is found again by module and qualified name, else the object
    itself when it pickles (``functools.partial`` of such functions, an instance of a
    module-level class), else an :class:`~asyncshader.OptionError` that says where the object
    is and how to fix it.
    ``workers`` says what runs the tasks, for the message."""
    if obj is None:
        return None
    recipe = getattr(obj, "__asyncshader_recipe__", None)
    if isinstance(recipe, Recipe):
        return recipe
    target = getattr(obj, "fn", obj) if role == "kernel" else obj
    module = getattr(target, "__module__", None)
    qualname = getattr(target, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and "<" not in qualname:
        try:
            found = _lookup(sys.modules[module], qualname)
        except (KeyError, AttributeError):
            found = None
        if found is obj:
            code = getattr(target, "__code__", None)
            return Ref(module, qualname, code.co_filename if code is not None else None)
    if role != "kernel":
        try:
            pickle.dumps(obj)
            return obj
        except Exception:
            pass
    raise OptionError(_not_importable(obj, target, role, workers))


def _not_importable(obj: Any, target: Any, role: str, workers: str) -> str:
    code = getattr(target, "__code__", None)
    where = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    name = getattr(target, "__qualname__", None) or repr(obj)
    why = ("is a lambda" if name.endswith("<lambda>") else
           "is defined inside a function" if "<locals>" in name else
           "cannot be found by its module and name, nor pickled")
    return (f"explore({workers}) runs {role} in other processes, which import it by module "
            f"and name: {name}{where} {why}, so they cannot. Define it at module level "
            f"(`def {role}(...)` in an importable file), or pass workers=1 to explore in this "
            "process")


# ----------------------------------------------------------------------------------- tasks
@dataclass
class Task:
    """Runs ``start`` to ``stop - 1`` of an exploration, in a worker."""

    kernel: Any  # a Ref (or the object, for an executor that shares this process)
    setup: Any
    check: Any
    strategy: Any
    start: int
    stop: int
    measured: int | None
    races: bool
    recheck: float
    options: dict[str, Any]
    subgroup_sizes: tuple[int, ...] | None
    stop_on_failure: bool
    deadline: float | None  # time.time() after which the task stops
    call: int  # which exploration (for the halt flag of the process pool)


def run_task(task: Task) -> ExploreReport:
    """A worker's part: the task's runs, as a report whose failures carry what pickles."""
    spec = RunSpec(_resolved(task.kernel), _resolved(task.setup), _resolved(task.check),
                   task.races, task.recheck, dict(task.options), task.subgroup_sizes)
    report, _ = explore_runs(spec, task.strategy, task.start, task.stop,
                             measured=task.measured, stop_on_failure=task.stop_on_failure,
                             deadline=task.deadline, halt=_halter(task.call))
    report.failures = [replace(f, exception=_picklable(f.exception)) for f in report.failures]
    return report


def _resolved(obj: Any) -> Any:
    return obj.resolve() if isinstance(obj, Recipe) else obj


def _picklable(exc: BaseException | None) -> Any:
    """``exc``, or what rebuilds it in the parent when it does not pickle as it is (an
    exception class whose ``__init__`` takes other arguments than its ``args``): its class,
    ``args`` and the attributes that pickle. None if not even that pickles."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        pass
    state = {}
    for name, value in vars(exc).items():
        try:
            pickle.dumps(value)
        except Exception:
            continue
        state[name] = value
    rebuilt = _Rebuilt(type(exc), exc.args, state)  # type: ignore[union-attr]
    try:
        pickle.loads(pickle.dumps(rebuilt))
    except Exception:
        return None
    return rebuilt


@dataclass
class _Rebuilt:
    """An exception sent from a worker as its class, ``args`` and attributes."""

    cls: type
    args: tuple
    state: dict[str, Any]

    def build(self) -> BaseException:
        exc = self.cls.__new__(self.cls)
        exc.args = self.args
        exc.__dict__.update(self.state)
        return exc


def _received(part: ExploreReport) -> ExploreReport:
    """A worker's report, its failures' exceptions rebuilt."""
    for f in part.failures:
        if isinstance(f.exception, _Rebuilt):
            f.exception = f.exception.build()
    return part


# ---- the halt flag of this package's process pool: (exploration, lowest failing run)
_HALT: Any = None


def _init_worker(flag: Any, parent: int) -> None:
    global _HALT
    _HALT = flag
    end_with_parent(parent)
    # Ctrl-C in a terminal reaches every process of its group: the exploring process handles
    # it (it halts the workers through the flag and keeps what they found); a worker killed
    # by it would break the pool and lose its runs
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a forked worker has only the thread that forked: the watchdog's thread is gone (and its
    # lock may have been held by it), so the watchdog starts afresh here when a run needs it
    watchdog._lock = threading.Lock()
    watchdog._watches.clear()
    watchdog._fired.clear()
    watchdog._sampler = None


#: prctl(2)'s option that asks the kernel to signal this process when its parent ends
PR_SET_PDEATHSIG = 1
#: how often a worker without prctl looks whether its parent is still there (seconds)
PARENT_LOOK = 1.0


def end_with_parent(parent: int) -> None:
    """Makes this worker process end when ``parent`` (the process that explores) ends, however
    it ends (SIGTERM, SIGKILL, a crash): otherwise it would wait forever for tasks, holding its
    memory. On Linux the kernel sends SIGKILL on the parent's death (``prctl``
    ``PR_SET_PDEATHSIG``); elsewhere a daemon thread checks ``os.getppid()`` every second."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):  # no libc with prctl: watch instead
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="asyncshader-parent-watch").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:  # (an orphan's parent becomes another process)
        time.sleep(PARENT_LOOK)
    os._exit(1)


def _halter(call: int) -> Callable[[int], bool] | None:
    flag = _HALT
    if flag is None:
        return None
    return lambda i: flag[0] == call and i >= flag[1]


# ------------------------------------------------------------------------------------ pool
_CALLS = itertools.count(1)


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _pool(workers: int) -> tuple[cf.ProcessPoolExecutor, Any]:
    """A process pool of ``workers`` processes for one exploration, with its halt flag:
    forked when no thread but asyncshader's watchdog runs (a few milliseconds, and the
    workers see the modules as they are now, patches included), else spawned."""
    method = "fork" if sys.platform == "linux" and _only_our_threads() else "spawn"
    ctx = multiprocessing.get_context(method)
    flag = ctx.RawArray("q", 2)
    return cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker,
                                  initargs=(flag, os.getpid())), flag


def _only_our_threads() -> bool:
    """Whether forking is safe: no thread but this one and asyncshader's watchdog (which the
    worker resets) could hold a lock the child would inherit locked."""
    me = threading.current_thread()
    return all(t is me or t.name == "asyncshader-watchdog" for t in threading.enumerate())


# ---------------------------------------------------------------------------------- merging
def merge(total: ExploreReport, part: ExploreReport, seen: set) -> None:
    """Adds ``part`` (the runs after those of ``total``) to ``total``; ``seen`` holds the keys
    of ``total``'s findings. Merging the chunks in the order of their ranges gives the report
    of one serial exploration."""
    total.runs += part.runs
    for outcome, n in part.outcomes.items():
        total.outcomes[outcome] = total.outcomes.get(outcome, 0) + n
    for outcome, run in part.examples.items():
        total.examples.setdefault(outcome, run)
    total.failing_outcomes |= part.failing_outcomes
    total.failures.extend(part.failures)
    total.rechecked += part.rechecked
    for finding, run in zip(part.findings, part.finding_runs):
        key = _finding_key(finding)
        if key not in seen:
            seen.add(key)
            total.findings.append(finding)
            total.finding_runs.append(run)


# -------------------------------------------------------------------------------- exploring
def explore_seeded(spec: RunSpec, strategy: Any, runs: int, *, workers: int | None,
                   executor: cf.Executor | None, stop_on_failure: bool,
                   deadline: float | None, progress: Callable[[int, int], None] | None
                   ) -> ExploreReport:
    """Runs 0 to ``runs - 1`` of a seeded family: the first ones here (they measure PCT's
    decisions and the time a run takes), the rest here or in parallel (``workers``: None
    decides by the time the rest will take)."""
    if executor is not None or (workers or 1) > 1:
        _references(spec, f"workers={workers}" if executor is None else "executor=...")
    first = min(runs, MEASURED_RUNS)
    started = time.perf_counter()
    report, measured = explore_runs(spec, strategy, 0, first, stop_on_failure=stop_on_failure,
                                    deadline=deadline, progress=_shifted(progress, 0, runs))
    per_run = (time.perf_counter() - started) / max(report.runs, 1)
    if report.stopped or first == runs:
        report.stopped = report.stopped or f"{runs} runs done"
        return report
    left = runs - first
    if executor is None and workers is None:
        cores = available_cores()
        workers = cores if cores > 1 and per_run * left > AUTO_PARALLEL_SECONDS else 1
        if workers > 1 and not _importable(spec):
            workers = 1  # the default never fails for a kernel it cannot send: it stays here
    try:
        if executor is None and workers == 1:
            rest, _ = explore_runs(spec, strategy, first, runs, measured=measured,
                                   stop_on_failure=stop_on_failure, deadline=deadline,
                                   progress=_shifted(progress, report.runs, runs))
        else:
            rest = _farm_out(spec, strategy, first, runs, measured, workers, executor,
                             stop_on_failure, deadline, per_run, progress, report.runs)
    except BaseException as exc:  # Ctrl-C or dead workers: the first runs' report joins theirs
        partial = getattr(exc, "asyncshader_report", None)
        if partial is not None:
            merge(report, partial, {_finding_key(f) for f in report.findings})
            stopped_with(exc, report, exc.asyncshader_done, measured)  # type: ignore[attr-defined]
        raise
    merge(report, rest, {_finding_key(f) for f in report.findings})
    report.stopped = rest.stopped or f"{runs} runs done"
    return report


def _shifted(progress: Callable[[int, int], None] | None, done: int, total: int
             ) -> Callable[[int], None] | None:
    if progress is None:
        return None
    return lambda n: progress(done + n, total)


def _executor_size(executor: cf.Executor) -> int:
    """How many tasks ``executor`` runs at once: a pool's size, a Dask cluster's threads
    (``Client.get_executor()``), else this machine's cores."""
    size = getattr(executor, "_max_workers", None)
    client = getattr(executor, "_client", None)
    if size is None and client is not None:
        try:
            size = sum(client.nthreads().values())
        except Exception:  # another kind of client
            size = None
    return max(1, int(size or available_cores()))


def _references(spec: RunSpec, shown: str) -> tuple[Any, Any, Any]:
    """What tasks carry for the kernel, ``setup`` and ``check`` (an OptionError if one cannot
    be sent; ``shown``: what runs the tasks, for the message)."""
    return tuple(reference(getattr(spec, role), role, shown)  # type: ignore[return-value]
                 for role in ("kernel", "setup", "check"))


def _importable(spec: RunSpec) -> bool:
    try:
        _references(spec, "")
    except OptionError:
        return False
    return True


def _farm_out(spec: RunSpec, strategy: Any, start: int, stop: int, measured: int | None,
              workers: int | None, executor: cf.Executor | None, stop_on_failure: bool,
              deadline: float | None, per_run: float,
              progress: Callable[[int, int], None] | None, done: int) -> ExploreReport:
    """Runs ``start`` to ``stop - 1`` as tasks on ``executor`` (or this package's pool of
    ``workers`` processes) and merges their reports in the order of their ranges."""
    shown = f"workers={workers}" if executor is None else "executor=..."
    flag = owned = None
    if executor is None:
        owned, flag = _pool(workers or available_cores())
        executor = owned
    call = next(_CALLS)
    if flag is not None:
        flag[0], flag[1] = call, stop
    n = workers or _executor_size(executor)
    chunk = max(1, min(math.ceil(CHUNK_SECONDS / max(per_run, 1e-6)),
                       math.ceil((stop - start) / (4 * n))))
    task = Task(*_references(spec, shown), strategy, 0, 0, measured, spec.races,
                spec.recheck, dict(spec.options), spec.subgroup_sizes, stop_on_failure, deadline,
                call)
    ranges = [(s, min(s + chunk, stop)) for s in range(start, stop, chunk)]
    parts: dict[int, ExploreReport] = {}
    pending: dict[cf.Future, int] = {}
    first_failure = stop  # the lowest failing run found so far
    next_range = 0
    try:
        while True:
            while (next_range < len(ranges) and len(pending) < 2 * n
                   and ranges[next_range][0] <= first_failure
                   and (deadline is None or time.time() < deadline)):
                s, e = ranges[next_range]
                pending[executor.submit(run_task, replace(task, start=s, stop=e))] = s
                next_range += 1
            if not pending:
                break
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                s = pending.pop(future)
                part = parts[s] = _received(future.result())
                done += part.runs
                if stop_on_failure and part.failures:
                    first_failure = min(first_failure, part.failures[0].run)
                    if flag is not None:
                        flag[1] = first_failure
                    for other, start_other in list(pending.items()):
                        if start_other > first_failure and other.cancel():
                            del pending[other]
                _arrived(spec, part, first_failure)
            if progress is not None:
                progress(done, stop)
    except BaseException as exc:
        if not isinstance(exc, KeyboardInterrupt) and not _lost_workers(exc):
            raise  # (a usage error raised by a run, as the serial exploration raises it)
        if flag is not None:
            flag[1] = -1  # every worker halts after the run it is in
        _shut(pending, owned)
        for future, s in pending.items():  # the parts that came back meanwhile
            if future.done() and not future.cancelled() and future.exception() is None:
                parts[s] = part = _received(future.result())
                _arrived(spec, part, first_failure)
        rest = _merged(spec, parts, first_failure)
        if isinstance(exc, KeyboardInterrupt):
            raise stopped_with(exc, rest, _finished(parts, ranges, start)) from None
        broken = ExplorationBrokenError(f"explore's workers died before finishing their runs: "
                                        f"{type(exc).__name__}: {exc}")
        raise stopped_with(broken, rest, _finished(parts, ranges, start)) from exc
    finally:
        _shut(pending, owned)
    rest = _merged(spec, parts, first_failure)
    if stop_on_failure and rest.failures:
        rest.stopped = "failure found"
    elif deadline is not None and time.time() >= deadline and rest.runs < stop - start:
        rest.stopped = "time budget spent"
    return rest


def _arrived(spec: RunSpec, part: ExploreReport, first_failure: int) -> None:
    """A worker's part came back: its failures go to the failure store now (those a serial
    exploration reaches: up to the first failure, when it stops at one)."""
    if spec.on_failure is not None:
        for f in part.failures:
            if f.run <= first_failure:
                spec.on_failure(f)


def _lost_workers(exc: BaseException) -> bool:
    """Whether ``exc`` says that workers died: a broken process pool, a Dask worker lost."""
    return isinstance(exc, cf.BrokenExecutor) or any(
        c.__name__ == "KilledWorker" for c in type(exc).__mro__)


def _shut(pending: dict[cf.Future, int], owned: cf.Executor | None) -> None:
    """Cancels the tasks not started; waits for this package's pool to end (its workers halt
    at the flag, or end their chunk)."""
    for future in pending:
        future.cancel()
    if owned is not None:
        owned.shutdown(wait=True, cancel_futures=True)


def _merged(spec: RunSpec, parts: dict[int, ExploreReport], first_failure: int
            ) -> ExploreReport:
    """The parts, merged in the order of their ranges, up to the first failure's (the serial
    exploration stops there)."""
    rest = new_report(spec, next(iter(parts.values())).strategy if parts else {})
    seen: set = set()
    for s in sorted(parts):
        if s > first_failure:
            break  # after the first failure: the serial exploration stops before
        part = parts[s]
        merge(rest, part, seen)
        if part.stopped and part.stopped != "halted":
            rest.stopped = part.stopped
    return rest


def _finished(parts: dict[int, ExploreReport], ranges: list[tuple[int, int]], start: int
              ) -> int:
    """The end of the runs all finished from ``start`` on: the parts that came back, in
    order, up to the first one missing or cut short."""
    length = dict(ranges)
    done = start
    for s in sorted(parts):
        if s != done:
            break
        done = s + parts[s].runs
        if done < length[s]:
            break
    return done
