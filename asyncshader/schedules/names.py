"""The strategies by name, and what a dispatch's ``schedule=`` accepts.

One table (:data:`STRATEGY_NAMES`) serves ``schedule="random"``, ``explore(strategy="pct")``,
the command line's ``--strategy`` and :func:`strategy_from_name`, so that every place takes
the same names. :func:`as_strategy` turns a ``schedule=`` value into the strategy object of one
dispatch (:meth:`~asyncshader.Strategy.for_run`).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from typing import Any

from .._core.validation import check_int, option_error
from ..errors import OptionError, TraceError
from .exhaustive import Exhaustive
from .strategies import DEFAULT_SCHEDULE, PCT, InOrder, Random, Replay, Reverse, Strategy
from .trace import _STRING_RE, Trace

__all__ = ["BACK_ENDS", "STRATEGY_NAMES", "as_strategy", "dispatcher", "normalize_name",
           "strategy_from_name"]

#: name -> (maker(seed, depth, max_preemptions), what it does); in the order docs list them
STRATEGY_NAMES: dict[str, tuple[Callable[[int, int, int], Strategy], str]] = {
    "random": (lambda seed, depth, mp: Random(seed), "a uniformly random pick, from seed"),
    "pct": (lambda seed, depth, mp: PCT(seed, depth),
            "probabilistic concurrency testing, from seed, with depth"),
    "exhaustive": (lambda seed, depth, mp: Exhaustive(mp),
                   "every schedule within max_preemptions (through explore)"),
    "in_order": (lambda seed, depth, mp: InOrder(),
                 "the lowest runnable invocation first (the default)"),
    "reverse": (lambda seed, depth, mp: Reverse(), "the highest runnable invocation first"),
}
#: the schedules that run a dispatch themselves (they have ``run_dispatch``: ``ash.Lockstep``),
#: by the strategy name their traces record: name -> ``make(trace)``, the schedule that replays
#: such a trace. Filled by the back-end's package when it is imported (``import asyncshader``
#: imports every one): the trace is data, and the back-end sits in a layer above this one.
BACK_ENDS: dict[str, Callable[[Trace], Any]] = {}
#: other spellings of the names
_ALIASES = {"inorder": "in_order"}


def normalize_name(name: str) -> str | None:
    """The table's name for ``name`` (any case, ``-`` for ``_``), or None if it is none."""
    key = name.strip().lower().replace("-", "_")
    key = _ALIASES.get(key, key)
    return key if key in STRATEGY_NAMES else None


def _names() -> str:
    *rest, last = STRATEGY_NAMES
    return f"{', '.join(rest)} or {last}"


def strategy_from_name(name: str, seed: int = 0, depth: int = 3,
                       max_preemptions: int = 2) -> Strategy:
    """``"random"``, ``"pct"``, ``"exhaustive"``, ``"in_order"`` or ``"reverse"`` as a strategy
    (the names ``schedule=``, :func:`~asyncshader.explore`, the CLI and the pytest marker
    take). ``seed`` goes to Random and PCT, ``depth`` to PCT, ``max_preemptions`` to
    Exhaustive."""
    if not isinstance(name, str):
        raise option_error("strategy", name, f"a strategy name ({_names()})")
    key = normalize_name(name)
    if key is None:
        _refuse_back_end_name(name, "strategy")
        close = difflib.get_close_matches(name.lower(), list(STRATEGY_NAMES), n=1)
        raise OptionError(f"unknown strategy {name!r}: use {_names()}"
                          + (f" (did you mean {close[0]!r}?)" if close else ""))
    check_int("max_preemptions", max_preemptions, 0)
    return STRATEGY_NAMES[key][0](seed, depth, max_preemptions)


