"""Strategies: which runnable invocation advances next.

A :class:`Strategy` is asked only at *decisions*, points where more than one invocation is
runnable; ``pick(runnable)`` returns a position in ``runnable`` (sorted by dispatch order, so
position 0 is the lowest invocation). Strategies are small objects that plug into the scheduler
core without touching it: :class:`InOrder`, :class:`Random` and :class:`Replay` live here.

A strategy object is a reusable *description* (a kind and its seed, depth, trace): a dispatch
schedules with its own copy (:meth:`Strategy.for_run`), which holds that run's state, so one
object passed to dispatches running at once, or one after another, gives each the schedule it
gives alone.

Every run records its decisions in a :class:`Trace`: pairs (number of position-0 picks before,
invocation chosen). An in-order run therefore records nothing but a count. A trace saves to
versioned JSON with the kernel's identity (qualified name and source hash) and the dispatch
configuration, and :class:`Replay` reproduces the run from it, bit for bit.
"""

from __future__ import annotations

import bisect
import copy
import itertools
import operator
import os
import random as _random
import struct
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import numpy as np

from .._core.context import current_run
from .._core.validation import check_int, option_error
from ..errors import ReplayMismatchError
from .trace import Trace

#: who supplies the strategy of a dispatch made with ``schedule=None`` (the pytest plugin sets
#: it): a callable returning a fresh Strategy, or None for InOrder
DEFAULT_SCHEDULE: ContextVar[Callable[[], Any] | None] = ContextVar(
    "asyncshader_default_schedule", default=None)


class Strategy:
    """Base class of scheduling strategies.

    Subclasses implement :meth:`pick`; ``begin`` and ``end`` bracket a run. The object a user
    makes is a description: every dispatch calls :meth:`for_run` and schedules with what it
    returns (a copy), so the state ``begin`` sets up (draws, counters) belongs to that run
    alone, and dispatches that share one strategy object, at once or one after another, each
    get the schedule they would get alone.
    """

    #: a strategy that always picks position 0 sets this, and is never asked (the fast path)
    in_order = False
    #: whether an invocation that waits on another (polls an atomic) lets that one run, so a
    #: correct spin loop ends (docs/concepts.md, "Fairness"); messages say so when it does not
    fair = False
    name = "strategy"

    def for_run(self) -> Strategy:
        """The object that schedules one dispatch: a shallow copy of this strategy, for
        ``begin`` to fill with the run's state. Override it only for an object that is one
        run's or one search's state by design (and so is never shared), to return ``self``."""
        return copy.copy(self)

    def begin(self, scheduler: Any) -> None:
        """Called before the run's first step (on the run's own object, see :meth:`for_run`)."""

    def pick(self, runnable: list) -> int:
        """Returns the position in ``runnable`` (two or more invocations) of the one to step."""
        return 0

    def end(self, scheduler: Any) -> None:
        """Called after the run's last step."""

    def describe(self) -> dict[str, Any]:
        """JSON-able description stored in traces."""
        return {"name": self.name}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.describe().items() if k != "name")
        return f"{type(self).__name__}({args})"


class InOrder(Strategy):
    """Runs the lowest runnable invocation until it blocks: local-index order, like Oclgrind."""

    in_order = True
    name = "in_order"


class RandomOrder:
    """The draws of one :class:`Random` run (a fresh object per run, so that a fast path that
    holds it is not disturbed by another dispatch starting with the same strategy object)."""

    def __init__(self, seed: int) -> None:
        rnd = _random.Random(seed)
        self._random, self._bytes = rnd.random, rnd.randbytes
        self.rest: list = []  # the runnable invocations not picked yet, in their random order

    def place(self, m: int) -> int:
        """Where one invocation joining ``m`` others in the order goes: uniform in ``0..m``."""
        return int(self._random() * (m + 1))

    def shuffle(self, n: int) -> list[int] | np.ndarray:
        """A fresh uniformly random order of ``n`` invocations, as positions in key order. Up
        to 6 invocations, one draw picks among all ``n!`` orders (listed lexicographically);
        above, the order sorts 64-bit priorities drawn in key order (ties, if ever, by key):
        a list for up to 16 invocations, a numpy array for more (the core takes either)."""
        if n <= _FEW:
            orders = _ORDERS.get(n)
            if orders is None:
                orders = _ORDERS[n] = [list(p) for p in itertools.permutations(range(n))]
            return orders[int(self._random() * len(orders))].copy()
        drawn = self._bytes(8 * n)
        if n <= 16:  # the same order as numpy's below, sorted in Python (faster)
            priorities = struct.unpack(f"<{n}Q", drawn)
            return sorted(range(n), key=priorities.__getitem__)
        return np.argsort(np.frombuffer(drawn, dtype="<u8"), kind="stable")


