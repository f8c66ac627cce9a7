"""Instruments: observers of a run (tracing, race detection, timelines).

Subclass :class:`Instrument`, override the hooks you need and pass instances to a dispatch with
``instruments=[...]``. The scheduler calls only the hooks a class overrides; a run with no
instrument pays nothing for them. Hooks must not change scheduling: they observe.
"""

from __future__ import annotations

from typing import Any


class Instrument:
    """Base class; every hook is a no-op."""

    #: set to True to make memory report every plain load and store to :meth:`memory_access`
    wants_memory_access = False

    def run_started(self, scheduler: Any) -> None:
        """Called once before the first step."""

    def invocation_resumed(self, inv: Any) -> None:
        """``inv`` is about to run (its first slice, or after a suspension)."""

    def invocation_suspended(self, inv: Any, request: Any) -> None:
        """``inv`` yielded ``request`` (a rendezvous or a scheduling point)."""

    def invocation_finished(self, inv: Any) -> None:
        """``inv`` returned."""

    def rendezvous_completed(self, group: Any, op: str, members: list) -> None:
        """Every member of ``group`` met at ``op``; they are runnable again."""

    def unit_retired(self, unit: Any) -> None:
        """Every member of the top-level group ``unit`` (a workgroup, a quad) has finished."""

    def memory_access(self, inv: Any, memory: Any, index: Any, kind: str) -> None:
        """A plain ``"load"`` or ``"store"`` by ``inv`` (only with ``wants_memory_access``)."""

    def atomic(self, inv: Any, op: str, memory: Any, index: Any, old: Any, new: Any) -> None:
        """An atomic operation landed: ``old`` was replaced by ``new`` (equal for a load)."""

    def run_finished(self, scheduler: Any) -> None:
        """Called once after the last step (also after an error)."""


HOOKS = ("run_started", "invocation_resumed", "invocation_suspended", "invocation_finished",
         "rendezvous_completed", "unit_retired", "memory_access", "atomic", "run_finished")


def bound_hooks(instruments: list[Instrument], name: str) -> list:
    """The bound ``name`` hooks of the instruments that override it."""
    base = getattr(Instrument, name)
    return [getattr(i, name) for i in instruments
            if getattr(type(i), name, base) is not base]
