"""``asyncshader run FILE::KERNEL --schedule lockstep``: one run of a kernel file in lockstep
(docs/lockstep.md), with its ``setup()`` and ``check()``, without the race detector; and the
short form of a value the command line prints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def short(value: Any) -> str:
    """``repr(value)``, cut at 120 characters."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def run_lockstep(args: Any, target: tuple, out: Callable, usage_error: type) -> int:
    """The ``run`` command under ``schedule=ash.Lockstep()``: the outputs, the check's
    verdict; exit 0 or 1. It records no trace (running it again is its replay), so
    ``--trace`` is a usage error."""
    from ..exploration.runs import _run_checked
    from ..lockstep import Lockstep

    if args.trace:
        raise usage_error("--schedule lockstep records no trace (Lockstep is deterministic: "
                          "running it again is its replay); leave --trace out")
    kernel, setup, check = target[:3]
    result, outcome, failure, _ = _run_checked(kernel, setup, check, Lockstep(), [], "off")
    if result is not None:
        for key, value in result.outputs.items():
            out(f"{key} = {short(value)}")
        out(f"{result.counters.invocations} invocations in lockstep, outcome {outcome}")
    if failure is not None:
        out(f"FAILED: {failure}")
        return 1
    out("ok" + (" (check passed)" if check is not None else "") +
        " (lockstep: no race detector; run without --schedule to have races found)")
    return 0