class Random(Strategy):
    """At each decision, picks a runnable invocation uniformly at random from ``seed``.

    How: the runnable invocations are kept in a random order, and each decision takes the first.
    When exactly one invocation joins the runnable set (the one just picked passed a scheduling
    point, an atomic; or a single member was released or started), it goes to a uniformly
    random place among the others; when more join (a rendezvous released its members, a
    workgroup started), all get a fresh uniformly random order (those already waiting keep
    theirs relative to one another). Either way every decision is uniform among the runnable
    invocations and independent of the earlier ones, and the scheduler can follow a whole
    barrier round's order without a draw per step. Deterministic: the same seed gives the same
    schedule on every machine and Python build (draws come from ``random.Random(seed)``).
    """

    name = "random"
    fair = True  # (every runnable invocation is picked with probability 1/n at each decision)

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_int("Random(seed)", seed)

    def begin(self, scheduler: Any) -> None:
        self._draws = RandomOrder(self.seed)
        self._last: Any = None  # the invocation picked last
        # the core may follow the order itself (exactly what pick() does, through this run's
        # `place` and `shuffle`); a subclass that overrides pick() does not offer it
        self.ordered = self._draws if type(self).pick is Random.pick else None

    def pick(self, runnable: list) -> int:
        # Between two decisions only the invocation picked runs (and, once nothing else is
        # runnable, the one left): nobody else leaves the runnable set. So while two or more
        # wait in the order, all of them are still runnable, and when the set grew by one,
        # the one picked last is the newcomer if it is runnable (it passed a scheduling
        # point). Those two cases, most decisions, take the order as it is, without a pass
        # over the runnable set (with max_live_workgroups=8, thousands of invocations); the
        # others take it below. Both give the same picks and draws.
        draws = self._draws
        order = draws.rest
        waiting = len(order)
        if waiting >= 2 and waiting + 1 >= len(runnable) >= waiting:
            last = self._last
            if len(runnable) == waiting + 1:
                if _where(runnable, last) is None:
                    return self._pick(runnable)
                order.insert(draws.place(waiting), last)
            first = order[0]
            pos = _where(runnable, first)
            if pos is not None:
                del order[0]
                self._last = first
                return pos
        return self._pick(runnable)

    def _pick(self, runnable: list) -> int:
        """A decision that reads the whole runnable set: who left the order, who joined."""
        draws = self._draws
        present = set(runnable)
        order = [inv for inv in draws.rest if inv in present]  # still runnable, still in order
        if len(order) < len(runnable):  # invocations joined
            waiting = set(order)
            new = [inv for inv in runnable if inv not in waiting]
            if len(new) == 1:
                order.insert(draws.place(len(order)), new[0])
            else:
                shuffled = draws.shuffle(len(runnable))
                positions = shuffled if isinstance(shuffled, list) else shuffled.tolist()
                fresh = [runnable[k] for k in positions]
                if len(order) > 1:  # those already waiting keep their relative order
                    kept = iter(order)
                    fresh = [next(kept) if inv in waiting else inv for inv in fresh]
                order = fresh
        draws.rest = order[1:]
        self._last = order[0]
        return runnable.index(order[0])

    def end(self, scheduler: Any) -> None:
        self._draws.rest = []  # (keeps nothing of the run alive)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "seed": self.seed}


#: up to this many invocations, Random draws one of all their orders at once (a quad: 24)
_FEW = 6
_ORDERS: dict[int, list[list[int]]] = {}


class Reverse(Strategy):
    """Runs the highest runnable invocation until it blocks: the mirror image of InOrder.

    Cheap second opinion: a kernel that silently depends on invocations running in local-index
    order usually changes its result under Reverse.
    """

    name = "reverse"

    def pick(self, runnable: list) -> int:
        return len(runnable) - 1


