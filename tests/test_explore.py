"""explore(): outcomes, failures, exhaustive coverage, determinism self-check."""

import sys

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

sys.path.insert(0, "examples")
import lost_update as lu


@ash.compute(workgroup_size=2)
async def shared_add(c: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(c, 0), 1)


@ash.compute(workgroup_size=2)
async def private_adds(c: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(c, local_invocation_index), 1)
    await ash.atomic_add(ash.ptr(c, local_invocation_index), 1)


def two():
    return {"c": np.zeros(2, np.uint32)}


def test_in_order_never_finds_the_lost_update_its_single_schedule_is_the_whole_space():
    report = ash.explore(lu.lost_update, lu.setup, lu.check, ash.InOrder(), runs=50)
    assert report.runs == 1 and report.complete and not report.failures
    assert report.strategy == {"name": "in_order"}


def test_exhaustive_finds_the_lost_update_needing_two_preemptions_and_covers_the_space():
    one = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(1), runs=10_000)
    assert one.complete and not one.failures  # one preemption is not enough
    two_ = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(2), runs=10_000,
                       stop_on_failure=False)
    assert two_.complete and len(two_.failures) == 2  # A or B is the one preempted first
    for f in two_.failures:
        assert "lost update" in f.error
        replayed = ash.run(lu.lost_update, **lu.setup(), sanitize="off", schedule=f.trace_string)
        with pytest.raises(AssertionError):
            lu.check(replayed)
    # partial-order reduction: fewer runs than the plain bounded search, same outcomes
    plain = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(2, por=False),
                        runs=10_000, stop_on_failure=False)
    assert plain.complete and two_.runs < plain.runs
    assert set(plain.outcomes) == set(two_.outcomes)


@pytest.mark.parametrize(("bound", "expected"), [(0, 2), (1, 6), (2, 14), (3, 18), (4, 20)])
def test_exhaustive_counts_match_the_hand_count(bound, expected):
    """Two invocations of 3 steps each (start, add, add + return) interleave in C(6,3) = 20
    ways. An interleaving with s switches has s - 1 preemptions (its last switch comes after
    one invocation returned). Counting interleavings of 3 + 3 steps by blocks: s = 1: 2,
    s = 2: 4, s = 3: 8, s = 4: 4, s = 5: 2; so bounds 0..4 give 2, 6, 14, 18, 20."""
    r = ash.explore(private_adds, two, None, ash.Exhaustive(bound, por=False), runs=100)
    assert r.complete and r.runs == expected and len(r.outcomes) == 1


def test_sleep_sets_prune_commuting_steps_without_losing_outcomes():
    """shared_add: steps (start, add + return) per invocation; 6 interleavings within 2
    preemptions, 2 classes (which add lands first). Sleep sets drop the 2 schedules that only
    reorder the independent start steps behind a continued invocation; the 2 others they
    keep, because moving the sleeping step back would cost a preemption (see Exhaustive)."""
    plain = ash.explore(shared_add, two, None, ash.Exhaustive(2, por=False), runs=100)
    por = ash.explore(shared_add, two, None, ash.Exhaustive(2), runs=100)
    assert (plain.runs, por.runs) == (6, 4) and por.complete
    # with no preemptions allowed, the two classes are exactly the two explored schedules
    assert ash.explore(shared_add, two, None, ash.Exhaustive(0), runs=100).runs == 2


def test_random_explore_reports_outcomes_failures_and_rate():
    report = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Random(0), runs=300,
                         stop_on_failure=False)
    assert report.runs == 300 and sum(report.outcomes.values()) == 300
    assert len(report.outcomes) >= 2 and not report.complete
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


def test_exhaustive_alone_says_to_use_explore():
    with pytest.raises(TypeError, match="use asyncshader.explore"):
        ash.run(shared_add, **two(), schedule=ash.Exhaustive())


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
