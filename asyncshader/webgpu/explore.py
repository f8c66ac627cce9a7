"""``explore``: a whole host program (its setup, submits and check) run under many schedules,
each run on a fresh device whose dispatches all follow the run's strategy; a failing run is
kept with its traces, so that :meth:`HostFailure.device` replays it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..lockstep import Lockstep
from ..schedules.strategies import PCT, Random, Reverse
from ..schedules.trace import Trace
from .adapter import GPU
from .device import GPUDevice

_STRATEGIES = {"random": Random, "pct": PCT}


@dataclass
class HostFailure:
    """A run whose host function raised: its index, seed, the exception and the traces of its
    dispatches (in submission order)."""

    run: int
    seed: int
    error: BaseException
    traces: list[Trace]

    def device(self, **options: Any) -> GPUDevice:
        """A new device that replays this run's dispatches (the same schedules, in order)."""
        return GPU().request_adapter_sync().request_device_sync(schedule=list(self.traces),
                                                                **options)


@dataclass
class HostExploreReport:
    """What :func:`explore` found: the runs made and the failures (at most one with
    ``stop_on_failure``)."""

    runs: int = 0
    failures: list[HostFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def __str__(self) -> str:
        if self.ok:
            return f"{self.runs} runs of the host program, no failure"
        f = self.failures[0]
        return (f"{self.runs} runs of the host program; run {f.run} (seed {f.seed}) failed "
                f"after {len(f.traces)} dispatch(es): {type(f.error).__name__}: {f.error}")


def explore(host: Callable[[GPUDevice], Any], *, runs: int = 100, seed: int = 0,
            strategy: str = "random", stop_on_failure: bool = True,
            **options: Any) -> HostExploreReport:
    """Runs ``host(device)`` ``runs`` times, each on a fresh asyncshader.webgpu device whose
    every dispatch follows the run's schedule (``strategy``: ``"random"``, ``"pct"``,
    ``"reverse"``; run ``r`` uses seed ``seed + r``; ``"lockstep"``: one run under
    ``ash.Lockstep()``, whatever ``runs`` says, with its vectorised race detector).
    ``host`` makes its buffers and pipelines, submits, and checks what it reads back (an
    exception, an ``assert`` included, fails the run). ``options`` are the devices' other
    options (``sanitize=``, ``strict=``, ...). Returns a :class:`HostExploreReport`;
    ``report.failures[0].device()`` replays a failure."""
    if strategy not in (*_STRATEGIES, "reverse", "lockstep"):
        raise ValueError(f"explore(strategy={strategy!r}): one of random, pct, reverse, "
                         "lockstep")
    report = HostExploreReport()
    adapter = GPU().request_adapter_sync()
    for r in range(1 if strategy == "lockstep" else runs):  # (lockstep: one schedule)
        schedule = (Reverse() if strategy == "reverse" else Lockstep()
                    if strategy == "lockstep" else _STRATEGIES[strategy](seed + r))
        device = adapter.request_device_sync(schedule=schedule, **options)
        report.runs += 1
        try:
            host(device)
        except Exception as exc:  # (the host's own failure: kept with the run's traces)
            report.failures.append(HostFailure(r, seed + r, exc, device.asyncshader.traces()))
            if stop_on_failure:
                break
    return report