class PCT(Strategy):
    """Probabilistic Concurrency Testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS
    2010): every invocation gets a random priority; the highest-priority runnable invocation runs;
    at ``depth - 1`` change points, chosen uniformly among the first ``steps`` decisions, the
    invocation that runs has its priority dropped below all others.

    A bug of depth ``d`` (``d`` ordering constraints between steps) is found by one run with
    probability at least ``1 / (n * k**(d-1))`` for ``n`` invocations and ``k`` decisions, far
    better than uniform random choice for bugs that need one invocation to stall while another
    runs far ahead. ``steps`` is the estimate ``k`` of decisions per run (``None``: four per
    invocation of the dispatch); :func:`asyncshader.explore` measures it. Deterministic: the
    same ``(seed, depth, steps)`` gives the same schedule.

    Fair, as CHESS's PCT is: an invocation about to *poll* (an atomic that reads, from the same
    place, the value its previous atomic read there, having changed nothing since: a spin on a
    lock or a flag) after running 8 decisions in a row has its priority dropped below all
    others, so the invocation it waits for runs. Without it a spinning invocation with the
    highest priority would run forever. These drops are not change points: they follow from
    the run, so the schedule still depends on ``(seed, depth, steps)`` alone
    (docs/concepts.md, "Fairness").
    """

    name = "pct"
    fair = True

    def __init__(self, seed: int = 0, depth: int = 3, steps: int | None = None) -> None:
        self.seed = check_int("PCT(seed)", seed)
        self.depth = check_int("PCT depth", depth, 1, expected="an int >= 1 (1 + the number "
                               "of priority change points)")
        self.steps = check_int("PCT steps", steps, 1, none_ok=True, expected="a positive int "
                               "(the estimated decisions per run) or None (estimated)")
        self._k = self.steps

    def begin(self, scheduler: Any) -> None:
        k = self.steps if self.steps is not None else _estimate_decisions()
        self._k = k
        rng = _random.Random(f"pct:{self.seed}")
        self._rand = rng.random
        points = sorted(rng.sample(range(1, k + 1), min(self.depth - 1, k)))
        # decision number -> the priority given to the invocation picked there
        self._change = {c: float(self.depth - 1 - i) for i, c in enumerate(points)}
        self._count = 0
        self._floor = 0.0  # polling invocations drop below it (change points stay above)
        self._last: Any = None  # the invocation picked at the last decision
        self._stretch = 0  # decisions in a row it has been picked at, less one

    def pick(self, runnable: list) -> int:
        # priorities live on the invocations (fresh objects every run), so that the highest is
        # found by max() in C: PCT decides at every step
        try:
            best = max(runnable, key=_PCT_PRIORITY)
        except AttributeError:
            for inv in runnable:  # first sight: initial priorities above every change point
                if not hasattr(inv, "_ash_pct"):
                    inv._ash_pct = self.depth + self._rand()
            best = max(runnable, key=_PCT_PRIORITY)
        if best is self._last:  # it ran the last step too: a stretch of its own
            self._stretch += 1
            checked = 0  # (each at most once: all may be polling, on one that is blocked)
            while self._stretch >= _POLL_AFTER and checked < len(runnable) and \
                    _polls_again(best):
                self._floor -= 1.0
                best._ash_pct = self._floor
                best = max(runnable, key=_PCT_PRIORITY)
                checked += 1
                self._stretch = 0
                best._ash_polled = None
        else:
            self._stretch = 0
            best._ash_polled = None
        self._last = best
        self._count += 1
        low = self._change.get(self._count)
        if low is not None:
            best._ash_pct = low
        return runnable.index(best)

    def end(self, scheduler: Any) -> None:
        self._last = None  # (keeps nothing of the run alive)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "seed": self.seed, "depth": self.depth, "steps": self._k}


def _polls_again(inv: Any) -> bool:
    """Whether ``inv``, about to step, polls again: its pending atomic would read, from the
    same place, the value its last atomic read there, and neither changed memory (the atomic's
    ``polls()``). Notes what this step polls on the invocation."""
    pending = inv.pending
    polls = getattr(pending, "polls", None)
    seen = polls() if polls is not None else None
    again = seen is not None and seen == inv.__dict__.get("_ash_polled")
    inv._ash_polled = seen
    return again


_PCT_PRIORITY = operator.attrgetter("_ash_pct")
#: PCT looks for polling once an invocation has run this many decisions in a row (a spinner
#: with the highest priority runs every step; shorter stretches cost nothing)
_POLL_AFTER = 8


def _estimate_decisions() -> int:
    """Four decisions per invocation of the running dispatch (PCT without ``steps``)."""

    job = current_run()
    config = getattr(job, "config", None) or {}
    n = 0
    if "workgroups" in config:
        n = int(np.prod(config["workgroups"])) * int(np.prod(config["workgroup_size"]))
    elif "size" in config:
        w, h = config["size"]
        n = (w + w % 2) * (h + h % 2)
    return max(4 * n, 16)


