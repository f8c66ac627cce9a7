"""PCT is fair (docs/concepts.md, "Fairness"): an invocation that polls without progress lets
the others run, so correct spin locks and flag waits finish under every PCT seed and depth, a
spin that can never finish still stops at the step limit, and PCT still finds the lost update.
The step limit's message says whether the spinner waits inside its workgroup or on another."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from helpers import ROOT

import asyncshader as ash
from asyncshader import atomic_exchange, atomic_load, atomic_store, ptr, u32, vec3u

sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(ROOT / "puzzles" / "solutions"))

import lost_update
from p10_lock import locked_update

PCTS = [ash.PCT(seed, depth=depth) for depth in (1, 2, 3, 4) for seed in range(6)]


@pytest.mark.parametrize("schedule", PCTS, ids=repr)
def test_a_correct_spin_lock_finishes_under_pct(schedule):
    """Puzzle 10's reference answer: four invocations take one lock with an exchange."""
    data = np.zeros(2, np.uint32)
    ash.run(locked_update, 1, lock=np.zeros(1, np.uint32), data=data, schedule=schedule,
            max_points_per_invocation=2000)
    assert data.tolist() == [4, 6]  # d0 = 4, d1 = 0 + 1 + 2 + 3


@ash.compute(workgroup_size=4)
async def flag_wait(flag: ash.Storage, seen: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 3:
        await atomic_store(ptr(seen, 3), 7)
        await atomic_store(ptr(flag, 0), 1)
    else:
        while await atomic_load(ptr(flag, 0)) == 0:
            pass
        await atomic_store(ptr(seen, i), await atomic_load(ptr(seen, 3)))


@pytest.mark.parametrize("schedule", PCTS, ids=repr)
def test_a_flag_wait_finishes_under_pct(schedule):
    seen = np.zeros(4, np.uint32)
    ash.run(flag_wait, 1, flag=np.zeros(1, np.uint32), seen=seen, schedule=schedule,
            max_points_per_invocation=2000)
    assert seen.tolist() == [7, 7, 7, 7]


@ash.compute(workgroup_size=4)
async def never_released(lock: ash.Storage):
    while await atomic_exchange(ptr(lock, 0), 1) != 0:
        pass


@pytest.mark.parametrize("schedule", PCTS[::5], ids=repr)
def test_a_lock_nobody_releases_still_stops_at_the_step_limit(schedule):
    with pytest.raises(ash.StepLimitError):
        ash.run(never_released, 1, lock=np.zeros(1, np.uint32), schedule=schedule,
                max_points_per_invocation=500)


def test_pct_still_finds_the_lost_update():
    """The lost update makes progress at every step (no invocation polls): PCT's schedules are
    the ones it made without the rule, and seed 0 finds the bug at run 276, as before
    (benchmarks/fairness.py measures the median over seeds)."""
    report = ash.explore(lost_update.lost_update, lost_update.setup, lost_update.check,
                         ash.PCT(0, depth=3), runs=2000)
    assert report.failures and report.runs == 276


def test_a_spin_inside_a_workgroup_is_not_called_a_wait_between_workgroups():
    with pytest.raises(ash.StepLimitError) as info:
        ash.run(flag_wait, 1, flag=np.zeros(1, np.uint32), seen=np.zeros(4, np.uint32),
                schedule=ash.InOrder(), max_points_per_invocation=300)
    message = str(info.value)
    assert "between workgroups" not in message
    assert "waiting for another invocation of workgroup_id=(0,0,0)? 3 of its invocations " \
           "have not finished" in message
    assert "The in_order schedule is not fair" in message


@ash.compute(workgroup_size=1)
async def across(flag: ash.Storage, *, workgroup_id: vec3u):
    if workgroup_id.x == 0:
        while await atomic_load(ptr(flag, 0)) == 0:
            pass
    else:
        await atomic_store(ptr(flag, 0), 1)


def test_a_spin_on_another_workgroup_says_so():
    with pytest.raises(ash.StepLimitError) as info:
        ash.run(across, 2, flag=np.zeros(1, np.uint32), max_points_per_invocation=300)
    assert "A spin loop waiting for another workgroup? WGSL gives no forward-progress " \
           "guarantee between workgroups" in str(info.value)
