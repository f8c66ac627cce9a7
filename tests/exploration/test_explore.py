"""explore(): outcomes, failures, time budgets, the determinism self-check (the
exhaustive search itself: test_exhaustive.py)."""

import sys

import numpy as np
import pytest
from helpers import shared_add, two

import asyncshader as ash
from asyncshader import u32

sys.path.insert(0, "examples")
import lost_update as lu


def test_in_order_never_finds_the_lost_update_its_single_schedule_is_the_whole_space():
    report = ash.explore(lu.lost_update, lu.setup, lu.check, ash.InOrder(), runs=50)
    assert report.runs == 1 and report.complete and not report.failures
    assert report.strategy == {"name": "in_order"}


def test_random_explore_reports_outcomes_failures_and_rate(monkeypatch):
    monkeypatch.setattr(lu, "WORK", 4)  # less work first: the bug shows in about 1 run in 20
    report = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Random(0), runs=300,
                         stop_on_failure=False)
    assert report.runs == 300 and sum(report.outcomes.values()) == 300
    assert len(report.outcomes) >= 2 and report.failures and not report.complete
    assert report.schedules_per_second > 0
    assert "300 schedules (random)" in report.summary()


def test_errors_are_failures_with_a_replayable_trace():
    @ash.compute(workgroup_size=2)
    async def picky(c: ash.Storage, *, local_invocation_index: u32):
        old = await ash.atomic_add(ash.ptr(c, 0), 1)
        if local_invocation_index == 0 and old == 1:
            raise RuntimeError("invocation 0 came second")

    report = ash.explore(picky, two, None, ash.Random(0), runs=100)
    assert report.failures and "ShaderError" in report.failures[0].error
    with pytest.raises(ash.ShaderError, match="came second"):
        ash.run(picky, **two(), schedule=report.failures[0].trace)
    assert next(iter(report.failing_outcomes)) == "error: ShaderError"


def test_time_budget_and_check_returning_false():
    report = ash.explore(shared_add, two, lambda r: False, ash.Random(0), runs=10)
    assert report.failures[0].error == "check returned False" and report.runs == 1
    report = ash.explore(lu.lost_update, lu.setup, None, "random", runs=10**6, time_budget=0.2)
    assert report.stopped.startswith("time budget") and report.runs < 10**6


def test_recheck_reruns_a_share_and_catches_nondeterminism():
    ok = ash.explore(lu.lost_update, lu.setup, lu.check, ash.PCT(0), runs=100, recheck=0.2,
                     stop_on_failure=False)
    assert 5 <= ok.rechecked <= 40
    leaked = iter(range(10**9))

    def leaky_setup():  # a value from outside the bindings: every run sees a new one
        return {"c": np.full(2, next(leaked) % 2, np.uint32)}

    with pytest.raises(ash.DeterminismError, match="same schedule gave"):
        ash.explore(shared_add, leaky_setup, None, ash.Random(0), runs=50, recheck=1.0)


def test_recheck_catches_a_strategy_that_is_not_deterministic():
    """recheck reruns the strategy itself (not the recorded trace): a strategy whose picks
    depend on state outside the run gives another schedule the second time, and explore says
    so."""
    import itertools

    calls = itertools.count()

    class Drifting(ash.Strategy):
        name = "drifting"

        def pick(self, runnable):
            return next(calls) % len(runnable)  # a global counter: never the same twice

    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage, *, local_invocation_index):
        out[local_invocation_index] = await ash.atomic_add(ash.ptr(out, 4), 1)

    with pytest.raises(ash.DeterminismError, match="determinism self-check failed"):
        ash.explore(k, lambda: {"out": np.zeros(5, np.uint32)}, None, Drifting(), runs=20,
                    recheck=1.0)


@ash.compute(workgroup_size=4)
async def branch_on_ticket(c: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    t = await ash.atomic_add(ash.ptr(c, 0), 1)
    if t == (local_invocation_index + 1) % 4:  # in order: never; some schedules: twice or more
        out[0] = t


def _tickets():
    return {"c": np.zeros(1, np.uint32), "out": np.zeros(1, np.uint32)}


def test_explore_with_the_detector_on_finds_a_race_only_some_schedules_execute():
    # the default schedule runs no racy store, so one ordinary run finds nothing
    assert ash.run(branch_on_ticket, **_tickets(), sanitize="report").findings == []
    quiet = ash.explore(branch_on_ticket, _tickets, strategy=ash.Random(0), runs=40)
    assert not quiet.failures and not quiet.races and quiet.findings == []
    report = ash.explore(branch_on_ticket, _tickets, strategy=ash.Random(0), runs=40,
                         races=True, stop_on_failure=False)
    assert report.races and report.failures
    (race,) = report.findings
    assert isinstance(race, ash.DataRace) and race.memory == "out"
    assert race.race == "write-write" and race.first.source == "out[0] = t"
    failure = report.failures[0]
    assert failure.run == report.finding_runs[0]
    assert failure.error.startswith("race detector: Write-write data race on storage memory")
    assert isinstance(failure.exception, ash.DataRaceError)
    assert "race detector on every run: 1 distinct finding(s)" in report.summary()
    # the failing run's trace replays the racy schedule: the detector finds it again
    again = ash.run(branch_on_ticket, **_tickets(), schedule=ash.Replay(failure.trace),
                    sanitize="report")
    assert [f.race for f in again.findings] == ["write-write"]


def test_a_race_raised_by_sanitize_error_carries_its_trace_so_exhaustive_failures_replay():
    # without the trace on the error, explore re-ran the (stateful) exhaustive search to
    # rebuild it and recorded another schedule: shrink() then failed to replay it
    def strict():
        return {**_tickets(), "sanitize": "error"}

    report = ash.explore(branch_on_ticket, strict, strategy=ash.Exhaustive(2), runs=200)
    (failure,) = report.failures
    assert isinstance(failure.exception, ash.DataRaceError)
    with pytest.raises(ash.DataRaceError):
        ash.run(branch_on_ticket, **strict(), schedule=ash.Replay(failure.trace))
    shrunk = ash.shrink(branch_on_ticket, strict, failure.trace)
    assert shrunk.failure == "DataRaceError"
    assert shrunk.after.preemptions <= shrunk.before.preemptions