class Replay(Strategy):
    """Replays a recorded :class:`Trace` (or a path to one, or its JSON text).

    The dispatch checks that kernel and configuration match the trace; if the program changed so
    that a recorded decision is no longer possible, :class:`ReplayMismatchError` names the first
    decision that differs, where the expected invocation stands, and the kernel's source change.
    """

    name = "replay"

    def __init__(self, trace: Trace | str | os.PathLike) -> None:
        if not isinstance(trace, (Trace, str, os.PathLike)):
            raise option_error("Replay(trace)", trace, "a Trace, a trace string, JSON text or "
                               "the path of a trace file")
        self.trace = trace if isinstance(trace, Trace) else Trace.load(trace)
        self.source_note = ""

    def begin(self, scheduler: Any) -> None:
        self._pairs = self.trace.choices()
        self._i = 0
        self._canon = self._pairs[0][0] if self._pairs else self.trace.canonical_tail
        self._count = 0
        self._scheduler = scheduler

    def pick(self, runnable: list) -> int:
        self._count += 1
        if self._canon > 0:
            self._canon -= 1
            return 0
        if self._i >= len(self._pairs):
            raise self._mismatch(
                f"the run needs decision {self._count:,}, but the trace ends after "
                f"{self.trace.decision_count:,} decisions")
        key = self._pairs[self._i][1]
        pos = bisect.bisect_left(runnable, key, key=_key)
        if pos == len(runnable) or runnable[pos].key != key or pos == 0:
            raise self._mismatch(self._not_runnable(key, runnable))
        self._i += 1
        self._canon = (self._pairs[self._i][0] if self._i < len(self._pairs)
                       else self.trace.canonical_tail)
        return pos

    def end(self, scheduler: Any) -> None:
        if self._i < len(self._pairs) or self._canon > 0:
            raise self._mismatch(
                f"the run ended after {self._count:,} decisions, but the trace recorded "
                f"{self.trace.decision_count:,}")

    def _not_runnable(self, key: int, runnable: list) -> str:
        sched = self._scheduler
        inv = sched.find(key) if hasattr(sched, "find") else None
        if inv is None:
            where = "is not alive at this point"
        elif runnable and runnable[0].key == key:
            where = "is the lowest runnable invocation, but the trace recorded a choice"
        else:
            where = sched.describe_position(inv)
        name = inv if inv is not None else f"#{key}"
        return (f"decision {self._count:,}: the trace picks invocation {name}, which {where}; "
                f"runnable now: {len(runnable)} invocations")

    def _mismatch(self, what: str) -> ReplayMismatchError:
        source = f" (the {self.trace.source})" if self.trace.source else ""
        return ReplayMismatchError(f"replay diverged from the trace: {what}.{self.source_note}"
                                   f"{source}")

    def describe(self) -> dict[str, Any]:
        """The recorded run's strategy: a replay's trace equals the original trace."""
        return dict(self.trace.strategy)

    @property
    def fair(self) -> bool:  # type: ignore[override]
        """The recorded strategy's fairness (its schedule is the one replayed)."""
        return self.trace.strategy.get("name") in ("random", "pct")


#: the dispatch configuration's entry for the seed of ``subgroup_reduction="shuffled"``
#: (recorded when it is not 0, so that a replay folds in the recorded orders)
REDUCTION_SEED = "subgroup_reduction_seed"


def reduction_seed(strategy: Any) -> int:
    """The seed of a run's ``subgroup_reduction="shuffled"`` fold orders under ``strategy``: a
    replay's recorded one (0 for a trace that records none), else the strategy's ``seed``, else
    that of the strategy it wraps (``inner``: a recording or shrinking wrapper), else 0."""
    while strategy is not None:
        if isinstance(strategy, Replay):
            return int(strategy.trace.dispatch.get(REDUCTION_SEED, 0))
        seed = getattr(strategy, "seed", None)
        if isinstance(seed, int) and not isinstance(seed, bool):
            return seed
        strategy = getattr(strategy, "inner", None)
    return 0


_key = operator.attrgetter("key")  # an invocation's key (C-speed, for bisect)


def _where(runnable: list, inv: Any) -> int | None:
    """The position of ``inv`` in ``runnable`` (sorted by key), or None if it is not there."""
    if inv is None:
        return None
    pos = bisect.bisect_left(runnable, inv.key, key=_key)
    return pos if pos < len(runnable) and runnable[pos] is inv else None
