"""A Lockstep run's trace, replayed. Lockstep is one deterministic interleaving, so its trace
records the schedule as Lockstep with its options (:meth:`Lockstep.describe`) and no decisions;
replaying it is running Lockstep with those options again, on a dispatch checked to be the
recorded one (the kernel and configuration, as a coroutine replay checks them). ``ash.run``
and ``ash.dispatch`` find this class through :data:`asyncshader.schedules.names.BACK_ENDS`
when ``schedule=`` is such a trace (docs/design.md, "A Lockstep run's trace")."""

from __future__ import annotations

from typing import Any

from ..errors import OptionError, TraceError
from ..schedules.names import BACK_ENDS
from ..schedules.strategies import Replay
from ..schedules.trace import Trace
from ..stages.compute import ComputeKernel
from ..stages.dispatch import check_replay
from .schedule import MAX_ITERATIONS, Lockstep


class LockstepReplay(Lockstep):
    """``Lockstep`` with the options ``trace`` recorded; each dispatch must be the recorded
    one (else :class:`~asyncshader.ReplayMismatchError`). What ``schedule=<a Lockstep
    run's trace>`` becomes."""

    def __init__(self, trace: Trace) -> None:
        recorded = trace.strategy
        try:
            super().__init__(max_lanes=recorded.get("max_lanes"),
                             max_iterations=recorded.get("max_iterations", MAX_ITERATIONS))
        except OptionError as exc:
            raise TraceError(f"{trace.source or 'the trace'}: its Lockstep options are "
                             f"damaged ({exc})") from None
        self.trace = trace

    def starting(self, kernel: ComputeKernel, config: dict[str, Any]) -> None:
        check_replay(Replay(self.trace), kernel.identity, config)

    def __repr__(self) -> str:
        return f"LockstepReplay({self.trace!r})"


BACK_ENDS[Lockstep.name] = LockstepReplay