def as_strategy(schedule: Any) -> Strategy:
    """The strategy object of one dispatch (:meth:`~asyncshader.Strategy.for_run`, so the
    object given is never changed by the run) from what ``schedule=`` takes: a Strategy, None
    (InOrder, or what :data:`~asyncshader.schedules.strategies.DEFAULT_SCHEDULE` supplies), a
    strategy name (:data:`STRATEGY_NAMES`), a Trace, a trace string, JSON text or the path of a
    trace file (all replayed)."""
    if schedule is None:
        provider = DEFAULT_SCHEDULE.get()
        schedule = InOrder() if provider is None else provider()
    inner = schedule
    while inner is not None:  # (a Replay, or one inside a recording or shrinking wrapper)
        if isinstance(inner, Replay):
            _refuse_back_end(inner.trace)
        inner = getattr(inner, "inner", None)
    if isinstance(schedule, Strategy):
        return schedule.for_run()
    if isinstance(schedule, str) and normalize_name(schedule) is not None:
        return strategy_from_name(schedule)
    if isinstance(schedule, str) and not _looks_like_a_trace(schedule):
        _refuse_back_end_name(schedule, "schedule")
        close = difflib.get_close_matches(schedule.strip().lower(), list(STRATEGY_NAMES), n=1)
        raise option_error(
            "schedule", schedule, f"a strategy name ({_names()}), a Strategy, a Trace, a "
            "trace string (ash1:...), JSON text or the path of an existing trace file",
            hint=f"; did you mean {close[0]!r}?" if close else
            "; no file of that name exists")
    if isinstance(schedule, (Trace, str, os.PathLike)):
        replay = Replay(schedule)
        _refuse_back_end(replay.trace)
        return replay
    if hasattr(schedule, "run_dispatch"):  # (Lockstep: it runs whole dispatches itself)
        raise option_error("schedule", schedule, "a Strategy here: this schedule runs whole "
                           "dispatches itself (ash.run, ash.dispatch, ash.run_fragments, "
                           "ash.dispatch_fragments), not step by step", hint="")
    if isinstance(schedule, type) and issubclass(schedule, Strategy):
        raise option_error("schedule", schedule, "a Strategy instance, not a class",
                           hint=f"; pass an instance, e.g. schedule={schedule.__name__}()")
    raise option_error("schedule", schedule, "a Strategy (InOrder(), Random(seed), "
                       f"Replay(trace)), a strategy name ({_names()}), a Trace, a trace "
                       "string or the path of a trace file", hint="")


def _refuse_back_end_name(name: str, option: str) -> None:
    """A back-end named where a strategy name is taken: it is an object, not a name."""
    if name.strip().lower() in BACK_ENDS:
        raise OptionError(f"{option}={name!r}: Lockstep is not a strategy of the coroutine "
                          f"scheduler but a schedule object that runs the dispatch itself: "
                          f"pass {option}=ash.Lockstep()")


def _refuse_back_end(trace: Trace) -> None:
    """A back-end's trace reaching the coroutine scheduler: it holds none of its decisions."""
    name = trace.strategy.get("name")
    if name == "lockstep":
        where = ("this run is the coroutine scheduler's (a tool that steps, shrinks or "
                 "draws a schedule takes coroutine schedules only)" if name in BACK_ENDS
                 else "asyncshader.lockstep is not imported here: import asyncshader (or "
                 "asyncshader.lockstep) before replaying it")
        raise TraceError(f"this trace is a Lockstep run's: Lockstep replays it, with "
                         f"schedule=<the trace> in ash.run, ash.dispatch or "
                         f"ash.run_fragments (it holds no decisions of the coroutine "
                         f"scheduler), and {where}")


def dispatcher(schedule: Any) -> Any:
    """What ``schedule=`` of a dispatch names, before :func:`as_strategy`: for None, the
    schedule the default provider supplies (the pytest plugin's; None without one); for a trace
    a back-end recorded (:data:`BACK_ENDS`: a Lockstep run's), given as a Trace, a ``Replay``,
    a trace string, JSON text or a file, the back-end that replays it; else ``schedule``
    itself. The dispatch hands itself to the result when it has ``run_dispatch``."""
    if schedule is None:
        provider = DEFAULT_SCHEDULE.get()
        return None if provider is None else provider()
    if isinstance(schedule, Replay):
        trace = schedule.trace
    elif isinstance(schedule, Trace):
        trace = schedule
    elif isinstance(schedule, os.PathLike) or (
            isinstance(schedule, str) and normalize_name(schedule) is None
            and _looks_like_a_trace(schedule)):
        trace = Trace.load(schedule)
        schedule = Replay(trace)  # (loaded once: as_strategy takes the Replay as it is)
    else:
        return schedule
    make = BACK_ENDS.get(trace.strategy.get("name"))
    return schedule if make is None else make(trace)


def _looks_like_a_trace(text: str) -> bool:
    """Text that can only be meant as a trace: JSON, a trace string (even a damaged one), the
    path of an existing file, or text that looks like a path (which the trace reader then
    reports missing)."""
    stripped = text.strip()
    return (stripped[:1] in ("{", "[") or stripped.startswith("ash")
            or bool(_STRING_RE.match(stripped)) or os.path.exists(text)
            or os.sep in text or "/" in text or stripped.lower().endswith(".json"))
