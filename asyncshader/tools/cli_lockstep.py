"""``asyncshader run FILE::KERNEL --schedule lockstep``: one run of a kernel file in lockstep
(docs/lockstep.md), with its ``setup()`` and ``check()``, without the race detector; how the
command line saves a trace, and the short form of a value it prints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def short(value: Any) -> str:
    """``repr(value)``, cut at 120 characters."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def run_lockstep(args: Any, target: tuple, out: Callable, usage_error: type) -> int:
    """The ``run`` command under ``schedule=ash.Lockstep()``: the outputs, the check's
    verdict; exit 0 or 1. ``--trace`` saves the run's trace (Lockstep and its options),
    which ``asyncshader replay`` runs in lockstep again."""
    from ..exploration.runs import _run_checked
    from ..lockstep import Lockstep
    from .targets import origin

    kernel, setup, check, path, name = target
    result, outcome, failure, exc = _run_checked(kernel, setup, check, Lockstep(), [], "off")
    trace = result.trace if result is not None else getattr(exc, "asyncshader_trace", None)
    if trace is not None:
        trace.origin = origin(path, name)
    if result is not None:
        for key, value in result.outputs.items():
            out(f"{key} = {short(value)}")
        out(f"{result.counters.invocations} invocations in lockstep, outcome {outcome}")
    if trace is not None and args.trace:
        save_trace(trace, args.trace)
        out(f"trace saved to {args.trace}")
    if failure is not None:
        out(f"FAILED: {failure}")
        if trace is not None:
            out(f"replay: asyncshader replay {trace.to_string()}")
        return 1
    out("ok" + (" (check passed)" if check is not None else "") +
        " (lockstep: no race detector; run without --schedule to have races found)")
    return 0


def save_trace(trace: Any, path: str) -> None:
    """Writes ``trace`` to ``path``: JSON for a ``.json`` name, else its one-line string."""
    if path.endswith(".json"):
        trace.save(path)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(trace.to_string() + "\n")
