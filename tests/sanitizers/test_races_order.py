"""What a race finding says that no order of the run changes: its hint, and whether it occurs
only within workgroups (``same_workgroup``), are the same under every schedule and under
Lockstep's detector, whichever access of the pair of lines happened first."""

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

SCHEDULES = [ash.InOrder(), ash.Reverse(), ash.Lockstep()]


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


def verdicts(result):
    """Each race's kind and pair of lines -> (same_workgroup, hint)."""
    return {(f.race, *sorted([f.first.line, f.second.line])): (f.same_workgroup, f.hint)
            for f in result.findings if isinstance(f, ash.DataRace)}


@ash.compute(workgroup_size=4)
async def crossed_updates(out: ash.Storage[u32], *, local_invocation_index: u32):
    for k in range(2):  # even invocations run line A first, odd ones line B
        if (local_invocation_index + k) % 2 == 0:
            out[0] = out[1] + 1  # line A
        else:
            out[1] = out[0] + 1  # line B


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_read_write_pair_of_two_storing_lines_gets_the_same_hint_in_every_order(schedule):
    # each line stores (write-write with itself) and loads what the other stores: the
    # read-write pair is A's load with B's store or B's load with A's store, as the order
    # has it; both lines are updates by several invocations at once, whichever it names
    r = ash.run(crossed_updates, schedule=schedule, sanitize="report",
                out=np.zeros(2, np.uint32))
    a, b = line(crossed_updates.fn, "# line A"), line(crossed_updates.fn, "# line B")
    found = verdicts(r)
    assert set(found) == {("read-write", a, b), ("write-write", a, a),
                          ("write-write", b, b)}
    assert {within for within, _ in found.values()} == {True}
    assert found[("write-write", a, a)][1].startswith(
        f"several invocations read and write this element at line {a} at once (a "
        "read-modify-write, so updates are lost)")
    assert found[("write-write", b, b)][1].startswith(
        f"several invocations read and write this element at line {b} at once")
    assert found[("read-write", a, b)][1].startswith(
        f"several invocations read and write this element at line {a} and line {b} at once")
    assert all(h.endswith("(each invocation writes its own slot, and after a barrier one "
                          "invocation combines them)") for _, h in found.values())


@ash.compute(workgroup_size=2)
async def within_and_between(out: ash.Storage[u32], *, local_invocation_index: u32,
                             workgroup_id: ash.vec3u):
    if local_invocation_index == 0:
        out[0] = 1  # line A: each workgroup's first invocation
    if workgroup_id.x == 1 and local_invocation_index == 1:
        out[0] = 2  # line B: workgroup 1's second invocation only


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_pair_racing_within_and_between_workgroups_is_not_same_workgroup_in_any_order(
        schedule):
    # B races with A of its own workgroup (within) and with A of workgroup 0 (between); in
    # InOrder workgroup 1's A is the last access of line A when B runs, workgroup 0's before
    # it: the occurrence between workgroups is there all the same
    r = ash.run(within_and_between, 2, schedule=schedule, sanitize="report",
                out=np.zeros(1, np.uint32))
    a, b = line(within_and_between.fn, "# line A"), line(within_and_between.fn, "# line B")
    found = verdicts(r)
    assert set(found) == {("write-write", a, a), ("write-write", a, b)}
    assert [within for within, _ in found.values()] == [False, False]
    assert found[("write-write", a, b)][1].startswith(
        "the accesses come from different workgroups, which nothing orders within a dispatch")
