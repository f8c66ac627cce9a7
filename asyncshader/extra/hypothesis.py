"""Hypothesis strategies for schedules: one ``@given`` test varies a kernel's inputs and its
interleaving together, and Hypothesis draws, shrinks and stores both.

    from hypothesis import given
    from hypothesis.extra.numpy import arrays
    from asyncshader.extra.hypothesis import schedules

    @given(data=arrays(np.uint32, 64), schedule=schedules())
    def test_sum(data, schedule):
        result = ash.run(reduce_sum, data=data, out=np.zeros(1, np.uint32), schedule=schedule)
        assert result["out"][0] == data.sum(dtype=np.uint32)

A drawn schedule is PCT's (Burckhardt et al., ASPLOS 2010) with Hypothesis drawing what PCT
draws at random: a *priority* per invocation (``priorities[k]`` for the invocation of dispatch
order ``k``, 0 past the end of the list) and *change points* (decision numbers: at each, the
invocation picked drops below all others). At every decision the runnable invocation of highest
priority runs, the lowest in dispatch order among equals. Hypothesis shrinks toward fewer change
points (fewer preemptions) and smaller, equal priorities (all 0, no change point: the in-order
schedule), and its example database replays a failure in the next run. The falsifying example
shows the two lists; a note after it gives the trace string of each dispatch made with the
schedule (``asyncshader replay ash1:...`` replays it without Hypothesis); a dispatch that raises
carries its trace as ``exc.asyncshader_trace``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import note
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from ..exploration.runs import Recorded
from ..schedules.strategies import Strategy
from ..schedules.trace import Trace

__all__ = ["DrawnSchedule", "schedules"]

class _Prioritized(Strategy):
    """PCT with given priorities and change points (see the module's docstring)."""

    name = "hypothesis"

    def __init__(self, priorities: tuple[int, ...], change_points: tuple[int, ...]) -> None:
        self.priorities, self.change_points = priorities, change_points

    def begin(self, scheduler: Any) -> None:
        self._count = 0
        self._priority: dict[int, int] = {}
        # the i-th change point (in decision order) drops to -1 - i: below every drawn
        # priority, and below the invocations dropped before it, as in PCT
        self._drop = {c: -1 - i for i, c in enumerate(sorted(set(self.change_points)))}

    def pick(self, runnable: list) -> int:
        priority, given = self._priority, self.priorities
        best, top = 0, None
        for pos, inv in enumerate(runnable):
            p = priority.get(inv.key)
            if p is None:
                p = priority[inv.key] = given[inv.key] if inv.key < len(given) else 0
            if top is None or p > top:
                best, top = pos, p
        self._count += 1
        dropped = self._drop.get(self._count)
        if dropped is not None:
            priority[runnable[best].key] = dropped
        return best

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "priorities": list(self.priorities),
                "change_points": list(self.change_points)}


class _Noted(Recorded):
    """Records a dispatch's run and notes its trace string for Hypothesis's report."""

    def end(self, scheduler: Any) -> None:
        super().end(scheduler)
        trace = self.trace()
        if trace is not None:
            try:
                note(f"asyncshader trace of {trace.kernel.get('name')}: {trace.to_string()}")
            except InvalidArgument:  # not inside a Hypothesis test: nothing to note
                pass


class DrawnSchedule(Strategy):
    """A schedule Hypothesis drew (:func:`schedules`): pass it as ``schedule=`` to any
    number of dispatches; each follows the same priorities and change points. ``traces`` holds
    the traces of the dispatches made with it so far."""

    name = "hypothesis"

    def __init__(self, priorities: list[int] | tuple[int, ...] = (),
                 change_points: list[int] | tuple[int, ...] = ()) -> None:
        self.priorities = tuple(int(p) for p in priorities)
        self.change_points = tuple(int(c) for c in change_points)
        self._runs: list[Recorded] = []

    def for_run(self) -> Strategy:
        rec = _Noted(_Prioritized(self.priorities, self.change_points))
        self._runs.append(rec)
        return rec

    @property
    def traces(self) -> list[Trace]:
        """The traces of the dispatches made with this schedule, in order."""
        return [t for t in (r.trace() for r in self._runs) if t is not None]

    def describe(self) -> dict[str, Any]:
        return _Prioritized(self.priorities, self.change_points).describe()

    def __repr__(self) -> str:
        return (f"DrawnSchedule(priorities={list(self.priorities)!r}, "
                f"change_points={list(self.change_points)!r})")


def schedules(max_invocations: int = 64, max_change_points: int = 3,
              max_decisions: int = 100) -> st.SearchStrategy[DrawnSchedule]:
    """A Hypothesis strategy of schedules: priorities for up to ``max_invocations``
    invocations (those after run at priority 0) and up to ``max_change_points`` change points
    (PCT's depth - 1) among the first ``max_decisions`` decisions of a dispatch."""
    return st.builds(DrawnSchedule,
                     st.lists(st.integers(0, 255), max_size=max_invocations),
                     st.lists(st.integers(1, max_decisions), max_size=max_change_points))
