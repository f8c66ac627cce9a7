"""What ``schedule=ash.Lockstep()`` does with the dispatch options made for the coroutine
schedules (``ash.run``, ``ash.dispatch``, ``ash.run_fragments``), each checked as the
coroutine path checks it and then, by what it means in lockstep:

- ``max_live_workgroups=`` / ``max_live_quads=``: accepted, no effect. They bound how many
  workgroups (quads) the coroutine scheduler has started at once; Lockstep runs chunks of
  whole workgroups (quads) together, sized by ``Lockstep(max_lanes=)``, and no result WGSL
  defines depends on either (a kernel whose result does waits on another workgroup, which
  WGSL gives no forward-progress guarantee for).
- ``derivatives=`` of a compute dispatch: accepted, no effect (Lockstep refuses derivatives
  in compute kernels before anything runs); a fragment dispatch honours it.
- ``max_points_per_invocation=``: the default only. Lockstep has no scheduling points (its
  atomics run vectorised); what bounds a spin there is ``Lockstep(max_iterations=)``, the
  iterations of one loop, so another value is refused, naming it.
- ``watchdog=``: the default or None only. Lockstep keeps no clock (nothing runs without a
  loop bound: ``max_iterations`` again), so None (no time limit) is what it does and another
  number of seconds is refused.
- ``subgroup_reduction=``: ``"lanes"`` only (the order Lockstep folds in); another order is
  refused.
"""

from __future__ import annotations

from typing import Any

from .._core.validation import check_int
from ..errors import OptionError
from ..stages.dispatch import (
    DEFAULT_MAX_POINTS,
    DEFAULT_WATCHDOG,
    check_derivative_mode,
    check_watchdog,
)


def check_coroutine_options(options: dict[str, Any]) -> None:
    """Checks a dispatch's options for Lockstep (the module docstring says what each does);
    refuses, with the fix, those whose value asks for what Lockstep does not do."""
    for name in ("max_live_workgroups", "max_live_quads"):
        if name in options:
            check_int(name, options[name], 1)
    if "derivatives" in options:
        check_derivative_mode(options["derivatives"])
    points = check_int("max_points_per_invocation",
                       options.get("max_points_per_invocation", DEFAULT_MAX_POINTS), 1)
    if points != DEFAULT_MAX_POINTS:
        raise OptionError(
            f"schedule=ash.Lockstep() counts no scheduling points, so max_points_per_invocation"
            f"={points} would bound nothing: a spin loop in lockstep is bounded by the "
            "iterations of one loop. Pass ash.Lockstep(max_iterations=N) instead, or use a "
            "coroutine schedule (InOrder, Random ...) to bound the atomics an invocation "
            "passes")
    watchdog = check_watchdog(options.get("watchdog", DEFAULT_WATCHDOG))
    if watchdog is not None and watchdog != DEFAULT_WATCHDOG:
        raise OptionError(
            f"schedule=ash.Lockstep() keeps no clock, so watchdog={watchdog:g} would bound "
            "nothing: a loop in lockstep is bounded by its iterations. Pass "
            "ash.Lockstep(max_iterations=N) (and watchdog=None or the default), or use a "
            "coroutine schedule to bound the seconds an invocation runs")
    if options.get("subgroup_reduction", "lanes") != "lanes":
        raise OptionError("schedule=ash.Lockstep() folds subgroup reductions in lane order "
                          "only: pass subgroup_reduction='lanes' (the default), or use a "
                          "coroutine schedule for the other orders")
