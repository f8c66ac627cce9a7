"""``asyncshader run FILE::KERNEL --schedule lockstep``'s schedule: one run of a kernel file in
lockstep (docs/lockstep.md), with its ``setup()``, ``check()`` and the race detector, as
under the other schedules; how the command line saves a trace, and the short form of a value
it prints."""

from __future__ import annotations

from typing import Any


def short(value: Any) -> str:
    """``repr(value)``, cut at 120 characters."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def lockstep_schedule() -> Any:
    """The schedule of ``run --schedule lockstep``: ``ash.Lockstep()`` with its defaults (the
    race detector on, as under the other schedules; its trace replays in lockstep)."""
    from ..lockstep import Lockstep

    return Lockstep()


def save_trace(trace: Any, path: str) -> None:
    """Writes ``trace`` to ``path``: JSON for a ``.json`` name, else its one-line string."""
    if path.endswith(".json"):
        trace.save(path)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(trace.to_string() + "\n")
