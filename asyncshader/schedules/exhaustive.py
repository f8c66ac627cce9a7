"""Bounded exhaustive search of schedules (:class:`Exhaustive`) and what it needs: the memory
footprint of each scheduling step (:class:`Footprints`, an instrument) and the search tree's
nodes with their sleep sets. :func:`asyncshader.explore` drives it, one run after another.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from .._core.context import current_run
from .._core.instruments import Instrument
from .._core.traps import POINT
from .._core.validation import check_bool, check_int
from ..errors import AsyncShaderError
from .strategies import Strategy


class DeterminismError(AsyncShaderError):
    """The same schedule gave a different trace or outcome: something outside the scheduler's
    control (wall clock, ``id()``, set order, shared Python state) leaks into the kernel."""


class _SleepBlocked(Exception):
    """Every runnable invocation is asleep: the rest of this run repeats an explored one."""


# --------------------------------------------------------------------------------- footprints
class StepInfo:
    """What one scheduling step touched: locations read and written (a step is one resume of
    an invocation: the atomic it was waiting on lands, then plain code runs to the next
    suspension)."""

    __slots__ = ("key", "ra", "reads", "rspaces", "rwhole", "writes", "wspaces", "wwhole")

    def __init__(self, key: int, reads: set, writes: set) -> None:
        self.key = key
        self.reads, self.writes = frozenset(reads), frozenset(writes)
        self.rspaces = frozenset(s for s, _ in self.reads)
        self.wspaces = frozenset(s for s, _ in self.writes)
        self.rwhole = frozenset(s for s, i in self.reads if i is None)
        self.wwhole = frozenset(s for s, i in self.writes if i is None)
        self.ra: bool | None = None  # the invocation is still runnable after the step

    def dependent(self, other: StepInfo) -> bool:
        """Two steps are dependent when one writes a location the other reads or writes
        (a whole-buffer access overlaps every element of that buffer)."""
        if self.writes & other.writes or self.writes & other.reads or other.writes & self.reads:
            return True
        if self.wwhole & (other.rspaces | other.wspaces):
            return True
        if other.wwhole & (self.rspaces | self.wspaces):
            return True
        return bool(self.rwhole & other.wspaces or other.rwhole & self.wspaces)


class Footprints(Instrument):
    """Records, for every step of a run, which invocation ran and which memory locations and
    atomics it touched. :class:`Exhaustive` reads it to decide which steps commute.

    Locations are named stably across runs: storage buffers by binding name, workgroup
    variables by (workgroup, variable name), with normalised indices; an index that is not a
    plain element (slices, fancy indexing) stands for the whole buffer. Arriving at a
    rendezvous or returning counts as a write to a pseudo-location of each of the invocation's
    groups, so that steps which can complete a rendezvous are never treated as independent.
    """

    wants_memory_access = True

    def __init__(self) -> None:
        self.steps: list[StepInfo] = []

    def run_started(self, scheduler: Any) -> None:
        self.steps = []
        self._reads: set = set()
        self._writes: set = set()
        self._key: int | None = None
        job = current_run()
        names: dict[int, str] = {}
        for name, value in (getattr(job, "bindings", None) or {}).items():
            if isinstance(value, np.ndarray):
                names[id(value)] = name
        self._names = names

    def _space(self, inv: Any, memory: Any) -> Any:
        name = self._names.get(id(memory))
        if name is not None:
            return ("buf", name)
        var = getattr(memory, "var_name", None)
        if var is not None:
            unit = inv.unit.index if inv.unit is not None else -1
            return ("wg", unit, var)
        return ("anon",)

    def _loc(self, inv: Any, memory: Any, index: Any) -> tuple:
        space = self._space(inv, memory)
        if space == ("anon",):
            return (space, None)
        shape = getattr(memory, "shape", ())
        if isinstance(index, (int, np.integer)) and len(shape) == 1:
            i = int(index)
            return (space, i + shape[0] if i < 0 else i)
        if (isinstance(index, tuple) and index and len(index) == len(shape)
                and all(isinstance(i, (int, np.integer)) for i in index)):
            return (space, tuple(int(i) + (n if i < 0 else 0) for i, n in zip(index, shape)))
        return (space, None)

    def memory_access(self, inv: Any, memory: Any, index: Any, kind: str) -> None:
        (self._writes if kind == "store" else self._reads).add(self._loc(inv, memory, index))

    def atomic(self, inv: Any, op: str, memory: Any, index: Any, old: Any, new: Any) -> None:
        (self._reads if op == "atomic_load" else self._writes).add(self._loc(inv, memory, index))

    def invocation_resumed(self, inv: Any) -> None:
        self._key = inv.key

    def _close(self, inv: Any, rendezvous: bool) -> None:
        if rendezvous:
            unit = inv.unit.index if inv.unit is not None else -1
            for scope, group in (inv.groups or {}).items():
                self._writes.add((("rv", scope, unit, group.index), None))
        self.steps.append(StepInfo(inv.key, self._reads, self._writes))
        self._reads, self._writes = set(), set()

    def invocation_suspended(self, inv: Any, request: Any) -> None:
        self._close(inv, request._ash_kind is not POINT)

    def invocation_finished(self, inv: Any) -> None:
        self._close(inv, True)


# ------------------------------------------------------------------------------- exhaustive
class _Node:
    """A decision of the current path: what could run, what ran, what was explored."""

    __slots__ = ("choice", "done", "info", "last", "last_runnable", "pre", "runnable", "sleep")

    def __init__(self, runnable: tuple, last: int | None, last_runnable: bool, pre: int,
                 sleep: dict) -> None:
        self.runnable = runnable
        self.last = last
        self.last_runnable = last_runnable
        self.pre = pre  # preemptions before this decision
        self.sleep = sleep  # key -> StepInfo asleep on entry
        self.done: list[int] = []  # choices whose subtrees are explored, in order
        self.info: dict[int, StepInfo] = {}  # choice -> its step
        self.choice: int = -1

    def cost(self, key: int) -> int:
        return 1 if self.last_runnable and key != self.last else 0

    def order(self) -> list[int]:
        """Choices in exploration order: going on with the running invocation first, then by
        dispatch order."""
        keys = list(self.runnable)
        if self.last_runnable:
            keys.remove(self.last)
            keys.insert(0, self.last)
        return keys

    def may_sleep(self, u: int, b: int) -> bool:
        """Whether explored choice ``u`` may sleep in the subtree of a later choice ``b``.

        Sleep-set pruning of ``u`` below ``b`` relies on the schedule with ``u``'s step moved
        in front of ``b``, explored in ``u``'s subtree. That holds under a preemption bound only
        if moving it back cannot add preemptions: ``cost(u) + [u still runnable after its step]
        <= cost(b)``. Otherwise ``u`` stays awake (sound, less reduction)."""
        info = self.info.get(u)
        if info is None:  # u's step raised: nothing is known of it, so it stays awake
            return False
        ra = info.ra
        return self.cost(u) + (1 if ra or ra is None else 0) <= self.cost(b)


class Exhaustive(Strategy):
    """Bounded exhaustive search: a depth-first enumeration of distinct schedules, each with at
    most ``max_preemptions`` preemptions, with partial-order reduction. Use it through
    :func:`explore`, which repeats runs until the space is covered.

    *Preemption*: a decision that picks another invocation while the one that ran last is still
    runnable (switching after it blocked at a rendezvous or returned is free). Most concurrency
    bugs need two or three (CHESS, loom).

    *Reduction* (``por=True``): sleep sets (Godefroid) over the steps' footprints, as recorded by
    :class:`Footprints`: two steps are independent when they touch no common memory location or
    atomic with a write among them (storage elements by binding and index, workgroup variables
    per workgroup, atomics as writes except atomicLoad) and neither arrives at a rendezvous of a
    group the other belongs to or returns. After the subtree of choice ``u`` at a decision is
    explored, ``u`` sleeps in later siblings' subtrees until a dependent step runs; a sleeping
    invocation is not picked, and a run in which only sleeping invocations are left is cut
    short (it repeats an explored one). Naive sleep sets are unsound under a preemption bound
    (Coons, Musuvathi, McKinley, OOPSLA 2013): ``u`` is put to sleep below ``b`` only when
    moving ``u``'s step back in front of ``b`` cannot add a preemption (:meth:`_Node.may_sleep`),
    so every schedule within the bound is explored or equivalent to an explored schedule within
    the bound. Not reduced: anything the footprints do not see (numpy whole-array methods on a
    binding, Python state shared outside the bindings): pass ``por=False`` for such kernels.
    """

    name = "exhaustive"

    def __init__(self, max_preemptions: int = 2, por: bool = True) -> None:
        self.max_preemptions = check_int("Exhaustive max_preemptions", max_preemptions, 0)
        self.por = check_bool("Exhaustive por", por)
        self._reset()

    def _reset(self) -> None:
        self.stack: list[_Node] = []
        self.exhausted = False
        self.runs = 0  # complete runs (distinct schedules)
        self.pruned = 0  # runs cut short by sleep sets
        self._run_index = 0
        self._in_run = False

    def new_search(self) -> Exhaustive:
        """A search from the start with this one's bounds: what :func:`explore` runs, so that
        the object a user passes describes a search and is not changed by it."""
        search = copy.copy(self)
        search._reset()
        return search

    def for_run(self) -> Exhaustive:
        """The search itself: its runs come one after another, each continuing from the last
        (see :meth:`advance`), so every dispatch of the search schedules with this object."""
        return self

    # ---- one run
    def begin(self, scheduler: Any) -> None:
        rec = next((i for i in scheduler.instruments if isinstance(i, Footprints)), None)
        if rec is None:
            raise TypeError("Exhaustive explores many runs: use asyncshader.explore(kernel, setup, "
                            "strategy=Exhaustive(...)), which repeats the runs and records "
                            "the steps it needs")
        if self.exhausted:
            raise RuntimeError("this Exhaustive search is complete; make a new Exhaustive()")
        if self._in_run:
            raise RuntimeError("this Exhaustive search is in the middle of a run: its runs "
                               "come one after another (explore drives them); give each "
                               "explore its own search")
        self._in_run = True
        self._rec = rec
        self._depth = 0
        self._seen = 0  # steps processed
        self._pre = 0
        self._sleep: dict[int, StepInfo] = {}
        self._chosen: _Node | None = None  # node whose choice ran as the next step
        self._blocked = False

    def _advance_steps(self, runnable_keys: tuple | None) -> None:
        steps = self._rec.steps
        por = self.por
        for i in range(self._seen, len(steps)):
            s = steps[i]
            prev = steps[i - 1] if i else None
            if prev is not None and prev.ra is None:
                prev.ra = s.key == prev.key  # a forced step by another: prev was not runnable
            if self._chosen is not None:
                self._chosen.info[self._chosen.choice] = s
                self._chosen = None
            if por and self._sleep:
                if s.key in self._sleep:
                    self._blocked = True
                self._sleep = {k: v for k, v in self._sleep.items() if not v.dependent(s)}
        self._seen = len(steps)
        if steps and runnable_keys is not None and steps[-1].ra is None:
            steps[-1].ra = steps[-1].key in runnable_keys

    def pick(self, runnable: list) -> int:
        keys = tuple(inv.key for inv in runnable)
        self._advance_steps(keys)
        if self._blocked:
            raise _SleepBlocked
        steps = self._rec.steps
        last = steps[-1].key if steps else None
        d = self._depth
        if d < len(self.stack):
            node = self.stack[d]
            if node.runnable != keys:
                raise DeterminismError(
                    f"decision {d + 1}: the runnable invocations {list(keys)} differ from those "
                    f"of the same decision in an earlier run ({list(node.runnable)}); the kernel "
                    "or setup() is not deterministic (fresh bindings every run? no shared Python "
                    "state, wall clock or randomness?)")
            choice = node.choice
        else:
            node = _Node(keys, last, last in keys, self._pre, self._sleep)
            choice = self._first_choice(node)
            if choice is None:
                raise _SleepBlocked
            node.choice = choice
            self.stack.append(node)
        # sleep set below the choice: the entry set plus explored siblings that may sleep
        sleep = {k: v for k, v in node.sleep.items() if k != choice}
        if self.por:
            for u in node.done:
                if u != choice and node.may_sleep(u, choice):
                    sleep[u] = node.info[u]
        self._sleep = sleep
        self._pre = node.pre + node.cost(choice)
        self._chosen = node
        self._depth = d + 1
        return keys.index(choice)

    def _first_choice(self, node: _Node) -> int | None:
        budget = self.max_preemptions - node.pre
        for k in node.order():
            if k not in node.sleep and node.cost(k) <= budget:
                return k
        return None

    def end(self, scheduler: Any) -> None:
        self._advance_steps(None)

    # ---- between runs
    def advance(self, completed: bool) -> None:
        """Called by :func:`explore` after each run (completed or cut short): moves the
        search to the next unexplored choice, or marks it exhausted."""
        self._advance_steps(None)
        self._in_run = False
        if completed:
            self.runs += 1
        else:
            self.pruned += 1
        self._run_index += 1
        stack = self.stack
        del stack[self._depth:]  # nodes past a run cut short are not on the path
        while stack:
            node = stack[-1]
            if node.choice not in node.done:
                node.done.append(node.choice)
            budget = self.max_preemptions - node.pre
            nxt = next((k for k in node.order() if k not in node.done and k not in node.sleep
                        and node.cost(k) <= budget), None)
            if nxt is not None:
                node.choice = nxt
                return
            stack.pop()
        self.exhausted = True

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "max_preemptions": self.max_preemptions, "por": self.por,
                "run": self._run_index}
